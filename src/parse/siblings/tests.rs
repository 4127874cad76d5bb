//! The sibling rule on sets written as Valgrind writes them (names and
//! headers as seen from `valgrind --tool=callgrind --separate-threads=yes
//! --dump-before=... --callgrind-out-file=...` here).

use super::*;
use std::path::Path;

/// A callgrind file with `pid` (or none) and `cmd` in its header.
fn profile(dir: &Path, name: &str, pid: Option<u64>, cmd: &str) -> PathBuf {
    let pid = pid.map_or(String::new(), |p| format!("pid: {p}\n"));
    let text = format!(
        "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n{pid}cmd:  {cmd}\npart: 1\n\nevents: Ir\nfl=a.c\nfn=main\n1 10\n"
    );
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn empty(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, "").unwrap();
    path
}

fn names(set: &FileSet) -> Vec<String> {
    set.paths()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect()
}

fn resolved(paths: &[PathBuf]) -> FileSet {
    resolve(paths, true).unwrap()
}

#[test]
fn bases_and_keys() {
    assert_eq!(bases("x.1-02"), ["x.1-02", "x.1", "x"]);
    assert_eq!(
        bases("callgrind.out.12-03"),
        ["callgrind.out.12-03", "callgrind.out.12", "callgrind.out"]
    );
    assert_eq!(bases("ph.out.2"), ["ph.out.2", "ph.out"]);
    assert_eq!(bases("fib.callgrind"), ["fib.callgrind"]);
    assert_eq!(bases("-01"), ["-01"]);
    assert_eq!(key("x.2-01", "x"), Some((2, 1)));
    assert_eq!(key("x-01", "x"), Some((u64::MAX, 1)));
    assert_eq!(key("x.3", "x"), Some((3, 0)));
    assert_eq!(key("x", "x"), Some((u64::MAX, 0)));
    assert_eq!(key("x.v2", "x"), None);
    assert_eq!(key("xy-01", "x"), None);
}

/// Case 6: `callgrind.out.1000-09` does not exist; its would-be siblings
/// do not stand in for it.
#[test]
fn a_missing_name_is_an_error_whatever_siblings_exist() {
    let dir = tempfile::tempdir().unwrap();
    profile(dir.path(), "callgrind.out.1000", Some(1000), "./a");
    profile(dir.path(), "callgrind.out.1000-01", Some(1000), "./a");
    let missing = dir.path().join("callgrind.out.1000-09");
    match resolve(std::slice::from_ref(&missing), true) {
        Err(LoadError::Io { path, source }) => {
            assert_eq!(path, missing.display().to_string());
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{other:?}"),
    }
}

/// Case 5: another run's file is never a sibling, whatever its name.
#[test]
fn another_run_is_not_a_sibling() {
    let dir = tempfile::tempdir().unwrap();
    let v3 = profile(dir.path(), "app-v1.2.3", Some(41), "./app");
    profile(dir.path(), "app-v1.2.4", Some(42), "./app");
    assert_eq!(names(&resolved(&[v3])), ["app-v1.2.3"]);
    // A process that reused the name's number.
    let mine = profile(dir.path(), "callgrind.out.1000", Some(1000), "./a");
    profile(dir.path(), "callgrind.out.1000.7", Some(2000), "./b");
    assert_eq!(names(&resolved(&[mine])), ["callgrind.out.1000"]);
}

/// Cachegrind and other writers give no `pid:`: no siblings at all.
#[test]
fn a_file_without_pid_has_no_siblings() {
    let dir = tempfile::tempdir().unwrap();
    let named = profile(dir.path(), "cachegrind.out.5", None, "./a");
    profile(dir.path(), "cachegrind.out.5-01", Some(5), "./a");
    profile(dir.path(), "cachegrind.out.5.1", None, "./a");
    assert_eq!(names(&resolved(&[named])), ["cachegrind.out.5"]);
}

/// `--callgrind-out-file=callgrind.out.threads --separate-threads=yes`.
#[test]
fn a_thread_set_of_any_base_name() {
    let dir = tempfile::tempdir().unwrap();
    let base = empty(dir.path(), "callgrind.out.threads");
    for t in ["-03", "-01", "-02"] {
        profile(
            dir.path(),
            &format!("callgrind.out.threads{t}"),
            Some(7),
            "./t",
        );
    }
    profile(dir.path(), "callgrind.out.threads2-01", Some(7), "./t");
    let want = [
        "callgrind.out.threads-01",
        "callgrind.out.threads-02",
        "callgrind.out.threads-03",
    ];
    let two = dir.path().join("callgrind.out.threads-02");
    assert_eq!(names(&resolved(&[two])), want);
    // The empty base file loads them (it is no profile itself).
    assert_eq!(names(&resolved(&[base])), want);
}

/// Dumps and threads together (`callgrind.out.PID.N-TT`), and dumps alone
/// (`ph.out.N` and the final `ph.out`): numbered dumps first, then the one
/// made at exit; threads in order within a dump.
#[test]
fn dumps_and_threads_in_order() {
    let dir = tempfile::tempdir().unwrap();
    empty(dir.path(), "callgrind.out.6164");
    for n in ["-01", ".3-01", ".1-02", ".1-01", ".2-01"] {
        profile(
            dir.path(),
            &format!("callgrind.out.6164{n}"),
            Some(6164),
            "./p",
        );
    }
    let named = dir.path().join("callgrind.out.6164.1-02");
    assert_eq!(
        names(&resolved(&[named])),
        [
            "callgrind.out.6164.1-01",
            "callgrind.out.6164.1-02",
            "callgrind.out.6164.2-01",
            "callgrind.out.6164.3-01",
            "callgrind.out.6164-01",
        ]
    );
    for n in ["ph.out", "ph.out.2", "ph.out.1"] {
        profile(dir.path(), n, Some(9), "./p");
    }
    let named = dir.path().join("ph.out.2");
    assert_eq!(
        names(&resolved(&[named])),
        ["ph.out.1", "ph.out.2", "ph.out"]
    );
}

#[test]
fn an_empty_base_with_several_runs_is_an_error_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let base = empty(dir.path(), "out");
    profile(dir.path(), "out-01", Some(11), "./a");
    profile(dir.path(), "out-02", Some(12), "./a");
    match resolve(&[base], true) {
        Err(e @ LoadError::SeveralRuns { .. }) => {
            let text = e.to_string();
            assert!(text.contains("pid 11, 12"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // An empty file with nothing named after it stays itself (and fails to load).
    let lone = empty(dir.path(), "lonely");
    assert_eq!(names(&resolved(&[lone])), ["lonely"]);
}

/// Case 7: links and repeated names are one file, loaded once, with a warning.
#[test]
fn the_same_file_twice_is_loaded_once() {
    let dir = tempfile::tempdir().unwrap();
    let one = profile(dir.path(), "callgrind.out.3-01", Some(3), "./a");
    std::os::unix::fs::symlink(&one, dir.path().join("callgrind.out.3-02")).unwrap();
    std::fs::hard_link(&one, dir.path().join("callgrind.out.3-03")).unwrap();
    let set = resolved(std::slice::from_ref(&one));
    assert_eq!(names(&set), ["callgrind.out.3-01"]);
    assert_eq!(set.warnings.len(), 2, "{:?}", set.warnings);
    assert!(set.warnings[0].0.ends_with("callgrind.out.3-02"));
    assert!(set.warnings[0].1.contains("loaded once"));
    // Named twice, under two spellings, without siblings.
    let dotted = dir.path().join(".").join("callgrind.out.3-01");
    let set = resolve(&[one.clone(), dotted], false).unwrap();
    assert_eq!(set.members.len(), 1);
    assert_eq!(set.warnings.len(), 1);
    // Found as a sibling first, then named: loaded once, and counted as named.
    let dir2 = tempfile::tempdir().unwrap();
    let a = profile(dir2.path(), "x-01", Some(4), "./a");
    let b = profile(dir2.path(), "x-02", Some(4), "./a");
    let set = resolved(&[a, b]);
    assert_eq!(names(&set), ["x-01", "x-02"]);
    assert!(set.members.iter().all(|m| m.named));
    assert_eq!(set.warnings.len(), 1);
}

#[test]
fn without_siblings_only_the_names() {
    let dir = tempfile::tempdir().unwrap();
    let one = profile(dir.path(), "callgrind.out.3-01", Some(3), "./a");
    profile(dir.path(), "callgrind.out.3-02", Some(3), "./a");
    let set = resolve(&[one, PathBuf::from("-")], false).unwrap();
    assert_eq!(names(&set), ["callgrind.out.3-01", "-"]);
}

/// The empty base file `--separate-threads=yes` leaves is nothing alone:
/// named without siblings (`--no-siblings`, a side of a comparison) it
/// still stands for its run, and only for the files of its one process.
#[test]
fn without_siblings_an_empty_base_file_is_its_run() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("callgrind.out.3");
    std::fs::write(&base, "").unwrap();
    profile(dir.path(), "callgrind.out.3-01", Some(3), "./a");
    profile(dir.path(), "callgrind.out.3-02", Some(3), "./a");
    let set = resolve(std::slice::from_ref(&base), false).unwrap();
    assert_eq!(names(&set), ["callgrind.out.3-01", "callgrind.out.3-02"]);
    profile(dir.path(), "callgrind.out.3-03", Some(4), "./a");
    match resolve(&[base], false) {
        Err(LoadError::SeveralRuns { pids, .. }) => assert_eq!(pids, "3, 4"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn different_commands_are_summed_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let a = profile(dir.path(), "a.out", Some(1), "./first");
    let b = profile(dir.path(), "b.out", Some(2), "./second");
    let c = profile(dir.path(), "c.out", Some(3), "./first");
    let p =
        crate::parse::load_paths(&[a, b.clone(), c], crate::parse::LoadOptions::default()).unwrap();
    let warned: Vec<_> = p
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("different programs"))
        .collect();
    assert_eq!(warned.len(), 1, "{:?}", p.diagnostics);
    assert_eq!(warned[0].file, b.display().to_string());
    assert!(warned[0].message.contains("./second"));
    assert_eq!(p.loaded_sources().count(), 3);
}
