//! Where a body is cut into chunks, handed to the chunks' threads one at
//! a time: bounds found before the scan (`sections::split`, a text whose
//! end is known), or, in a copy still being written (`Text::growing`),
//! each chunk's end found when a thread asks for it, at the first `fn=`
//! line `CHUNK_BYTES` or more after its start, once that much is written:
//! the chunks are scanned while the rest of the text is still being
//! decompressed, rather than after. Where the text is cut does not change
//! what it loads to (`tests/parallel.rs` compares every cutting).

use super::CHUNK_BYTES;
use crate::parse::text::{Text, TextReader};
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// Bytes searched for the next `fn=` line at a time.
const WINDOW: u64 = 1 << 13;

/// A chunk to scan: its index in the body, its bytes, and whether it ends
/// where the text ends (else it ends before a line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Piece {
    pub index: usize,
    pub start: u64,
    pub end: u64,
    pub at_text_end: bool,
}

/// The cutting of one body.
pub(super) enum Cuts<'a> {
    /// Bounds known before the scan; the next chunk to hand out; where the
    /// text ends.
    Fixed {
        bounds: Vec<u64>,
        next: AtomicUsize,
        text_len: u64,
    },
    /// Cut as the text grows; the chunks there are, once the last one is
    /// handed out (`usize::MAX` until then: read without waiting for a
    /// thread that is waiting for the text).
    Growing(Mutex<Growing<'a>>, AtomicUsize),
}

/// The state of a body cut as its text grows.
pub(super) struct Growing<'a> {
    text: &'a Text,
    reader: Option<TextReader>,
    /// The next chunk's index and start, until the text's end is reached.
    next: Option<(usize, u64)>,
    window: Vec<u8>,
}

impl<'a> Cuts<'a> {
    /// The chunks between `bounds`, in a text of `text_len` bytes.
    pub fn fixed(bounds: Vec<u64>, text_len: u64) -> Self {
        Cuts::Fixed {
            bounds,
            next: AtomicUsize::new(0),
            text_len,
        }
    }

    /// The body from `start` to the end of `text`, a copy still being
    /// written, cut as it grows.
    pub fn growing(text: &'a Text, start: u64) -> Self {
        let growing = Growing {
            text,
            reader: None,
            next: Some((0, start)),
            window: Vec::new(),
        };
        Cuts::Growing(Mutex::new(growing), AtomicUsize::new(usize::MAX))
    }

    /// The chunks there are, once known (`Fixed`: from the start).
    pub fn count(&self) -> Option<usize> {
        match self {
            Cuts::Fixed { bounds, .. } => Some(bounds.len().saturating_sub(1)),
            Cuts::Growing(_, count) => {
                Some(count.load(Ordering::Acquire)).filter(|&n| n != usize::MAX)
            }
        }
    }

    /// The body's bytes, if it is one chunk known before the scan.
    pub fn one_piece(&self) -> Option<(u64, u64)> {
        match self {
            Cuts::Fixed { bounds, .. } if bounds.len() == 2 => Some((bounds[0], bounds[1])),
            _ => None,
        }
    }

    /// The bytes of all chunks, if known before the scan.
    pub fn bytes(&self) -> Option<u64> {
        match self {
            Cuts::Fixed { bounds, .. } => {
                Some(bounds.last().zip(bounds.first()).map_or(0, |(l, f)| l - f))
            }
            Cuts::Growing(..) => None,
        }
    }

    /// The next chunk, in file order (`None` once all are handed out),
    /// with its index; an error if its end could not be read (after
    /// which no chunk follows).
    pub fn next(&self) -> Option<(usize, io::Result<Piece>)> {
        match self {
            Cuts::Fixed {
                bounds,
                next,
                text_len,
            } => {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let (&start, &end) = bounds.get(index).zip(bounds.get(index + 1))?;
                let at_text_end = end >= *text_len;
                Some((
                    index,
                    Ok(Piece {
                        index,
                        start,
                        end,
                        at_text_end,
                    }),
                ))
            }
            Cuts::Growing(growing, count) => {
                let mut growing = lock(growing);
                let (index, start) = growing.next?;
                let found = growing.cut(start);
                growing.next = match &found {
                    Ok(Some(end)) => Some((index + 1, *end)),
                    Ok(None) | Err(_) => None,
                };
                if growing.next.is_none() {
                    count.store(index + 1, Ordering::Release);
                }
                let piece = found.and_then(|end| {
                    let at_text_end = end.is_none();
                    let end = match end {
                        Some(end) => end,
                        None => growing.text_end()?,
                    };
                    Ok(Piece {
                        index,
                        start,
                        end,
                        at_text_end,
                    })
                });
                Some((index, piece))
            }
        }
    }
}

fn lock<'m, 'a>(growing: &'m Mutex<Growing<'a>>) -> std::sync::MutexGuard<'m, Growing<'a>> {
    growing.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Growing<'_> {
    /// Where the chunk from `start` ends: the start of the first `fn=`
    /// line `CHUNK_BYTES` or more after it, waiting for the text to be
    /// written that far; `None` if the text ends first.
    fn cut(&mut self, start: u64) -> io::Result<Option<u64>> {
        let reader = match &mut self.reader {
            Some(reader) => reader,
            None => self.reader.insert(self.text.open()?),
        };
        // Looks for "\nfn=" from the byte before `at`, a window at a time.
        let mut at = start + CHUNK_BYTES;
        loop {
            reader.seek(SeekFrom::Start(at - 1))?;
            self.window.clear();
            (reader.by_ref().take(WINDOW + 3)).read_to_end(&mut self.window)?;
            if let Some(i) = memchr::memmem::find(&self.window, b"\nfn=") {
                return Ok(Some(at + i as u64));
            }
            if self.window.len() < (WINDOW + 3) as usize {
                return Ok(None);
            }
            at += WINDOW;
        }
    }

    /// The text's length, once it is whole.
    fn text_end(&self) -> io::Result<u64> {
        Ok(self.text.stamp()?.map_or(0, |stamp| stamp.len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::text::Written;
    use std::io::Write;
    use std::sync::Arc;

    /// A body of `n` functions of about 100 bytes each.
    fn body(n: usize) -> Vec<u8> {
        let mut text = Vec::new();
        for i in 0..n {
            let line = format!("fn=f{i}\n{}\n", "1 2 3 4 5 6 7 8 9 10 ".repeat(4));
            text.extend_from_slice(line.as_bytes());
        }
        text
    }

    /// A copy of `bytes` written on a thread, a piece at a time: the text
    /// to read, and the thread.
    fn written_slowly(bytes: Vec<u8>) -> (Text, std::thread::JoinHandle<()>) {
        let file = tempfile::NamedTempFile::new().unwrap();
        let held = file.reopen().unwrap();
        let copy = Arc::new(Written::new(held, None));
        let writing = copy.writing();
        let (mut out, path) = file.keep().unwrap();
        let text = Text::File {
            path,
            held: Some(copy),
        };
        let thread = std::thread::spawn(move || {
            let mut done = 0;
            for piece in bytes.chunks(100_003) {
                out.write_all(piece).unwrap();
                done += piece.len() as u64;
                writing.grew(done);
            }
            writing.whole();
        });
        (text, thread)
    }

    #[test]
    fn a_growing_text_is_cut_at_fn_lines_up_to_its_end() {
        let bytes = body(40_000);
        let (text, thread) = written_slowly(bytes.clone());
        let start = 7 * 101; // a line start, not a `fn=` line
        let cuts = Cuts::growing(&text, start);
        let mut pieces = Vec::new();
        while let Some((index, piece)) = cuts.next() {
            let piece = piece.unwrap();
            assert_eq!(index, piece.index);
            pieces.push(piece);
        }
        thread.join().unwrap();
        let Text::File { path, .. } = &text else {
            unreachable!()
        };
        std::fs::remove_file(path).unwrap();
        assert_eq!(cuts.count(), Some(pieces.len()));
        assert!(pieces.len() > 4, "{} chunks", pieces.len());
        assert_eq!(pieces[0].start, start);
        for (k, pair) in pieces.windows(2).enumerate() {
            assert_eq!(pair[0].end, pair[1].start);
            assert!(bytes[pair[0].end as usize..].starts_with(b"fn="));
            let len = pair[0].end - pair[0].start;
            assert!(
                (CHUNK_BYTES..CHUNK_BYTES + 200).contains(&len),
                "chunk {k}: {len}"
            );
            assert!(!pair[0].at_text_end);
        }
        let last = pieces.last().unwrap();
        assert_eq!((last.end, last.at_text_end), (bytes.len() as u64, true));
    }

    #[test]
    fn a_copy_that_stops_ends_the_cutting_with_its_error() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let copy = Arc::new(Written::new(file.reopen().unwrap(), None));
        let writing = copy.writing();
        file.as_file().write_all(&body(100)).unwrap();
        writing.grew(body(100).len() as u64);
        let text = Text::File {
            path: file.path().to_path_buf(),
            held: Some(copy),
        };
        drop(writing);
        let cuts = Cuts::growing(&text, 0);
        let (index, piece) = cuts.next().unwrap();
        assert_eq!(index, 0);
        let err = piece.unwrap_err();
        assert_eq!(
            err.to_string(),
            "the copy of the text stopped before its end"
        );
        assert!(cuts.next().is_none());
        assert_eq!(cuts.count(), Some(1));
    }
}
