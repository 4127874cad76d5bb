//! Derived events (`event: X = 2 Ir + Dr`), resolved once every raw event is
//! known. A formula may use raw events and other derived events, defined
//! before or after it; each is reduced to one factor per raw event, so memory
//! grows with the number of raw events, never with how deeply definitions
//! nest (`E2 = E1 + E1`, `E3 = E2 + E2`, ... would otherwise double each time).
//! Definitions that depend on themselves, on an unknown event or on one of
//! those are reported on their lines and dropped.

use super::loader::DerivedDef;
use crate::profile::{DerivedTerm, Event, Profile, Severity};
use std::collections::HashMap;

/// Derived events kept; each is a column of every cost table built later,
/// so a file of thousands of definitions must not multiply memory.
pub const MAX_DERIVED: usize = 256;

enum State {
    Waiting,
    /// Factor per raw event.
    Resolved(Vec<i64>),
    Dropped,
}

/// Adds the accepted definitions to the profile's events, in file order.
pub fn add(profile: &mut Profile, defs: Vec<DerivedDef>) {
    let raw = profile.events.raw_count();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    let mut state: Vec<State> = Vec::with_capacity(defs.len());
    let mut problems: Vec<(usize, String)> = Vec::new();
    for (i, def) in defs.iter().enumerate() {
        let twice =
            profile.events.index_of(&def.name).is_some() || by_name.contains_key(&*def.name);
        if twice {
            problems.push((
                i,
                format!("event `{}` is defined twice; the first is kept", def.name),
            ));
            state.push(State::Dropped);
        } else if by_name.len() >= MAX_DERIVED {
            problems.push((
                i,
                format!(
                    "more than {MAX_DERIVED} derived events; `{}` dropped",
                    def.name
                ),
            ));
            state.push(State::Dropped);
        } else {
            by_name.insert(&def.name, i);
            state.push(State::Waiting);
        }
    }
    // Passes until nothing changes: each resolves every definition whose
    // derived events are all resolved. What is left waits on a cycle: the
    // definitions on it are dropped, then those that use them.
    loop {
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..defs.len() {
                if !matches!(state[i], State::Waiting) {
                    continue;
                }
                let name = &defs[i].name;
                state[i] = match reduce(profile, &defs[i], raw, &by_name, &state) {
                    Reduced::Waiting => continue,
                    Reduced::Done(factors) => State::Resolved(factors),
                    Reduced::Unknown(other) => {
                        let m = format!("event `{name}` uses unknown event `{other}`; dropped");
                        problems.push((i, m));
                        State::Dropped
                    }
                    Reduced::UsesDropped(other) => {
                        let m = format!(
                            "event `{name}` uses event `{other}`, which is dropped; dropped too"
                        );
                        problems.push((i, m));
                        State::Dropped
                    }
                };
                changed = true;
            }
        }
        let cyclic: Vec<usize> = (0..defs.len())
            .filter(|&i| on_cycle(i, &defs, &by_name, &state))
            .collect();
        if cyclic.is_empty() {
            break;
        }
        for i in cyclic {
            let m = format!(
                "event `{}` is defined in terms of itself; dropped",
                defs[i].name
            );
            problems.push((i, m));
            state[i] = State::Dropped;
        }
    }
    problems.sort_by_key(|p| p.0);
    for (i, message) in problems {
        let def = &defs[i];
        let severity = if message.contains("defined twice") {
            Severity::Warning
        } else {
            Severity::Error
        };
        profile.diagnose(&def.source, def.line, severity, message);
    }
    for (def, s) in defs.into_iter().zip(state) {
        if let State::Resolved(factors) = s {
            let formula = factors
                .iter()
                .enumerate()
                .filter(|(_, f)| **f != 0)
                .map(|(event, &factor)| DerivedTerm { factor, event })
                .collect();
            profile.events.events.push(Event {
                name: def.name,
                long_name: None,
                formula: Some(formula),
            });
        }
    }
}

enum Reduced {
    Waiting,
    Done(Vec<i64>),
    Unknown(String),
    UsesDropped(String),
}

/// `def` as one factor per raw event, if every event it uses is known.
fn reduce(
    profile: &Profile,
    def: &DerivedDef,
    raw: usize,
    by_name: &HashMap<&str, usize>,
    state: &[State],
) -> Reduced {
    let mut factors = vec![0i64; raw];
    for (factor, name) in &def.formula {
        if let Some(i) = profile.events.index_of(name).filter(|&i| i < raw) {
            factors[i] = factors[i].saturating_add(*factor);
            continue;
        }
        match by_name.get(name.as_str()).map(|&j| &state[j]) {
            None => return Reduced::Unknown(name.clone()),
            Some(State::Dropped) => return Reduced::UsesDropped(name.clone()),
            Some(State::Waiting) => return Reduced::Waiting,
            Some(State::Resolved(inner)) => {
                for (sum, &f) in factors.iter_mut().zip(inner) {
                    *sum = sum.saturating_add(f.saturating_mul(*factor));
                }
            }
        }
    }
    Reduced::Done(factors)
}

/// Whether waiting definition `start` reaches itself through the waiting
/// definitions it uses.
fn on_cycle(
    start: usize,
    defs: &[DerivedDef],
    by_name: &HashMap<&str, usize>,
    state: &[State],
) -> bool {
    let waiting = |i: usize| matches!(state[i], State::Waiting);
    if !waiting(start) {
        return false;
    }
    let mut seen = vec![false; defs.len()];
    let mut stack = vec![start];
    while let Some(i) = stack.pop() {
        for (_, name) in &defs[i].formula {
            let Some(&j) = by_name.get(name.as_str()) else {
                continue;
            };
            if j == start {
                return true;
            }
            if waiting(j) && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    false
}
