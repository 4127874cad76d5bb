//! Non-interactive output: `cgtui report` as text (in the spirit of
//! callgrind_annotate) or JSON. Must not import `tui`.

mod json;
mod text;

pub use json::Report as JsonReport;
pub use text::text;

use crate::analysis::Analysis;
use crate::profile::{FnId, Profile};

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
    pub threshold: f64,
    pub limit: Option<usize>,
}

/// The functions to list: active ones, sorted by cost (descending), then
/// name, then id; cut at the threshold and the limit.
pub fn ranked(profile: &Profile, analysis: &Analysis, options: &ReportOptions) -> Vec<FnId> {
    let ev = options.event;
    let cost = |f: FnId| {
        if options.inclusive {
            analysis.inclusive(f)[ev]
        } else {
            analysis.self_cost(f)[ev]
        }
    };
    let mut fns: Vec<FnId> = (0..analysis.function_count())
        .map(FnId::from_index)
        .filter(|&f| analysis.is_active(f))
        .collect();
    fns.sort_by(|&a, &b| {
        cost(b)
            .cmp(&cost(a))
            .then_with(|| profile.fn_name(a).cmp(profile.fn_name(b)))
            .then(a.cmp(&b))
    });
    let total = analysis.totals.get(ev).copied().unwrap_or(0);
    let pct = |c: i64| {
        if total == 0 {
            100.0
        } else {
            c as f64 * 100.0 / total as f64
        }
    };
    let mut shown = Vec::new();
    let mut covered: i64 = 0;
    for f in fns {
        let enough = if options.inclusive {
            // Inclusive costs overlap, so no running sum: each must reach the floor.
            pct(cost(f)) < 100.0 - options.threshold
        } else {
            pct(covered) >= options.threshold
        };
        if enough || options.limit.is_some_and(|l| shown.len() >= l) {
            break;
        }
        covered = covered.saturating_add(cost(f));
        shown.push(f);
    }
    shown
}
