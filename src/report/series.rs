//! `cgtui report --series FILE...`: every function's cost in each run,
//! its change in the last run and from the baseline, and a sparkline of
//! its trend, as text; or the JSON document of `series`,
//! `series_totals` and `present` (schema in docs/check.md, change both
//! together).

use crate::analysis::series::{Run, Series};
use crate::format::{
    printable, terminal_text, thousands, wide_signed_percent, wide_signed_thousands,
};
use crate::profile::{Cost, Profile};
use serde_json::{Map, Value, json};
use std::fmt::Write;

/// What to list and how.
#[derive(Clone, Debug)]
pub struct SeriesOptions {
    /// Index into the series' common events.
    pub event: usize,
    pub inclusive: bool,
    pub limit: Option<usize>,
    /// Sparklines in ASCII (`--ascii`, `CGTUI_ASCII`, a C locale).
    pub ascii: bool,
}

/// A file that could not be read: its name and why.
pub type Unreadable = (String, String);

const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const ASCII: [char; 8] = ['_', '.', ',', '-', '=', '+', '*', '#'];

/// One character per value, from the lowest of them to the highest; a
/// flat series is all lowest.
pub fn sparkline(values: &[Cost], ascii: bool) -> String {
    let glyphs = if ascii { &ASCII } else { &BLOCKS };
    let (Some(&lo), Some(&hi)) = (values.iter().min(), values.iter().max()) else {
        return String::new();
    };
    let span = i128::from(hi) - i128::from(lo);
    values
        .iter()
        .map(|&v| {
            let at = if span == 0 {
                0
            } else {
                ((i128::from(v) - i128::from(lo)) * 7 / span) as usize
            };
            glyphs[at.min(7)]
        })
        .collect()
}

fn sources(p: &Profile) -> String {
    let loaded: Vec<_> = p.loaded_sources().map(printable).collect();
    loaded.join(", ")
}

/// `run 1 (base)`, `run 2`...
fn run_label(i: usize) -> String {
    if i == 0 {
        "run 1 (base)".into()
    } else {
        format!("run {}", i + 1)
    }
}

/// Which runs (1-based) a list of 0-based indexes names.
fn run_list(runs: &[usize]) -> String {
    let names: Vec<String> = runs.iter().map(|i| (i + 1).to_string()).collect();
    names.join(", ")
}

pub fn text(
    runs: &[Run<'_>],
    s: &Series,
    unreadable: &[Unreadable],
    options: &SeriesOptions,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Series:      {} run(s), the first the baseline",
        runs.len()
    );
    for (i, (p, _)) in runs.iter().enumerate() {
        let _ = writeln!(out, "  {:<14}{}", run_label(i), sources(p));
    }
    for (_, why) in unreadable {
        let _ = writeln!(out, "  {:<14}{} (left out)", "unreadable", printable(why));
    }
    if let Some(cmd) = runs.first().and_then(|(p, _)| p.meta.cmd.as_deref()) {
        let _ = writeln!(out, "Command:     {}", printable(cmd.trim()));
    }
    let names: Vec<&str> = s.events.iter().map(|e| e.name.as_str()).collect();
    let _ = writeln!(out, "Events:      {}", printable(&names.join(" ")));
    for (name, having) in &s.left_out {
        let _ = writeln!(
            out,
            "Left out:    {} (only in run {})",
            printable(name),
            run_list(having)
        );
    }
    let Some(event) = s.events.get(options.event) else {
        out.push_str("\nThe runs have no event in common.\n");
        return terminal_text(out);
    };
    let kind = if options.inclusive {
        "inclusive"
    } else {
        "self"
    };
    let _ = writeln!(
        out,
        "Sorted by:   change of {} {kind} in the last run, then from the baseline{}",
        printable(&event.name),
        options
            .limit
            .map_or(String::new(), |l| format!(" (limit {l})"))
    );
    out.push('\n');
    let ranked = s.ranked(runs, options.event, options.inclusive);
    let changed: Vec<usize> = (ranked.into_iter())
        .filter(|&r| {
            let c = s.costs(runs, r, options.event, options.inclusive);
            let present = (0..s.runs).map(|i| s.function(r, i).is_some());
            c.windows(2).any(|w| w[0] != w[1]) || present.clone().any(|p| !p)
        })
        .collect();
    let shown = &changed[..options.limit.unwrap_or(usize::MAX).min(changed.len())];
    // Each cell's text first, to size the columns.
    let mut rows: Vec<(Vec<String>, String)> = Vec::new();
    let totals = s.totals(runs, options.event);
    rows.push((cells(&totals, None, options.ascii), "(total)".into()));
    for &r in shown {
        let c = s.costs(runs, r, options.event, options.inclusive);
        let present: Vec<bool> = (0..s.runs).map(|i| s.function(r, i).is_some()).collect();
        let (i, f) = s
            .first_present(r)
            .unwrap_or((0, crate::profile::FnId::from_index(0)));
        let p = runs[i].0;
        let what = super::text::place(p.fn_name(f), p.fn_file(f), p.fn_object(f));
        rows.push((cells(&c, Some(&present), options.ascii), what));
    }
    let mut head: Vec<String> = (0..s.runs).map(|i| format!("run {}", i + 1)).collect();
    head.extend(["chg last".into(), "chg base".into(), "%base".into()]);
    let widths: Vec<usize> = (0..head.len())
        .map(|col| {
            rows.iter()
                .map(|(c, _)| c[col].chars().count())
                .chain([head[col].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let trend = s.runs.max(5);
    let line = |out: &mut String, cells: &[String], spark: &str, what: &str| {
        for (cell, w) in cells.iter().zip(&widths) {
            let _ = write!(out, "{cell:>w$} ");
        }
        let _ = writeln!(out, " {spark:<trend$}  {what}");
    };
    line(&mut out, &head, "trend", "function (file) [object]");
    for (mut c, what) in rows {
        let spark = c.pop().unwrap_or_default();
        line(&mut out, &c, &spark, &what);
    }
    let same = s.len() - changed.len();
    if shown.len() < changed.len() {
        let _ = writeln!(
            out,
            "\n{} more changed function(s) not listed (--limit)",
            thousands((changed.len() - shown.len()) as i64)
        );
    }
    if same > 0 {
        let _ = writeln!(
            out,
            "{}{} function(s) with the same cost in every run not listed",
            if shown.len() < changed.len() {
                ""
            } else {
                "\n"
            },
            thousands(same as i64)
        );
    }
    terminal_text(out)
}

/// A row's cells: each run's cost (`-` where absent), the change in the
/// last run, from the baseline and its percentage of it; the sparkline
/// last.
fn cells(costs: &[Cost], present: Option<&[bool]>, ascii: bool) -> Vec<String> {
    let mut out: Vec<String> = (costs.iter().enumerate())
        .map(|(i, &c)| match present {
            Some(p) if !p[i] => "-".into(),
            _ => thousands(c),
        })
        .collect();
    let last = costs.len().saturating_sub(1);
    let (first, prev, now) = (costs[0], costs[last.saturating_sub(1)], costs[last]);
    let whole = crate::format::change(first, now);
    out.push(wide_signed_thousands(crate::format::change(prev, now)));
    out.push(wide_signed_thousands(whole));
    out.push(wide_signed_percent(whole, first));
    out.push(sparkline(costs, ascii));
    out
}

/// `{EVENT: cost}` over the common events of run `run`.
fn by_event(s: &Series, row: &[Cost], run: usize) -> Value {
    let map: Map<String, Value> = (s.events.iter())
        .map(|e| (e.name.clone(), Value::from(row[e.columns[run]])))
        .collect();
    Value::Object(map)
}

/// The JSON document: `files` (as named, one per run), `events`, `left_out`, `unreadable`,
/// `series_totals` (one per run), and `functions`, each with `present`
/// and `series` (one `{self, inclusive}` per run, zeros where absent), in
/// the text's order.
pub fn json(
    files: &[String],
    runs: &[Run<'_>],
    s: &Series,
    unreadable: &[Unreadable],
    event: usize,
) -> Value {
    let zeros = || -> Value {
        let map: Map<String, Value> = (s.events.iter())
            .map(|e| (e.name.clone(), Value::from(0)))
            .collect();
        Value::Object(map)
    };
    let functions: Vec<Value> = if s.events.is_empty() {
        Vec::new()
    } else {
        (s.ranked(runs, event, false).into_iter())
            .map(|r| {
                let (i, f) = s.first_present(r).unwrap_or((0, crate::profile::FnId::from_index(0)));
                let p = runs[i].0;
                let series: Vec<Value> = (0..s.runs)
                    .map(|run| match s.function(r, run) {
                        Some(g) => json!({
                            "self": by_event(s, runs[run].1.self_cost(g), run),
                            "inclusive": by_event(s, runs[run].1.inclusive(g), run),
                        }),
                        None => json!({ "self": zeros(), "inclusive": zeros() }),
                    })
                    .collect();
                json!({
                    "name": p.fn_name(f),
                    "file": p.fn_file(f),
                    "object": p.fn_object(f),
                    "present": (0..s.runs).map(|run| s.function(r, run).is_some()).collect::<Vec<_>>(),
                    "series": series,
                })
            })
            .collect()
    };
    json!({
        "files": files,
        "commands": runs.iter().map(|(p, _)| p.meta.cmd.clone()).collect::<Vec<_>>(),
        "events": s.events.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        "left_out": s.left_out.iter().map(|(name, having)| json!({ "event": name, "runs": having })).collect::<Vec<_>>(),
        "unreadable": unreadable.iter().map(|(file, why)| json!({ "file": file, "error": why })).collect::<Vec<_>>(),
        "series_totals": (0..s.runs).map(|run| by_event(s, &runs[run].1.totals, run)).collect::<Vec<_>>(),
        "functions": functions,
    })
}

#[cfg(test)]
mod tests {
    use super::sparkline;

    #[test]
    fn sparklines_run_from_the_lowest_to_the_highest() {
        assert_eq!(sparkline(&[0, 7, 14], false), "▁▄█");
        assert_eq!(sparkline(&[5, 5, 5], false), "▁▁▁");
        assert_eq!(sparkline(&[10, 0], true), "#_");
        assert_eq!(sparkline(&[i64::MIN, i64::MAX], true), "_#");
        assert_eq!(sparkline(&[], true), "");
    }
}
