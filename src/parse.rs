//! The format reader: bytes -> `Profile`, with diagnostics. Every file,
//! and every stream once made plain text (`spool`), is read by one
//! reader (`parallel`) on every core: a scanner per chunk of a body, whose
//! lines a nom grammar per line kind describes (`lines`, the cost lines
//! read by hand in `fields`), and a state machine (`loader`) that reads
//! the headers and merges the chunks in the file's order. Must not
//! import `tui`.

mod context;
mod derived;
pub use derived::MAX_DERIVED;
mod edge_index;
pub(crate) mod fields;
mod finish;
mod idmap;
mod input;
mod lines;
mod loader;
mod messages;
pub(crate) mod parallel;
mod siblings;
mod spool;
mod text;

/// Lines longer than this are skipped (a profile's longest real lines are
/// Rust names of a few kilobytes); it bounds memory on hostile input.
pub const MAX_LINE: usize = 16 << 20;

pub use fields::agree as shortcuts_agree;
pub use parallel::Plan;
pub use siblings::{FileSet, Member};

use edge_index::EdgeIndex;
use idmap::IdMap;
use loader::Loader;
use std::io::Read;
use std::path::{Path, PathBuf};
use text::Text;

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
    /// How the bodies are cut and how many threads read them.
    pub plan: Plan,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            siblings: true,
            plan: Plan::automatic(),
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
    // Standard input, pipes and compressed files become plain text first.
    let mut texts = Vec::with_capacity(set.members.len());
    let mut done = 0;
    for path in set.paths() {
        let text = text_of(path, &mut |n| progress(done + n, None))?;
        if !matches!(&text, Text::File { held: None, .. }) {
            done += text.stamp().ok().flatten().map_or(0, |s| s.len);
        }
        texts.push(text);
    }
    load_texts(set, &texts, options.plan, progress)
}

/// Loads the files of `set`, read from `texts`, as `plan` cuts them; where
/// the chunks give up only because they are cut, with each body in one
/// chunk.
fn load_texts(
    set: &FileSet,
    texts: &[Text],
    plan: Plan,
    progress: Progress<'_>,
) -> Result<Profile, LoadError> {
    let loaded = match load_files(set, texts, plan, progress)? {
        Err(why) if plan.chunks != 1 && parallel::Bail::cut_only(why) => {
            load_files(set, texts, Plan::one_chunk(), progress)?
        }
        loaded => loaded,
    };
    // One chunk gives up only where no reader could go on (4 GiB of names).
    loaded.map_err(|why| LoadError::NotAProfile {
        path: format!("{}", set.paths().next().unwrap_or(Path::new("-")).display()),
        reason: why.into(),
    })
}

/// The text of the file at `path`: itself, or a plain copy of it where it
/// is not a plain file (`spool::needed`).
fn text_of(path: &Path, progress: &mut dyn FnMut(u64)) -> Result<Text, LoadError> {
    let io = |source| LoadError::Io {
        path: shown(path),
        source,
    };
    if path != Path::new("-") && path.is_dir() {
        return Err(LoadError::Directory { path: shown(path) });
    }
    if !spool::needed(path).map_err(io)? {
        return Ok(Text::file(path));
    }
    let stamp = || Text::file(path).stamp().ok().flatten();
    let before = stamp();
    let reader: Box<dyn Read + Send> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(io)?)
    };
    let text = spooled(spool::spool(reader, progress), &shown(path))?;
    if stamp() != before {
        return Err(LoadError::Changed { path: shown(path) });
    }
    Ok(text)
}

/// What `spool` made of the text of the file shown as `name`.
fn spooled(spool: std::io::Result<spool::Spool>, name: &str) -> Result<Text, LoadError> {
    match spool {
        Ok(spool::Spool::Text(text)) => Ok(text),
        Ok(spool::Spool::NotAProfile(reason)) => Err(LoadError::NotAProfile {
            path: name.to_string(),
            reason,
        }),
        Err(source) => Err(LoadError::Io {
            path: name.to_string(),
            source,
        }),
    }
}

/// The name of `path` in messages.
fn shown(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// Loads as `plan` cuts the bodies, without reading them again in one
/// chunk where the chunks give up: `Ok(Err(why))` then. For tests and
/// benchmarks that must know how a file was read.
pub fn load_parallel(
    paths: &[PathBuf],
    plan: Plan,
) -> Result<Result<Profile, &'static str>, LoadError> {
    let set = siblings::resolve(paths, false)?;
    let texts =
        (set.paths().map(|path| text_of(path, &mut |_| {}))).collect::<Result<Vec<_>, _>>()?;
    load_files(&set, &texts, plan, &mut |_, _| {})
}

/// Loads the files of `set`, read from `texts`, as `plan` cuts them;
/// `Ok(Err(why))` if the chunks gave up on one.
fn load_files(
    set: &FileSet,
    texts: &[Text],
    plan: Plan,
    progress: Progress<'_>,
) -> Result<Result<Profile, &'static str>, LoadError> {
    let total: Option<u64> = (texts.iter())
        .map(|text| Some(text.stamp().ok()??.len))
        .sum();
    let mut profile = Profile::default();
    set.warn(&mut profile);
    let mut skipped = Vec::new();
    let mut loader = Loader::new(&mut profile);
    let mut done = 0;
    for (member, text) in set.members.iter().zip(texts) {
        let name = shown(&member.path);
        let mut report = |n: u64, _| progress(done + n, total);
        let io = |source| LoadError::Io {
            path: name.clone(),
            source,
        };
        let before = text.stamp().map_err(io)?;
        let result = match parallel::load_file(&mut loader, text, &name, plan, &mut report) {
            Ok(Err(parallel::Bail(why))) => return Ok(Err(why)),
            Ok(Ok(bytes)) => Ok(bytes),
            Err(e) => Err(e),
        };
        if result.is_ok() && text.stamp().ok() != Some(before) {
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

/// Loads one profile from an in-memory or streamed source named `name`,
/// made plain text as standard input is (`spool`).
pub fn load_reader(name: &str, mut reader: impl Read + Send) -> Result<Profile, LoadError> {
    let mut bytes = Vec::new();
    let read = reader.read_to_end(&mut bytes);
    read.map_err(|source| LoadError::Io {
        path: name.to_string(),
        source,
    })?;
    let text = spooled(spool::spool(std::io::Cursor::new(bytes), &mut |_| {}), name)?;
    let set = FileSet::one(PathBuf::from(name));
    load_texts(&set, &[text], Plan::automatic(), &mut |_, _| {})
}

/// Why `head`, the first whole lines of a longer text, is no profile
/// whatever lines follow them (`Loader::gave_up_before_events`), if it is
/// not one.
fn head_is_no_profile(head: &[u8]) -> Option<String> {
    let mut profile = Profile::default();
    let mut loader = Loader::new(&mut profile);
    let text = Text::memory(head.to_vec());
    let plan = Plan::one_chunk();
    match parallel::load_file(&mut loader, &text, "", plan, &mut |_, _| {}) {
        Err(LoadError::NotAProfile { reason, .. }) if loader.gave_up_before_events() => {
            Some(reason)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
