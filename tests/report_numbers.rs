//! The numbers `cgtui report` lists: `cg_diff` files sorted and cut by size,
//! `<cycle N>` rows with their callers and callees (text and JSON), and call
//! counts the profile does not know shown as `?`. Expected numbers are worked
//! out by hand or read from callgrind_annotate's goldens.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::cli;

use cli::stdout_of;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The listing's rows: (self, self %, incl, incl %, calls, function).
fn rows(report: &str) -> Vec<Vec<String>> {
    report
        .lines()
        .skip_while(|l| !l.contains(" self ") || !l.contains("function"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let mut fields: Vec<String> = l.split_whitespace().map(String::from).collect();
            let name = fields.split_off(5).join(" ");
            fields.push(name);
            fields
        })
        .collect()
}

/// A cg_diff-style file: functions that changed by +300, +200, -200, -100
/// and +50 instructions (total +250).
fn diff_file(dir: &Path) -> PathBuf {
    let path = dir.join("diff.cachegrind");
    let text = "desc: Files compared:   a; b\ncmd:  a; b\nevents: Ir\n\
                fl=d.c\nfn=grew\n0 300\nfn=lost\n0 -200\nfn=more\n0 200\n\
                fn=less\n0 -100\nfn=bit\n0 50\nsummary: 250\n";
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_diff_is_sorted_and_cut_by_size_and_shows_its_losses() {
    let dir = tempfile::tempdir().unwrap();
    let path = diff_file(dir.path());
    let out = stdout_of(&["report", path.to_str().unwrap()]);
    let got = rows(&out);
    // By size: 300, 200 and -200 (equal size, by name), -100, 50. The sum of
    // the sizes is 850; the running sum reaches 99% of it only after the
    // last. Percentages are of the total, +250; inclusive = self (no calls).
    let expected = [
        ["300", "120.00%", "300", "120.00%", "0", "grew (d.c)"],
        ["-200", "-80.00%", "-200", "-80.00%", "0", "lost (d.c)"],
        ["200", "80.00%", "200", "80.00%", "0", "more (d.c)"],
        ["-100", "-40.00%", "-100", "-40.00%", "0", "less (d.c)"],
        ["50", "20.00%", "50", "20.00%", "0", "bit (d.c)"],
    ];
    assert_eq!(got, expected.map(|r| r.map(String::from).to_vec()), "{out}");
    // --threshold 50: 300 + 200 = 500 of 850 covers 58.8% after two rows.
    let out = stdout_of(&["report", "--threshold", "50", path.to_str().unwrap()]);
    let names: Vec<String> = rows(&out).into_iter().map(|r| r[5].clone()).collect();
    assert_eq!(names, ["grew (d.c)", "lost (d.c)"]);
    // --inclusive --threshold 80: sizes of at least 20% of 850 = 170.
    let out = stdout_of(&[
        "report",
        "--inclusive",
        "--threshold",
        "80",
        path.to_str().unwrap(),
    ]);
    let names: Vec<String> = rows(&out).into_iter().map(|r| r[5].clone()).collect();
    assert_eq!(names, ["grew (d.c)", "lost (d.c)", "more (d.c)"]);
}

#[test]
fn a_diff_never_caps_inclusive_below_self() {
    // The shape of issue 10's `____strtol_l_internal`: I1mr +8 against a
    // diff total of +5 (another function lost 3), which used to cap its
    // inclusive cost at 5.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("strtol.cachegrind");
    let text = "desc: Files compared:   a; b\ncmd:  a; b\nevents: Ir I1mr\n\
                fl=strtol_l.c\nfn=____strtol_l_internal\n0 40 8\n\
                fl=x.c\nfn=other\n0 -90 -3\nsummary: -50 5\n";
    std::fs::write(&path, text).unwrap();
    let out = stdout_of(&["report", "--event", "I1mr", path.to_str().unwrap()]);
    let got = rows(&out);
    assert_eq!(&got[0][..4], ["8", "160.00%", "8", "160.00%"], "{out}");
    let json: Value =
        serde_json::from_str(&stdout_of(&["report", "--json", path.to_str().unwrap()])).unwrap();
    let f = &json["functions"][0];
    assert_eq!(f["name"], "____strtol_l_internal");
    assert_eq!(
        (&f["self"]["I1mr"], &f["inclusive"]["I1mr"]),
        (&8.into(), &8.into())
    );
}

#[test]
fn a_zero_share_of_a_negative_total_is_not_negative_zero() {
    // branches-diff: D1mr total -1; with a floor of 0% every function is
    // listed, most with a D1mr change of 0.
    let out = stdout_of(&[
        "report",
        "--event",
        "D1mr",
        "--inclusive",
        "--threshold",
        "100",
        "samples/branches-diff.cachegrind",
    ]);
    assert!(out.contains(" 0.00% "), "{out}");
    assert!(!out.contains("-0.00%"), "{out}");
}

#[test]
fn cycles_are_rows_with_their_callers_and_callees() {
    // cycle-entry: step'2 <-> vdbe_exec'2, entered 20 times from vdbe_exec
    // for 90,940 Ir (callgrind_annotate's `<` row), leaving to leaf 80 times;
    // members' self 720 + 1,260 (its self golden), the costlier named first.
    let out = stdout_of(&["report", "--inclusive", "samples/cycle-entry.callgrind"]);
    let got = rows(&out);
    let cycle = got
        .iter()
        .find(|r| r[5] == "<cycle 1>")
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!([&cycle[0], &cycle[2], &cycle[4]], ["1,980", "90,940", "20"]);
    let step = got
        .iter()
        .find(|r| r[5].starts_with("step'2 "))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!([&step[0], &step[2]], ["720", "90,940"]);
    assert!(
        out.contains(
            "  <cycle 1>  self 1,980  incl 90,940  called 20  members: vdbe_exec'2, step'2\n    \
             callers: vdbe_exec (20×)\n    callees: leaf (80×)\n"
        ),
        "{out}"
    );

    let json: Value = serde_json::from_str(&stdout_of(&[
        "report",
        "--json",
        "samples/cycle-entry.callgrind",
    ]))
    .unwrap();
    let name = |i: &Value| json["functions"][i.as_u64().unwrap() as usize]["name"].clone();
    let ends = |key: &str, end: &str| -> Vec<(Value, Value)> {
        json["cycles"][0][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let call = &json["calls"][e.as_u64().unwrap() as usize];
                (name(&call[end]), call["count"].clone())
            })
            .collect()
    };
    assert_eq!(ends("callers", "caller"), [("vdbe_exec".into(), 20.into())]);
    assert_eq!(ends("callees", "callee"), [("leaf".into(), 80.into())]);
    assert_eq!(json["cycles"][0]["inclusive"]["Ir"], 90_940);
    assert_eq!(json["cycles"][0]["self"]["Ir"], 1_980);
}

#[test]
fn unknown_call_counts_print_as_a_question_mark() {
    // xtree-memory: every edge is `calls=0 LINE`; make_list is called.
    let out = stdout_of(&["report", "samples/xtree-memory.callgrind"]);
    let make_list = rows(&out)
        .into_iter()
        .find(|r| r[5].starts_with("make_list "))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(make_list[4], "?", "{out}");
    // JSON keeps the integer 0 (docs/report.md: 0 means unknown).
    let json: Value = serde_json::from_str(&stdout_of(&[
        "report",
        "--json",
        "samples/xtree-memory.callgrind",
    ]))
    .unwrap();
    let calls = json["calls"].as_array().unwrap();
    assert!(!calls.is_empty());
    assert!(calls.iter().all(|c| c["count"] == 0));
}

/// 5,000 functions of costs 1 to 5,000, written in a scrambled order: the
/// best are found without a list of them all where a limit allows it, and
/// with one where the threshold needs more than the first 1,024 rows.
#[test]
fn the_best_rows_of_many_functions_are_found_for_any_limit_and_threshold() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.callgrind");
    let n = 5000u64;
    let mut text = String::from("events: Ir\nfl=m.c\n");
    for k in 0..n {
        let i = k * 7919 % n;
        text.push_str(&format!("fn=f{i}\n1 {}\n", i + 1));
    }
    std::fs::write(&path, text).unwrap();
    let file = path.to_str().unwrap();
    let names = |args: &[&str]| -> Vec<String> {
        let out = stdout_of(args);
        rows(&out).into_iter().map(|r| r[5].clone()).collect()
    };
    let top = |k: u64| -> Vec<String> { (0..k).map(|j| format!("f{} (m.c)", n - 1 - j)).collect() };
    assert_eq!(names(&["report", "--limit", "3", file]), top(3));
    assert_eq!(names(&["report", "--limit", "1500", file]), top(1500));
    assert_eq!(names(&["report", "--limit", "2500", file]), top(2500));
    assert_eq!(
        names(&["report", "--threshold", "100", "--limit", "9999", file]),
        top(n)
    );
    // The default threshold, 99%: rows until their running sum reaches 99%
    // of the total.
    let total = n * (n + 1) / 2;
    let (mut covered, mut rows_needed) = (0, 0);
    while covered * 100 < total * 99 {
        covered += n - rows_needed;
        rows_needed += 1;
    }
    assert_eq!(names(&["report", file]), top(rows_needed));
}

/// The cycles after the listing are those it names, a member's names cut
/// after twelve: a report of one function in a program of thousands of
/// cycles (the 50k-function benchmark file printed 238 KB) is not a list
/// of them all.
#[test]
fn only_the_cycles_the_listing_names_follow_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ring.callgrind");
    // main calls a0 once; a0 .. a19 call each other in a ring, and a19
    // calls hot, which costs more by itself (100) than the ring's members
    // (1 each): the cycle's inclusive cost is 20 + 100.
    let mut text = String::from("events: Ir\nfn=main\n1 1\ncfn=a0\ncalls=1 1\n1 40\n");
    for k in 0..20 {
        let next = (k + 1) % 20;
        text += &format!("fn=a{k}\n1 1\ncfn=a{next}\ncalls=1 1\n1 {}\n", 40 - 2 * k);
    }
    text += "cfn=hot\ncalls=1 1\n1 100\nfn=hot\n1 100\n";
    // A second way in: other calls a5 three times (for 10), so the
    // callers are named the most calls first.
    text += "fn=other\n1 1\ncfn=a5\ncalls=3 1\n1 10\n";
    std::fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap();

    let hot_only = stdout_of(&["report", "--limit", "1", path]);
    assert_eq!(rows(&hot_only).len(), 1, "{hot_only}");
    assert!(!hot_only.contains("Cycles ("), "{hot_only}");

    let all = stdout_of(&["report", "--inclusive", path]);
    assert!(rows(&all).iter().any(|r| r[5] == "<cycle 1>"), "{all}");
    let members = (0..12).map(|k| format!("a{k}")).collect::<Vec<_>>();
    assert!(
        all.contains(&format!(
            "  <cycle 1>  self 20  incl 120  called 4  members: {}, and 8 more\n    \
             callers: other (3\u{d7}), main (1\u{d7})\n    callees: hot (1\u{d7})\n",
            members.join(", ")
        )),
        "{all}"
    );
}
