//! Files that belong together: naming one file of Valgrind's per-thread
//! (`callgrind.out.PID-01`) or per-dump (`callgrind.out.PID.1`) set loads the
//! whole set, as KCachegrind does.

use std::path::{Path, PathBuf};

/// Splits `callgrind.out.123.2-03` into (`callgrind.out.123`, sort key).
/// A file without a dump number is the dump made at exit, so it sorts after
/// the numbered ones.
fn base_and_key(name: &str) -> (&str, (u64, u64)) {
    let (rest, thread) = match name.rsplit_once('-') {
        Some((b, t)) if is_number(t) => (b, t.parse().unwrap_or(0)),
        _ => (name, 0),
    };
    let (base, dump) = match rest.rsplit_once('.') {
        Some((b, d)) if is_number(d) && ends_in_pid(b) => (b, d.parse().unwrap_or(0)),
        _ => (rest, u64::MAX),
    };
    (base, (dump, thread))
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `callgrind.out.123.4`: the part before `.4` must itself end in `.PID`.
fn ends_in_pid(b: &str) -> bool {
    b.rsplit_once('.').is_some_and(|(_, pid)| is_number(pid))
}

/// The files to load for `path`: its siblings in order (dump, then thread),
/// or just `path` when it has none. Empty files are left out of a set.
pub fn expand(path: &Path) -> Vec<PathBuf> {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return vec![path.to_path_buf()];
    };
    let (base, _) = base_and_key(name);
    if !ends_in_pid(base) {
        return vec![path.to_path_buf()];
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return vec![path.to_path_buf()];
    };
    let mut set: Vec<((u64, u64), PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let n = e.file_name().into_string().ok()?;
            let (b, key) = base_and_key(&n);
            let full = dir.join(&n);
            let nonempty = std::fs::metadata(&full).is_ok_and(|m| m.is_file() && m.len() > 0);
            (b == base && nonempty).then(|| (key, path.with_file_name(&n)))
        })
        .collect();
    if set.is_empty() {
        return vec![path.to_path_buf()];
    }
    set.sort();
    set.into_iter().map(|(_, p)| p).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_thread_and_dump_suffixes() {
        assert_eq!(
            base_and_key("callgrind.out.12-03"),
            ("callgrind.out.12", (u64::MAX, 3))
        );
        assert_eq!(
            base_and_key("callgrind.out.12.2"),
            ("callgrind.out.12", (2, 0))
        );
        assert_eq!(
            base_and_key("callgrind.out.12.2-01"),
            ("callgrind.out.12", (2, 1))
        );
        assert_eq!(
            base_and_key("callgrind.out.12"),
            ("callgrind.out.12", (u64::MAX, 0))
        );
        assert_eq!(
            base_and_key("fib.callgrind"),
            ("fib.callgrind", (u64::MAX, 0))
        );
    }

    #[test]
    fn loads_the_set_and_skips_the_empty_base_file() {
        let dir = tempfile::tempdir().unwrap();
        for (n, body) in [
            ("callgrind.out.7", ""),
            ("callgrind.out.7-02", "x"),
            ("callgrind.out.7-01", "x"),
            ("callgrind.out.8-01", "x"),
        ] {
            std::fs::write(dir.path().join(n), body).unwrap();
        }
        let got = expand(&dir.path().join("callgrind.out.7"));
        let names: Vec<_> = got
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
            .collect();
        assert_eq!(names, ["callgrind.out.7-01", "callgrind.out.7-02"]);
    }

    #[test]
    fn a_lone_file_is_itself() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("callgrind.out.9");
        std::fs::write(&p, "x").unwrap();
        assert_eq!(expand(&p), vec![p]);
    }
}
