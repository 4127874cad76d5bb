//! After the last line: derived events are resolved, long names attached,
//! and each part's `summary:`/`totals:` checked against its cost lines.

use super::loader::Loader;
use crate::profile::{Cost, Part, Profile, Severity};

pub fn finish(mut loader: Loader<'_>) {
    let derived = std::mem::take(&mut loader.derived);
    let long_names = std::mem::take(&mut loader.long_names);
    let profile = loader.into_profile();
    super::derived::add(profile, derived);
    for (name, long) in long_names {
        if let Some(i) = profile.events.index_of(&name) {
            profile.events.events[i].long_name = Some(long);
        }
    }
    check_totals(profile);
}

/// Sets each part's total and reports headers that disagree with the cost
/// lines, naming the event and both figures.
///
/// The total is `summary:` where it is at least the sum of the self costs:
/// the format allows cost that no line accounts for, and Callgrind's
/// `summary:` includes the last instructions before the process exits, which
/// appear only in the inclusive cost of the call into `_exit` (`totals:` is
/// the sum of the lines). That is how every Callgrind profile is, so it is
/// not reported. A `summary:` below the sum (pyprof2calltree writes the
/// largest inclusive time) is inconsistent: the sum is used, with a warning.
/// Events a `summary:` gives no value for (Callgrind leaves out those of
/// `--cacheuse=yes`) are the sum, as without a `summary:`.
fn check_totals(profile: &mut Profile) {
    let mut warnings = Vec::new();
    for part in &mut profile.parts {
        let sum = part.self_sum();
        for col in saturated_columns(part, &sum) {
            warnings.push((
                part.source,
                0,
                part.event_map[col],
                "",
                0,
                sum[col],
                sum[col],
            ));
        }
        let mut total = sum.clone();
        if let Some(summary) = &part.summary {
            for (col, (&d, &s)) in summary.iter().zip(&sum).enumerate() {
                // Equal: nothing to say. Above a sum that is not negative:
                // the last instructions before exit, counted only there.
                if d == s || (d > s && s >= 0) {
                    total[col] = d;
                } else {
                    let line = part.summary_line;
                    warnings.push((part.source, line, part.event_map[col], "summary", d, s, s));
                }
            }
        }
        if let Some(totals) = &part.totals {
            for (col, (&d, &s)) in totals.iter().zip(&sum).enumerate() {
                if d != s {
                    let (line, used) = (part.totals_line, total[col]);
                    warnings.push((part.source, line, part.event_map[col], "totals", d, s, used));
                }
            }
        }
        part.total = total;
    }
    for (source, line, event, key, declared, sum, used) in warnings {
        let name = profile.sources[source].clone();
        let event = profile.events.events[event].name.clone();
        let message = if key.is_empty() {
            format!(
                "the costs of {event} add up beyond the signed 64-bit range: the total is saturated at {sum}, not exact"
            )
        } else {
            format!(
                "`{key}:` gives {declared} for {event}, but the cost lines add up to {sum}; using {used}"
            )
        };
        profile.diagnose(&name, line, Severity::Warning, message);
    }
}

/// Columns whose sum over the part's functions went beyond a cost's range
/// (`sum` is `Part::self_sum`, which saturates).
fn saturated_columns(part: &Part, sum: &[Cost]) -> Vec<usize> {
    let w = part.width();
    let at_limit: Vec<usize> = (0..w)
        .filter(|&c| sum[c] == Cost::MAX || sum[c] == Cost::MIN)
        .collect();
    at_limit
        .into_iter()
        .filter(|&c| {
            let exact: i128 = part
                .self_costs
                .chunks_exact(w)
                .map(|row| i128::from(row[c]))
                .sum();
            exact != i128::from(sum[c])
        })
        .collect()
}
