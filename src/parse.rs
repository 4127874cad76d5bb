//! The format reader: bytes -> `Profile`, with diagnostics. A nom parser
//! per line kind (`lines`), a state machine that gives them meaning
//! (`loader`, which also reads every header). Every plain file, and every
//! stream once copied to one (`spool`), is read by the chunk reader
//! (`parallel`) on every core; the loader reads the body itself only
//! where that gives up, and streams that cannot be copied. Must not
//! import `tui`.

mod context;
mod derived;
mod edge_index;
pub(crate) mod fields;
mod finish;
mod idmap;
mod input;
mod lines;
mod loader;
mod messages;
pub(crate) mod parallel;
mod pipeline;
mod siblings;
mod spool;

pub use input::MAX_LINE;
pub use parallel::Plan;
pub use siblings::{FileSet, Member};

use edge_index::EdgeIndex;
use idmap::IdMap;
use loader::Loader;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;

use crate::profile::Profile;

/// Why a whole file could not be loaded (per-line problems are diagnostics).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: is a directory, not a profile")]
    Directory { path: String },
    #[error("{path}: not a callgrind/cachegrind profile: {reason}")]
    NotAProfile { path: String, reason: String },
    #[error(
        "{path}: the files named after it come from several runs (pid {pids}); name one of them"
    )]
    SeveralRuns { path: String, pids: String },
    /// The file's size or modification time moved during the load: what was
    /// read may mix two versions of it.
    #[error("{path}: changed while reading (load it again once it is complete)")]
    Changed { path: String },
}

/// How to load.
#[derive(Clone, Copy, Debug)]
pub struct LoadOptions {
    /// Load the other files of a per-thread / per-dump set too.
    pub siblings: bool,
    /// Load plain files on every core (`parallel`), keeping per-line detail
    /// in the file; `None`: one sequential pass that keeps it in memory.
    pub parallel: Option<Plan>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            siblings: true,
            parallel: Some(Plan::automatic()),
        }
    }
}

/// Progress of a load: bytes read so far and the total, when known.
pub type Progress<'a> = &'a mut dyn FnMut(u64, Option<u64>);

/// The files `paths` name (`-` is standard input), with their siblings
/// when `options.siblings` is set, each once (see `siblings`). A name that
/// does not exist is an error here, before anything is read.
pub fn file_set(paths: &[PathBuf], options: LoadOptions) -> Result<FileSet, LoadError> {
    siblings::resolve(paths, options.siblings)
}

/// Loads the profile files at `paths` (`-` is standard input) as one profile.
pub fn load_paths(paths: &[PathBuf], options: LoadOptions) -> Result<Profile, LoadError> {
    load_paths_with_progress(paths, options, &mut |_, _| {})
}

/// `load_paths`, reporting progress as it reads.
pub fn load_paths_with_progress(
    paths: &[PathBuf],
    options: LoadOptions,
    progress: Progress<'_>,
) -> Result<Profile, LoadError> {
    load_set(&file_set(paths, options)?, options, progress)
}

/// Loads the files of `set` (from `file_set`) as one profile, reporting
/// progress as it reads.
pub fn load_set(
    set: &FileSet,
    options: LoadOptions,
    progress: Progress<'_>,
) -> Result<Profile, LoadError> {
    let Some(plan) = options.parallel else {
        return sequential(set, &mut own_paths(set), progress);
    };
    // Standard input, pipes and compressed files become plain files first.
    let mut sources = Vec::with_capacity(set.members.len());
    let mut done = 0;
    for path in set.paths() {
        sources.push(Source::of(path, &mut |n| progress(done + n, None))?);
        if let Some(Source::Copied(copy)) = sources.last() {
            done += std::fs::metadata(&copy.path).map_or(0, |m| m.len());
        }
    }
    load_sources(set, &mut sources, plan, progress)
}

/// Loads the files of `set`, read from `sources`, by the chunk reader
/// (`plan`), else sequentially.
fn load_sources(
    set: &FileSet,
    sources: &mut [Source],
    plan: Plan,
    progress: Progress<'_>,
) -> Result<Profile, LoadError> {
    // If the parallel path gives up on a file, all are read again
    // sequentially: not possible with a stream that could not be copied.
    let once = sources.iter().any(|s| matches!(s, Source::Stream(_)));
    if !once {
        match load_files(set, sources, Some(plan), progress)? {
            Ok(profile) => return Ok(profile),
            // What only the cutting made them give up on, one chunk reads.
            Err(why) if plan.chunks != 1 && parallel::Bail::cut_only(why) => {
                let one = Some(Plan::one_chunk());
                if let Ok(profile) = load_files(set, sources, one, progress)? {
                    return Ok(profile);
                }
            }
            Err(_) => {}
        }
    }
    sequential(set, sources, progress)
}

/// The sequential loader, which never gives up.
fn sequential(
    set: &FileSet,
    sources: &mut [Source],
    progress: Progress<'_>,
) -> Result<Profile, LoadError> {
    load_files(set, sources, None, progress)?.map_err(|why| LoadError::NotAProfile {
        path: format!("{}", set.paths().next().unwrap_or(Path::new("-")).display()),
        reason: why.into(),
    })
}

/// Where a member's text is read from.
enum Source {
    /// Its own path (`-`: standard input).
    Path,
    /// A plain copy of it (see `spool`).
    Copied(spool::Copy),
    /// What could not be copied, read once.
    Stream(Option<Box<dyn Read + Send>>),
}

impl Source {
    /// The source of the file at `path`: itself, or a copy of it where it
    /// is not a plain file (`spool::needed`).
    fn of(path: &Path, progress: &mut dyn FnMut(u64)) -> Result<Source, LoadError> {
        let io = |source| LoadError::Io {
            path: shown(path),
            source,
        };
        if !spool::needed(path).map_err(io)? {
            return Ok(Source::Path);
        }
        let before = Stamp::of(path);
        let reader: Box<dyn Read + Send> = if path == Path::new("-") {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(path).map_err(io)?)
        };
        let source = match spool::spool(reader, progress).map_err(io)? {
            spool::Spool::Copied(copy) => Source::Copied(copy),
            spool::Spool::Stream(stream) => Source::Stream(Some(stream)),
        };
        if Stamp::of(path) != before {
            return Err(LoadError::Changed { path: shown(path) });
        }
        Ok(source)
    }
}

/// Every member read from its own path.
fn own_paths(set: &FileSet) -> Vec<Source> {
    set.members.iter().map(|_| Source::Path).collect()
}

/// The name of `path` in messages.
fn shown(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// Loads with the parallel path only (`plan`); `Ok(Err(why))` where it gives
/// up. For tests and benchmarks that must know which path ran.
pub fn load_parallel(
    paths: &[PathBuf],
    plan: Plan,
) -> Result<Result<Profile, &'static str>, LoadError> {
    let set = siblings::resolve(paths, false)?;
    load_files(&set, &mut own_paths(&set), Some(plan), &mut |_, _| {})
}

/// Loads the files of `set`, read from `sources`, each in parallel where
/// `plan` allows; `Ok(Err(why))` if the parallel path gave up on one.
fn load_files(
    set: &FileSet,
    sources: &mut [Source],
    plan: Option<Plan>,
    progress: Progress<'_>,
) -> Result<Result<Profile, &'static str>, LoadError> {
    // Known only when every file is a regular file (not standard input or
    // a pipe, whose size says nothing).
    let total: Option<u64> = (set.paths().zip(sources.iter()))
        .map(|(path, source)| {
            let path = match source {
                Source::Copied(copy) => &copy.path,
                _ => path,
            };
            std::fs::metadata(path)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len())
        })
        .sum();
    let mut profile = Profile::default();
    set.warn(&mut profile);
    let mut skipped = Vec::new();
    let mut loader = Loader::new(&mut profile);
    let mut done = 0;
    for (member, source) in set.members.iter().zip(sources.iter_mut()) {
        let path = member.path.as_path();
        let name = shown(path);
        let mut report = |n: u64, _| progress(done + n, total);
        let io = |source| LoadError::Io {
            path: name.clone(),
            source,
        };
        if matches!(source, Source::Path) && path.is_dir() {
            return Err(LoadError::Directory { path: name });
        }
        let (open, held) = match source {
            Source::Path if path == Path::new("-") => {
                // A slow pipe shows its progress too: the bytes read so far.
                done += read_into(&mut loader, &name, std::io::stdin(), &mut report)?;
                continue;
            }
            Source::Stream(stream) => {
                let stream = stream.take().ok_or_else(|| LoadError::NotAProfile {
                    path: name.clone(),
                    reason: "its text could not be read again".into(),
                })?;
                done += read_into(&mut loader, &name, stream, &mut report)?;
                continue;
            }
            Source::Path => (path.to_path_buf(), None),
            Source::Copied(copy) => (copy.path.clone(), Some(copy.file.clone())),
        };
        let before = Stamp::of(&open);
        let result = match plan {
            Some(plan) => parallel::load_file(&mut loader, &open, &name, held, plan, &mut report),
            None => Ok(parallel::Outcome::NotEligible),
        };
        let result = match result {
            Ok(parallel::Outcome::Loaded(bytes)) => Ok(bytes),
            Ok(parallel::Outcome::Bailed(why)) => return Ok(Err(why)),
            Ok(parallel::Outcome::NotEligible) => {
                let file = std::fs::File::open(&open).map_err(io)?;
                read_into(&mut loader, &name, file, &mut report)
            }
            Err(e) => Err(e),
        };
        if result.is_ok() && Stamp::of(&open) != before {
            return Err(LoadError::Changed { path: name });
        }
        match result {
            Ok(bytes) => done += bytes,
            // A sibling that was not named (a stray `callgrind.out.PID-03`)
            // does not sink the files that were: it is skipped with a warning.
            Err(LoadError::NotAProfile { reason, .. }) if !member.named => {
                loader.skip_file(&name, &reason);
                skipped.push(name);
            }
            Err(e) => return Err(e),
        }
    }
    finish::finish(loader);
    if let Some(table) = profile.overflowing_names() {
        let path = set.paths().next().unwrap_or(Path::new("-")).display();
        return Err(LoadError::NotAProfile {
            path: path.to_string(),
            reason: format!("its {table} names add up to more than 4 GiB"),
        });
    }
    profile.skipped_sources = skipped;
    siblings::check_commands(&mut profile);
    Ok(Ok(profile))
}

/// What tells one version of a file from another: its size and
/// modification time, taken before and after it is read.
#[derive(PartialEq, Eq)]
struct Stamp(Option<(u64, std::time::SystemTime)>);

impl Stamp {
    fn of(path: &Path) -> Stamp {
        Stamp(
            std::fs::metadata(path)
                .ok()
                .filter(std::fs::Metadata::is_file)
                .and_then(|m| Some((m.len(), m.modified().ok()?))),
        )
    }
}

/// Loads one profile from an in-memory or streamed source named `name`,
/// copied to a temporary file first as standard input is (`spool`).
pub fn load_reader(name: &str, mut reader: impl Read + Send) -> Result<Profile, LoadError> {
    let io = |source| LoadError::Io {
        path: name.to_string(),
        source,
    };
    let mut text = Vec::new();
    reader.read_to_end(&mut text).map_err(io)?;
    let text = std::io::Cursor::new(text);
    let source = match spool::spool(text, &mut |_| {}).map_err(io)? {
        spool::Spool::Copied(copy) => Source::Copied(copy),
        spool::Spool::Stream(stream) => Source::Stream(Some(stream)),
    };
    let set = FileSet::one(PathBuf::from(name));
    load_sources(&set, &mut [source], Plan::automatic(), &mut |_, _| {})
}

/// Loads one profile from `reader` with the sequential loader, without a
/// copy (`spool` asks so whether a stream's first bytes are a profile).
fn load_stream(name: &str, reader: impl Read + Send) -> Result<Profile, LoadError> {
    let mut profile = Profile::default();
    let mut loader = Loader::new(&mut profile);
    read_into(&mut loader, name, reader, &mut |_, _| {})?;
    finish::finish(loader);
    if let Some(table) = profile.overflowing_names() {
        return Err(LoadError::NotAProfile {
            path: name.to_string(),
            reason: format!("its {table} names add up to more than 4 GiB"),
        });
    }
    Ok(profile)
}

/// Streams one file through the loader, reading and splitting lines on a
/// second thread (`pipeline`); returns the bytes read.
fn read_into(
    loader: &mut Loader<'_>,
    name: &str,
    reader: impl Read + Send,
    progress: Progress<'_>,
) -> Result<u64, LoadError> {
    let io = |source| LoadError::Io {
        path: name.to_string(),
        source,
    };
    let reader = input::decode(reader).map_err(io)?;
    loader.begin_file(name);
    let cancel = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let batches = pipeline::spawn(scope, reader, cancel.clone());
        let result = apply_batches(loader, &batches, progress, io);
        // Stops the reader if we stopped early (an error, or not a profile).
        cancel.store(true, Ordering::Relaxed);
        drop(batches);
        result
    })
}

fn apply_batches(
    loader: &mut Loader<'_>,
    batches: &Receiver<std::io::Result<pipeline::Batch>>,
    progress: Progress<'_>,
    io: impl Fn(std::io::Error) -> LoadError,
) -> Result<u64, LoadError> {
    let mut bytes = 0;
    let mut ended_mid_line = false;
    for batch in batches {
        let batch = batch.map_err(&io)?;
        for entry in &batch.entries {
            match batch.line(entry) {
                Some((text, fields)) => loader.line_with_fields(text, fields)?,
                None => {
                    if let pipeline::Entry::TooLong = entry {
                        loader.overlong_line()?;
                    }
                }
            }
        }
        bytes = batch.bytes_read;
        progress(bytes, None);
        if let Some(mid_line) = batch.end {
            ended_mid_line = mid_line;
        }
    }
    loader.end_file(ended_mid_line)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests;
