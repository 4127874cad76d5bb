//! The `cgtui` binary from the outside: `report` text and JSON, options,
//! and what bad input does to the exit status and the message.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cgtui() -> Command {
    let mut c = Command::cargo_bin("cgtui").unwrap();
    c.current_dir(root());
    c
}

fn stdout_of(args: &[&str]) -> String {
    let out = cgtui().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// callgrind_annotate's PROGRAM TOTALS for a sample, from its golden file.
fn golden_total(name: &str) -> i64 {
    let text =
        std::fs::read_to_string(root().join("tests/golden").join(format!("{name}.annotate")))
            .unwrap();
    let line = text.lines().find(|l| l.contains("PROGRAM TOTALS")).unwrap();
    line.split_whitespace()
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

#[test]
fn help_lists_the_report_command() {
    let out = stdout_of(&["--help"]);
    assert!(out.contains("report"));
    let out = stdout_of(&["report", "--help"]);
    for flag in [
        "--event",
        "--inclusive",
        "--threshold",
        "--limit",
        "--part",
        "--json",
    ] {
        assert!(out.contains(flag), "{flag}");
    }
}

/// What a newcomer meets: `cgtui` with no argument where there is no
/// profile says how to make one and where to read more, in a few lines.
#[test]
fn no_profile_says_how_to_make_one_in_a_few_lines() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("cgtui")
        .unwrap()
        .current_dir(dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.starts_with("cgtui: no profile"), "{stderr}");
    assert!(
        stderr.contains("valgrind --tool=callgrind ./app"),
        "{stderr}"
    );
    assert!(stderr.contains("cgtui callgrind.out.<pid>"), "{stderr}");
    assert!(stderr.contains("cgtui --help"), "{stderr}");
    assert!(stderr.lines().count() <= 6, "{stderr}");
}

#[test]
fn text_report_shows_totals_and_the_hottest_function_first() {
    let out = stdout_of(&["report", "samples/recursion.callgrind", "--limit", "3"]);
    let total = cgtui::format::thousands(golden_total("recursion.callgrind"));
    assert!(
        out.contains(&format!("{total}  Ir (program total)")),
        "{out}"
    );
    let rows: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("function (file)"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    // The hottest row in callgrind_annotate's golden is fib'2.
    assert!(rows[0].contains("fib'2"), "{}", rows[0]);
    // fib'2 is recursive but no member of a cycle; nor are the other two.
    assert!(!out.contains("<cycle"), "{out}");
}

#[test]
fn inclusive_sort_puts_the_root_first() {
    let out = stdout_of(&[
        "report",
        "samples/recursion.callgrind",
        "--inclusive",
        "--limit",
        "1",
    ]);
    let row = out
        .lines()
        .skip_while(|l| !l.contains("function (file)"))
        .nth(1)
        .unwrap();
    assert!(row.contains("100.00%"), "{row}");
}

#[test]
fn threshold_cuts_the_list() {
    let all = stdout_of(&[
        "report",
        "samples/recursion.callgrind",
        "--threshold",
        "100",
    ]);
    let half = stdout_of(&["report", "samples/recursion.callgrind", "--threshold", "50"]);
    let rows = |s: &str| {
        s.lines()
            .skip_while(|l| !l.contains("function (file)"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .count()
    };
    assert!(rows(&half) < rows(&all));
    assert!(rows(&half) >= 1);
}

#[test]
fn json_report_follows_the_schema() {
    let out = stdout_of(&["report", "--json", "samples/recursion.callgrind"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["events"], serde_json::json!(["Ir"]));
    assert_eq!(v["totals"]["Ir"], golden_total("recursion.callgrind"));
    let functions = v["functions"].as_array().unwrap();
    let fib2 = functions.iter().find(|f| f["name"] == "fib'2").unwrap();
    assert_eq!(fib2["file"], "samples/src/recursion.c");
    assert!(fib2["object"].as_str().unwrap().ends_with("recursion"));
    assert!(fib2["self"]["Ir"].as_i64().unwrap() > 0);
    assert!(fib2["inclusive"]["Ir"].as_i64().unwrap() >= fib2["self"]["Ir"].as_i64().unwrap());
    assert!(fib2["called"].as_u64().unwrap() > 0);
    let calls = v["calls"].as_array().unwrap();
    assert!(!calls.is_empty());
    for c in calls {
        let (a, b) = (c["caller"].as_u64().unwrap(), c["callee"].as_u64().unwrap());
        assert!((a as usize) < functions.len() && (b as usize) < functions.len());
        assert!(c["inclusive"]["Ir"].is_i64());
        assert!(c["count"].is_u64());
    }
    // `called` is the sum of the counts of the calls into a function.
    let idx = functions.iter().position(|f| f["name"] == "fib'2").unwrap() as u64;
    let into: u64 = calls
        .iter()
        .filter(|c| c["callee"] == idx)
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    assert_eq!(fib2["called"].as_u64().unwrap(), into);
}

#[test]
fn json_marks_derived_events() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.cg");
    std::fs::write(
        &path,
        "event: Sum = Ir + 2 Dr\nevents: Ir Dr\nfn=main\n1 10 3\n",
    )
    .unwrap();
    let out = stdout_of(&["report", "--json", path.to_str().unwrap()]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["events"], serde_json::json!(["Ir", "Dr", "Sum"]));
    assert_eq!(v["derived_events"], serde_json::json!(["Sum"]));
    assert_eq!(v["totals"]["Sum"], 16);
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let out = cgtui()
        .args(["report", "-"])
        .write_stdin("events: Ir\nfn=main\n3 42\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("42  Ir (program total)"));
}

/// The program total of a text report, `N  Ir (program total)`, as a number.
fn program_total(stdout: &[u8]) -> Option<u64> {
    let text = String::from_utf8_lossy(stdout);
    let line = text.lines().find(|l| l.ends_with("  Ir (program total)"))?;
    line.split_whitespace()
        .next()?
        .replace(',', "")
        .parse()
        .ok()
}

/// Standard input beside a big file the parallel loader gives up on (a line
/// it does not know, at the end): the files are read again sequentially,
/// which standard input cannot be, so it is not tried at all. (The text
/// report: its total is all this checks, where a JSON report of every
/// function took most of the test's time.)
#[test]
fn standard_input_beside_a_big_file_is_read_once() {
    use std::fmt::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.callgrind");
    let mut text = String::from("events: Ir\n");
    let mut i = 0;
    while text.len() < 5 << 20 {
        let _ = write!(text, "fn=f{i}\n1 1\n");
        i += 1;
    }
    text.push_str("bb=1\n");
    std::fs::write(&path, text).unwrap();
    let out = cgtui()
        .args(["report", "-", path.to_str().unwrap()])
        .write_stdin("events: Ir\nfn=main\n3 42\n")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(program_total(&out.stdout), Some(42 + i));
}

/// Where no copy can be made (a temporary directory that does not exist),
/// standard input is held in memory and loads all the same, per-line
/// costs read again from there.
#[test]
fn standard_input_loads_from_memory_where_no_copy_can_be_made() {
    let mut text = String::from("events: Ir\nfl=a.c\n");
    for i in 0..100_000 {
        text.push_str(&format!("fn=f{i}\n{} 2\n", i + 1));
    }
    let out = cgtui()
        .env("TMPDIR", "/nonexistent/cgtui-no-such-dir")
        .args(["annotate", "--function", "f99999", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("2  line 100000"), "{stdout}");
}

/// Standard input is copied to a temporary file to load in parallel: the
/// copy has no name in `$TMPDIR` from the moment it is open, so nothing is
/// left there while cgtui runs, after it exits, or after `kill -9`; and
/// the totals are those of the text.
#[test]
fn standard_input_leaves_no_temporary_file_behind() {
    use std::io::Write as _;
    use std::process::{Command as Process, Stdio};
    let tmp = tempfile::tempdir().unwrap();
    let entries = || std::fs::read_dir(tmp.path()).unwrap().count();
    let mut text = String::from("events: Ir\n");
    for i in 0..300_000 {
        text.push_str(&format!("fn=f{i}\n1 2\n"));
    }
    let out = cgtui()
        .env("TMPDIR", tmp.path())
        .args(["report", "-"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(program_total(&out.stdout), Some(600_000));
    assert_eq!(entries(), 0);
    // Killed while it copies a stream that has not ended.
    let mut child = Process::new(env!("CARGO_BIN_EXE_cgtui"))
        .env("TMPDIR", tmp.path())
        .args(["report", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(text.as_bytes()).unwrap();
    // The copy is there all the same, open and unlinked: waited for (it is
    // made once the first 256 KiB are read), with no name at any time.
    let copy = format!("{}/cgtui-", tmp.path().display());
    let start = std::time::Instant::now();
    loop {
        assert_eq!(entries(), 0, "a name in $TMPDIR while it copies");
        let open: Vec<String> = std::fs::read_dir(format!("/proc/{}/fd", child.id()))
            .unwrap()
            .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
            .map(|target| target.to_string_lossy().into_owned())
            .collect();
        if open
            .iter()
            .any(|t| t.starts_with(&copy) && t.ends_with("(deleted)"))
        {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "no unlinked copy open: {open:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(entries(), 0, "a name in $TMPDIR while it copies");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(entries(), 0);
}

#[test]
fn parts_can_be_chosen() {
    let all = stdout_of(&["report", "samples/threads/callgrind.out.1000-01", "--json"]);
    let one = stdout_of(&[
        "report",
        "samples/threads/callgrind.out.1000-01",
        "--json",
        "--part",
        "2",
    ]);
    let (all, one): (Value, Value) = (
        serde_json::from_str(&all).unwrap(),
        serde_json::from_str(&one).unwrap(),
    );
    assert_eq!(all["parts"].as_array().unwrap().len(), 4);
    assert_eq!(one["totals"]["Ir"], one["parts"][1]["totals"]["Ir"]);
    assert!(one["totals"]["Ir"].as_i64() < all["totals"]["Ir"].as_i64());
    let out = cgtui()
        .args(["report", "samples/recursion.callgrind", "--part", "9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no part 9"));
}

#[test]
fn unknown_event_names_the_known_ones() {
    let out = cgtui()
        .args(["report", "samples/recursion.callgrind", "--event", "Xyz"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Xyz") && err.contains("Ir"), "{err}");
}

/// Exit status 2 and one line naming the file, for everything that is not a profile.
#[test]
fn not_a_profile_is_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, "").unwrap();
    let binary = dir.path().join("binary");
    std::fs::write(
        &binary,
        (0..4096u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "hello\nthis is not a profile\n").unwrap();
    let missing = dir.path().join("missing");
    for path in [&empty, &binary, &text, &missing, &dir.path().to_path_buf()] {
        let out = cgtui()
            .args(["report", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", path.display());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "{}: {err}",
            path.display()
        );
        assert!(err.contains(path.to_str().unwrap()), "{err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn a_malformed_line_is_named_and_loading_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.cg");
    std::fs::write(&path, "events: Ir\nfn=main\n1 5\n1 five\n2 7\n").unwrap();
    let out = cgtui()
        .args(["report", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{}:4:", path.display())), "{err}");
    assert!(err.contains("1 line(s) skipped"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("12  Ir (program total)"));
}

/// cgtui only reads profiles and sources: their bytes and modification
/// times are the same after `report`, `report --json --lines` and `annotate`.
#[test]
fn files_read_are_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("p.callgrind");
    std::fs::copy(root().join("samples/inline.callgrind"), &profile).unwrap();
    let before = (
        std::fs::read(&profile).unwrap(),
        std::fs::metadata(&profile).unwrap().modified().unwrap(),
    );
    let p = profile.to_str().unwrap();
    for args in [
        vec!["report", p],
        vec!["report", "--json", "--lines", p],
        vec!["annotate", p, "-I", "samples/src"],
    ] {
        assert!(
            cgtui().args(&args).output().unwrap().status.success(),
            "{args:?}"
        );
    }
    let after = (
        std::fs::read(&profile).unwrap(),
        std::fs::metadata(&profile).unwrap().modified().unwrap(),
    );
    assert!(before == after, "the profile changed");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        vec![std::ffi::OsString::from("p.callgrind")],
        "nothing written beside it"
    );
}

/// The report says which files were loaded: the header and JSON `sources`
/// list the whole thread set when its empty base file is named, and leave
/// out a file of the set skipped as not a profile (its warning says so).
#[test]
fn the_files_loaded_are_listed() {
    let want: Vec<String> = (1..=4)
        .map(|t| format!("samples/threads/callgrind.out.1000-0{t}"))
        .collect();
    let base = "samples/threads/callgrind.out.1000";
    let v: Value = serde_json::from_str(&stdout_of(&["report", "--json", base])).unwrap();
    assert_eq!(v["sources"], serde_json::json!(want));
    let text = stdout_of(&["report", base]);
    let header = format!("Profile:     4 files: {}\n", want.join(", "));
    assert!(text.starts_with(&header), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("callgrind.out.7-01");
    std::fs::write(&good, "pid: 7\nevents: Ir\nfn=main\n1 5\n").unwrap();
    let stray = dir.path().join("callgrind.out.7-02");
    std::fs::write(&stray, format!("pid: 7\n{}", "garbage\n".repeat(30))).unwrap();
    let out = cgtui()
        .args(["report", "--json", good.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["sources"], serde_json::json!([good.to_str().unwrap()]));
    let skipped = v["diagnostics"].as_array().unwrap().iter().any(|d| {
        d["file"] == stray.to_str().unwrap()
            && d["severity"] == "warning"
            && d["message"].as_str().unwrap().starts_with("skipped")
    });
    assert!(skipped, "{:#}", v["diagnostics"]);
}

/// A user error is one plain line `cgtui: message` and status 2, even where
/// backtraces are asked for: no `0:`, no backtrace, no colour codes.
#[test]
fn user_errors_are_one_plain_line() {
    for (args, want) in [
        (
            &["report", "samples/recursion.callgrind", "--event", "Foo"][..],
            "cgtui: no event `Foo` in this profile (it has: Ir)\n",
        ),
        (
            &[
                "annotate",
                "samples/recursion.callgrind",
                "--function",
                "nosuch",
            ],
            "cgtui: no function named `nosuch` in this profile\n",
        ),
        (
            &["report", "samples/recursion.callgrind", "--part", "9"],
            "cgtui: no part 9: this profile has 1 part(s), numbered from 1\n",
        ),
    ] {
        let out = cgtui()
            .args(args)
            .env("RUST_BACKTRACE", "1")
            .env("RUST_LIB_BACKTRACE", "full")
            .env_remove("NO_COLOR")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{args:?}");
    }
}
