//! Comparisons (`--base OLD NEW`) given odd pairs (issue 37, point 3):
//! changes past 64 bits, two threads of one run, profiles with no event in
//! common, standard input named on both sides. Each runs the real binary
//! and checks the exact output or the one-line refusal and exit status 2.

use super::run::{bin, write};
use assert_cmd::Command;
use std::path::Path;

/// What one run printed, and its exit status.
struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], stdin: &[u8]) -> Out {
    let out = Command::new(bin())
        .args(args)
        .write_stdin(stdin.to_vec())
        .timeout(super::run::SMALL)
        .output()
        .unwrap();
    Out {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn shown(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

/// Refused: exit status 2, nothing on standard output, one line on
/// standard error.
fn refused(args: &[&str], stdin: &[u8]) -> String {
    let out = run(args, stdin);
    assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
    assert_eq!(out.stdout, "", "{args:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    out.stderr
}

/// The extreme pair: the lowest cost against the highest, both ways, in
/// the report (exact) and annotate (a bound, said so); the JSON gives both
/// sides as they are.
#[test]
fn the_widest_change_is_never_a_saturated_number() {
    let dir = tempfile::tempdir().unwrap();
    let side = |name: &str, cost: &str| {
        let text = format!("events: Ir\nfl=x.c\nfn=f\n1 {cost}\n");
        shown(&write(dir.path(), name, text.as_bytes()))
    };
    let (low, high) = (
        side("low", "-9223372036854775808"),
        side("high", "9223372036854775807"),
    );
    let up = run(&["report", "--base", &low, &high], b"");
    assert_eq!(up.code, Some(0), "{}", up.stderr);
    let row = |text: &str| -> Vec<String> {
        let line = text.lines().find(|l| l.ends_with("f (x.c)")).unwrap();
        line.split_whitespace().map(String::from).collect()
    };
    assert_eq!(
        row(&up.stdout)[..4],
        [
            "-9,223,372,036,854,775,808",
            "9,223,372,036,854,775,807",
            "+18,446,744,073,709,551,615",
            "-200.00%"
        ]
    );
    let down = run(&["report", "--base", &high, &low], b"");
    assert_eq!(row(&down.stdout)[2], "-18,446,744,073,709,551,615");
    let note = "A change written >= or <= reached the 64-bit limit: it is at least that large.";
    let a = run(&["annotate", "--base", &low, &high, "--function", "f"], b"");
    assert_eq!(a.code, Some(0), "{}", a.stderr);
    assert!(
        a.stdout.contains(">=+9,223,372,036,854,775,807  line 1"),
        "{}",
        a.stdout
    );
    assert!(a.stdout.trim_end().ends_with(note), "{}", a.stdout);
    let json = run(&["report", "--json", "--base", &low, &high], b"");
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["functions"][0]["self"]["Ir"], i64::MAX);
    assert_eq!(v["functions"][0]["base_self"]["Ir"], i64::MIN);
}

/// Two thread files of one run (`samples/threads`): each side is the file
/// named, not the whole run on both sides ("no change"); `--siblings`
/// asks for whole runs, and `--no-siblings` with it is refused by clap.
#[test]
fn two_threads_of_one_run_compare_as_two_threads() {
    let root = env!("CARGO_MANIFEST_DIR");
    let t = |n: u32| format!("{root}/samples/threads/callgrind.out.1000-0{n}");
    let (one, two) = (t(1), t(2));
    let total = |file: &str| -> i64 {
        let out = run(&["report", "--json", "--no-siblings", file], b"");
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        v["totals"]["Ir"].as_i64().unwrap()
    };
    let (a, b) = (total(&one), total(&two));
    assert_ne!(a, b);
    let out = run(&["report", "--json", "--base", &one, &two], b"");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["base"]["sources"], serde_json::json!([one]));
    assert_eq!(v["sources"], serde_json::json!([two]));
    assert_eq!(v["base"]["totals"]["Ir"], a);
    assert_eq!(v["totals"]["Ir"], b);
    let text = run(&["report", "--base", &one, &two], b"").stdout;
    assert!(text.starts_with(&format!("Base:        {one}\n")), "{text}");
    let change = format!("{}", b - a);
    assert!(
        text.replace(',', "").contains(&format!(" {change} ")),
        "{change} in\n{text}"
    );
    // annotate loads the same two sides.
    let out = run(
        &["annotate", "--base", &one, &two, "--function", "main"],
        b"",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    // Whole runs when asked: the same run on both sides, no change.
    let out = run(
        &["report", "--json", "--siblings", "--base", &one, &two],
        b"",
    );
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["sources"].as_array().unwrap().len(), 4);
    assert_eq!(v["totals"]["Ir"], v["base"]["totals"]["Ir"]);
    let out = run(
        &[
            "report",
            "--siblings",
            "--no-siblings",
            "--base",
            &one,
            &two,
        ],
        b"",
    );
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("cannot be used with"), "{}", out.stderr);
    // The empty base file Valgrind leaves is nothing alone: named as a
    // side (or with --no-siblings) it stands for its run.
    let run_name = format!("{root}/samples/threads/callgrind.out.1000");
    let out = run(&["report", "--json", "--base", &run_name, &two], b"");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["base"]["sources"].as_array().unwrap().len(), 4);
    assert_eq!(v["sources"], serde_json::json!([two]));
    let out = run(&["report", "--json", "--no-siblings", &run_name], b"");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["sources"].as_array().unwrap().len(), 4);
}

/// Profiles with no event in common: `report`, `annotate` (which printed
/// nothing and exited 0) and `report --json` refuse alike, naming both
/// files and their events.
#[test]
fn profiles_with_no_event_in_common_are_refused_alike() {
    let dir = tempfile::tempdir().unwrap();
    let ir = shown(&write(
        dir.path(),
        "ir.out",
        b"events: Ir\nfl=a.c\nfn=main\n1 5\n",
    ));
    let dr = shown(&write(
        dir.path(),
        "dr.out",
        b"events: Dr Dw\nfl=a.c\nfn=main\n1 5 6\n",
    ));
    let expected = format!(
        "cgtui: {ir} and {dr} have no event in common (base: Ir; new: Dr Dw): nothing to compare\n"
    );
    for command in [
        vec!["report", "--base", &ir, &dr],
        vec!["report", "--json", "--base", &ir, &dr],
        vec!["annotate", "--base", &ir, &dr],
        vec!["annotate", "--base", &ir, &dr, "--function", "main"],
        vec!["report", "--base", &ir, &dr, "--event", "Dr"],
    ] {
        assert_eq!(refused(&command, b""), expected, "{command:?}");
    }
}

/// `--base - -` read standard input twice and called a valid profile
/// "not a profile": refused before anything is read, by every command.
#[test]
fn standard_input_on_both_sides_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = shown(&write(dir.path(), "p.out", b"events: Ir\nfn=main\n1 5\n"));
    let profile = b"events: Ir\nfn=main\n1 5\n";
    let expected = "cgtui: standard input (`-`) is named on both sides of the comparison, and it can be read only once: save one side to a file\n";
    for command in [
        vec!["report", "--base", "-", "-"],
        vec!["annotate", "--base", "-", "-"],
        vec!["report", "--base", "-", "--base", &file, &file, "-"],
        vec!["--base", "-", "-"],
    ] {
        assert_eq!(refused(&command, profile), expected, "{command:?}");
    }
    // One side on standard input is fine.
    for command in [
        vec!["report", "--base", "-", &file],
        vec!["report", "--base", &file, "-"],
    ] {
        let out = run(&command, profile);
        assert_eq!(out.code, Some(0), "{command:?}: {}", out.stderr);
        assert!(out.stdout.contains("   0     0.00%  Ir"), "{}", out.stdout);
    }
}
