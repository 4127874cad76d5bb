//! Folded stacks (`cgtui report --folded`): on every sample and every
//! event, the values add up to the event's total and the stacks ending in
//! a function add up to its self cost, pruned or not; the text is what
//! flamegraph tools read.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use cgtui::analysis::Analysis;
use cgtui::parse::{LoadOptions, load_paths};
use cgtui::profile::{Cost, FnId};
use cgtui::report::folded::{FoldedOptions, stacks};
use std::collections::HashMap;
use std::path::PathBuf;

fn samples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.ends_with(".callgrind") || name.ends_with(".cachegrind")
        })
        .collect();
    out.sort();
    assert!(out.len() > 20, "{out:?}");
    out
}

/// Checks both sums for every event of every sample with `max_paths`.
fn sums_hold(max_paths: usize) {
    for path in samples() {
        let p = load_paths(std::slice::from_ref(&path), LoadOptions::default()).unwrap();
        let a = Analysis::new(&p);
        for ev in 0..a.width {
            let options = FoldedOptions {
                event: ev,
                min: 0.0,
                max_paths,
                max_depth: cgtui::report::folded::DEFAULT_DEPTH,
            };
            let folded = stacks(&a, options);
            let what = format!("{} event {ev}", path.display());
            let s = &folded.stacks;
            let sum: i128 = s.iter().map(|s| i128::from(s.value)).sum();
            let total = sum + i128::from(folded.other) + i128::from(folded.unattributed);
            assert_eq!(total, i128::from(a.totals[ev]), "{what}");
            if max_paths >= a.function_count() {
                assert_eq!(folded.other, 0, "{what}");
            }
            let mut ending: HashMap<FnId, Cost> = HashMap::new();
            for stack in s {
                assert!(!stack.frames.is_empty(), "{what}");
                assert_ne!(stack.value, 0, "{what}");
                *ending.entry(*stack.frames.last().unwrap()).or_default() += stack.value;
            }
            // Every function is on its lines to the unit, or wholly in
            // `other`, with the smallest self costs.
            let mut other = 0;
            for f in 0..a.function_count() {
                let f = FnId(f as u32);
                match ending.get(&f) {
                    Some(&got) => assert_eq!(got, a.self_cost(f)[ev], "{what}: {}", p.fn_name(f)),
                    None => other += a.self_cost(f)[ev],
                }
            }
            assert_eq!(other, folded.other, "{what}");
            assert!(s.len() <= max_paths.max(1) * 2, "{what}: {} lines", s.len());
        }
    }
}

#[test]
fn every_sample_keeps_the_total_and_every_self_cost() {
    sums_hold(cgtui::report::DEFAULT_PATHS);
}

#[test]
fn pruning_to_a_few_paths_keeps_both_sums() {
    sums_hold(5);
    sums_hold(0);
    sums_hold(40);
}

fn folded(args: &[&str]) -> String {
    let out = Command::cargo_bin("cgtui")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("report")
        .arg("--folded")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Each line is `frames VALUE`, frames separated by `;`.
fn parse(text: &str) -> Vec<(Vec<String>, i64)> {
    text.lines()
        .map(|l| {
            let (stack, value) = l.rsplit_once(' ').unwrap();
            (
                stack.split(';').map(String::from).collect(),
                value.parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_text_is_sorted_lines_of_frames_and_a_value() {
    // samples/recursion.callgrind: Ir total 143,889 (its summary line;
    // the self costs add up to it);
    // main calls fib, which calls itself.
    let lines = parse(&folded(&["samples/recursion.callgrind"]));
    assert_eq!(lines.iter().map(|l| l.1).sum::<i64>(), 143_889);
    let text: Vec<String> = lines.iter().map(|l| l.0.join(";")).collect();
    let mut sorted = text.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(text, sorted);
    // fib's recursion is folded into one frame: no path repeats fib.
    let fib = lines
        .iter()
        .find(|l| l.0.last().map(String::as_str) == Some("fib"))
        .unwrap();
    assert!(fib.0.contains(&"main".to_string()), "{:?}", fib.0);
    assert!(
        lines
            .iter()
            .all(|l| l.0.iter().filter(|f| *f == "fib").count() <= 1)
    );
}

#[test]
fn min_keeps_only_paths_of_that_share_and_the_event_is_chosen() {
    let all = parse(&folded(&["samples/cachesim.callgrind"]));
    let few = parse(&folded(&["--min", "0.05", "samples/cachesim.callgrind"]));
    assert!(few.len() < all.len() / 4, "{} of {}", few.len(), all.len());
    let total = |l: &[(Vec<String>, i64)]| l.iter().map(|l| l.1).sum::<i64>();
    assert_eq!(total(&few), total(&all));
    let dr = parse(&folded(&["--event", "Dr", "samples/cachesim.callgrind"]));
    assert_ne!(total(&dr), total(&all));
    let report = Command::cargo_bin("cgtui")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["report", "--event", "Dr", "samples/cachesim.callgrind"])
        .output()
        .unwrap();
    let report = String::from_utf8(report.stdout).unwrap();
    let line = report
        .lines()
        .find(|l| l.ends_with("  Dr (program total)"))
        .unwrap();
    let dr_total: i64 = line
        .split_whitespace()
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    assert_eq!(total(&dr), dr_total);
}

#[test]
fn names_cannot_break_the_format_or_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odd.callgrind");
    std::fs::write(
        &path,
        "events: Ir\nfn=main\n1 1\ncfn=a;b \x1b]0;x\x07\ncalls=1 1\n1 5\nfn=a;b \x1b]0;x\x07\n1 5\n",
    )
    .unwrap();
    let text = folded(&[path.to_str().unwrap()]);
    assert_eq!(text, "main 1\nmain;a:b \\e]0:x\\x07 5\n");
}

#[test]
fn out_of_range_fractions_are_refused() {
    for bad in ["-0.1", "1.5", "nan"] {
        let out = Command::cargo_bin("cgtui")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "report",
                "--folded",
                "--min",
                bad,
                "samples/recursion.callgrind",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("from 0 to 1"), "{err}");
    }
}

/// From `cgtui report --json FILE` (the flat profile, not the stacks):
/// the total of `Ir` and the self cost of `Ir` per function name (the
/// functions of one name added: their frames read the same).
fn flat_ir(file: &str) -> (i64, HashMap<String, i64>) {
    let out = Command::cargo_bin("cgtui")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["report", "--json", file])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut selves = HashMap::new();
    for f in v["functions"].as_array().unwrap() {
        let own = f["self"]["Ir"].as_i64().unwrap_or(0);
        *selves
            .entry(f["name"].as_str().unwrap().to_string())
            .or_insert(0) += own;
    }
    (v["totals"]["Ir"].as_i64().unwrap(), selves)
}

/// Each line is `frames BASE NEW`, frames separated by `;`.
fn parse_two(text: &str) -> Vec<(Vec<String>, i64, i64)> {
    text.lines()
        .map(|l| {
            let (rest, new) = l.rsplit_once(' ').unwrap();
            let (stack, base) = rest.rsplit_once(' ').unwrap();
            (
                stack.split(';').map(String::from).collect(),
                base.parse().unwrap(),
                new.parse().unwrap(),
            )
        })
        .collect()
}

/// Pairs of samples: builds of one program, and two programs that share
/// only the C library (stacks of one side only).
const PAIRS: [(&str, &str); 3] = [
    (
        "samples/diff-jumps-O0.callgrind",
        "samples/diff-jumps-O2.callgrind",
    ),
    (
        "samples/diff-branches-16.callgrind",
        "samples/diff-branches-64.callgrind",
    ),
    ("samples/recursion.callgrind", "samples/cpp-names.callgrind"),
];

#[test]
fn folded_with_a_base_keeps_each_sides_total_and_self_costs() {
    for (base, new) in PAIRS {
        let lines = parse_two(&folded(&["--base", base, new]));
        let (base_total, base_self) = flat_ir(base);
        let (new_total, new_self) = flat_ir(new);
        assert_eq!(lines.iter().map(|l| l.1).sum::<i64>(), base_total, "{base}");
        assert_eq!(lines.iter().map(|l| l.2).sum::<i64>(), new_total, "{new}");
        // One line per stack, sorted.
        let text: Vec<String> = lines.iter().map(|l| l.0.join(";")).collect();
        let mut sorted = text.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(text, sorted, "{base} {new}");
        // Per function, the lines ending in it: its self cost each side.
        let mut ends: HashMap<&str, (i64, i64)> = HashMap::new();
        for (frames, b, n) in &lines {
            let e = ends.entry(frames.last().unwrap()).or_default();
            e.0 += b;
            e.1 += n;
        }
        let mut checked = 0;
        for name in base_self.keys().chain(new_self.keys()) {
            // Frames are printable and hold no `;`.
            if name.contains(';') || name.chars().any(char::is_control) {
                continue;
            }
            let want = (
                base_self.get(name).copied().unwrap_or(0),
                new_self.get(name).copied().unwrap_or(0),
            );
            assert_eq!(
                ends.get(name.as_str()).copied().unwrap_or_default(),
                want,
                "{name}"
            );
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
        // A stack through a function of one side only has 0 on the other.
        for (frames, b, n) in &lines {
            if frames.iter().any(|f| f.starts_with('[')) {
                continue;
            }
            if frames.iter().any(|f| !base_self.contains_key(f)) {
                assert_eq!(*b, 0, "{frames:?}");
            }
            if frames.iter().any(|f| !new_self.contains_key(f)) {
                assert_eq!(*n, 0, "{frames:?}");
            }
        }
        if base.contains("recursion") {
            assert!(
                lines
                    .iter()
                    .any(|l| l.0.last().unwrap() == "fib'2" && l.2 == 0)
            );
        }
    }
}

#[test]
fn folded_with_a_base_keeps_the_bounds_on_each_side() {
    let (base, new) = PAIRS[0];
    let (base_total, _) = flat_ir(base);
    let (new_total, _) = flat_ir(new);
    let out = Command::cargo_bin("cgtui")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "report",
            "--folded",
            "--max-depth",
            "3",
            "--max-paths",
            "20",
        ])
        .args(["--base", base, new])
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines = parse_two(&String::from_utf8(out.stdout).unwrap());
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(
        note.contains("of the base bounded") && note.contains("of the new profile bounded"),
        "{note}"
    );
    // The sums stay exact: what the cut leaves out is on the cut lines.
    assert_eq!(lines.iter().map(|l| l.1).sum::<i64>(), base_total);
    assert_eq!(lines.iter().map(|l| l.2).sum::<i64>(), new_total);
    let cut: Vec<_> = lines
        .iter()
        .filter(|l| l.0.last().unwrap() == "[deeper frames cut]")
        .collect();
    assert!(
        !cut.is_empty() && cut.iter().all(|l| l.0.len() == 4),
        "{cut:?}"
    );
    assert!(lines.iter().all(|l| l.0.len() <= 4), "{lines:?}");
    // At most 20 stacks a side (and the two extra lines of each).
    assert!(lines.iter().filter(|l| l.1 != 0).count() <= 22);
    assert!(lines.iter().filter(|l| l.2 != 0).count() <= 22);
}
