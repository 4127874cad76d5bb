//! `cgtui report --base OLD NEW`: both profiles' commands and totals, the
//! change of each common event's total, then the functions whose cost
//! changed, the biggest change first.

use super::text::place;
use crate::analysis::diff::{Compared, Side};
use crate::format::{
    change, printable, terminal_text, thousands, wide_signed_percent as signed_percent,
    wide_signed_thousands as signed,
};
use crate::metric::Metric;
use crate::profile::{Cost, Profile};
use std::fmt::Write;

/// What to list and how (`ReportOptions` for a comparison).
#[derive(Clone, Debug)]
pub struct DiffOptions {
    /// Index into the comparison's common events.
    pub event: usize,
    /// Rank by the change of inclusive rather than self cost.
    pub inclusive: bool,
    /// List functions until their changes' sizes cover this percentage of
    /// the sum of every function's size of change.
    pub threshold: f64,
    pub limit: Option<usize>,
    /// The user's metrics (`--metric`), each shown in the base, in the new
    /// profile and its change, of the sorted kind of cost.
    pub metrics: Vec<Metric>,
    pub min_denominator: f64,
}

/// The pairs whose cost of the sorted kind changed, biggest change first
/// (ties by name), as far as the threshold and limit go.
pub fn ranked(c: &Compared<'_>, options: &DiffOptions) -> Vec<usize> {
    let size = |pair: usize| {
        let (b, n) = if options.inclusive {
            c.inclusive_costs(pair, options.event)
        } else {
            c.self_costs(pair, options.event)
        };
        change(b, n)
    };
    let mut pairs: Vec<(u128, usize)> = (0..c.comparison.pairs.len())
        .map(|p| (size(p).unsigned_abs(), p))
        .filter(|&(size, _)| size > 0)
        .collect();
    pairs.sort_by(|x, y| {
        y.0.cmp(&x.0)
            .then_with(|| c.names(x.1).0.cmp(c.names(y.1).0))
    });
    let whole: u128 = (0..c.comparison.pairs.len())
        .map(|p| {
            let (b, n) = c.self_costs(p, options.event);
            change(b, n).unsigned_abs()
        })
        .sum();
    let wanted = whole as f64 * options.threshold / 100.0;
    let mut covered = 0u128;
    let mut out = Vec::new();
    for (size, p) in pairs {
        let done = if options.inclusive {
            (size as f64) < whole as f64 * (100.0 - options.threshold) / 100.0
        } else {
            // 100% lists every change: in floating point, the sum of
            // changes of 19 digits can equal it before the last is counted.
            options.threshold < 100.0 && covered as f64 >= wanted
        };
        if done || options.limit.is_some_and(|l| out.len() >= l) {
            break;
        }
        covered += size;
        out.push(p);
    }
    out
}

fn header(out: &mut String, label: &str, profile: &Profile) {
    let loaded: Vec<_> = profile.loaded_sources().map(printable).collect();
    let _ = writeln!(out, "{label:<13}{}", loaded.join(", "));
    if let Some(cmd) = &profile.meta.cmd {
        let _ = writeln!(out, "  Command:    {}", printable(cmd.trim()));
    }
}

pub fn text(c: &Compared<'_>, options: &DiffOptions) -> String {
    let mut out = String::new();
    header(&mut out, "Base:", c.base);
    header(&mut out, "Profile:", c.new);
    let cmp = c.comparison;
    let names: Vec<&str> = cmp.events.iter().map(|e| e.name.as_str()).collect();
    let _ = writeln!(out, "Events:      {}", printable(&names.join(" ")));
    for (name, side) in &cmp.left_out {
        let which = match side {
            Side::Base => "base",
            Side::New => "new",
        };
        let _ = writeln!(
            out,
            "Left out:    {} (only in the {which} profile)",
            printable(name)
        );
    }
    let Some(event) = cmp.events.get(options.event) else {
        out.push_str("\nThe two profiles have no event in common.\n");
        return terminal_text(out);
    };
    let kind = if options.inclusive {
        "inclusive"
    } else {
        "self"
    };
    let _ = writeln!(
        out,
        "Sorted by:   change of {} {kind} (threshold {}%{})",
        event.name,
        options.threshold,
        options
            .limit
            .map_or(String::new(), |l| format!(", limit {l}"))
    );
    out.push('\n');
    let _ = writeln!(
        out,
        "{:>20} {:>20} {:>20} {:>9}  event",
        "base total", "new total", "change", "%"
    );
    for (ev, e) in cmp.events.iter().enumerate() {
        let (b, n) = c.totals(ev);
        let d = change(b, n);
        let _ = writeln!(
            out,
            "{:>20} {:>20} {:>20} {:>9}  {}",
            thousands(b),
            thousands(n),
            signed(d),
            signed_percent(d, b),
            e.name
        );
    }
    out.push('\n');
    let base_total = c.totals(options.event).0;
    let mut head = format!(
        "{:>18} {:>18} {:>18} {:>9}",
        format!("{} base", event.name),
        format!("{} new", event.name),
        "change",
        "%base"
    );
    for m in &options.metrics {
        for label in ["base", "new", "chg"] {
            let _ = write!(head, " {:>w$}", format!("{} {label}", m.name), w = METRIC);
        }
    }
    let _ = writeln!(out, "{}  function (file) [object]", printable(&head));
    for pair in ranked(c, options) {
        let (b, n) = if options.inclusive {
            c.inclusive_costs(pair, options.event)
        } else {
            c.self_costs(pair, options.event)
        };
        let d = change(b, n);
        let (name, file, object) = c.names(pair);
        let mut what = place(name, file, object);
        let p = cmp.pairs[pair];
        match (p.base, p.new) {
            (None, _) => what.push_str("  new"),
            (_, None) => what.push_str("  gone"),
            _ => {}
        }
        let mut metrics = String::new();
        if !options.metrics.is_empty() {
            let [base, new] = rows(c, pair, options.inclusive);
            let min = options.min_denominator;
            for m in &options.metrics {
                let cells = [
                    m.text(&base, min),
                    m.text(&new, min),
                    m.change_text(&base, &new, min),
                ];
                for cell in cells {
                    let _ = write!(metrics, " {cell:>METRIC$}");
                }
            }
        }
        let _ = writeln!(
            out,
            "{:>18} {:>18} {:>18} {:>9}{metrics}  {what}",
            thousands(b),
            thousands(n),
            signed(d),
            signed_percent(d, base_total),
        );
    }
    terminal_text(out)
}

/// Cells of a metric's column.
const METRIC: usize = 14;

/// A pair's self (or inclusive) costs in the base and in the new profile,
/// in the new profile's columns (0 on a side without the function).
fn rows(c: &Compared<'_>, pair: usize, inclusive: bool) -> [Vec<Cost>; 2] {
    let width = c.analysis.width;
    let of = |a: &crate::analysis::Analysis, f: crate::profile::FnId| {
        if inclusive {
            a.inclusive(f).to_vec()
        } else {
            a.self_cost(f).to_vec()
        }
    };
    let base = c.comparison.function(pair, Side::Base).map_or_else(
        || vec![0; width],
        |f| {
            c.comparison
                .base_in_new_columns(&of(c.base_analysis, f), width)
        },
    );
    let new = (c.comparison.function(pair, Side::New))
        .map_or_else(|| vec![0; width], |f| of(c.analysis, f));
    [base, new]
}
