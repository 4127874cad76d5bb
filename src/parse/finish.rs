//! After the last line: derived events are resolved, long names attached,
//! and each part's `summary:`/`totals:` checked against its cost lines.

use super::loader::Loader;
use crate::profile::{DerivedTerm, Event, Profile, Severity};

pub fn finish(mut loader: Loader<'_>) {
    let derived = std::mem::take(&mut loader.derived);
    let long_names = std::mem::take(&mut loader.long_names);
    let profile = loader.into_profile();
    add_derived(profile, derived);
    for (name, long) in long_names {
        if let Some(i) = profile.events.index_of(&name) {
            profile.events.events[i].long_name = Some(long);
        }
    }
    check_totals(profile);
}

fn add_derived(profile: &mut Profile, defs: Vec<super::loader::DerivedDef>) {
    for def in defs {
        let mut terms: Vec<DerivedTerm> = Vec::new();
        let mut unknown = None;
        for (factor, name) in &def.formula {
            match profile.events.index_of(name) {
                Some(i) => match &profile.events.events[i].formula {
                    // A derived event in terms of another: expand it.
                    Some(inner) => terms.extend(inner.iter().map(|t| DerivedTerm {
                        factor: t.factor.saturating_mul(*factor),
                        event: t.event,
                    })),
                    None => terms.push(DerivedTerm {
                        factor: *factor,
                        event: i,
                    }),
                },
                None => unknown = Some(name.clone()),
            }
        }
        if let Some(name) = unknown {
            profile.diagnose(
                &def.source,
                def.line,
                Severity::Warning,
                format!("event `{}` uses unknown event `{name}`; dropped", def.name),
            );
        } else if profile.events.index_of(&def.name).is_some() {
            profile.diagnose(
                &def.source,
                def.line,
                Severity::Warning,
                format!("event `{}` is defined twice; the first is kept", def.name),
            );
        } else {
            profile.events.events.push(Event {
                name: def.name,
                long_name: None,
                formula: Some(terms),
            });
        }
    }
}

/// Sets each part's total and reports headers that disagree with the cost
/// lines, naming the event and both figures.
///
/// The total is `summary:` where it is at least the sum of the self costs:
/// the format allows cost that no line accounts for, and Callgrind's
/// `summary:` includes the last instructions before the process exits, which
/// appear only in the inclusive cost of the call into `_exit` (`totals:` is
/// the sum of the lines). A `summary:` below the sum (pyprof2calltree writes
/// the largest inclusive time) is inconsistent: the sum is used.
fn check_totals(profile: &mut Profile) {
    let mut warnings = Vec::new();
    for part in &mut profile.parts {
        let sum = part.self_sum();
        let mut total = sum.clone();
        if let Some(summary) = &part.summary {
            for (col, (&d, &s)) in summary.iter().zip(&sum).enumerate() {
                if d >= s && s >= 0 {
                    total[col] = d;
                }
                if d != s {
                    let used = if d >= s && s >= 0 { d } else { s };
                    warnings.push((
                        part.source,
                        part.summary_line,
                        part.event_map[col],
                        "summary",
                        d,
                        s,
                        used,
                    ));
                }
            }
        }
        if let Some(totals) = &part.totals {
            for (col, (&d, &s)) in totals.iter().zip(&sum).enumerate() {
                if d != s {
                    warnings.push((
                        part.source,
                        part.totals_line,
                        part.event_map[col],
                        "totals",
                        d,
                        s,
                        total[col],
                    ));
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
