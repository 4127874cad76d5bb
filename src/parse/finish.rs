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

/// Totals are always the sum of the self costs (that is what every
/// percentage needs to add up); a `summary:`/`totals:` that says otherwise
/// is reported, naming the event and both figures.
fn check_totals(profile: &mut Profile) {
    let mut warnings = Vec::new();
    for part in &profile.parts {
        let sum = part.self_sum();
        for (key, declared) in [("summary", &part.summary), ("totals", &part.totals)] {
            let Some(declared) = declared else { continue };
            for (col, (&d, &s)) in declared.iter().zip(&sum).enumerate() {
                if d != s {
                    let event = &profile.events.events[part.event_map[col]].name;
                    warnings.push((
                        part.source,
                        format!("`{key}:` gives {d} for {event}, but the cost lines add up to {s}; using {s}"),
                    ));
                }
            }
        }
    }
    for (source, message) in warnings {
        let name = profile.sources[source].clone();
        profile.diagnose(&name, 0, Severity::Warning, message);
    }
}
