//! `--metric NAME=FORMULA`, the built-in metrics and `--sort NAME` in
//! `cgtui report`: values checked against the formula worked out here from
//! each function's event costs, blanks, order, and the errors.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::cli::{error_of, stdout_of};
use serde_json::Value;

const CACHE: &str = "samples/cachesim.callgrind";

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

fn cost(costs: &Value, event: &str) -> f64 {
    costs[event].as_i64().unwrap() as f64
}

/// What `miss = D1mr/Dr` and `cyc = Ir + 10 L1m` should be on a row of
/// event costs, with `min` the smallest denominator shown.
fn expected(costs: &Value, min: f64) -> (Option<f64>, i64) {
    let dr = cost(costs, "Dr");
    let miss = (dr != 0.0 && dr >= min).then(|| cost(costs, "D1mr") / dr);
    let l1m = cost(costs, "I1mr") + cost(costs, "D1mr") + cost(costs, "D1mw");
    (miss, (cost(costs, "Ir") + 10.0 * l1m) as i64)
}

#[test]
fn every_function_has_its_metrics_self_and_inclusive() {
    for min in ["0", "1000"] {
        let report = json(&[
            "report",
            "--json",
            CACHE,
            "--metric",
            "miss=D1mr/Dr",
            "--metric",
            "cyc = Ir + 10 L1m",
            "--min-denominator",
            min,
        ]);
        let min: f64 = min.parse().unwrap();
        let mut blanks = 0;
        for f in report["functions"].as_array().unwrap() {
            for scope in ["self", "inclusive"] {
                let (miss, cyc) = expected(&f[scope], min);
                let got = &f["metrics"]["miss"][scope];
                match miss {
                    Some(v) => assert!((got.as_f64().unwrap() - v).abs() < 1e-12, "{f}"),
                    None => {
                        assert!(got.is_null(), "{f}");
                        blanks += 1;
                    }
                }
                // A sum of events is a whole number, exactly.
                assert_eq!(f["metrics"]["cyc"][scope].as_i64(), Some(cyc), "{f}");
            }
        }
        // Division by zero is a blank, never an error; the minimum blanks more.
        assert!(blanks > 0);
        let (miss, cyc) = expected(&report["totals"], min);
        assert_eq!(report["metric_totals"]["miss"].as_f64(), miss);
        assert_eq!(report["metric_totals"]["cyc"].as_i64(), Some(cyc));
    }
}

#[test]
fn without_metric_there_is_no_metrics_field() {
    let report = json(&["report", "--json", CACHE, "--no-config"]);
    assert!(report.get("metric_totals").is_none());
    assert!(report["functions"][0].get("metrics").is_none());
}

/// The rows of a text report: (the metric column `header` names, the
/// function). A metric's cells are 14 characters wide, right-aligned.
fn column(text: &str, header: &str) -> Vec<(String, String)> {
    let mut lines =
        (text.lines()).skip_while(|l| !(l.contains(header) && l.contains("function (")));
    let head = lines.next().unwrap();
    let end = head.find(header).unwrap() + header.len();
    let names = head.find("function (file)").unwrap();
    lines
        .take_while(|l| !l.is_empty())
        .map(|l| (l[end - 14..end].trim().to_string(), l[names..].to_string()))
        .collect()
}

#[test]
fn sort_by_a_rate_puts_the_largest_first_and_blanks_last() {
    let text = stdout_of(&[
        "report",
        CACHE,
        "--metric",
        "dw=D1mw / Dw",
        "--sort",
        "dw",
        "--min-denominator",
        "200",
    ]);
    assert!(text.contains("Sorted by:   dw self"), "{text}");
    let rows = column(&text, "dw self");
    let values: Vec<Option<f64>> = rows
        .iter()
        .map(|(v, _)| v.replace(',', "").parse::<f64>().ok())
        .collect();
    let shown = values.iter().take_while(|v| v.is_some()).count();
    assert!(shown >= 2 && shown < values.len(), "{text}");
    assert!(values[shown..].iter().all(Option::is_none), "{text}");
    let numbers: Vec<f64> = values.iter().flatten().copied().collect();
    assert!(numbers.windows(2).all(|w| w[0] >= w[1]), "{numbers:?}");
    // The same functions as without --sort: the threshold keeps them by Ir.
    let plain = stdout_of(&["report", CACHE, "--metric", "dw=D1mw / Dw"]);
    let mut a: Vec<_> = rows.iter().map(|r| r.1.clone()).collect();
    let mut b: Vec<_> = column(&plain, "dw self").into_iter().map(|r| r.1).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn sort_by_a_sum_of_events_ranks_by_it() {
    let text = stdout_of(&["report", CACHE, "--sort", "CEst", "--limit", "6"]);
    let rows = column(&text, "CEst self");
    assert_eq!(rows.len(), 6, "{text}");
    let values: Vec<i64> = rows
        .iter()
        .map(|(v, _)| v.replace(',', "").parse().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    // The largest CEst of all functions comes first, worked out here.
    let report = json(&["report", "--json", CACHE]);
    let cest = |c: &Value| {
        let l1m = cost(c, "I1mr") + cost(c, "D1mr") + cost(c, "D1mw");
        let llm = cost(c, "ILmr") + cost(c, "DLmr") + cost(c, "DLmw");
        let bm = cost(c, "Bim") + cost(c, "Bcm");
        (cost(c, "Ir") + 10.0 * bm + 10.0 * l1m + 100.0 * llm) as i64
    };
    let best = (report["functions"].as_array().unwrap().iter())
        .map(|f| cest(&f["self"]))
        .max()
        .unwrap();
    assert_eq!(values[0], best);
}

#[test]
fn bad_formulas_and_names_are_one_line_errors() {
    for (args, wanted) in [
        (
            vec!["--metric", "x=Ir + Foo"],
            "no event or metric `Foo` in this profile (column 6 of `Ir + Foo`",
        ),
        (
            vec!["--metric", "x=Ir + (Dr"],
            "column 6 of the formula `Ir + (Dr`: this `(` is not closed",
        ),
        (vec!["--metric", "x=Ir */ 2"], "column 5 of the formula"),
        (vec!["--metric", "Ir=Dr"], "has an event of that name"),
        (vec!["--sort", "nope"], "no event or metric `nope`"),
        (
            vec!["--min-denominator", "-1"],
            "must be a number from 0 up",
        ),
    ] {
        let mut all = vec!["report", CACHE];
        all.extend(args);
        let err = error_of(&all);
        assert!(err.contains(wanted), "{all:?}: {err}");
    }
}

#[test]
fn the_configuration_file_defines_metrics_and_the_command_line_wins() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "[metrics]\nformulas = [\"miss = D1mr / Dr\", \"twice = 2 * Ir\"]\nmin-denominator = 0\n",
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let report = json(&[
        "report",
        "--json",
        CACHE,
        "--config",
        config,
        "--metric",
        "twice=3*Ir",
    ]);
    let total = cost(&report["totals"], "Ir") as i64;
    assert_eq!(report["metric_totals"]["twice"].as_i64(), Some(3 * total));
    assert!(report["metric_totals"]["miss"].is_f64());
    std::fs::write(
        dir.path().join("bad.toml"),
        "[metrics]\nformulas = [\n  \"ok = Ir\",\n  \"bad = Ir +\",\n]\n",
    )
    .unwrap();
    let bad = dir.path().join("bad.toml");
    let err = error_of(&["report", CACHE, "--config", bad.to_str().unwrap()]);
    assert!(err.contains("bad.toml:4: metrics.formulas"), "{err}");
    assert!(err.contains("column 5 of the formula `Ir +`"), "{err}");
}

/// In the browser the sums are events: `e` goes on to KCachegrind's
/// `L1m`, `LLm`, `Bm`, `CEst` and the user's sums (a quotient is not
/// among them), and the list shows them with the report's totals.
#[test]
fn the_browser_steps_through_the_sums_as_events() {
    use crate::support::tui::Pty;
    use std::time::Duration;
    let mut pty = Pty::spawn_with(
        &format!("--no-config {CACHE} --metric 'w=Ir + 2 Dr' --metric 'q=Ir/Dr'"),
        (120, 24),
        &[],
    );
    pty.wait_for("Callees of");
    // Ir and 12 other events, then L1m LLm Bm CEst w.
    for _ in 0..16 {
        assert!(pty.send_for_frame("e", Duration::from_secs(10)));
    }
    let report = json(&[
        "report",
        "--json",
        CACHE,
        "--no-config",
        "--metric",
        "c=CEst",
        "--metric",
        "w=Ir+2*Dr",
    ]);
    let cest = report["metric_totals"]["c"].as_i64().unwrap();
    let screen = pty.contents();
    let header = screen.lines().nth(1).unwrap_or("");
    // The current event is shown with its long name.
    let shown = format!("CEst {} (cycle estimation)", cgtui::format::thousands(cest));
    assert!(header.contains(&shown), "{shown}: {screen}");
    // The list is sorted by CEst inclusive: the total is the first row's.
    let first = screen.lines().nth(3).unwrap_or("");
    assert!(
        first
            .trim_start()
            .starts_with(&cgtui::format::thousands(cest)),
        "{screen}"
    );
    assert!(pty.send_for_frame("e", Duration::from_secs(10)));
    let w = report["metric_totals"]["w"].as_i64().unwrap();
    let screen = pty.contents();
    let first = screen.lines().nth(3).unwrap_or("");
    assert!(
        first.trim_start().starts_with(&cgtui::format::thousands(w)),
        "{screen}"
    );
    assert!(
        !screen.lines().nth(1).unwrap_or("").contains(" q "),
        "{screen}"
    );
    pty.send("q");
    pty.finish();
}

/// `annotate` shows a metric of each line's own costs (and of each call's
/// inclusive cost) after the events: named by `--event` (a built-in) or
/// defined by `--metric`. Line 65 of the cache sample writes a matrix:
/// 257 L1 write misses in 4,096 writes (`report --json --lines`), 6.27%.
#[test]
fn annotate_shows_metrics_of_each_line() {
    let lines = json(&["report", "--json", "--lines", CACHE]);
    let main = (lines["functions"].as_array().unwrap().iter())
        .find(|f| f["name"] == "main")
        .unwrap();
    let line65 = (main["lines"].as_array().unwrap().iter())
        .find(|l| l["line"] == 65)
        .unwrap();
    let (d1mw, dw) = (cost(&line65["self"], "D1mw"), cost(&line65["self"], "Dw"));
    assert_eq!((d1mw, dw), (257.0, 4096.0));
    let text = stdout_of(&[
        "annotate",
        "--no-config",
        CACHE,
        "--function",
        "main",
        "--event",
        "Dw",
        "--event",
        "D1mwRate",
        "--metric",
        "half=Dw/2",
    ]);
    assert!(text.contains("\nDw D1mwRate half\n"), "{text}");
    let row = text
        .lines()
        .find(|l| l.contains("matrix[i][j] = i * N + j"))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().take(3).collect();
    assert_eq!(
        cells,
        ["4,096", &format!("{:.2}%", d1mw / dw * 100.0)[..], "2,048"],
        "{row}"
    );
    // Names that are neither, and a comparison, are refused in one line.
    let err = error_of(&["annotate", CACHE, "--event", "nope"]);
    assert!(err.contains("no event or metric `nope`"), "{err}");
    let err = error_of(&["annotate", "--base", CACHE, CACHE, "--metric", "x=Ir"]);
    assert!(err.contains("shows events only"), "{err}");
}

/// `report --base OLD NEW --metric`: each side's value from its own costs
/// (in JSON `metrics` and `base_metrics` beside `self` and `base_self`),
/// the text report's base, new and change columns, and a metric of an
/// event the base lacks refused in one line. The pair: `hot` reads 1,000
/// bytes with 10 misses, then 2,000 with 60; `cold` 4,000 with 160, then
/// 4,000 with 180.
#[test]
fn a_comparison_reports_each_sides_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, hot: (u32, u32), cold: (u32, u32)| {
        let text = format!(
            "events: Ir Dr D1mr\nfn=main\n1 10 0 0\ncfn=hot\ncalls=1 1\n1 100 {} {}\n\
             cfn=cold\ncalls=1 1\n1 100 {} {}\nfn=hot\n1 100 {} {}\nfn=cold\n1 100 {} {}\n",
            hot.0, hot.1, cold.0, cold.1, hot.0, hot.1, cold.0, cold.1
        );
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let base = write("base.callgrind", (1000, 10), (4000, 160));
    let new = write("new.callgrind", (2000, 60), (4000, 180));
    let args = |more: &[&str]| {
        let mut a = vec!["report", "--base", &base, &new, "--metric", "miss=D1mr/Dr"];
        a.extend_from_slice(more);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |more: &[&str]| {
        let a = args(more);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        stdout_of(&a)
    };
    let miss = |costs: &Value| {
        let dr = cost(costs, "Dr");
        (dr != 0.0).then(|| cost(costs, "D1mr") / dr)
    };
    let report: Value = serde_json::from_str(&run(&["--json", "--min-denominator", "0"])).unwrap();
    let mut checked = 0;
    for f in report["functions"].as_array().unwrap() {
        for (metrics, own, incl) in [
            ("metrics", "self", "inclusive"),
            ("base_metrics", "base_self", "base_inclusive"),
        ] {
            for (scope, costs) in [("self", own), ("inclusive", incl)] {
                let want = miss(&f[costs]);
                let got = f[metrics]["miss"][scope].as_f64();
                assert_eq!(got, want, "{} {metrics} {scope}", f["name"]);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * 4);
    assert_eq!(
        report["metric_totals"]["miss"].as_f64(),
        Some(240.0 / 6000.0)
    );
    assert_eq!(
        report["base"]["metric_totals"]["miss"].as_f64(),
        Some(170.0 / 5000.0)
    );
    // The text: hot's row, sorted by the change of self Ir (none: every
    // function is listed by name with a threshold of 100).
    let text = run(&["--threshold", "100", "--inclusive"]);
    assert!(
        text.contains("miss base       miss new       miss chg"),
        "{text}"
    );
    let text = run(&["--event", "Dr"]);
    let hot = text.lines().find(|l| l.ends_with(" hot")).unwrap();
    let cells: Vec<&str> = hot.split_whitespace().collect();
    assert_eq!(&cells[4..7], ["0.0100", "0.0300", "+0.0200"], "{hot}");
    // A metric of an event the base does not have.
    let lacking = dir.path().join("lacking.callgrind");
    std::fs::write(&lacking, "events: Ir Dr\nfn=hot\n1 100 1000\n").unwrap();
    let lacking = lacking.to_str().unwrap();
    let err = error_of(&[
        "report",
        "--base",
        lacking,
        &new,
        "--metric",
        "miss=D1mr/Dr",
    ]);
    assert!(
        err.contains("--metric miss: the base has no event `D1mr`"),
        "{err}"
    );
}
