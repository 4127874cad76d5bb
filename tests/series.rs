//! `cgtui report --series` on real Callgrind runs of three builds of one
//! program (`support::runs`), against numbers read without cgtui (the
//! `totals:` lines, callgrind_annotate); and on series that mix events,
//! commands and a file that cannot be read.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::runs::{annotated, profiles, totals};
use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `cgtui report --series ARGS...` in the repository's root, in a UTF-8
/// locale unless `env` says otherwise: status, stdout, stderr.
fn series(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::cargo_bin("cgtui").unwrap();
    cmd.current_dir(root())
        .env_remove("CGTUI_ASCII")
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE")
        .env("LANG", "C.UTF-8");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .args(["report", "--series"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn run_paths() -> Vec<String> {
    profiles()
        .iter()
        .map(|p| p.to_str().unwrap().to_string())
        .collect()
}

fn function<'a>(doc: &'a Value, name: &str) -> &'a Value {
    (doc["functions"].as_array().unwrap().iter())
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in the series"))
}

#[test]
fn each_run_has_its_totals_and_each_function_its_costs() {
    let paths = run_paths();
    let args: Vec<&str> = paths.iter().map(String::as_str).chain(["--json"]).collect();
    let (status, out, err) = series(&args, &[]);
    assert_eq!(status, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["files"].as_array().unwrap().len(), 3);
    for (i, p) in profiles().iter().enumerate() {
        assert_eq!(doc["series_totals"][i]["Ir"], totals(p), "run {i}");
    }
    let hot = function(&doc, "hot");
    assert_eq!(hot["present"], serde_json::json!([true, true, true]));
    for (i, p) in profiles().iter().enumerate() {
        assert_eq!(hot["series"][i]["self"]["Ir"], annotated(p, "hot", false));
        assert_eq!(
            hot["series"][i]["inclusive"]["Ir"],
            annotated(p, "hot", true)
        );
    }
    let main = function(&doc, "main");
    for (i, p) in profiles().iter().enumerate() {
        assert_eq!(
            main["series"][i]["inclusive"]["Ir"],
            annotated(p, "main", true)
        );
    }
    // extra is in the last build only: zeros before it.
    let extra = function(&doc, "extra");
    assert_eq!(extra["present"], serde_json::json!([false, false, true]));
    assert_eq!(extra["series"][0]["self"]["Ir"], 0);
    assert_eq!(
        extra["series"][2]["self"]["Ir"],
        annotated(&profiles()[2], "extra", false)
    );
    // The largest change in the last run first: hot's.
    assert_eq!(doc["functions"][0]["name"], "hot");
}

#[test]
fn the_text_lists_runs_changes_and_a_trend() {
    let paths = run_paths();
    let args: Vec<&str> = paths.iter().map(String::as_str).collect();
    let (status, out, _) = series(&args, &[]);
    assert_eq!(status, 0);
    let [a, b, c] = profiles();
    let hot: Vec<i64> = [a, b, c]
        .iter()
        .map(|p| annotated(p, "hot", false))
        .collect();
    let row = out.lines().find(|l| l.contains(" hot (")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    let plain = |s: &str| s.replace([',', '+'], "").parse::<i64>().unwrap();
    assert_eq!(plain(cells[0]), hot[0]);
    assert_eq!(plain(cells[1]), hot[1]);
    assert_eq!(plain(cells[2]), hot[2]);
    assert_eq!(plain(cells[3]), hot[2] - hot[1], "{row}");
    assert_eq!(plain(cells[4]), hot[2] - hot[0], "{row}");
    // 10,012 -> 10,512 -> 40,012: low, low, high.
    assert_eq!(cells[6], "▁▁█", "{row}");
    let extra = out.lines().find(|l| l.contains(" extra (")).unwrap();
    assert!(extra.trim_start().starts_with("-"), "{extra}");
    // The total first, the hot function next.
    let first: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("trend"))
        .skip(1)
        .take(2)
        .collect();
    assert!(first[0].ends_with("(total)"), "{out}");
    assert!(first[1].contains(" hot ("), "{out}");
    // A C locale gets ASCII.
    let (_, ascii, _) = series(&args, &[("LANG", "C")]);
    let row = ascii.lines().find(|l| l.contains(" hot (")).unwrap();
    assert!(row.is_ascii(), "{row}");
    assert!(row.contains(" __# "), "{row}");
}

#[test]
fn runs_with_other_events_compare_the_common_ones_and_name_the_others() {
    // The same program with and without cache simulation.
    let (status, out, err) = series(
        &[
            "samples/jumps.callgrind",
            "samples/cachesim.callgrind",
            "--json",
        ],
        &[],
    );
    assert_eq!(status, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["events"], serde_json::json!(["Ir"]));
    let left: Vec<&str> = (doc["left_out"].as_array().unwrap().iter())
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert!(left.contains(&"D1mr") && left.contains(&"Bcm"), "{left:?}");
    assert_eq!(doc["left_out"][0]["runs"], serde_json::json!([1]));
    let (_, text, _) = series(
        &["samples/jumps.callgrind", "samples/cachesim.callgrind"],
        &[],
    );
    assert!(text.contains("Left out:    Dr (only in run 2)"), "{text}");
    // An event of one run only cannot be chosen.
    let (status, _, err) = series(
        &[
            "samples/jumps.callgrind",
            "samples/cachesim.callgrind",
            "--event",
            "Dr",
        ],
        &[],
    );
    assert_eq!(status, 2);
    assert!(err.contains("no event `Dr` in every run"), "{err}");
}

#[test]
fn another_command_warns_and_an_unreadable_file_is_named_and_left_out() {
    let (status, out, err) = series(
        &[
            "samples/diff-branches-64.callgrind",
            "samples/no-such-run.callgrind",
            "samples/diff-branches-O2.callgrind",
        ],
        &[],
    );
    assert_eq!(status, 2);
    assert!(
        err.contains("no-such-run.callgrind") && err.contains("left out of the series"),
        "{err}"
    );
    assert!(err.contains("ran another command"), "{err}");
    assert!(err.contains("branches_O2 64"), "{err}");
    // The two others are reported whole.
    assert!(out.contains("run 1 (base)  samples/diff-branches-64.callgrind"));
    assert!(out.contains("run 2         samples/diff-branches-O2.callgrind"));
    let total = out.lines().find(|l| l.ends_with("(total)")).unwrap();
    // callgrind_annotate's totals of the two samples (tests/golden).
    let golden = |name: &str| {
        let text =
            std::fs::read_to_string(root().join("tests/golden").join(format!("{name}.annotate")))
                .unwrap();
        let line = text.lines().find(|l| l.contains("PROGRAM TOTALS")).unwrap();
        line.split_whitespace().next().unwrap().to_string()
    };
    let cells: Vec<&str> = total.split_whitespace().collect();
    assert_eq!(cells[0], golden("diff-branches-64.callgrind"), "{total}");
    assert_eq!(cells[1], golden("diff-branches-O2.callgrind"), "{total}");
    // Nothing readable at all is an error alone.
    let (status, out, err) = series(&["samples/no-such-run.callgrind"], &[]);
    assert_eq!(status, 2);
    assert!(out.is_empty());
    assert!(err.contains("no file of the series could be read"), "{err}");
}

/// docs/check.md's series example is what the command prints on the
/// bundled samples (`CGTUI_UPDATE_DOCS=1` writes it again).
#[test]
fn the_documented_series_is_the_commands_output() {
    let (status, out, _) = series(
        &[
            "samples/diff-branches-16.callgrind",
            "samples/diff-branches-64.callgrind",
            "samples/diff-branches-O2.callgrind",
            "--limit",
            "6",
        ],
        &[],
    );
    assert_eq!(status, 0);
    let command = "$ cgtui report --series samples/diff-branches-16.callgrind \\\n    \
                   samples/diff-branches-64.callgrind samples/diff-branches-O2.callgrind --limit 6\n";
    crate::docs::section(
        &root().join("docs/check.md"),
        "<!-- series-text -->\n",
        "<!-- /series-text -->",
        &format!("```text\n{command}{out}```\n"),
    );
}
