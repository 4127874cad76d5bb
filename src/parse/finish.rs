//! After the last line: derived events are resolved, long names attached,
//! and each part's `summary:`/`totals:` checked against its cost lines.

use super::loader::Loader;
use crate::profile::{Profile, Severity};

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
        let mut total = sum.clone();
        if let Some(summary) = &part.summary {
            for (col, (&d, &s)) in summary.iter().zip(&sum).enumerate() {
                if d >= s && s >= 0 {
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
        let message = format!(
            "`{key}:` gives {declared} for {event}, but the cost lines add up to {sum}; using {used}"
        );
        profile.diagnose(&name, line, Severity::Warning, message);
    }
}
