//! The command line at its edges (issue "hostile", cases 1-7, 11, 25, 27):
//! output that cannot be written, no terminal, the files a name loads, names
//! that try to drive the terminal, option values out of range, and what an
//! error exit costs. Each runs the real binary.

use super::run::{bin, write};
use assert_cmd::Command;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// A profile of `n` functions whose reports are megabytes long, with one
/// malformed line (a warning on standard error before any output).
fn big(dir: &Path, n: usize) -> PathBuf {
    let mut text = String::from("events: Ir\nfl=big.c\nfn=f0\n1 five\n");
    for i in 0..n {
        let _ = writeln!(
            text,
            "fn=function_with_a_long_name_{i}\n{} {}",
            i + 1,
            i + 1
        );
    }
    write(dir, "big.callgrind", text.as_bytes())
}

/// Runs `cgtui ARGS` under bash with `redirect` after it (`2>&1 | head -1`)
/// and returns cgtui's own exit status (128 + the signal if one killed it).
fn piped(args: &[&str], redirect: &str) -> i32 {
    let script = format!("\"$0\" \"$@\" {redirect}; exit ${{PIPESTATUS[0]}}");
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(script)
        .arg(bin())
        .args(args)
        .output()
        .unwrap();
    out.status.code().unwrap()
}

/// Cases 1 and 3: a closed pipe on standard output (and standard error on
/// the same pipe, or in a file) ends quietly with status 0; never SIGABRT
/// (134), never a backtrace about the broken pipe.
#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let f = big(dir.path(), 60_000);
    let f = f.to_str().unwrap();
    let err = dir.path().join("err");
    for args in [
        &["report", "--threshold", "100", f][..],
        &["report", "--json", f],
        &["annotate", f],
    ] {
        assert_eq!(piped(args, "2>&1 | head -1 >/dev/null"), 0, "{args:?}");
        let to_file = format!("2>{} | head -1 >/dev/null", err.display());
        assert_eq!(piped(args, &to_file), 0, "{args:?}");
        let stderr = std::fs::read_to_string(&err).unwrap();
        for line in stderr.lines() {
            assert!(line.starts_with(f) || line.contains("skipped"), "{stderr}");
        }
        assert!(!stderr.contains("Broken pipe") && !stderr.contains("BACKTRACE"));
    }
}

/// Case 2: standard error full or closed: status 2, no abort.
#[test]
fn an_unwritable_standard_error_never_aborts() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    for command in ["report", "annotate"] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let status = std::process::Command::new(bin())
            .args([command, missing.to_str().unwrap()])
            .stderr(full)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "{command}: {status:?}");
        let mut child = std::process::Command::new(bin())
            .args([command, missing.to_str().unwrap()])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        assert_eq!(child.wait().unwrap().code(), Some(2), "{command}");
    }
    // A panic-free write error on standard output that is not a closed pipe.
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = std::process::Command::new(bin())
        .args(["report", "--json", big(dir.path(), 10).to_str().unwrap()])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.ends_with("cgtui: writing the output: No space left on device (os error 28)\n"));
}

/// Case 4: the browser with no terminal at all (`setsid`, no `/dev/tty`):
/// a missing file is named as missing, else one line says a terminal is
/// needed; status 2 either way, nothing else.
#[test]
fn the_browser_without_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.callgrind");
    let present = big(dir.path(), 10);
    crate::support::tools::require(&["setsid"]);
    let run = |args: &[&Path], cwd: &Path| {
        let out = std::process::Command::new("setsid")
            .arg("-w")
            .arg(bin())
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(out.stdout.is_empty());
        String::from_utf8(out.stderr).unwrap()
    };
    let err = run(&[&missing], dir.path());
    assert_eq!(
        err,
        format!(
            "cgtui: {}: No such file or directory (os error 2)\n",
            missing.display()
        )
    );
    let err = run(&[&present], dir.path());
    assert!(
        err.starts_with("cgtui: the browser needs a terminal"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // No profile here: a few lines on how to make one (tests/cli.rs reads
    // them), not a word about the terminal.
    let empty = tempfile::tempdir().unwrap();
    let err = run(&[], empty.path());
    assert!(err.starts_with("cgtui: no profile to open"), "{err}");
    assert!(!err.contains("terminal"), "{err}");
}

/// A callgrind file of process `pid` with `cost` as its only cost.
fn of_run(dir: &Path, name: &str, pid: u64, cost: u64) -> PathBuf {
    let text = format!("version: 1\npid: {pid}\ncmd: ./app\nevents: Ir\nfn=main\n1 {cost}\n");
    write(dir, name, text.as_bytes())
}

fn json(args: &[&str]) -> (Value, String) {
    let out = Command::new(bin()).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    (serde_json::from_slice(&out.stdout).unwrap(), err)
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}

/// Case 5: `app-v1.2.3` beside `app-v1.2.4` of another run loads alone.
#[test]
fn another_run_beside_the_file_is_not_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let v3 = of_run(dir.path(), "app-v1.2.3", 100, 3);
    of_run(dir.path(), "app-v1.2.4", 200, 4);
    let (v, _) = json(&["report", "--json", &shown(&v3)]);
    assert_eq!(v["totals"]["Ir"], 3);
    assert_eq!(v["sources"], serde_json::json!([shown(&v3)]));
}

/// Case 6: a name that does not exist is an error even with its would-be
/// siblings beside it.
#[test]
fn a_missing_thread_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    of_run(dir.path(), "callgrind.out.1000", 1000, 1);
    of_run(dir.path(), "callgrind.out.1000-01", 1000, 2);
    let missing = dir.path().join("callgrind.out.1000-09");
    let out = Command::new(bin())
        .args(["report", &shown(&missing)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "cgtui: {}: No such file or directory (os error 2)\n",
            shown(&missing)
        )
    );
}

/// Case 7: a thread file that is a link to another, and a file named twice,
/// count once, with a warning.
#[test]
fn the_same_file_reached_twice_counts_once() {
    let dir = tempfile::tempdir().unwrap();
    let one = of_run(dir.path(), "callgrind.out.5-01", 5, 10);
    std::os::unix::fs::symlink(&one, dir.path().join("callgrind.out.5-02")).unwrap();
    std::fs::hard_link(&one, dir.path().join("callgrind.out.5-03")).unwrap();
    of_run(dir.path(), "callgrind.out.5-04", 5, 1);
    let (v, err) = json(&["report", "--json", &shown(&one)]);
    assert_eq!(v["totals"]["Ir"], 11, "{err}");
    assert_eq!(err.matches("loaded once").count(), 2, "{err}");
    let dotted = dir.path().join(".").join("callgrind.out.5-01");
    let (v, err) = json(&[
        "report",
        "--json",
        "--no-siblings",
        &shown(&one),
        &shown(&dotted),
    ]);
    assert_eq!(v["totals"]["Ir"], 10);
    assert_eq!(v["sources"], serde_json::json!([shown(&one)]));
    assert!(err.contains(&format!("{}: warning: the same file as", shown(&dotted))));
}

/// Case 11: names that would set the terminal's title and clear its screen
/// are shown escaped in every message: an invalid file, a missing file,
/// and the file `cgtui` picks by itself.
#[test]
fn names_never_reach_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    let name = "bad\x1b]0;pwned\x07\x1b[2J.callgrind";
    let bad = write(dir.path(), name, b"not a profile\n");
    let missing = dir.path().join("gone\x1b[31m\u{9b}2J");
    for (file, escaped) in [
        (&bad, "bad\\e]0;pwned\\x07\\e[2J.callgrind"),
        (&missing, "gone\\e[31m\\u{9b}2J"),
    ] {
        for command in ["report", "annotate"] {
            let out = Command::new(bin())
                .args([command, &shown(file)])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2));
            let err = String::from_utf8(out.stderr).unwrap();
            assert!(!err.contains(['\x1b', '\x07', '\u{9b}']), "{err:?}");
            assert!(err.contains(escaped), "{err:?}");
        }
    }
    // No FILE: the newest callgrind.out.* is the empty base file of two
    // runs, an error that names it before any terminal is needed.
    let picked = tempfile::tempdir().unwrap();
    let base = "callgrind.out.\x1b[2J";
    of_run(picked.path(), &format!("{base}-01"), 1, 1);
    of_run(picked.path(), &format!("{base}-02"), 2, 1);
    let empty = write(picked.path(), base, b"");
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&empty)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let out = std::process::Command::new(bin())
        .current_dir(picked.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains('\x1b'), "{err:?}");
    assert!(err.contains("callgrind.out.\\e[2J: "), "{err:?}");
    assert!(err.contains("several runs (pid 1, 2)"), "{err:?}");
}

/// Case 25: `--threshold` outside 0..=100 (or not a number) is refused by
/// the parser, naming the range.
#[test]
fn threshold_out_of_range_is_refused() {
    for command in ["report", "annotate"] {
        for value in ["nan", "inf", "-5", "150", "1e400"] {
            let out = Command::new(bin())
                .args([command, "samples/recursion.callgrind", "--threshold", value])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{command} {value}");
            assert!(out.stdout.is_empty());
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains(&format!("invalid value '{value}' for '--threshold <PCT>'"))
                    && err.contains("from 0 to 100"),
                "{err}"
            );
        }
    }
}

/// Peak resident memory (KiB) of `cgtui ARGS`, from `/usr/bin/time`.
fn peak_kib(args: &[&str]) -> u64 {
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "peak %M"])
        .arg(bin())
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // Where backtraces are asked for, a user error must still not take one.
        .env("RUST_BACKTRACE", "1")
        .env("RUST_LIB_BACKTRACE", "1")
        .stdout(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines()
        .find_map(|l| l.strip_prefix("peak "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{err}"))
}

/// Case 27: an error exit costs no more memory than a normal run of a small
/// file (no backtrace captured and symbolized for a user error; it took
/// 73 MiB against 4).
#[test]
fn an_error_costs_no_more_than_a_small_run() {
    crate::support::tools::require(&["/usr/bin/time"]);
    let normal = peak_kib(&["report", "samples/recursion.callgrind"]);
    for args in [
        &["report", "samples/recursion.callgrind", "--event", "Foo"][..],
        &[
            "annotate",
            "samples/recursion.callgrind",
            "--function",
            "nosuch",
        ],
        &["report", "samples/no-such-file"],
        &["report", "samples/recursion.callgrind", "--part", "9"],
    ] {
        let error = peak_kib(args);
        assert!(
            error <= normal + 2048,
            "{args:?}: peak {error} KiB, a normal small run {normal} KiB"
        );
    }
}

/// A panic (the test hook's broken view) with standard error full: the
/// panic report cannot be written, and the process still ends as a panic
/// (101) with the terminal restored, not SIGABRT (134). Run in `script`'s
/// pseudo-terminal.
#[test]
fn a_panic_with_standard_error_full_is_not_an_abort() {
    let inner = format!(
        "stty rows 24 cols 80; CGTUI_TEST_BREAK_VIEW=1 RUST_BACKTRACE=1 '{}' samples/recursion.callgrind 2>/dev/full",
        bin().display()
    );
    crate::support::tools::require(&["/usr/bin/script"]);
    let mut child = std::process::Command::new("/usr/bin/script")
        .args(["-qec", &inner, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // Kept open: the end of its input would be a hang-up.
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > super::run::SMALL {
            child.kill().unwrap();
            panic!("still running after {:?}", super::run::SMALL);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(101));
}
