//! The format reader: bytes -> `Profile`, with diagnostics. One streaming
//! pass over lines; a nom parser per line kind (`lines`), a state machine
//! that gives them meaning (`loader`). Must not import `tui`.

mod derived;
mod edge_index;
pub(crate) mod fields;
mod finish;
mod idmap;
mod input;
mod lines;
mod loader;
pub(crate) mod parallel;
mod pipeline;
mod siblings;

pub use input::MAX_LINE;
pub use parallel::Plan;
pub use siblings::expand as sibling_files;

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
    let files = file_list(paths, options);
    // If the parallel path gives up on a file, all are read again
    // sequentially: not possible with standard input or a pipe among them.
    let once = files.iter().any(|p| {
        p == Path::new("-") || !std::fs::metadata(p).is_ok_and(|m| m.is_file() || m.is_dir())
    });
    if let Some(plan) = options.parallel.filter(|_| !once) {
        if let Ok(profile) = load_files(&files, paths, Some(plan), progress)? {
            return Ok(profile);
        }
    }
    // The sequential loader never gives up.
    load_files(&files, paths, None, progress)?.map_err(|why| LoadError::NotAProfile {
        path: format!("{}", files.first().map_or(Path::new("-"), |p| p).display()),
        reason: why.into(),
    })
}

/// Loads with the parallel path only (`plan`); `Ok(Err(why))` where it gives
/// up. For tests and benchmarks that must know which path ran.
pub fn load_parallel(
    paths: &[PathBuf],
    plan: Plan,
) -> Result<Result<Profile, &'static str>, LoadError> {
    let options = LoadOptions {
        siblings: false,
        parallel: Some(plan),
    };
    load_files(
        &file_list(paths, options),
        paths,
        Some(plan),
        &mut |_, _| {},
    )
}

/// Loads `files` (expanded from the `named` paths), each in parallel where
/// `plan` allows; `Ok(Err(why))` if the parallel path gave up on one.
fn load_files(
    files: &[PathBuf],
    named: &[PathBuf],
    plan: Option<Plan>,
    progress: Progress<'_>,
) -> Result<Result<Profile, &'static str>, LoadError> {
    let total: Option<u64> = files
        .iter()
        .map(|p| std::fs::metadata(p).ok().map(|m| m.len()))
        .sum();
    let mut profile = Profile::default();
    let mut loader = Loader::new(&mut profile);
    let mut done = 0;
    for path in files {
        let name = path.display().to_string();
        if path == Path::new("-") {
            read_into(&mut loader, "<stdin>", std::io::stdin(), &mut |_, _| {})?;
            continue;
        }
        let io = |source| LoadError::Io {
            path: name.clone(),
            source,
        };
        if path.is_dir() {
            return Err(LoadError::Directory { path: name });
        }
        let before = Stamp::of(path);
        let mut report = |n: u64, _| progress(done + n, total);
        let result = match plan {
            Some(plan) => parallel::load_file(&mut loader, path, &name, plan, &mut report),
            None => Ok(parallel::Outcome::NotEligible),
        };
        let result = match result {
            Ok(parallel::Outcome::Loaded(bytes)) => Ok(bytes),
            Ok(parallel::Outcome::Bailed(why)) => return Ok(Err(why)),
            Ok(parallel::Outcome::NotEligible) => {
                let file = std::fs::File::open(path).map_err(io)?;
                read_into(&mut loader, &name, file, &mut report)
            }
            Err(e) => Err(e),
        };
        if result.is_ok() && Stamp::of(path) != before {
            return Err(LoadError::Changed { path: name });
        }
        match result {
            Ok(bytes) => done += bytes,
            // A file of the set that was not named (a stray `callgrind.out.PID-03`)
            // does not sink the ones that were: it is skipped with a warning.
            Err(LoadError::NotAProfile { reason, .. }) if !named.contains(path) => {
                loader.skip_file(&name, &reason);
            }
            Err(e) => return Err(e),
        }
    }
    finish::finish(loader);
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

/// The files to read: each path, or its sibling set.
fn file_list(paths: &[PathBuf], options: LoadOptions) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        let set = if options.siblings && path != Path::new("-") {
            siblings::expand(path)
        } else {
            vec![path.clone()]
        };
        for p in set {
            if !files.contains(&p) {
                files.push(p);
            }
        }
    }
    files
}

/// Loads one profile from an in-memory or streamed source named `name`.
pub fn load_reader(name: &str, reader: impl Read + Send) -> Result<Profile, LoadError> {
    let mut profile = Profile::default();
    let mut loader = Loader::new(&mut profile);
    read_into(&mut loader, name, reader, &mut |_, _| {})?;
    finish::finish(loader);
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
                    if let pipeline::Entry::TooLong(len) = entry {
                        loader.overlong_line(*len)?;
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
