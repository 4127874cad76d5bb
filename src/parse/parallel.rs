//! Loading a plain profile file on every core. The header (up to the first
//! `fn=`) goes through the sequential `Loader`; the body is cut at `fn=`
//! lines into small chunks, scanned by a thread per core with names and
//! functions local to each chunk (`scan`, `local`); each chunk is then
//! merged, in file order, by the thread that scanned it, which gives every
//! name and function the id the sequential loader would have given it. The
//! merge has two stages (names, then the rest), so a thread can intern a
//! chunk's names while another adds the chunk before it to the profile.
//!
//! Per-line, per-call-site and per-jump detail is not kept: each `fn=`
//! block's byte range and starting state are, and `reread` reads a
//! function's blocks again when a view asks for them. That is what keeps
//! the load fast and its memory far below the size of the file.
//!
//! Anything unusual makes a chunk give up (`Bail`); the caller then loads
//! the files again with the sequential loader, which reports it.

pub(super) mod local;
mod reread;
mod scan;
mod sink;
mod sums;
mod turns;

use super::input::{Compression, cr_only};
use super::loader::{Loader, Resolved};
use super::{LoadError, Progress};
use local::{Room, Tables};
use scan::{Last, Scanner, Sink};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use turns::{TurnState, Turns};

pub use reread::{Blocks, LazyDetail};
pub(super) use sums::Sums;
use sums::SumsRoom;

/// Why the parallel path gave up on a file (the sequential loader then reads it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bail(pub &'static str);

/// How a file was loaded.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Loaded in parallel; the bytes read.
    Loaded(u64),
    /// Not worth it, or not a plain file that starts like a Callgrind profile.
    NotEligible,
    /// Gave up part way; the profile must be loaded again sequentially.
    Bailed(&'static str),
}

/// When and how to load in parallel.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Files smaller than this are loaded sequentially (it is fast enough).
    pub min_size: u64,
    /// The fewest chunks the body is cut into; a body of more than
    /// `CHUNK_BYTES` a chunk is cut into more.
    pub chunks: usize,
    /// Chunks scanned at once (a thread each).
    pub threads: usize,
}

impl Plan {
    /// A thread per core, for files of a few megabytes and up.
    pub fn automatic() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get().min(16));
        Plan {
            min_size: 4 << 20,
            chunks: cores,
            threads: cores,
        }
    }
}

/// The header must reach its first `fn=` within this many bytes.
const HEAD: usize = 4 << 20;
/// The header is read this much at a time until its first `fn=` line.
/// Reading all of `HEAD` at once cost a fifth more memory at the peak: a
/// block that large, freed, makes glibc serve blocks up to its size from
/// its arenas from then on, and the arenas keep what is freed in them.
const HEAD_STEP: u64 = 64 << 10;
/// How often progress is reported while the chunks are read.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(20);
/// Read size of each chunk's thread.
const BUFFER: usize = 1 << 17;
/// Chunks are this small or smaller: a chunk's names and functions are
/// kept apart until it is merged, at up to ten times its size (millions of
/// tiny functions), so few and small chunks wait beside the profile.
/// Measured: the peak of 5M tiny functions falls by a tenth from 2 MiB to
/// 512 KiB, and no other shape loads slower.
const CHUNK_BYTES: u64 = 512 << 10;

/// Loads `path` (shown as `name`) into `loader` in parallel if `plan` says
/// so and the file allows; `held` keeps an unlinked copy alive (`spool`).
pub(super) fn load_file(
    loader: &mut Loader<'_>,
    path: &Path,
    name: &str,
    held: Option<std::sync::Arc<File>>,
    plan: Plan,
    progress: Progress<'_>,
) -> Result<Outcome, LoadError> {
    let io = |source| LoadError::Io {
        path: name.to_string(),
        source,
    };
    let mut file = File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    let len = meta.len();
    if !meta.is_file() || len < plan.min_size.max(1) {
        return Ok(Outcome::NotEligible);
    }
    let mut head = Vec::new();
    let mut body = None;
    while body.is_none() && head.len() < HEAD {
        let searched = head.len();
        let step = HEAD_STEP.min((HEAD - head.len()) as u64);
        if (&mut file).take(step).read_to_end(&mut head).map_err(io)? == 0 {
            break;
        }
        // Compressed or CR-only text is decoded on the way in: sequential only.
        if Compression::of(&head) != Compression::Plain || cr_only(&head) {
            return Ok(Outcome::NotEligible);
        }
        body = first_fn_line(&head, searched);
    }
    let Some(body) = body else {
        return Ok(Outcome::NotEligible);
    };
    loader.begin_file(name);
    let mut header_lines = 0;
    for line in head[..body].split_inclusive(|&b| b == b'\n') {
        header_lines += 1;
        loader.line_with_fields(line.strip_suffix(b"\n").unwrap_or(line), None)?;
    }
    let Some((npos, width)) = loader.body_shape() else {
        return Ok(Outcome::Bailed("header not as expected"));
    };
    drop(head);
    let count = plan
        .chunks
        .max((len - body as u64).div_ceil(CHUNK_BYTES) as usize);
    let bounds = split(&mut file, body as u64, len, count).map_err(io)?;
    let read = AtomicU64::new(body as u64);
    let shape = Shape { npos, width };
    let mut tick = || progress(read.load(Ordering::Relaxed), None);
    let mut first_line = header_lines + 1;
    let mut blocks = Blocks::new(npos);
    let mut names = loader.take_names();
    let merged = scan_in_order(
        path,
        &bounds,
        shape,
        plan.threads,
        &read,
        &mut tick,
        (
            |chunk: Scanned| {
                let chunk = chunk.map_err(io)?;
                Ok(chunk.and_then(|chunk| {
                    let share = (chunk.end - body as u64) as f64 / (len - body as u64) as f64;
                    names.resolve(chunk, share)
                }))
            },
            |resolved: Resolved| {
                let lines = resolved.lines;
                let merged = loader.merge_resolved(resolved, first_line, &mut blocks);
                first_line += lines;
                Ok(merged)
            },
        ),
    );
    loader.put_names(names);
    if let Err(Bail(why)) = merged? {
        return Ok(Outcome::Bailed(why));
    }
    progress(len, None);
    loader.set_line_count(first_line - 1);
    let detail = LazyDetail::new((path, name, held), &meta, loader, width, blocks);
    loader.set_lazy_detail(detail);
    loader.end_file(ends_mid_line(&mut file, len).map_err(io)?)?;
    Ok(Outcome::Loaded(len))
}

/// Whether the file's last line has no `\n` (the loader warns when that
/// line could not be read: the file looks truncated).
fn ends_mid_line(file: &mut File, len: u64) -> std::io::Result<bool> {
    let mut last = [0u8];
    file.seek(SeekFrom::Start(len - 1))?;
    // A file cut since it was measured is not for this to report: the
    // check that it did not change while being read does.
    Ok(file.read(&mut last)? == 1 && last[0] != b'\n')
}

/// Where the first line starting with `fn=` begins, looking only where
/// the first `searched` bytes (looked at before) could not show it.
fn first_fn_line(head: &[u8], searched: usize) -> Option<usize> {
    if head.starts_with(b"fn=") {
        return Some(0);
    }
    let from = searched.saturating_sub(3);
    memchr::memmem::find(&head[from..], b"\nfn=").map(|i| from + i + 1)
}

/// Chunk boundaries: `body`, the start of the first `fn=` line after each
/// equal share of the rest, and `len`.
fn split(file: &mut File, body: u64, len: u64, chunks: usize) -> std::io::Result<Vec<u64>> {
    const WINDOW: u64 = 1 << 13;
    let mut bounds = vec![body];
    let share = (len - body) / chunks.max(1) as u64;
    let mut window = Vec::new();
    for k in 1..chunks as u64 {
        let mut at = (body + k * share).max(*bounds.last().unwrap_or(&body) + 1);
        // Looks for "\nfn=" from the byte before `at`, a window at a time.
        let found = loop {
            if at >= len {
                break None;
            }
            file.seek(SeekFrom::Start(at - 1))?;
            window.clear();
            file.by_ref().take(WINDOW + 3).read_to_end(&mut window)?;
            if let Some(i) = memchr::memmem::find(&window, b"\nfn=") {
                break Some(at - 1 + i as u64 + 1);
            }
            at += WINDOW;
        };
        match found {
            Some(b) => bounds.push(b),
            None => break,
        }
    }
    bounds.push(len);
    Ok(bounds)
}

/// What every chunk of a part shares: its subpositions and events.
#[derive(Clone, Copy)]
struct Shape {
    npos: usize,
    width: usize,
}

/// A chunk as its thread hands it over.
type Scanned = std::io::Result<Result<Chunk, Bail>>;

/// What the merge gives: an error of `E`, a `Bail`, or done.
type Merged<E> = Result<Result<(), Bail>, E>;

/// Scans the chunks between `bounds` on `threads` threads and merges each,
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
fn scan_in_order<R, E: Send, A, B>(
    path: &Path,
    bounds: &[u64],
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
    let n = bounds.len().saturating_sub(1);
    let threads = threads.clamp(1, n.max(1));
    let next = AtomicUsize::new(0);
    let turns = Turns {
        state: Mutex::new(TurnState {
            done: [0, 0],
            outcome: None,
            first: Some(first),
            second: Some(second),
        }),
        moved: Condvar::new(),
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (next, turns) = (&next, &turns);
            scope.spawn(move || {
                let mut room = (Room::default(), SumsRoom::default());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let (start, end) = (bounds[i], bounds[i + 1]);
                    let scan = || scan_chunk(path, (start, end), shape, read, &mut room);
                    let scanned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(scan))
                        .unwrap_or(Ok(Err(Bail("chunk thread panicked"))));
                    let resolved = turns.take(0, i, |s| &mut s.first, |f| f(scanned));
                    let Some(resolved) = resolved else { break };
                    if turns
                        .take(1, i, |s| &mut s.second, |f| f(resolved))
                        .is_none()
                    {
                        break;
                    }
                }
            });
        }
        let mut state = turns.lock();
        while state.outcome.is_none() && state.done[1] < n {
            state = (turns.moved.wait_timeout(state, PROGRESS_EVERY))
                .map_or_else(|e| e.into_inner().0, |(state, _)| state);
            drop(state);
            tick();
            state = turns.lock();
        }
    });
    let state = turns
        .state
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    state.outcome.unwrap_or(Ok(Ok(())))
}

/// What one chunk adds up to, with ids local to its `Tables`.
pub(super) struct Chunk {
    pub tables: Tables,
    pub sums: Sums,
    pub lines: usize,
    /// Where in the file the chunk ends.
    pub end: u64,
    pub trailer: Vec<(usize, Vec<u8>)>,
    /// Object and function file current at the chunk's end (local indexes).
    pub end_obj: u32,
    pub end_fn_file: u32,
}

/// Scans bytes `start..end` of `path` (whole lines) into a `Chunk`, its
/// tables and sums made as large as `room` (the last chunk's), which it
/// updates.
fn scan_chunk(
    path: &Path,
    (start, end): (u64, u64),
    Shape { npos, width }: Shape,
    read: &AtomicU64,
    room: &mut (Room, SumsRoom),
) -> Scanned {
    let sums = Sums::with_room(width, npos, room.1);
    let tables = Tables::with_room(room.0);
    let mut scanner = Scanner::with_tables(sums, tables, npos, width, Last::default());
    if let Err(bail) = scan_range(path, start, end, &mut scanner, read)? {
        return Ok(Err(bail));
    }
    *room = (scanner.tables.room(), scanner.sink.room());
    Ok(Ok(Chunk {
        lines: scanner.lines,
        end,
        trailer: std::mem::take(&mut scanner.trailer),
        end_obj: scanner.at.obj,
        end_fn_file: scanner.at.fn_file,
        tables: scanner.tables,
        sums: scanner.sink,
    }))
}

/// Feeds the lines of bytes `start..end` of `path` to `scanner`.
pub(super) fn scan_range<S: Sink>(
    path: &Path,
    start: u64,
    end: u64,
    scanner: &mut Scanner<S>,
    read: &AtomicU64,
) -> std::io::Result<Result<(), Bail>> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(start))?;
    let mut reader = file.take(end - start);
    let mut buf = vec![0u8; BUFFER.min((end - start) as usize + 1)];
    let (mut filled, mut offset) = (0, start);
    loop {
        let n = reader.read(&mut buf[filled..])?;
        filled += n;
        // Whole lines are handed over; the scanner finds where each ends.
        let consumed = memchr::memrchr(b'\n', &buf[..filled]).map_or(0, |nl| nl + 1);
        let mut at = 0;
        while at < consumed {
            match scanner.step(offset + at as u64, &buf[at..consumed]) {
                Ok(len) => at += len,
                Err(bail) => return Ok(Err(bail)),
            }
        }
        if n == 0 {
            if consumed < filled
                && let Err(bail) = scanner.line(offset + consumed as u64, &buf[consumed..filled])
            {
                return Ok(Err(bail));
            }
            return Ok(scanner.finish());
        }
        read.fetch_add(consumed as u64, Ordering::Relaxed);
        buf.copy_within(consumed..filled, 0);
        offset += consumed as u64;
        filled -= consumed;
        if filled == buf.len() {
            if buf.len() >= super::MAX_LINE {
                return Ok(Err(Bail("overlong line")));
            }
            buf.resize(buf.len() * 2, 0);
        }
    }
}

#[cfg(test)]
mod tests;
