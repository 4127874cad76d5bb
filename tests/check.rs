//! `cgtui check` on real Callgrind runs of three builds of one program
//! (`support::runs`): gates that pass and fail for the right reason, the
//! exit statuses, and the functions and lines named, against numbers read
//! without cgtui (the `totals:` lines, callgrind_annotate, the source).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::runs::{annotated, hot_line, profiles, totals};
use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

/// `cgtui check --base BASE NEW ARGS...`: status, stdout, stderr.
fn check(base: &Path, new: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("cgtui")
        .unwrap()
        .arg("check")
        .arg("--base")
        .arg(base)
        .arg(new)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(base: &Path, new: &Path, rules: &[&str]) -> (i32, Value) {
    let mut args = vec!["--format", "json"];
    for r in rules {
        args.extend(["--fail", r]);
    }
    let (status, out, err) = check(base, new, &args);
    assert!(err.is_empty(), "{err}");
    (status, serde_json::from_str(&out).unwrap())
}

/// The growth of the total in percent, from the `totals:` lines.
fn growth(base: &Path, new: &Path) -> f64 {
    let (b, n) = (totals(base), totals(new));
    (n - b) as f64 * 100.0 / b as f64
}

#[test]
fn a_small_growth_passes_a_loose_rule_and_fails_a_tight_one() {
    let [a, b, _] = profiles();
    // WORK 1000 -> 1050: a fraction of a percent of the whole run.
    let g = growth(a, b);
    assert!(g > 0.1 && g < 1.0, "{g}");
    let loose = format!("Ir>+{:.2}%", g + 0.05);
    let tight = format!("Ir>+{:.2}%", g - 0.05);
    let (status, doc) = json(a, b, &[&loose]);
    assert_eq!(status, 0, "{doc}");
    assert_eq!(doc["status"], "pass");
    let rule = &doc["rules"][0];
    assert_eq!(rule["base"], totals(a));
    assert_eq!(rule["new"], totals(b));
    assert_eq!(rule["change"], totals(b) - totals(a));
    assert_eq!(rule["explanation"], Value::Null);
    let (status, doc) = json(a, b, &[&loose, &tight]);
    assert_eq!(status, 1);
    assert_eq!(doc["failed"], 1);
    assert_eq!(doc["rules"][0]["holds"], true);
    assert_eq!(doc["rules"][1]["holds"], false);
    // The amount: the change itself passes, one less fails.
    let change = totals(b) - totals(a);
    assert_eq!(json(a, b, &[&format!("Ir>+{change}")]).0, 0);
    assert_eq!(json(a, b, &[&format!("Ir>+{}", change - 1)]).0, 1);
}

#[test]
fn a_failed_gate_names_the_function_and_line_that_grew() {
    let [a, _, c] = profiles();
    let (status, doc) = json(a, c, &["Ir>+2%"]);
    assert_eq!(status, 1);
    let e = &doc["rules"][0]["explanation"];
    let first = &e["increases"][0];
    assert_eq!(first["name"], "hot");
    assert_eq!(first["line"]["line"], hot_line());
    assert!(
        first["line"]["file"]
            .as_str()
            .unwrap()
            .ends_with("series.c"),
        "{first}"
    );
    let (hot_a, hot_c) = (annotated(a, "hot", false), annotated(c, "hot", false));
    assert_eq!(first["base"], hot_a);
    assert_eq!(first["new"], hot_c);
    assert_eq!(first["change"], hot_c - hot_a);
    // `extra` is of the new build only; it is the other growth of
    // series.c, listed second unless hot alone makes 80%.
    let extra = annotated(c, "extra", false);
    let all_growth = e["increase"].as_i64().unwrap();
    assert!(all_growth >= hot_c - hot_a + extra, "{e}");
    let listed: i64 = (e["increases"].as_array().unwrap().iter())
        .map(|x| x["change"].as_i64().unwrap())
        .sum();
    assert_eq!(e["listed"], listed);
    assert!(listed as f64 >= 0.8 * all_growth as f64, "{e}");
    // Without the last one listed, less than 80%: no more than needed.
    let last = e["increases"].as_array().unwrap().last().unwrap()["change"]
        .as_i64()
        .unwrap();
    assert!(((listed - last) as f64) < 0.8 * all_growth as f64, "{e}");
}

#[test]
fn a_function_rule_checks_its_inclusive_cost() {
    let [a, _, c] = profiles();
    // main's inclusive Ir, by callgrind_annotate: hot grew, so main did.
    let (main_a, main_c) = (annotated(a, "main", true), annotated(c, "main", true));
    let pct = (main_c - main_a) as f64 * 100.0 / main_a as f64;
    let (status, doc) = json(
        a,
        c,
        &[
            &format!("fn:main Ir>+{:.1}%", pct + 0.5),
            &format!("fn:main Ir>+{:.1}%", pct - 0.5),
            "fn:steady Ir>+0%",
        ],
    );
    assert_eq!(status, 1);
    let rules = doc["rules"].as_array().unwrap();
    assert_eq!(rules[0]["base"], main_a);
    assert_eq!(rules[0]["new"], main_c);
    assert_eq!(rules[0]["holds"], true);
    assert_eq!(rules[1]["holds"], false);
    // steady is the same code in every build.
    assert_eq!(rules[2]["holds"], true);
    assert_eq!(rules[2]["change"], 0);
    // Only what main reaches explains main: never ld.so's start-up.
    let e = &rules[1]["explanation"];
    assert_eq!(e["reachable_only"], true);
    for x in e["increases"].as_array().unwrap() {
        assert!(
            ["hot", "extra", "main"].contains(&x["name"].as_str().unwrap()),
            "{x}"
        );
    }
    // extra is new: from zero, past any percentage.
    let (status, _) = json(a, c, &["fn:extra Ir>+1000000%"]);
    assert_eq!(status, 1);
}

#[test]
fn unknown_events_and_functions_are_errors_not_passes() {
    let [a, b, _] = profiles();
    let (status, out, err) = check(a, b, &["--fail", "Ir>+50%", "--fail", "Dr>+1%"]);
    assert_eq!(status, 2);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("rule `Dr>+1%`: no event or metric `Dr`"),
        "{err}"
    );
    let (status, _, err) = check(a, b, &["--fail", "fn:nothere Ir>+1%"]);
    assert_eq!(status, 2);
    assert!(err.contains("no function `nothere`"), "{err}");
    let (status, _, err) = check(a, b, &["--fail", "Ir>+x"]);
    assert_eq!(status, 2);
    assert!(err.contains("a rule is EVENT>+P%"), "{err}");
    // A file that cannot be read names it.
    let missing = a.with_file_name("absent.out");
    let (status, _, err) = check(&missing, b, &["--fail", "Ir>+1%"]);
    assert_eq!(status, 2);
    assert!(err.contains("absent.out"), "{err}");
}

#[test]
fn text_and_markdown_name_the_failed_rule_and_its_culprits() {
    let [a, _, c] = profiles();
    let (status, text, _) = check(a, c, &["--fail", "Ir>+2%", "--fail", "fn:steady Ir>+1%"]);
    assert_eq!(status, 1);
    let line = format!("series.c:{}", hot_line());
    assert!(text.contains("FAIL  Ir>+2%: the total Ir"), "{text}");
    assert!(text.contains("pass  fn:steady Ir>+1%"), "{text}");
    assert!(text.contains(&line), "{text}");
    let (status, md, _) = check(a, c, &["--fail", "Ir>+2%", "--format", "markdown"]);
    assert_eq!(status, 1);
    assert!(md.contains("| **FAIL** | `Ir>+2%` | total Ir |"), "{md}");
    let hot_row = md.lines().find(|l| l.starts_with("| `hot` |")).unwrap();
    assert!(hot_row.contains(&line), "{hot_row}");
    let change = annotated(c, "hot", false) - annotated(a, "hot", false);
    let change = format!("+{},{:03}", change / 1000, change % 1000);
    assert!(hot_row.contains(&change), "{hot_row} {change}");
}

#[test]
fn a_formula_metric_is_a_rule() {
    let [a, b, _] = profiles();
    // twice=2 Ir doubles the change of the total.
    let change = totals(b) - totals(a);
    let rule = format!("twice>+{}", 2 * change - 1);
    let (status, out, err) = check(
        a,
        b,
        &[
            "--metric",
            "twice=2 Ir",
            "--fail",
            &rule,
            "--format",
            "json",
        ],
    );
    assert_eq!(status, 1, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["rules"][0]["change"], 2 * change);
    let rule = format!("twice>+{}", 2 * change);
    let (status, _, _) = check(a, b, &["--metric", "twice=2 Ir", "--fail", &rule]);
    assert_eq!(status, 0);
}

/// docs/check.md's Markdown example is what the command prints on the
/// bundled samples (`CGTUI_UPDATE_DOCS=1` writes it again).
#[test]
fn the_documented_markdown_is_the_commands_output() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::cargo_bin("cgtui")
        .unwrap()
        .current_dir(&root)
        .args([
            "check",
            "--base",
            "samples/diff-branches-O2.callgrind",
            "samples/diff-branches-64.callgrind",
            "--fail",
            "Ir>+2%",
            "--fail",
            "fn:classify Ir>+50%",
            "--fail",
            "fn:qsort Ir>+50%",
            "--format",
            "markdown",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let md = String::from_utf8(out.stdout).unwrap();
    // The -O0 build's regression: the two failed rules, qsort within.
    assert!(md.contains("| **FAIL** | `Ir>+2%` |"), "{md}");
    assert!(md.contains("| pass | `fn:qsort Ir>+50%` |"), "{md}");
    crate::docs::section(
        &root.join("docs/check.md"),
        "<!-- check-markdown -->\n",
        "<!-- /check-markdown -->",
        &format!("```markdown\n{md}```\n"),
    );
}
