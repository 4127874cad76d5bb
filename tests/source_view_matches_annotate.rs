//! The TUI's source view and `cgtui annotate --function` show the same
//! numbers for the same function: every line's cost and every call line.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;

use assert_cmd::Command;
use std::collections::BTreeMap;
use support::{press, render, sample_app, text};

/// `line -> cost` and `(callee, count) -> cost` as written with separators.
type Costs = (BTreeMap<u64, String>, BTreeMap<(String, String), String>);

/// From the source view: `  9,860    9 │ {` and `   │ => fib'2 (1,970×) 256,216`.
fn from_screen(screen: &str) -> Costs {
    let mut lines = BTreeMap::new();
    let mut calls = BTreeMap::new();
    for row in screen.lines() {
        let Some((left, right)) = row.split_once('│') else {
            continue;
        };
        let fields: Vec<&str> = left.split_whitespace().collect();
        if let Some(call) = right.trim_start().strip_prefix("=> ") {
            let (callee, rest) = call.split_once(" (").unwrap();
            let (count, cost) = rest.split_once("×) ").unwrap();
            // A recursive call's cost is followed by words saying so.
            let cost = cost.split_whitespace().next().unwrap_or("");
            calls.insert((callee.to_string(), count.to_string()), cost.to_string());
        } else if let [cost, line] = fields[..]
            && let Ok(line) = line.parse()
        {
            lines.insert(line, cost.to_string());
        }
    }
    (lines, calls)
}

/// What `annotate` writes after a recursive call's count.
const RECURSIVE: &str = " ↻ recursive (cost includes nested calls)";

/// From `cgtui annotate --function F --context 100000`: the section of
/// `file`, which starts at its line 1 (whole-file context).
fn from_annotate(out: &str, file: &str) -> Costs {
    let mut lines = BTreeMap::new();
    let mut calls = BTreeMap::new();
    let section = out.split(&format!("-- Source: {file}\n")).nth(1).unwrap();
    let mut n = 0;
    // After the rule: maybe a warning (a fresh checkout makes every source
    // newer than the profile), then the events header.
    let rows = section
        .lines()
        .skip(1)
        .skip_while(|l| l.starts_with("warning:"))
        .skip(1);
    for row in rows {
        if row.starts_with("---") || row.is_empty() {
            break;
        }
        let trimmed = row.trim_start();
        if trimmed.starts_with("jcnd ") || trimmed.starts_with("jump ") {
            continue; // a jump line under its source line, not a line of the file
        }
        let (cost, rest) = trimmed.split_once("  ").unwrap_or((row.trim(), ""));
        if let Some(call) = rest.strip_prefix("=> ") {
            // A call to itself or within its cycle is marked so.
            let call = call.trim_end_matches(RECURSIVE);
            let (callee, count) = call.rsplit_once(" (").unwrap();
            let name = callee.rsplit_once(':').map_or(callee, |(_, n)| n);
            calls.insert(
                (name.to_string(), count.trim_end_matches("×)").to_string()),
                cost.to_string(),
            );
            continue;
        }
        n += 1;
        if cost != "." {
            lines.insert(n, cost.to_string());
        }
    }
    (lines, calls)
}

/// The file the view shows: `Source of F — ./path [file 1/2, ...] — ...`.
fn shown_file(screen: &str) -> (String, usize) {
    let title = screen
        .lines()
        .find(|l| l.starts_with("Source of "))
        .unwrap();
    let path = title.split(" — ").nth(1).unwrap();
    let files = path
        .split_once(" [file ")
        .and_then(|(_, rest)| rest.split_once('/'))
        .and_then(|(_, n)| n.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let path = path.split(" [").next().unwrap();
    (path.trim_start_matches("./").to_string(), files)
}

#[test]
fn source_view_and_annotate_agree() {
    let mut compared = 0;
    for (sample, function) in [
        ("inline.callgrind", "work"),
        ("inline.callgrind", "main"),
        ("recursion.callgrind", "fib'2"),
        ("jumps-lines.callgrind", "classify"),
    ] {
        let out = Command::cargo_bin("cgtui")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "annotate",
                &format!("samples/{sample}"),
                "--function",
                function,
                "--context",
                "100000",
            ])
            .output()
            .unwrap();
        let annotate = String::from_utf8(out.stdout).unwrap();
        let mut app = sample_app(sample);
        press(&mut app, &format!("/{function}<Enter>s"));
        let mut screen = text(&render(&mut app, 120, 200));
        let (_, files) = shown_file(&screen);
        for _ in 0..files {
            let (file, _) = shown_file(&screen);
            let (screen_lines, screen_calls) = from_screen(&screen);
            let (annotated_lines, annotated_calls) = from_annotate(&annotate, &file);
            assert!(!annotated_lines.is_empty(), "{sample} {function} {file}");
            assert_eq!(
                screen_lines, annotated_lines,
                "{sample} {function} {file}: line costs"
            );
            assert_eq!(
                screen_calls, annotated_calls,
                "{sample} {function} {file}: call lines"
            );
            compared += 1;
            press(&mut app, "<Tab>");
            screen = text(&render(&mut app, 120, 200));
        }
    }
    assert!(compared >= 5, "{compared}");
}
