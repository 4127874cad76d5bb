//! Self cost by inlined function (`report --json --inlined`): each costed
//! address of a function goes to the innermost function DWARF says is
//! inlined there, or to the function's own code. The addresses of all the
//! functions of one object are looked up in one pass over its DWARF.

use super::inline::{self, Missing};
use super::{Note, object};
use crate::analysis::Analysis;
use crate::analysis::source::function_source;
use crate::locate::{Locator, UNKNOWN_FILE};
use crate::profile::{Cost, FnId, Profile};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicBool;

/// The self cost of one inlined function (or of the function's own code)
/// within a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Share {
    /// The inlined function's name, or the function's own.
    pub name: String,
    /// False for the function's own (not inlined) code.
    pub inlined: bool,
    pub cost: Vec<Cost>,
}

/// The breakdown of the functions DWARF could be read for, and why the
/// others have none.
#[derive(Debug, Default)]
pub struct Inlined {
    /// Costliest first (by the first column, then name); the costs add up
    /// to the function's self cost.
    pub by_function: HashMap<FnId, Vec<Share>>,
    pub notes: Vec<Note>,
}

/// The breakdown of every function with a self cost at some address.
pub fn inlined(profile: &Profile, analysis: &Analysis, objects: &Locator) -> Inlined {
    let mut out = Inlined::default();
    let mut by_object: BTreeMap<&str, Vec<FnId>> = BTreeMap::new();
    for i in 0..analysis.function_count() {
        let f = FnId::from_index(i);
        if analysis.self_cost(f).iter().any(|&c| c != 0) {
            by_object.entry(profile.fn_object(f)).or_default().push(f);
        }
    }
    let never = AtomicBool::new(false);
    for (name, functions) in by_object {
        if name.is_empty() || name == UNKNOWN_FILE {
            continue;
        }
        // (function, address, cost) of every costed address of the object.
        let mut rows: Vec<(FnId, u64, Vec<Cost>)> = Vec::new();
        for &f in &functions {
            let src = function_source(profile, analysis, f);
            rows.extend(src.instrs.into_iter().map(|r| (f, r.addr, r.cost)));
        }
        if rows.is_empty() {
            continue;
        }
        let path = match object::locate(objects, name) {
            Ok(path) => path,
            Err(tried) => {
                out.notes.push(Note::NotFound {
                    name: name.to_string(),
                    tried,
                });
                continue;
            }
        };
        let mut addrs: Vec<u64> = rows.iter().map(|r| r.1).collect();
        addrs.sort_unstable();
        addrs.dedup();
        let places = match inline::places(&path, &addrs, &never) {
            Ok(places) => places,
            Err(missing) => {
                out.notes.push(match missing {
                    Missing::NoDwarf => Note::NoDwarf {
                        object: name.to_string(),
                    },
                    Missing::TooLarge(bytes) => Note::DwarfTooLarge {
                        object: name.to_string(),
                        bytes,
                        limit: inline::MAX_DWARF,
                    },
                    Missing::Unreadable(why) => Note::DwarfUnreadable {
                        object: name.to_string(),
                        why,
                    },
                    Missing::Cancelled => Note::DwarfUnreadable {
                        object: name.to_string(),
                        why: "cancelled".into(),
                    },
                });
                continue;
            }
        };
        let innermost: HashMap<u64, Option<&String>> = addrs
            .iter()
            .zip(&places)
            .map(|(&a, p)| (a, p.chain.last()))
            .collect();
        let mut sums: HashMap<FnId, BTreeMap<(bool, String), Vec<Cost>>> = HashMap::new();
        for (f, addr, cost) in rows {
            let key = match innermost.get(&addr).copied().flatten() {
                Some(inlined) => (true, inlined.clone()),
                None => (false, profile.fn_name(f).to_string()),
            };
            let sum = sums
                .entry(f)
                .or_default()
                .entry(key)
                .or_insert_with(|| vec![0; cost.len()]);
            for (s, c) in sum.iter_mut().zip(cost) {
                *s = s.saturating_add(c);
            }
        }
        for (f, shares) in sums {
            let mut shares: Vec<Share> = shares
                .into_iter()
                .map(|((inlined, name), cost)| Share {
                    name,
                    inlined,
                    cost,
                })
                .collect();
            shares.sort_by(|a, b| {
                let first = |s: &Share| s.cost.first().copied().unwrap_or(0);
                first(b)
                    .cmp(&first(a))
                    .then_with(|| a.name.cmp(&b.name))
                    .then_with(|| a.inlined.cmp(&b.inlined))
            });
            out.by_function.insert(f, shares);
        }
    }
    out
}
