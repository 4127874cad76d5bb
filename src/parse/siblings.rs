//! Which files a list of names loads, each once. The one rule for sets:
//! a name that does not exist is an error; a *sibling* of a named file is a
//! file in the same folder named as Valgrind names the files of one run
//! (a base, then `-TT` for a thread, `.N` for a dump, or `.N-TT`, the base
//! being the named file with such a suffix removed, whatever it is:
//! `callgrind.out.1234-01`, `callgrind.out.threads-01`) **and** whose header
//! gives the same `pid:`. A non-empty file without `pid:` has no siblings;
//! the empty file `--separate-threads=yes` leaves as the base loads the
//! files named after it when they share one pid. The same file reached
//! twice (a link, named twice, named and found as a sibling) is loaded once,
//! with a warning. KCachegrind loads every file starting with the name; this
//! is stricter on purpose (`app-v1.2.3` never brings in `app-v1.2.4`).

use super::LoadError;
use crate::profile::{Profile, Severity};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

/// How much of a file's start is read to find its `pid:` line.
const HEADER_BYTES: u64 = 64 << 10;

/// One file to load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub path: PathBuf,
    /// Named on the command line (a sibling that turns out not to be a
    /// profile is skipped with a warning; a named one is an error).
    pub named: bool,
}

/// The files to load for the names given, in order, each once.
#[derive(Clone, Debug, Default)]
pub struct FileSet {
    pub members: Vec<Member>,
    /// `(file, message)`: what was noticed choosing them (duplicates).
    pub warnings: Vec<(String, String)>,
    /// Identity of each member, to find the same file reached twice.
    ids: Vec<Identity>,
}

/// What makes two names the same file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    Stdin,
    #[cfg(unix)]
    Inode(u64, u64),
    Path(PathBuf),
}

fn identity(path: &Path) -> Identity {
    if path == Path::new("-") {
        return Identity::Stdin;
    }
    #[cfg(unix)]
    if let Ok(meta) = std::fs::metadata(path) {
        use std::os::unix::fs::MetadataExt;
        return Identity::Inode(meta.dev(), meta.ino());
    }
    Identity::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

impl FileSet {
    /// The set of one named file: `name`, not looked for on disk (the
    /// text of `parse::load_reader`).
    pub fn one(name: PathBuf) -> FileSet {
        let member = Member {
            path: name,
            named: true,
        };
        FileSet {
            members: vec![member],
            ..FileSet::default()
        }
    }

    /// The paths, in load order.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.members.iter().map(|m| m.path.as_path())
    }

    fn add(&mut self, path: PathBuf, named: bool) {
        let id = identity(&path);
        match self.ids.iter().position(|i| *i == id) {
            Some(first) => {
                let kept = &mut self.members[first];
                kept.named |= named;
                if !named && kept.path == path {
                    // The set found again from another file of it.
                    return;
                }
                let message = format!(
                    "the same file as {} (a link, or named twice): loaded once",
                    shown(&kept.path)
                );
                self.warnings.push((shown(&path), message));
            }
            None => {
                self.ids.push(id);
                self.members.push(Member { path, named });
            }
        }
    }

    /// Records the warnings as load diagnostics of `profile`.
    pub fn warn(&self, profile: &mut Profile) {
        for (file, message) in &self.warnings {
            profile.diagnose(file, 0, Severity::Warning, message.clone());
        }
    }
}

/// The files to load for `named` (`-` is standard input): each name, with
/// its siblings when `siblings` is set (an empty base file always brings
/// its run: `--no-siblings` and a comparison's sides name it so), each
/// file once.
pub fn resolve(named: &[PathBuf], siblings: bool) -> Result<FileSet, LoadError> {
    let mut set = FileSet::default();
    for path in named {
        if path == Path::new("-") {
            set.add(path.clone(), true);
            continue;
        }
        let meta = std::fs::metadata(path).map_err(|source| LoadError::Io {
            path: shown(path),
            source,
        })?;
        // Without siblings each name loads alone, but for the empty base
        // file of a per-thread set: alone it is nothing, it names its run.
        let empty_base = meta.is_file() && meta.len() == 0;
        if !(meta.is_file() && (siblings || empty_base)) {
            set.add(path.clone(), true);
            continue;
        }
        for p in run_of(path, meta.len())? {
            let is_named = p == *path;
            set.add(p, is_named);
        }
    }
    Ok(set)
}

/// `path` and its siblings, in order (dump, then thread; the dump made at
/// exit, without a number, after the numbered ones).
fn run_of(path: &Path, len: u64) -> Result<Vec<PathBuf>, LoadError> {
    let alone = || Ok(vec![path.to_path_buf()]);
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return alone();
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if len == 0 {
        return empty_base_run(path, name, dir);
    }
    let Some(pid) = header_pid(path) else {
        return alone();
    };
    let mine = bases(name);
    let kin: Vec<String> = neighbours(dir, name)
        .filter(|n| bases(n).iter().any(|b| mine.contains(b)))
        .filter(|n| header_pid(&dir.join(n)) == Some(pid))
        .collect();
    // The base most of them share (ties: the longer): `x.1-01` beside
    // `x.1-02`, `x.2-01` and `x-01` is of run `x`, not `x.1`.
    let covered = |b: &&str| kin.iter().filter(|n| bases(n).contains(b)).count();
    let Some(run) = mine
        .iter()
        .filter(|b| covered(b) > 0)
        .max_by_key(|b| (covered(b), b.len()))
    else {
        return alone();
    };
    let mut members: Vec<((u64, u64), &str)> = kin
        .iter()
        .map(String::as_str)
        .chain([name])
        .filter_map(|n| Some((key(n, run)?, n)))
        .collect();
    members.sort_unstable();
    Ok(members
        .into_iter()
        .map(|(_, n)| path.with_file_name(n))
        .collect())
}

/// The empty file Valgrind leaves as the base of a per-thread set: the
/// files named after it, when they come from one process.
fn empty_base_run(path: &Path, name: &str, dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let mut kin: Vec<((u64, u64), u64, String)> = neighbours(dir, name)
        .filter_map(|n| {
            let k = key(&n, name).filter(|_| n != name)?;
            let pid = header_pid(&dir.join(&n))?;
            Some((k, pid, n))
        })
        .collect();
    let mut pids: Vec<u64> = kin.iter().map(|(_, pid, _)| *pid).collect();
    pids.sort_unstable();
    pids.dedup();
    if pids.len() > 1 {
        let list: Vec<String> = pids.iter().map(u64::to_string).collect();
        return Err(LoadError::SeveralRuns {
            path: shown(path),
            pids: list.join(", "),
        });
    }
    if kin.is_empty() {
        return Ok(vec![path.to_path_buf()]);
    }
    kin.sort_unstable();
    Ok(kin
        .into_iter()
        .map(|(_, _, n)| path.with_file_name(n))
        .collect())
}

/// Names of the other non-empty regular files in `dir`.
fn neighbours<'a>(dir: &'a Path, name: &'a str) -> impl Iterator<Item = String> + 'a {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(move |n| n != name)
        .filter(move |n| std::fs::metadata(dir.join(n)).is_ok_and(|m| m.is_file() && m.len() > 0))
}

/// `name` and the bases it may be a file of, longest first: `x.1-02` is of
/// `x.1` (thread 2) or of `x` (dump 1, thread 2).
fn bases(name: &str) -> Vec<&str> {
    let mut out = vec![name];
    let strip = |s: &'_ str, sep: char| -> Option<usize> {
        let (b, n) = s.rsplit_once(sep)?;
        (!b.is_empty() && is_number(n)).then_some(b.len())
    };
    if let Some(t) = strip(name, '-') {
        out.push(&name[..t]);
        if let Some(d) = strip(&name[..t], '.') {
            out.push(&name[..d]);
        }
    } else if let Some(d) = strip(name, '.') {
        out.push(&name[..d]);
    }
    out
}

/// Sort key (dump, thread) of `name` as a file of run `base`: `""`, `-TT`,
/// `.N` or `.N-TT` after it; `None` when it is not one.
fn key(name: &str, base: &str) -> Option<(u64, u64)> {
    let suffix = name.strip_prefix(base)?;
    let (dump, thread) = match suffix.split_once('-') {
        Some((d, t)) => (d, Some(t)),
        None => (suffix, None),
    };
    let thread = match thread {
        Some(t) if is_number(t) => t.parse().ok()?,
        Some(_) => return None,
        None => 0,
    };
    let dump = match dump.strip_prefix('.') {
        Some(d) if is_number(d) => d.parse().ok()?,
        Some(_) => return None,
        None if dump.is_empty() => u64::MAX,
        None => return None,
    };
    Some((dump, thread))
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The `pid:` of a file's header (before its first `fn=`), read through
/// any compression, within its first `HEADER_BYTES`.
fn header_pid(path: &Path) -> Option<u64> {
    let file = std::fs::File::open(path).ok()?;
    let reader = super::input::decode_buffered(file, 16 << 10).ok()?;
    let mut lines = std::io::BufReader::new(reader.take(HEADER_BYTES));
    let mut line = Vec::new();
    loop {
        line.clear();
        if lines.read_until(b'\n', &mut line).ok()? == 0 || line.starts_with(b"fn=") {
            return None;
        }
        if let Some(value) = line.strip_prefix(b"pid:") {
            return std::str::from_utf8(value).ok()?.trim().parse().ok();
        }
    }
}

/// Warns when files given together were made by different commands: their
/// costs are summed all the same, as KCachegrind does, but the user must
/// know.
pub fn check_commands(profile: &mut Profile) {
    let mut first_cmd: Vec<(usize, String)> = Vec::new();
    for part in &profile.parts {
        if let Some(cmd) = &part.cmd
            && !first_cmd.iter().any(|(s, _)| *s == part.source)
        {
            first_cmd.push((part.source, cmd.trim().to_string()));
        }
    }
    let Some((first, cmd)) = first_cmd.first().cloned() else {
        return;
    };
    for (source, other) in first_cmd.into_iter().skip(1) {
        if other != cmd {
            let message = format!(
                "its command `{other}` is not `{cmd}` of {}: the costs of different programs are summed",
                profile.sources[first]
            );
            let file = profile.sources[source].clone();
            profile.diagnose(&file, 0, Severity::Warning, message);
        }
    }
}

#[cfg(test)]
#[path = "siblings/tests.rs"]
mod tests;
