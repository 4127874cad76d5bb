//! The object file a function's code comes from: where it is on this
//! machine (`--object-root OLD=NEW`, as `--source-root` for sources, then
//! beside the profile), and what its headers say: the code sections, the
//! symbols around the profile's addresses, whether it has DWARF. Only the
//! headers, the symbol tables and the sections asked for are read (object's
//! `ReadCache`), never the whole file.

use crate::locate::Locator;
use object::{Object, ObjectSection, ObjectSymbol, SectionKind, SymbolKind};
use std::fs::File;
use std::path::{Path, PathBuf};

/// What the headers of an object say about some addresses of it.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// `[start, stop)` of each executable section.
    pub code: Vec<(u64, u64)>,
    /// Code symbols holding at least one of the addresses asked about,
    /// as `[start, stop)`, sorted, merged where they overlap.
    pub symbols: Vec<(u64, u64)>,
    /// The object has a full symbol table (`.symtab`), not only the
    /// dynamic one: without it, it was stripped.
    pub symtab: bool,
    /// The object has `.debug_info`.
    pub dwarf: bool,
}

/// Why an object cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    #[error("cannot open {path}: {why}")]
    Open { path: String, why: String },
    #[error("{path} is not an object file objdump and cgtui can read ({why})")]
    NotObject { path: String, why: String },
}

/// Every path tried for the object the profile names `name`, in order:
/// the `--object-root` rewrites, the name, then its file name in the
/// directories of the profiles.
pub fn candidates(locator: &Locator, name: &str) -> Vec<PathBuf> {
    let mut out = locator.candidates(name);
    if let Some(base) = Path::new(name).file_name() {
        for d in &locator.profile_dirs {
            let p = d.join(base);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The first existing file among `candidates`.
pub fn locate(locator: &Locator, name: &str) -> Result<PathBuf, Vec<PathBuf>> {
    let tried = candidates(locator, name);
    match tried.iter().find(|p| p.is_file()) {
        // `./a/b` (a relative name tried in the current folder) as `a/b`.
        Some(p) => Ok(p.strip_prefix(".").unwrap_or(p).to_path_buf()),
        None => Err(tried),
    }
}

/// Opens `path` for reading sections on demand.
pub fn open(path: &Path) -> Result<object::ReadCache<File>, Unreadable> {
    File::open(path)
        .map(object::ReadCache::new)
        .map_err(|e| Unreadable::Open {
            path: path.display().to_string(),
            why: e.to_string(),
        })
}

/// Parses the object held by `cache` (`path` names it in errors).
pub fn parse<'a>(
    cache: &'a object::ReadCache<File>,
    path: &Path,
) -> Result<object::File<'a, &'a object::ReadCache<File>>, Unreadable> {
    object::File::parse(cache).map_err(|e| Unreadable::NotObject {
        path: path.display().to_string(),
        why: e.to_string(),
    })
}

/// The facts of `path` about `addrs` (sorted).
pub fn facts(path: &Path, addrs: &[u64]) -> Result<Facts, Unreadable> {
    let cache = open(path)?;
    let file = parse(&cache, path)?;
    let code = file
        .sections()
        .filter(|s| s.kind() == SectionKind::Text && s.size() > 0)
        .map(|s| (s.address(), s.address().saturating_add(s.size())))
        .collect();
    let symtab = file.section_by_name(".symtab").is_some();
    let dwarf = file.section_by_name(".debug_info").is_some();
    let mut symbols: Vec<(u64, u64)> = Vec::new();
    let mut keep = |start: u64, size: u64| {
        let stop = start.saturating_add(size);
        let first = addrs.partition_point(|&a| a < start);
        if addrs.get(first).is_some_and(|&a| a < stop) {
            symbols.push((start, stop));
        }
    };
    for s in file.symbols().chain(file.dynamic_symbols()) {
        if s.kind() == SymbolKind::Text && s.size() > 0 {
            keep(s.address(), s.size());
        }
    }
    symbols.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::new();
    for (start, stop) in symbols {
        match merged.last_mut() {
            Some(last) if start < last.1 => last.1 = last.1.max(stop),
            _ => merged.push((start, stop)),
        }
    }
    Ok(Facts {
        code,
        symbols: merged,
        symtab,
        dwarf,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_looked_for_under_their_roots_then_beside_the_profile() {
        let locator = Locator {
            rewrites: vec![("/build".into(), "/mnt/build".into())],
            include: Vec::new(),
            profile_dirs: vec![PathBuf::from("/profiles")],
        };
        assert_eq!(
            candidates(&locator, "/build/bin/app"),
            vec![
                PathBuf::from("/mnt/build/bin/app"),
                PathBuf::from("/build/bin/app"),
                PathBuf::from("/profiles/app"),
            ]
        );
    }

    #[test]
    fn a_file_that_is_not_an_object_is_refused_with_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "not an object\n").unwrap();
        let e = facts(&path, &[0x10]).unwrap_err();
        assert!(matches!(e, Unreadable::NotObject { .. }), "{e:?}");
        assert!(e.to_string().contains("notes.txt"), "{e}");
        let e = facts(&dir.path().join("absent"), &[0x10]).unwrap_err();
        assert!(matches!(e, Unreadable::Open { .. }), "{e:?}");
    }
}
