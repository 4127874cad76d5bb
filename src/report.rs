//! Non-interactive output: `cgtui report` as text (in the spirit of
//! callgrind_annotate) or JSON. Must not import `tui`.

pub mod diff;
pub mod folded;
pub mod gate;
mod json;
pub mod series;
mod text;

pub use folded::{DEFAULT_PATHS, FoldedOptions};
pub use json::Report as JsonReport;
pub use text::text;

use crate::analysis::Analysis;
use crate::metric::{Metric, Metrics};
use crate::profile::{Cost, FnId, Profile};
use std::cmp::Ordering;

/// What to show and how to order it.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// Column index of the event to sort by.
    pub event: usize,
    /// Sort by inclusive rather than self cost.
    pub inclusive: bool,
    /// Sorted by self cost: list functions until their running sum covers this
    /// percentage of the total (as callgrind_annotate). Sorted by inclusive
    /// cost: list those whose inclusive cost is at least `100 - threshold` %.
    /// In a column with negative costs (`cg_diff`), sizes are compared and
    /// summed as absolute values against the sum of the absolute self costs,
    /// as cg_annotate does, so that losses are listed with the gains.
    pub threshold: f64,
    pub limit: Option<usize>,
    /// List the groups of this kind before the functions.
    pub group_by: Option<crate::analysis::groups::Grouping>,
    /// Show mangled names demangled.
    pub demangle: bool,
    /// List only the functions whose names (as shown) match `focus` and do
    /// not match `ignore` (pprof's `-focus` and `-ignore` on a flat list).
    pub focus: Option<regex::Regex>,
    pub ignore: Option<regex::Regex>,
    /// The metrics; the user's (`--metric`) are columns of the text report.
    pub metrics: Metrics,
    /// `--sort`: a metric other than an event to order by (an event is
    /// `event`). One that sums events ranks and cuts as an event does; a
    /// rate orders what the threshold keeps of `event`.
    pub sort: Option<usize>,
}

impl ReportOptions {
    /// Whether the name filters let `f` through.
    pub fn keeps(&self, profile: &Profile, f: FnId) -> bool {
        if self.focus.is_none() && self.ignore.is_none() {
            return true;
        }
        let name = function_name(profile, f, self.demangle);
        self.focus.as_ref().is_none_or(|r| r.is_match(&name))
            && !self.ignore.as_ref().is_some_and(|r| r.is_match(&name))
    }
}

/// A function's name as a report shows it: demangled when asked (and it
/// is mangled), else as the profile writes it.
pub fn function_name(profile: &Profile, f: FnId, demangle: bool) -> std::borrow::Cow<'_, str> {
    let name = profile.fn_name(f);
    match demangle.then(|| crate::symbols::demangle(name)).flatten() {
        Some(readable) => readable.into(),
        None => name.into(),
    }
}

/// One row of the report's listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Function(FnId),
    /// The `<cycle N>` pseudo-function of `Analysis::cycles[i]`.
    Cycle(usize),
}

/// How rows are compared: the sorted column, by signed cost or by size.
struct Order<'a> {
    analysis: &'a Analysis,
    options: &'a ReportOptions,
    /// The column has negative costs: compare absolute values.
    signed: bool,
}

impl Order<'_> {
    fn new<'a>(analysis: &'a Analysis, options: &'a ReportOptions) -> Order<'a> {
        Order {
            analysis,
            options,
            signed: analysis.is_signed(options.event),
        }
    }

    /// The metric that ranks, where it is a sum of events other than one
    /// event column.
    fn summed_metric(&self) -> Option<&Metric> {
        let m = self.options.metrics.get(self.options.sort?);
        m.linear.then_some(m)
    }

    /// The row's costs (self or inclusive, as sorted).
    fn costs(&self, row: Row) -> &[Cost] {
        let a = self.analysis;
        match (row, self.options.inclusive) {
            (Row::Function(f), false) => a.self_cost(f),
            (Row::Function(f), true) => a.inclusive(f),
            (Row::Cycle(c), false) => &a.cycles[c].self_cost,
            (Row::Cycle(c), true) => &a.cycles[c].inclusive,
        }
    }

    fn cost(&self, row: Row) -> Cost {
        let costs = self.costs(row);
        match self.summed_metric() {
            Some(m) => metric_cost(m, costs),
            None => costs[self.options.event],
        }
    }

    /// What is sorted and summed: the cost, or its size in a signed column.
    fn size(&self, row: Row) -> Cost {
        let c = self.cost(row);
        if self.signed { c.saturating_abs() } else { c }
    }

    /// Larger first; at equal size functions by name then id, then cycles
    /// by number.
    fn compare(&self, profile: &Profile, a: Row, b: Row) -> Ordering {
        self.size(b).cmp(&self.size(a)).then_with(|| match (a, b) {
            (Row::Function(x), Row::Function(y)) => {
                profile.fn_name(x).cmp(profile.fn_name(y)).then(x.cmp(&y))
            }
            (Row::Function(_), Row::Cycle(_)) => Ordering::Less,
            (Row::Cycle(_), Row::Function(_)) => Ordering::Greater,
            (Row::Cycle(x), Row::Cycle(y)) => x.cmp(&y),
        })
    }

    /// What the threshold is a percentage of: the total, or in a signed
    /// column the sum of the absolute self costs (a diff's total can be
    /// near zero while much changed).
    fn reference(&self) -> Cost {
        let (a, ev) = (self.analysis, self.options.event);
        if let Some(m) = self.summed_metric() {
            return metric_cost(m, &a.totals);
        }
        if !self.signed {
            return a.totals.get(ev).copied().unwrap_or(0);
        }
        (0..a.function_count())
            .map(|f| a.self_cost(FnId::from_index(f))[ev].saturating_abs())
            .fold(0, Cost::saturating_add)
    }
}

/// The functions to list: active ones, sorted by cost (descending; by size
/// in a column with negative costs), then name, then id; cut at the
/// threshold and the limit.
pub fn ranked(profile: &Profile, analysis: &Analysis, options: &ReportOptions) -> Vec<FnId> {
    let order = Order::new(analysis, options);
    let active = || {
        (0..analysis.function_count())
            .map(FnId::from_index)
            .filter(|&f| analysis.is_active(f) && options.keeps(profile, f))
    };
    let total = order.reference();
    let pct = |c: i64| {
        if total == 0 {
            100.0
        } else {
            c as f64 * 100.0 / total as f64
        }
    };
    // The functions listed in order, if the cut comes within the best `n`.
    let cut = |best: &[FnId], all: bool| {
        let mut shown = Vec::new();
        let mut covered: i64 = 0;
        for &f in best {
            let size = order.size(Row::Function(f));
            let enough = if options.inclusive {
                // Inclusive costs overlap, so no running sum: each must reach the floor.
                pct(size) < 100.0 - options.threshold
            } else {
                pct(covered) >= options.threshold
            };
            if enough || options.limit.is_some_and(|l| shown.len() >= l) {
                return Some(shown);
            }
            covered = covered.saturating_add(size);
            shown.push(f);
        }
        all.then_some(shown)
    };
    // A report shows few of a million functions: only the best are sorted,
    // more of them while the cut is not among them.
    let compare = |a: &FnId, b: &FnId| order.compare(profile, Row::Function(*a), Row::Function(*b));
    let mut n = options.limit.map_or(1024, |l| l.saturating_add(1)).max(1);
    // The best `n` first, kept in a list of at most `2n` (not one of every
    // function: a report of millions of functions would need it at its peak).
    let mut best = Vec::with_capacity(2 * n.min(1 << 20));
    let mut all = true;
    for f in active() {
        if best.len() == n.saturating_mul(2) {
            best.select_nth_unstable_by(n - 1, compare);
            best.truncate(n);
            all = false;
        }
        best.push(f);
    }
    best.sort_by(compare);
    all &= best.len() <= n;
    best.truncate(n);
    if let Some(shown) = cut(&best, all) {
        return shown;
    }
    drop(best);
    let mut fns: Vec<FnId> = active().collect();
    n = n.saturating_mul(8);
    loop {
        n = n.min(fns.len());
        if n < fns.len() {
            fns.select_nth_unstable_by(n, compare);
        }
        fns[..n].sort_by(compare);
        if let Some(shown) = cut(&fns[..n], n == fns.len()) {
            return shown;
        }
        n = n.saturating_mul(8);
    }
}

/// The rows of the report: the `ranked` functions, and among them each
/// `<cycle N>` pseudo-function whose cost is at least that of the last
/// function listed (every cycle when no function was left out). Cycles do
/// not count toward the threshold's running sum or the limit: their self
/// cost is their members'.
pub fn listing(profile: &Profile, analysis: &Analysis, options: &ReportOptions) -> Vec<Row> {
    let order = Order::new(analysis, options);
    let functions = ranked(profile, analysis, options);
    let all = functions.len()
        == (0..analysis.function_count())
            .filter(|&f| analysis.is_active(FnId::from_index(f)))
            .count();
    let floor = functions.last().map(|&f| order.size(Row::Function(f)));
    // Cycles are not functions a name filter can pick.
    let named = options.focus.is_some() || options.ignore.is_some();
    let mut rows: Vec<Row> = functions.into_iter().map(Row::Function).collect();
    rows.extend(
        (0..analysis.cycles.len())
            .map(Row::Cycle)
            .filter(|&c| !named && (all || floor.is_some_and(|floor| order.size(c) >= floor))),
    );
    rows.sort_by(|&a, &b| order.compare(profile, a, b));
    // A rate orders what the threshold kept: largest first, blanks last.
    if let Some(m) = options
        .sort
        .map(|i| options.metrics.get(i))
        .filter(|m| !m.linear)
    {
        let min = options.metrics.min_denominator;
        let value = |row: Row| m.value(order.costs(row), min);
        rows.sort_by(|&a, &b| match (value(a), value(b)) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        });
    }
    rows
}

/// A summed metric's value as a cost (held at the 64-bit limits).
fn metric_cost(m: &Metric, costs: &[Cost]) -> Cost {
    match m.exact(costs) {
        Some(v) => v.clamp(Cost::MIN as i128, Cost::MAX as i128) as Cost,
        None => m.value(costs, 0.0).map_or(0, |v| v as Cost),
    }
}
