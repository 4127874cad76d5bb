//! The threads of a parallel load: each scans a chunk, then takes its
//! turn at the two stages of the merge, each taken by one thread at a
//! time in file order, the closure of a stage held out of the lock while
//! it runs so that the other stage can run meanwhile.

use super::cuts::Cuts;
use super::local::Room;
use super::sums::SumsRoom;
use super::{Bail, Chunk, Shape, scan_chunk};
use crate::parse::text::Text;
use std::sync::atomic::AtomicU64;
use std::sync::{Condvar, Mutex, PoisonError};

/// How often progress is reported while the chunks are read.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(20);

/// Chunks of fewer bytes than this, read by one thread, are read on the
/// calling thread: too few for a progress tick to matter while they are.
const INLINE_BELOW: u64 = 1 << 20;

/// A chunk as its thread hands it over.
pub(super) type Scanned = std::io::Result<Result<Chunk, Bail>>;

/// What the merge gives: an error of `E`, a `Bail`, or done.
pub(super) type Merged<E> = Result<Result<(), Bail>, E>;

/// Scans the chunks `cuts` gives on `threads` threads (one, for less
/// than `INLINE_BELOW` bytes: the calling thread, with `tick` run once at
/// the end) and merges each,
/// in file order, on the thread that scanned it, in two stages: `first`
/// (names) for a chunk once it has run for those before it, then `second`
/// (the rest) likewise, so that one thread can be in the first stage of a
/// chunk while another is in the second stage of the one before. A chunk
/// is dropped by the thread that made it, so its memory goes back to
/// where that thread takes the next one's from (freed on another thread,
/// it stays with the allocator, a quarter more at the peak), and each
/// thread holds one chunk at a time. `tick` runs on the calling thread
/// every `PROGRESS_EVERY` until all are merged. Stops at the first error
/// or `Bail`.
pub(super) fn scan_in_order<R, E: Send, A, B>(
    text: &Text,
    cuts: &Cuts<'_>,
    shape: Shape,
    threads: usize,
    read: &AtomicU64,
    tick: &mut dyn FnMut(),
    (first, second): (A, B),
) -> Merged<E>
where
    A: FnMut(Scanned) -> Result<Result<R, Bail>, E> + Send,
    B: FnMut(R) -> Merged<E> + Send,
{
    let count = cuts.count();
    let threads = threads.clamp(1, count.unwrap_or(threads).max(1));
    let inline = threads == 1 && cuts.bytes().is_some_and(|bytes| bytes < INLINE_BELOW);
    // The body in one chunk, known before the scan (a growing text's
    // chunks are never the whole body: they do not need to be).
    let whole = count == Some(1);
    let turns = Turns {
        state: Mutex::new(TurnState {
            done: [0, 0],
            outcome: None,
            first: Some(first),
            second: Some(second),
        }),
        moved: Condvar::new(),
        waited: !inline,
    };
    let work = || {
        let mut room = (Room::default(), SumsRoom::default());
        while let Some((i, piece)) = cuts.next() {
            let mut scan = |piece: super::cuts::Piece| {
                // A chunk that ends before the text's end ends before a line.
                let file_len = if piece.at_text_end {
                    piece.end
                } else {
                    u64::MAX
                };
                let shape = Shape { file_len, ..shape };
                let piece = (piece.start, piece.end, i == 0, whole);
                scan_chunk(text, piece, shape, read, &mut room)
            };
            let scanned = match piece {
                Ok(piece) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| scan(piece)))
                    .unwrap_or(Ok(Err(Bail("chunk thread panicked")))),
                Err(e) => Err(e),
            };
            let resolved = turns.take(0, i, |s| &mut s.first, |f| f(scanned));
            let Some(resolved) = resolved else { break };
            if turns
                .take(1, i, |s| &mut s.second, |f| f(resolved))
                .is_none()
            {
                break;
            }
        }
    };
    if inline {
        // One thread: this one, which then has no other to wait for (a
        // thread made for each of many small parts cost more than them).
        work();
        tick();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
            let mut state = turns.lock();
            let more = |done| cuts.count().is_none_or(|n| done < n);
            while state.outcome.is_none() && more(state.done[1]) {
                state = (turns.moved.wait_timeout(state, PROGRESS_EVERY))
                    .map_or_else(|e| e.into_inner().0, |(state, _)| state);
                drop(state);
                tick();
                state = turns.lock();
            }
        });
    }
    let state = turns
        .state
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    state.outcome.unwrap_or(Ok(Ok(())))
}

/// The two stages of the merge, each taken by one thread at a time in file
/// order.
pub(super) struct Turns<A, B, E> {
    pub state: Mutex<TurnState<A, B, E>>,
    pub moved: Condvar,
    /// Whether any thread can wait on `moved` (not when the calling
    /// thread alone runs the chunks: a notification is a system call,
    /// two for each of a hundred thousand small parts).
    pub waited: bool,
}

pub(super) struct TurnState<A, B, E> {
    /// Chunks through each stage so far.
    pub done: [usize; 2],
    /// Set when the merge stops early: the error or `Bail` it stopped at.
    pub outcome: Option<Merged<E>>,
    /// Each stage, taken out while a thread runs it.
    pub first: Option<A>,
    pub second: Option<B>,
}

impl<A, B, E> Turns<A, B, E> {
    pub fn lock(&self) -> std::sync::MutexGuard<'_, TurnState<A, B, E>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for chunk `i`'s turn at `stage` (whose closure `slot` finds)
    /// and runs it there with the lock released; `None` once the merge has
    /// stopped (at this chunk or another).
    pub fn take<F, U>(
        &self,
        stage: usize,
        i: usize,
        slot: impl Fn(&mut TurnState<A, B, E>) -> &mut Option<F>,
        run: impl FnOnce(&mut F) -> Result<Result<U, Bail>, E>,
    ) -> Option<U> {
        let mut guard = self.lock();
        while guard.outcome.is_none() && guard.done[stage] != i {
            guard = self
                .moved
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let mut f = match slot(&mut guard).take() {
            Some(f) if guard.outcome.is_none() => f,
            _ => return None,
        };
        drop(guard);
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&mut f)))
            .unwrap_or(Ok(Err(Bail("merge panicked"))));
        let mut guard = self.lock();
        *slot(&mut guard) = Some(f);
        let out = match ran {
            Ok(Ok(u)) => {
                guard.done[stage] += 1;
                Some(u)
            }
            Ok(Err(bail)) => {
                guard.outcome.get_or_insert(Ok(Err(bail)));
                None
            }
            Err(e) => {
                guard.outcome.get_or_insert(Err(e));
                None
            }
        };
        drop(guard);
        if self.waited {
            self.moved.notify_all();
        }
        out
    }
}
