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
    // Standard input, pipes and compressed files become plain text first,
    // copied one at a time; the last copy is read while it is written.
    let mut texts = Vec::with_capacity(set.members.len());
    let mut done = 0;
    let mut copying: Option<(usize, Pending)> = None;
    for path in set.paths() {
        if let Some((at, pending)) = copying.take() {
            if let Some(instead) = pending.settle()? {
                texts[at] = instead;
            }
            done += texts[at].stamp().ok().flatten().map_or(0, |s| s.len);
        }
        let (text, copy) = text_of(path, &mut |n| progress(done + n, None))?;
        if let Some(pending) = copy {
            copying = Some((texts.len(), pending));
        } else if !matches!(&text, Text::File { held: None, .. }) {
            done += text.stamp().ok().flatten().map_or(0, |s| s.len);
        }
        texts.push(text);
    }
    let loaded = load_texts(set, &texts, options.plan, progress);
    let Some((at, pending)) = copying else {
        return loaded;
    };
    // How the copy ended comes first, as when the load waited for it: a
    // cut stream is said so, whatever the load of the text before the cut
    // gave; a copy that ran out of room is loaded again from memory.
    let Some(instead) = pending.settle()? else {
        return loaded;
    };
    drop(loaded);
    texts[at] = instead;
    load_texts(set, &texts, options.plan, progress)
}

/// A text still being copied (`spool::Spool::Copying`): the file it is
/// made from, what tells whether that changed meanwhile, and the thread
/// that copies it.
struct Pending {
    path: PathBuf,
    before: Option<text::Stamp>,
    copy: spool::Copying,
}

impl Pending {
    /// Waits for the copy's end: `None` if all of the text is copied, else
    /// the text held in memory instead, or why there is none, as
    /// `text_of` says it.
    fn settle(self) -> Result<Option<Text>, LoadError> {
        let name = shown(&self.path);
        let text = match self.copy.finish() {
            Ok(None) => None,
            Ok(Some(instead)) => Some(spooled(Ok(instead), &name)?.0),
            Err(source) => return Err(LoadError::Io { path: name, source }),
        };
        if source_stamp(&self.path) != self.before {
            return Err(LoadError::Changed { path: name });
        }
        Ok(text)
    }
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
/// is not a plain file (`spool::needed`). A copy may still be being
/// written: then also the thread that writes it, and the stamp of the
/// file it is made from, which must not change before the copy ends.
fn text_of(
    path: &Path,
    progress: &mut dyn FnMut(u64),
) -> Result<(Text, Option<Pending>), LoadError> {
    let io = |source| LoadError::Io {
        path: shown(path),
        source,
    };
    if path != Path::new("-") && path.is_dir() {
        return Err(LoadError::Directory { path: shown(path) });
    }
    if !spool::needed(path).map_err(io)? {
        return Ok((Text::file(path), None));
    }
    let before = source_stamp(path);
    let reader: Box<dyn Read + Send> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(io)?)
    };
    let size = before.map(|stamp| stamp.len);
    let (text, copying) = spooled(spool::start(reader, size, progress), &shown(path))?;
    if copying.is_none() && source_stamp(path) != before {
        return Err(LoadError::Changed { path: shown(path) });
    }
    let pending = copying.map(|copy| Pending {
        path: path.to_path_buf(),
        before,
        copy,
    });
    Ok((text, pending))
}

/// The stamp of the file at `path`, if it is a regular file.
fn source_stamp(path: &Path) -> Option<text::Stamp> {
    Text::file(path).stamp().ok().flatten()
}

/// The text of the file at `path`, copied whole where it is copied.
fn whole_text_of(path: &Path) -> Result<Text, LoadError> {
    let (text, pending) = text_of(path, &mut |_| {})?;
    let Some(pending) = pending else {
        return Ok(text);
    };
    Ok(pending.settle()?.unwrap_or(text))
}

/// What `spool` made of the text of the file shown as `name`, and the
/// thread that still copies it, if one does.
fn spooled(
    spool: std::io::Result<spool::Spool>,
    name: &str,
) -> Result<(Text, Option<spool::Copying>), LoadError> {
    match spool {
        Ok(spool::Spool::Text(text)) => Ok((text, None)),
        Ok(spool::Spool::Copying(text, copying)) => Ok((text, Some(copying))),
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
    let texts = (set.paths().map(whole_text_of)).collect::<Result<Vec<_>, _>>()?;
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
    // Unknown while a copy is being written.
    let total: Option<u64> = (texts.iter())
        .map(|text| match text.growing() {
            Some(_) => None,
            None => Some(text.stamp().ok()??.len),
        })
        .sum();
    let mut profile = Profile::default();
    set.warn(&mut profile);
    let mut skipped = Vec::new();
    let mut loader = Loader::new(&mut profile);
    let mut done = 0;
    for (member, text) in set.members.iter().zip(texts) {
        let name = shown(&member.path);
        // A copy being written gives its length once it is whole (the
        // last of the set: one copy is written at a time).
        let mut report =
            |n: u64, of: Option<u64>| progress(done + n, total.or(of.map(|len| done + len)));
        let io = |source| LoadError::Io {
            path: name.clone(),
            source,
        };
        // A copy being written is ours: no one else changes it.
        let before = match text.growing() {
            Some(_) => None,
            None => Some(text.stamp().map_err(io)?),
        };
        let result = match parallel::load_file(&mut loader, text, &name, plan, &mut report) {
            Ok(Err(parallel::Bail(why))) => return Ok(Err(why)),
            Ok(Ok(bytes)) => Ok(bytes),
            Err(e) => Err(e),
        };
        if result.is_ok() && before.is_some_and(|before| text.stamp().ok() != Some(before)) {
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
    let (text, _) = spooled(spool::spool(std::io::Cursor::new(bytes), &mut |_| {}), name)?;
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
