//! The reader of the format: a profile's plain text (`Text`: a file, or a
//! stream made one by `spool`), read on every core. A text is one section
//! or more (`sections`: several parts, an appended profile), each a
//! header (its header lines, up to its first body line), which goes
//! through the `Loader`, and a body, which goes on from where the lines
//! before it left off (`Continued`). A body is cut at `fn=` lines into
//! small chunks, scanned by a thread per core with names and functions
//! local to each chunk (`scan`, `local`, its lines read by `lines_of`);
//! each chunk is then merged, in file order, by the thread that scanned
//! it (`turns`), which gives every name and function its id in the order
//! the file first names it. The merge has two stages (names, then the
//! rest), so a thread can intern a chunk's names while another adds the
//! chunk before it to the profile.
//!
//! Per-line, per-call-site and per-jump detail is not kept: each `fn=`
//! block's byte range and starting state are, and `reread` reads a
//! function's blocks again when a view asks for them. That is what keeps
//! the load fast and its memory far below the size of the file.
//!
//! What the scanner says about a line on its own is noted and said by
//! the merge at that line (`notes`). What depends on the lines before a
//! chunk in a way the chunk cannot know (a position relative to one
//! before it, a sum that may saturate) makes it give up (`Bail`); the
//! caller then reads the files again with each body in one chunk, in the
//! file's order, which never gives up on these (`Bail::cut_only`). The
//! same scanner and merge read every text, cut or not.

mod cuts;
mod line_kind;
mod lines_of;
pub(super) mod local;
pub(super) mod notes;
mod reread;
mod scan;
mod sections;
pub(super) mod sink;
pub(super) mod sums;
mod turns;

use super::loader::{InOrder, Loader, Resolved};
use super::{LoadError, Progress};
use crate::parse::text::{Stamp, Text, TextReader};
use cuts::Cuts;
use lines_of::scan_range;
use local::{Room, Tables};
use scan::Scanner;
use sink::Sink;
use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use turns::{Scanned, scan_in_order};

pub use reread::{Blocks, LazyDetail, Origin};
pub(super) use scan::Continued;
pub(super) use sink::Last;
pub(super) use sums::Sums;
use sums::SumsRoom;

/// Why the chunks gave up on a file (one chunk then reads it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bail(pub &'static str);

impl Bail {
    /// A position written relative to one in the chunk before.
    pub const POSITION_BEFORE: Bail = Bail("position relative to one before the chunk");
    /// A sum beyond a cost's range, which chunks can not saturate in the
    /// file's order (`Sums::in_order`).
    pub const SUM_BEYOND: Bail = Bail("cost beyond 64 bits");
    /// The same of a call count.
    pub const COUNT_BEYOND: Bail = Bail("call count beyond 64 bits");

    /// Whether only the cutting of the body made the chunks give up: one
    /// chunk, reading the body in the file's order, does not.
    pub fn cut_only(why: &str) -> bool {
        [Self::POSITION_BEFORE, Self::SUM_BEYOND, Self::COUNT_BEYOND]
            .iter()
            .any(|b| b.0 == why)
    }
}

/// When and how to load in parallel.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The fewest chunks the body is cut into; a body of more than
    /// `CHUNK_BYTES` a chunk is cut into more, unless this is 1: then the
    /// whole body is one chunk (`one_chunk`). 0: as the body's size asks
    /// (`automatic`).
    pub chunks: usize,
    /// Chunks scanned at once (a thread each).
    pub threads: usize,
}

impl Plan {
    /// A thread per core, for files of every size: a small file too loads
    /// faster so, and in less memory, than by the sequential loader there
    /// was (measured: 2 MB in 6.5 ms and 7.9 MiB rather than 12.8 ms and
    /// 13.5 MiB).
    pub fn automatic() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get().min(16));
        Plan {
            // A body smaller than `SMALL_BODY` is one chunk, read on the
            // calling thread; a larger one is cut for every core, in two
            // even on one core, so that few chunks wait unmerged.
            chunks: 0,
            threads: cores,
        }
    }

    /// The body read in one piece, in the file's order: for what the
    /// chunks gave up on only because it was cut (`Bail::cut_only`).
    pub fn one_chunk() -> Self {
        Plan {
            chunks: 1,
            threads: 1,
        }
    }
}

/// Chunks are this small or smaller: a chunk's names and functions are
/// kept apart until it is merged, at up to ten times its size (millions of
/// tiny functions), so few and small chunks wait beside the profile.
/// Measured: the peak of 5M tiny functions falls by a tenth from 2 MiB to
/// 512 KiB, and no other shape loads slower.
const CHUNK_BYTES: u64 = 512 << 10;

/// A body smaller than this is one chunk (in an `automatic` plan): a file
/// of a hundred thousand parts of a few lines each took two threads and
/// three opens of the file a part (18 s for 3 MiB).
const SMALL_BODY: u64 = 64 << 10;

/// Loads `text` (shown as `name`) into `loader` in parallel as `plan`
/// says; gives the bytes read, or why the chunks gave up.
pub(super) fn load_file(
    loader: &mut Loader<'_>,
    text: &Text,
    name: &str,
    plan: Plan,
    progress: Progress<'_>,
) -> Result<Result<u64, Bail>, LoadError> {
    let io = |source| LoadError::Io {
        path: name.to_string(),
        source,
    };
    let mut file = text.open().map_err(io)?;
    // A copy still being written is read as it grows: its length is known
    // once it is whole, which the first body does not wait for (`Cuts`).
    let mut known = match text.growing() {
        Some(_) => None,
        None => Some(whole_stamp(text, name)?),
    };
    let mut origin: Option<Arc<Origin>> = None;
    loader.begin_file(name);
    let read = AtomicU64::new(0);
    // Where later sections start, searched for once one is met.
    let mut later: Option<Vec<u64>> = None;
    let (mut head, mut body, mut to_end, mut header_at) =
        next_header(loader, (&mut file, name), (0, None), &read)?;
    loop {
        read_header(loader, &head[..body])?;
        if to_end {
            break;
        }
        // A body that does not start with a `fn=` goes on from where the
        // lines before it left off (a cost line after `part:`).
        let continued = (!head[body..].starts_with(b"fn=")).then(|| loader.continued());
        let mut first_line = loader.line_count() + 1;
        // A header inside a part (an `events:` before its first cost) goes
        // on only while the part has no data: its records, none, are then
        // those of the body after it alone (`set_lazy_detail`).
        let Some((npos, width)) = loader.body_shape() else {
            return Ok(Err(Bail("header not as expected")));
        };
        let start = header_at + body as u64;
        read.fetch_add(body as u64, Ordering::Relaxed);
        if known.is_none() && text.growing().is_none() {
            known = Some(whole_stamp(text, name)?);
        }
        let len = known.map(|stamp| stamp.len);
        let planned = next_section(later.as_deref(), start);
        let body_range = (start, planned.or(len));
        // A small section's body was read with its header: scanned there.
        let read_with_header = body_range.1.and_then(|end| {
            (head.len() as u64 >= end - header_at).then(|| Text::Window {
                base: start,
                bytes: Arc::new(head[body..(end - header_at) as usize].to_vec()),
            })
        });
        drop(head);
        let shape = Shape {
            npos,
            width,
            file_len: len.unwrap_or(u64::MAX),
            continued,
        };
        let mut blocks = Blocks::new(npos);
        let run = Run {
            text: read_with_header.as_ref().unwrap_or(text),
            name,
            plan,
            read: &read,
            share_of: (start, len),
        };
        let cut = match load_body(
            loader,
            &run,
            body_range,
            shape,
            progress,
            (&mut first_line, &mut blocks),
        )? {
            Ok(cut) => cut.or(planned),
            Err(bail) => return Ok(Err(bail)),
        };
        loader.set_line_count(first_line - 1);
        // Its parts are read again from the whole text.
        let stamp = match known {
            Some(stamp) => stamp,
            None => *known.insert(whole_stamp(text, name)?),
        };
        let end = cut.unwrap_or(stamp.len);
        // The body's first block goes on from where the body before left
        // off, if it continues a function.
        let continued = continued.filter(|_| blocks.start(0) == Some(start));
        let origin = origin.get_or_insert_with(|| {
            Arc::new(Origin {
                text: text.clone(),
                name: name.to_string(),
                stamp,
            })
        });
        let detail = LazyDetail::new(origin, loader, (width, end), (blocks, continued));
        loader.set_lazy_detail(detail);
        let Some(at) = cut else { break };
        if later.is_none() {
            let starts = sections::starts(&mut file, at).map_err(io)?;
            loader.expect_parts(starts.len());
            later = Some(starts);
        }
        let until = next_section(later.as_deref(), at);
        (head, body, to_end, header_at) =
            next_header(loader, (&mut file, name), (at, until), &read)?;
    }
    let len = match known {
        Some(stamp) => stamp.len,
        None => whole_stamp(text, name)?.len,
    };
    progress(len, None);
    loader.end_file(ends_mid_line(&mut file, len).map_err(io)?)?;
    Ok(Ok(len))
}

/// The stamp of `text` (shown as `name`), once it is whole.
fn whole_stamp(text: &Text, name: &str) -> Result<Stamp, LoadError> {
    let io = |source| LoadError::Io {
        path: name.to_string(),
        source,
    };
    let stamp = text.stamp().map_err(io)?;
    stamp.ok_or_else(|| io(std::io::Error::other("not a regular file")))
}

/// The first of the sections starting at `later` (in order) after byte
/// `at`: found by halving, as a file may have a hundred thousand.
fn next_section(later: Option<&[u64]>, at: u64) -> Option<u64> {
    let later = later?;
    later.get(later.partition_point(|&s| s <= at)).copied()
}

/// Reads the header that starts at byte `at` of `file` (`sections::header`;
/// the next section known to start at `until`): its pieces before the
/// last into `loader`. Gives the last piece, where the body starts in it,
/// whether no body follows, and where it starts.
fn next_header(
    loader: &mut Loader<'_>,
    (file, name): (&mut TextReader, &str),
    (mut at, until): (u64, Option<u64>),
    read: &AtomicU64,
) -> Result<(Vec<u8>, usize, bool, u64), LoadError> {
    let io = |source| LoadError::Io {
        path: name.to_string(),
        source,
    };
    loop {
        match sections::header(file, at, until).map_err(io)? {
            sections::Header::Body(head, body) => return Ok((head, body, false, at)),
            sections::Header::End(rest) => {
                let end = rest.len();
                return Ok((rest, end, true, at));
            }
            sections::Header::More(lines) => {
                read_header(loader, &lines)?;
                read.fetch_add(lines.len() as u64, Ordering::Relaxed);
                at += lines.len() as u64;
            }
            // Said at its line, and skipped (or the end of what is no profile).
            sections::Header::Overlong(lines) => {
                read_header(loader, &lines)?;
                loader.overlong_line()?;
                let end = sections::line_end(file, at + lines.len() as u64).map_err(io)?;
                read.fetch_add(end - at, Ordering::Relaxed);
                at = end;
            }
        }
    }
}

/// Reads the header lines of a section (`sections::header`) into `loader`.
fn read_header(loader: &mut Loader<'_>, head: &[u8]) -> Result<(), LoadError> {
    for line in head.split_inclusive(|&b| b == b'\n') {
        match line.strip_suffix(b"\n") {
            Some(text) => loader.line(text)?,
            // What a header ends in without a line end: the file's last
            // line, or a byte order mark before the body's first line.
            None if line == sections::BOM => {}
            None => loader.line(line)?,
        }
    }
    Ok(())
}

/// What every section's body shares.
struct Run<'a> {
    text: &'a Text,
    /// The file's name in messages (`text` may be a copy's).
    name: &'a str,
    plan: Plan,
    /// Bytes read so far, for progress.
    read: &'a AtomicU64,
    /// From the first body's start to the file's end (guessed while a copy
    /// is written: `Text::len_or_guess`): the share of the file read up to
    /// a chunk's end guesses the size of the tables at the end.
    share_of: (u64, Option<u64>),
}

/// Scans and merges the body `start..end` of a section into `loader`, in
/// parallel; `first_line` is the number of its first line, counted on,
/// and `blocks` takes its `fn=` blocks. Where a chunk meets a line that
/// begins another section (`scan::SECTION`), it ends there, the chunks
/// after it are dropped, and that line's offset is given.
fn load_body(
    loader: &mut Loader<'_>,
    run: &Run<'_>,
    (start, end): (u64, Option<u64>),
    mut shape: Shape,
    progress: Progress<'_>,
    (first_line, blocks): (&mut usize, &mut Blocks),
) -> Result<Result<Option<u64>, Bail>, LoadError> {
    let io = |source| LoadError::Io {
        path: run.name.to_string(),
        source,
    };
    // A copy still being written is cut as it grows, but for one chunk,
    // which is read once it is whole.
    let end = match end {
        None if run.plan.chunks == 1 => {
            shape.file_len = whole_stamp(run.text, run.name)?.len;
            Some(shape.file_len)
        }
        end => end,
    };
    let cuts = match end {
        Some(end) => Cuts::fixed(bounds(run, (start, end)).map_err(io)?, shape.file_len),
        None => Cuts::growing(run.text, start),
    };
    let (from, len) = run.share_of;
    let mut tick = || {
        let read = run.read.load(Ordering::Relaxed);
        match run.text.growing() {
            // The bytes that have arrived, as when the copy was made
            // first: the parse follows them.
            Some(copy) => progress(read.max(copy.written()), None),
            // A copy that was not whole when the load began is now.
            None if len.is_none() => progress(read, Some(run.text.len_or_guess(read))),
            None => progress(read, None),
        }
    };
    // The first line of another section, once a chunk has met it.
    let cut = AtomicU64::new(u64::MAX);
    let mut names = loader.take_names();
    let merged = scan_in_order(
        run.text,
        &cuts,
        shape,
        run.plan.threads,
        run.read,
        &mut tick,
        (
            |chunk: Scanned| {
                let chunk = chunk.map_err(io)?;
                if cut.load(Ordering::Relaxed) != u64::MAX {
                    return Ok(Ok(None)); // after the section's end
                }
                Ok(chunk.and_then(|chunk| {
                    if let Some(at) = chunk.section {
                        cut.store(at, Ordering::Relaxed);
                    }
                    let len = len.unwrap_or_else(|| run.text.len_or_guess(chunk.end));
                    let share = (chunk.end - from) as f64 / len.saturating_sub(from).max(1) as f64;
                    names.resolve(chunk, share).map(Some)
                }))
            },
            |resolved: Option<Resolved>| {
                let Some(resolved) = resolved else {
                    return Ok(Err(scan::SECTION));
                };
                let lines = resolved.lines;
                // A body in one chunk is read again where its sums must be
                // added in the file's order.
                let whole = cuts.one_piece().map(|piece| {
                    move |sink: InOrder<'_, '_>| rescan(run.text, piece, shape, sink).map_err(io)
                });
                let merged = loader.merge_resolved(resolved, (*first_line, blocks), whole)?;
                *first_line += lines;
                Ok(merged)
            },
        ),
    );
    loader.put_names(names);
    let cut = Some(cut.into_inner()).filter(|&at| at != u64::MAX);
    Ok(match merged? {
        Err(scan::SECTION) | Ok(()) => Ok(cut),
        Err(bail) => Err(bail),
    })
}

/// Where the body `start..end` is cut into chunks, as `run.plan` says.
fn bounds(run: &Run<'_>, (start, end): (u64, u64)) -> std::io::Result<Vec<u64>> {
    let by_size = (end - start).div_ceil(CHUNK_BYTES) as usize;
    let count = match run.plan.chunks {
        1 => 1,
        // Read on this thread (`scan_in_order`), as threads of their own
        // cost more than the chunk (a part of a few lines).
        0 if end - start < SMALL_BODY => 1,
        0 => run.plan.threads.max(2).max(by_size),
        chunks => chunks.max(by_size),
    };
    match count {
        1 => Ok(vec![start, end]),
        _ => sections::split(&mut run.text.open()?, start, end, count),
    }
}

/// Whether the file's last line has no `\n` (the loader warns when that
/// line could not be read: the file looks truncated).
fn ends_mid_line(file: &mut TextReader, len: u64) -> std::io::Result<bool> {
    if len == 0 {
        return Ok(false);
    }
    let mut last = [0u8];
    file.seek(SeekFrom::Start(len - 1))?;
    // A file cut since it was measured is not for this to report: the
    // check that it did not change while being read does.
    Ok(file.read(&mut last)? == 1 && last[0] != b'\n')
}

/// What every chunk of a part shares: its subpositions and events, the
/// file's length (a chunk that ends before it ends before a line), and
/// the place the body before left off, if the first chunk goes on from
/// there (`Continued`); its positions start at 0, as every part's do.
#[derive(Clone, Copy)]
struct Shape {
    npos: usize,
    width: usize,
    file_len: u64,
    continued: Option<scan::Continued>,
}

/// What one chunk adds up to, with ids local to its `Tables`.
pub(super) struct Chunk {
    pub tables: Tables,
    pub sums: Sums,
    pub lines: usize,
    /// Where in the file the chunk ends.
    pub end: u64,
    /// Where the line that begins another section starts, if the chunk
    /// ended there (`scan::SECTION`).
    pub section: Option<u64>,
    pub trailer: Vec<(usize, Vec<u8>)>,
    pub notes: notes::Notes,
    /// Where the chunk leaves off (local indexes): the context, and a
    /// `fn=` no line used yet (`Scanner::end_state`).
    pub left: (scan::Context, Option<scan::Triple>),
    /// A `calls=` line waits for its cost line at the file's end.
    pub waits_at_end: bool,
}

/// Scans bytes `start..end` of `text` (whole lines) into a `Chunk`, its
/// tables and sums made as large as `room` (the last chunk's), which it
/// updates. Only the body's `first` chunk knows where it starts from
/// (`Shape`). `whole`: the chunk is the whole body, read in the file's
/// order (`Sums::in_order`).
fn scan_chunk(
    text: &Text,
    (start, end, first, whole): (u64, u64, bool, bool),
    shape: Shape,
    read: &AtomicU64,
    room: &mut (Room, SumsRoom),
) -> Scanned {
    let mut sums = Sums::with_room(shape.width, shape.npos, room.1);
    sums.in_order = whole;
    let tables = Tables::with_room(room.0);
    let mut scanner = match scan_lines(text, (start, end, first), shape, (sums, tables), read)? {
        Ok(scanner) => scanner,
        Err(bail) => return Ok(Err(bail)),
    };
    *room = (scanner.tables.room(), scanner.sink.room());
    Ok(Ok(Chunk {
        lines: scanner.lines,
        end: scanner.section.unwrap_or(end),
        section: scanner.section,
        trailer: std::mem::take(&mut scanner.trailer),
        notes: std::mem::take(&mut scanner.notes),
        left: scanner.end_state(),
        waits_at_end: scanner.waits_at_end,
        tables: scanner.tables,
        sums: scanner.sink,
    }))
}

/// A whole body read again into `sink`, in the file's order, for what it
/// notes: a chunk's scan gives the same local ids each time.
fn rescan<S: Sink>(
    text: &Text,
    (start, end): (u64, u64),
    shape: Shape,
    sink: S,
) -> std::io::Result<Result<notes::Notes, Bail>> {
    let read = AtomicU64::new(0);
    let tables = Tables::with_room(Room::default());
    let scanned = scan_lines(text, (start, end, true), shape, (sink, tables), &read)?;
    Ok(scanned.map(|scanner| scanner.notes))
}

/// The lines `start..end` of `text` fed to a scanner of `sink` and
/// `tables`; the `first` chunk of a body starts where `shape` says.
fn scan_lines<S: Sink>(
    text: &Text,
    (start, end, first): (u64, u64, bool),
    shape: Shape,
    (sink, tables): (S, Tables),
    read: &AtomicU64,
) -> std::io::Result<Result<Scanner<S>, Bail>> {
    let (npos, width) = (shape.npos, shape.width);
    let last = if first { Last::START } else { Last::default() };
    let mut scanner = Scanner::with_tables(sink, tables, npos, width, last);
    if let (true, Some(continued)) = (first, &shape.continued) {
        scanner.continue_from(continued, start);
    }
    scanner.ends_before_a_line = end < shape.file_len;
    match scan_range(text, start, end, &mut scanner, read)? {
        // The chunk ends before the line that begins another section.
        Err(scan::SECTION) => {
            if let Err(bail) = scanner.finish() {
                return Ok(Err(bail));
            }
        }
        Err(bail) => return Ok(Err(bail)),
        Ok(()) => {}
    }
    Ok(Ok(scanner))
}

#[cfg(test)]
mod tests;
