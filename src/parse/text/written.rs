//! A copy that `spool` is still writing on a thread of its own, read while
//! it grows: how far it is written, and how its writing ended. A reader
//! asking for bytes not yet written waits for them (the copy thread never
//! waits for a reader, so no reader waits for ever: the thread says that
//! it ended, however it ends, `Writing::drop`). Must not import the
//! parser: it only counts bytes.

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// A copy and how far it is written.
#[derive(Debug)]
pub struct Written {
    /// The handle that keeps the unlinked copy.
    _file: File,
    state: Mutex<State>,
    moved: Condvar,
    /// Bytes of the compressed input read so far, and its size where it is
    /// known (a file, not a pipe): the share of it read guesses the size
    /// of the whole text.
    input: Option<(Arc<AtomicU64>, u64)>,
}

#[derive(Clone, Copy, Debug)]
struct State {
    len: u64,
    end: End,
}

/// Whether and how the writing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Writing,
    /// All of the text is written.
    Whole,
    /// The writing stopped before the text's end (an error, a text that is
    /// no profile, or no room: what `spool`'s thread gives says which).
    Stopped,
}

/// What a reader learns of the bytes from an offset on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ahead {
    /// This many bytes are written from there.
    Bytes(u64),
    /// The whole text is written, and ends there or before.
    End,
}

impl Written {
    /// A copy held by `file`, none of it written yet; `input`: see the field.
    pub fn new(file: File, input: Option<(Arc<AtomicU64>, u64)>) -> Self {
        Written {
            _file: file,
            state: Mutex::new(State {
                len: 0,
                end: End::Writing,
            }),
            moved: Condvar::new(),
            input,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.lock().len
    }

    /// Whether all of the text is written.
    pub fn is_whole(&self) -> bool {
        self.lock().end == End::Whole
    }

    /// Waits until bytes from offset `at` on are written, or the text is
    /// whole; an error if the writing stopped first.
    pub fn wait_for(&self, at: u64) -> io::Result<Ahead> {
        let mut state = self.lock();
        loop {
            match state.end {
                _ if state.len > at => return Ok(Ahead::Bytes(state.len - at)),
                End::Whole => return Ok(Ahead::End),
                End::Stopped => return Err(stopped()),
                End::Writing => {}
            }
            state = (self.moved.wait(state)).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Waits until the writing ends: the text's length, or an error if it
    /// stopped before the end.
    pub fn wait_whole(&self) -> io::Result<u64> {
        loop {
            match self.wait_for(u64::MAX)? {
                Ahead::End => return Ok(self.lock().len),
                // Never: no text is that long.
                Ahead::Bytes(_) => {}
            }
        }
    }

    /// The text's length if it is whole, else a guess at it that is at
    /// least what is written and a ninth more than `read` (a table grown
    /// toward a guess only just above what it holds would be copied at
    /// every chunk): the written bytes scaled by the share of the
    /// compressed input read, or, where the input's size is not known,
    /// twice `read`.
    pub fn len_or_guess(&self, read: u64) -> u64 {
        let State { len, end } = *self.lock();
        if end == End::Whole {
            return len;
        }
        let scaled = match &self.input {
            Some((taken, size)) => {
                let taken = taken.load(Ordering::Relaxed).max(1);
                let scaled = u128::from(len) * u128::from(*size) / u128::from(taken);
                u64::try_from(scaled).unwrap_or(u64::MAX)
            }
            None => read.saturating_mul(2),
        };
        scaled.max(len).max(read.saturating_add(read / 8))
    }

    /// The writer's end of the copy: say how far it is written with
    /// `grew`, and that it is all with `whole`; dropped otherwise, it says
    /// the writing stopped.
    pub fn writing(self: &Arc<Self>) -> Writing {
        Writing(Arc::clone(self))
    }

    fn set(&self, change: impl FnOnce(&mut State)) {
        let mut state = self.lock();
        if state.end == End::Writing {
            change(&mut state);
        }
        drop(state);
        self.moved.notify_all();
    }
}

/// The error of a read beyond where the writing stopped (the load that
/// reads it gives way to what stopped it).
fn stopped() -> io::Error {
    io::Error::other("the copy of the text stopped before its end")
}

/// The writer's end of a `Written` (see `Written::writing`).
pub struct Writing(Arc<Written>);

impl Writing {
    /// The text is written up to byte `len`.
    pub fn grew(&self, len: u64) {
        self.0.set(|state| state.len = state.len.max(len));
    }

    /// All of the text is written.
    pub fn whole(self) {
        self.0.set(|state| state.end = End::Whole);
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        // After `whole`, this changes nothing.
        self.0.set(|state| state.end = End::Stopped);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(input: Option<(Arc<AtomicU64>, u64)>) -> Arc<Written> {
        Arc::new(Written::new(tempfile::tempfile().unwrap(), input))
    }

    #[test]
    fn a_reader_waits_for_the_bytes_it_asks_for() {
        let copy = written(None);
        let writing = copy.writing();
        let reader = {
            let copy = Arc::clone(&copy);
            std::thread::spawn(move || (copy.wait_for(10).unwrap(), copy.wait_whole().unwrap()))
        };
        writing.grew(5);
        writing.grew(15);
        writing.whole();
        let (ahead, len) = reader.join().unwrap();
        // Whether it woke at 15 or after the end, it saw 15 bytes.
        assert!(
            matches!(ahead, Ahead::Bytes(5)),
            "{ahead:?} from byte 10 of 15"
        );
        assert_eq!(len, 15);
        assert_eq!(copy.wait_for(15).unwrap(), Ahead::End);
        assert_eq!(copy.wait_for(3).unwrap(), Ahead::Bytes(12));
    }

    #[test]
    fn a_writer_that_goes_away_stops_the_readers() {
        let copy = written(None);
        let writing = copy.writing();
        writing.grew(4);
        let reader = {
            let copy = Arc::clone(&copy);
            std::thread::spawn(move || copy.wait_for(4).map_err(|e| e.to_string()))
        };
        drop(writing);
        let got = reader.join().unwrap();
        assert_eq!(
            got,
            Err("the copy of the text stopped before its end".into())
        );
        assert_eq!(
            copy.wait_for(0).unwrap(),
            Ahead::Bytes(4),
            "what was written"
        );
        assert!(copy.wait_whole().is_err() && !copy.is_whole());
    }

    #[test]
    fn the_length_is_guessed_from_the_share_of_the_input_read() {
        let taken = Arc::new(AtomicU64::new(25));
        let copy = written(Some((Arc::clone(&taken), 100)));
        let writing = copy.writing();
        writing.grew(1000);
        // A quarter of the input made 1000 bytes: 4000 in all.
        assert_eq!(copy.len_or_guess(10), 4000);
        // Never below what is written, nor just above what is read.
        taken.store(100, Ordering::Relaxed);
        assert_eq!(copy.len_or_guess(10), 1000);
        assert_eq!(copy.len_or_guess(960), 1080);
        // An input of unknown size: twice what is read.
        let piped = written(None);
        let piping = piped.writing();
        piping.grew(1000);
        assert_eq!(piped.len_or_guess(700), 1400);
        // Once whole, the length.
        writing.whole();
        assert_eq!(copy.len_or_guess(960), 1000);
    }
}
