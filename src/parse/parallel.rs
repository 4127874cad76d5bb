//! Loading a plain profile file on every core. The header (up to the first
//! `fn=`) goes through the sequential `Loader`; the body is cut at `fn=`
//! lines into one chunk per core, each scanned on its own thread with names
//! and functions local to it (`scan`, `local`); the chunks are then merged
//! in file order, which gives every name and function the id the sequential
//! loader would have given it.
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

use super::input::{Compression, cr_only};
use super::{LoadError, Progress, loader::Loader};
use local::Tables;
use scan::{Last, Scanner, Sink};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

pub use reread::{Blocks, LazyDetail};
pub(super) use sums::Sums;

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
    /// Chunks the body is cut into (one thread each).
    pub chunks: usize,
}

impl Plan {
    /// One chunk per core, for files of a few megabytes and up.
    pub fn automatic() -> Self {
        Plan {
            min_size: 4 << 20,
            chunks: std::thread::available_parallelism().map_or(2, |n| n.get().min(16)),
        }
    }
}

/// The header must reach its first `fn=` within this many bytes.
const HEAD: usize = 4 << 20;
/// How often progress is reported while the chunks are read.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(20);
/// Read size of each chunk's thread.
const BUFFER: usize = 1 << 17;

/// Loads `path` into `loader` in parallel if `plan` says so and the file allows.
pub(super) fn load_file(
    loader: &mut Loader<'_>,
    path: &Path,
    name: &str,
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
    (&mut file)
        .take(HEAD as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    // Compressed or CR-only text is decoded on the way in: sequential only.
    let plain = Compression::of(&head) == Compression::Plain && !cr_only(&head);
    let Some(body) = first_fn_line(&head).filter(|_| plain) else {
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
    let bounds = split(&mut file, body as u64, len, plan.chunks).map_err(io)?;
    let read = AtomicU64::new(body as u64);
    // Chunks are merged in file order as soon as each is scanned: the merge
    // of one runs on the core its scan has freed while later ones go on.
    let merged = std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel();
        let workers: Vec<_> = bounds
            .windows(2)
            .map(|w| {
                let (start, end, read, done) = (w[0], w[1], &read, done.clone());
                scope.spawn(move || {
                    let chunk = scan_chunk(path, start, end, npos, width, read);
                    let _ = done.send(());
                    chunk
                })
            })
            .collect();
        let mut first_line = header_lines + 1;
        let mut blocks = Blocks::new(npos);
        for worker in workers {
            while !worker.is_finished() {
                let _ = finished.recv_timeout(PROGRESS_EVERY);
                progress(read.load(Ordering::Relaxed), None);
            }
            let chunk = match worker.join() {
                Ok(chunk) => chunk.map_err(io)?,
                Err(_) => Err(Bail("chunk thread panicked")),
            };
            let merged = chunk.and_then(|chunk| {
                let lines = chunk.lines;
                loader.merge_chunk(chunk, first_line, &mut blocks)?;
                Ok(lines)
            });
            match merged {
                Ok(lines) => first_line += lines,
                // Later chunks are dropped when their threads end.
                Err(bail) => return Ok(Err(bail)),
            }
        }
        Ok(Ok((first_line, blocks)))
    });
    let (first_line, blocks) = match merged? {
        Ok(merged) => merged,
        Err(Bail(why)) => return Ok(Outcome::Bailed(why)),
    };
    progress(len, None);
    loader.set_line_count(first_line - 1);
    let detail = LazyDetail::new(path, &meta, loader, width, blocks);
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

/// Where the first line starting with `fn=` begins.
fn first_fn_line(head: &[u8]) -> Option<usize> {
    if head.starts_with(b"fn=") {
        return Some(0);
    }
    memchr::memmem::find(head, b"\nfn=").map(|i| i + 1)
}

/// Chunk boundaries: `body`, the start of an `fn=` line near each share of
/// the rest, and `len`. The last chunk is a little larger than the others:
/// the earlier ones are merged while it is still being scanned.
fn split(file: &mut File, body: u64, len: u64, chunks: usize) -> std::io::Result<Vec<u64>> {
    const WINDOW: u64 = 1 << 16;
    let mut bounds = vec![body];
    // Each share is 1/n of the body less a tenth of that over n; the last
    // chunk takes the rest (5% more than the others with two chunks).
    let n = chunks.max(1) as u128;
    let share = (u128::from(len - body) * (10 * n - 1) / (10 * n * n)) as u64;
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

/// What one chunk adds up to, with ids local to its `Tables`.
pub(super) struct Chunk {
    pub tables: Tables,
    pub sums: Sums,
    pub lines: usize,
    pub trailer: Vec<(usize, Vec<u8>)>,
    /// Object and function file current at the chunk's end (local indexes).
    pub end_obj: u32,
    pub end_fn_file: u32,
}

/// Scans bytes `start..end` of `path` (whole lines) into a `Chunk`.
fn scan_chunk(
    path: &Path,
    start: u64,
    end: u64,
    npos: usize,
    width: usize,
    read: &AtomicU64,
) -> std::io::Result<Result<Chunk, Bail>> {
    let sums = Sums::new(width, npos);
    let mut scanner = Scanner::new(sums, npos, width, Last::default());
    if let Err(bail) = scan_range(path, start, end, &mut scanner, read)? {
        return Ok(Err(bail));
    }
    Ok(Ok(Chunk {
        lines: scanner.lines,
        trailer: std::mem::take(&mut scanner.trailer),
        end_obj: scanner.obj,
        end_fn_file: scanner.fn_file,
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
