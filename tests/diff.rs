//! `cgtui report --base OLD NEW`: the change per function against what
//! Valgrind's own cg_diff wrote (samples/branches-diff.cachegrind, made by
//! samples/regenerate.sh), each side's numbers against its own report, and
//! matching across profiles.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::cli;

use cli::{error_of, stdout_of};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

type Costs = BTreeMap<String, i64>;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

fn costs(v: &Value) -> Costs {
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_i64().unwrap()))
        .collect()
}

fn key(f: &Value) -> (String, String) {
    (
        f["name"].as_str().unwrap().to_string(),
        f["file"].as_str().unwrap().to_string(),
    )
}

#[test]
fn the_change_per_function_is_what_cg_diff_writes() {
    let base = "samples/branches.cachegrind";
    let new = "samples/branches-n16.cachegrind";
    let ours = json(&["report", "--json", "--base", base, new]);
    let theirs = json(&["report", "--json", "samples/branches-diff.cachegrind"]);
    let mut expected: BTreeMap<(String, String), Costs> = BTreeMap::new();
    for f in theirs["functions"].as_array().unwrap() {
        let c = costs(&f["self"]);
        if c.values().any(|&v| v != 0) {
            expected.insert(key(f), c);
        }
    }
    let mut got: BTreeMap<(String, String), Costs> = BTreeMap::new();
    for f in ours["functions"].as_array().unwrap() {
        let (now, before) = (costs(&f["self"]), costs(&f["base_self"]));
        let change: Costs = now
            .iter()
            .map(|(e, v)| (e.clone(), v - before[e]))
            .collect();
        if change.values().any(|&v| v != 0) {
            got.insert(key(f), change);
        }
    }
    assert!(
        expected.len() >= 5,
        "cg_diff changed 7 functions: {expected:?}"
    );
    assert_eq!(got, expected);
}

/// Each side's numbers in a comparison are what the side reports alone.
fn sides_are_their_own_reports(base: &str, new: &str) {
    let both = json(&["report", "--json", "--base", base, new]);
    let alone = |file: &str| {
        let r = json(&["report", "--json", file]);
        let by_key: BTreeMap<(String, String, String), (Costs, Costs)> = r["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let k = key(f);
                let object = f["object"].as_str().unwrap().to_string();
                (
                    (k.0, k.1, object),
                    (costs(&f["self"]), costs(&f["inclusive"])),
                )
            })
            .collect();
        (r["totals"].clone(), by_key)
    };
    let (base_totals, base_fns) = alone(base);
    let (new_totals, new_fns) = alone(new);
    assert_eq!(both["base"]["totals"], base_totals);
    assert_eq!(both["totals"], new_totals);
    let functions = both["functions"].as_array().unwrap();
    let (mut from_base, mut from_new) = (0, 0);
    for f in functions {
        let status = f["status"].as_str().unwrap();
        let object = f["object"].as_str().unwrap().to_string();
        let k = key(f);
        if status != "removed" {
            let (s, i) = &new_fns[&(k.0.clone(), k.1.clone(), object.clone())];
            assert_eq!(
                (&costs(&f["self"]), &costs(&f["inclusive"])),
                (s, i),
                "{k:?}"
            );
            from_new += 1;
        }
        if status == "removed" {
            let (s, i) = &base_fns[&(k.0.clone(), k.1.clone(), object)];
            assert_eq!(
                (&costs(&f["base_self"]), &costs(&f["base_inclusive"])),
                (s, i)
            );
        }
        if status != "added" {
            from_base += 1;
        }
    }
    assert_eq!(
        from_new,
        new_fns.len(),
        "every function of the new profile once"
    );
    assert_eq!(from_base, base_fns.len(), "every function of the base once");
    // The sums of each side's self costs are its totals.
    for (side, field, totals) in [
        ("base", "base_self", &base_totals),
        ("new", "self", &new_totals),
    ] {
        for (event, total) in totals.as_object().unwrap() {
            let sum: i64 = functions
                .iter()
                .map(|f| f[field][event].as_i64().unwrap())
                .sum();
            assert!(sum <= total.as_i64().unwrap(), "{side} {event}");
        }
    }
}

#[test]
fn each_side_is_what_it_reports_alone() {
    // Pairs made by samples/regenerate.sh: Cachegrind with two inputs; one
    // program with two inputs; -O0 against -O2; instruction level; C++ at
    // two optimisation levels; and two different programs.
    for (base, new) in [
        ("branches.cachegrind", "branches-n16.cachegrind"),
        ("diff-branches-64.callgrind", "diff-branches-16.callgrind"),
        ("diff-branches-64.callgrind", "diff-branches-O2.callgrind"),
        ("diff-jumps-O0.callgrind", "diff-jumps-O2.callgrind"),
        ("cpp-names.callgrind", "diff-cpp-O2.callgrind"),
        ("recursion.callgrind", "rust-names.callgrind"),
    ] {
        sides_are_their_own_reports(&format!("samples/{base}"), &format!("samples/{new}"));
    }
}

#[test]
fn a_profile_compared_with_itself_shows_no_change() {
    for file in ["samples/cpp-names.callgrind", "samples/branches.cachegrind"] {
        let report = stdout_of(&["report", "--base", file, file]);
        let listing: Vec<&str> = report
            .lines()
            .skip_while(|l| !l.contains("function (file) [object]"))
            .skip(1)
            .collect();
        assert!(listing.is_empty(), "{report}");
        let v = json(&["report", "--json", "--base", file, file]);
        for f in v["functions"].as_array().unwrap() {
            assert_eq!(f["status"], "both");
            assert_eq!(f["self"], f["base_self"]);
            assert_eq!(f["inclusive"], f["base_inclusive"]);
        }
        for c in v["calls"].as_array().unwrap() {
            assert_eq!(
                (&c["count"], &c["inclusive"]),
                (&c["base_count"], &c["base_inclusive"])
            );
        }
    }
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn functions_of_one_side_are_marked_new_or_gone() {
    let dir = tempfile::tempdir().unwrap();
    let base = write(
        dir.path(),
        "a.cg",
        "events: Ir\nfl=a.c\nfn=main\n1 10\nfn=old\n1 40\n",
    );
    let new = write(
        dir.path(),
        "b.cg",
        "events: Ir\nfl=a.c\nfn=main\n1 12\nfn=fresh\n1 25\n",
    );
    let report = stdout_of(&["report", "--base", &base, &new]);
    let rows: Vec<Vec<&str>> = report
        .lines()
        .skip_while(|l| !l.contains("function (file) [object]"))
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows,
        [
            vec!["40", "0", "-40", "-80.00%", "old", "(a.c)", "gone"],
            vec!["0", "25", "+25", "+50.00%", "fresh", "(a.c)", "new"],
            vec!["10", "12", "+2", "+4.00%", "main", "(a.c)"],
        ]
    );
    assert!(
        report.contains("50 37 -13 -26.00%  Ir") || report.contains("-13"),
        "{report}"
    );
    let v = json(&["report", "--json", "--base", &base, &new]);
    let status: Vec<(&str, &str)> = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["name"].as_str().unwrap(), f["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        status,
        [("main", "both"), ("fresh", "added"), ("old", "removed")]
    );
}

#[test]
fn rewrites_match_renamed_functions() {
    let dir = tempfile::tempdir().unwrap();
    let base = write(
        dir.path(),
        "a.cg",
        "events: Ir\nfl=v1/a.c\nfn=work_v1\n1 10\n",
    );
    let new = write(
        dir.path(),
        "b.cg",
        "events: Ir\nfl=v2/a.c\nfn=work_v2\n1 15\n",
    );
    let plain = json(&["report", "--json", "--base", &base, &new]);
    assert_eq!(plain["functions"].as_array().unwrap().len(), 2);
    let v = json(&[
        "report",
        "--json",
        "--base",
        &base,
        &new,
        "--mod-funcname",
        "s/_v[0-9]$//",
    ]);
    let functions = v["functions"].as_array().unwrap();
    assert_eq!(functions.len(), 1, "{v}");
    assert_eq!(functions[0]["status"], "both");
    assert_eq!(
        (
            functions[0]["base_self"]["Ir"].as_i64(),
            functions[0]["self"]["Ir"].as_i64()
        ),
        (Some(10), Some(15))
    );
    let bad = error_of(&["report", "--base", &base, &new, "--mod-funcname", "s/(/x/"]);
    assert!(bad.contains("--mod-funcname"), "{bad}");
}

#[test]
fn events_of_one_profile_only_are_left_out_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let base = write(dir.path(), "a.cg", "events: Ir Dr\nfn=main\n1 10 4\n");
    let new = write(dir.path(), "b.cg", "events: Ir Dw\nfn=main\n1 12 3\n");
    let report = stdout_of(&["report", "--base", &base, &new]);
    assert!(
        report.contains("Left out:    Dr (only in the base profile)"),
        "{report}"
    );
    assert!(
        report.contains("Left out:    Dw (only in the new profile)"),
        "{report}"
    );
    let v = json(&["report", "--json", "--base", &base, &new]);
    assert_eq!(
        v["base"]["events_left_out"],
        serde_json::json!([{"name": "Dr", "only_in": "base"}, {"name": "Dw", "only_in": "new"}])
    );
    let e = error_of(&["report", "--base", &base, &new, "--event", "Dw"]);
    assert!(
        e.contains("no event `Dw` in both profiles (they have in common: Ir)"),
        "{e}"
    );
}

#[test]
fn annotate_shows_the_change_of_every_line() {
    let (base, new) = (
        "samples/diff-branches-64.callgrind",
        "samples/diff-branches-O2.callgrind",
    );
    let text = stdout_of(&["annotate", "--base", base, new, "--function", "main"]);
    assert!(
        text.contains("-52,029              matrix[i][j] = i * N + j;"),
        "{text}"
    );
    // The lines' changes add up to main's change of self cost, which each
    // side's own report gives: 18,064 - 86,044.
    let sum: i64 = text
        .lines()
        .filter(|l| !l.contains("=>") && !l.starts_with("--"))
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|cell| cell.replace(',', "").parse::<i64>().ok())
        .sum();
    let own = |file: &str| {
        let v = json(&["report", "--json", file]);
        v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == "main")
            .unwrap()["self"]["Ir"]
            .as_i64()
            .unwrap()
    };
    assert_eq!(sum, own(new) - own(base));
    assert_eq!(sum, 18_064 - 86_044);
}

#[test]
fn each_side_is_its_selected_parts() {
    let set = "samples/dumps/callgrind.out.1000";
    let alone = json(&["report", "--json", set]);
    let part = |i: usize| alone["parts"][i]["totals"]["Ir"].as_i64().unwrap();
    let v = json(&[
        "report",
        "--json",
        "--siblings",
        "--base",
        set,
        set,
        "--base-part",
        "2",
        "--part",
        "3",
    ]);
    assert_eq!(v["base"]["totals"]["Ir"].as_i64(), Some(part(1)));
    assert_eq!(v["totals"]["Ir"].as_i64(), Some(part(2)));
    assert_ne!(part(1), part(2));
}

/// Writes `text` as `dir/name` and gives its path.
fn profile(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// A change needs 65 bits where a cost has 64: from a cost of -9e18 (as
/// `cg_diff` writes them) to +9e18 it is +18e18, which 64 bits saturated
/// to `+9,223,372,036,854,775,807` (and `-102.48%` of the base) as if real.
/// The report now counts it exactly, in the totals and per function.
#[test]
fn a_change_beyond_64_bits_is_counted_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let body = |main: &str, other: u32| {
        format!("events: Ir\nfl=a.c\nfn=main\n1 {main}\nfn=other\n2 {other}\n")
    };
    let base = profile(dir.path(), "base", &body("-9000000000000000000", 5));
    let new = profile(dir.path(), "new", &body("9000000000000000000", 7));
    let text = stdout_of(&["report", "--base", &base, &new, "--threshold", "100"]);
    let line = |end: &str| {
        text.lines()
            .find(|l| l.ends_with(end) && !l.starts_with("Events:"))
            .unwrap_or_else(|| panic!("no line ending {end:?} in\n{text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert_eq!(
        line("Ir"),
        [
            "-8,999,999,999,999,999,995",
            "9,000,000,000,000,000,007",
            "+18,000,000,000,000,000,002",
            "-200.00%",
            "Ir"
        ]
    );
    assert_eq!(
        line("main (a.c)"),
        [
            "-9,000,000,000,000,000,000",
            "9,000,000,000,000,000,000",
            "+18,000,000,000,000,000,000",
            "-200.00%",
            "main",
            "(a.c)"
        ]
    );
    assert_eq!(line("other (a.c)")[2], "+2");
    assert!(!text.contains("9,223,372,036,854,775,807"), "{text}");

    // The widest change there is: from the lowest cost to the highest.
    let low = profile(dir.path(), "low", &body("-9223372036854775808", 0));
    let high = profile(dir.path(), "high", &body("9223372036854775807", 0));
    let text = stdout_of(&["report", "--base", &low, &high]);
    assert!(text.contains(" +18,446,744,073,709,551,615 "), "{text}");
    let text = stdout_of(&["report", "--base", &high, &low]);
    assert!(text.contains(" -18,446,744,073,709,551,615 "), "{text}");
}
