//! Two profiles compared: the base (before) and the new one (after). Each
//! side keeps its own profile and analysis (its selected parts summed), so
//! each side's numbers are exactly what it shows alone; this joins them:
//! the functions matched across the two (`matching`), the events both
//! have, and the calls of either, as plain data that the report, the JSON
//! and the browser read.

mod difference;
pub mod matching;
pub mod rewrite;
pub mod source;

pub use difference::{clamped_change, extend_with_base};

pub use matching::{MatchOptions, Pair, match_functions};

use super::Analysis;
use crate::profile::{Cost, FnId, Profile};
use rustc_hash::FxHashMap as HashMap;

/// An event of both profiles: its column on each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommonEvent {
    pub name: String,
    pub base: usize,
    pub new: usize,
}

/// A call of either profile, between two pairs: its edge on each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairCall {
    /// Indexes into `Comparison::pairs`.
    pub caller: usize,
    pub callee: usize,
    /// Indexes into each side's `Analysis::edges`.
    pub base: Option<usize>,
    pub new: Option<usize>,
}

/// Which side of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Base,
    New,
}

/// The two profiles joined; see the module's comment.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    pub events: Vec<CommonEvent>,
    /// Events of one profile only, left out of the comparison.
    pub left_out: Vec<(String, Side)>,
    /// Every function of either profile once: the new profile's first.
    pub pairs: Vec<Pair>,
    /// Per function of each side: its index in `pairs`.
    pair_of_base: Vec<usize>,
    pair_of_new: Vec<usize>,
    pub calls: Vec<PairCall>,
}

impl Comparison {
    pub fn new(
        base: (&Profile, &Analysis),
        new: (&Profile, &Analysis),
        options: &MatchOptions,
    ) -> Comparison {
        let events = common_events(base.0, new.0);
        let left_out = left_out(base.0, new.0, &events);
        let pairs = match_functions(base.0, new.0, options);
        let mut pair_of_base = vec![0; base.0.functions.len()];
        let mut pair_of_new = vec![0; new.0.functions.len()];
        for (i, p) in pairs.iter().enumerate() {
            if let Some(b) = p.base {
                pair_of_base[b.index()] = i;
            }
            if let Some(n) = p.new {
                pair_of_new[n.index()] = i;
            }
        }
        let mut comparison = Comparison {
            events,
            left_out,
            pairs,
            pair_of_base,
            pair_of_new,
            calls: Vec::new(),
        };
        comparison.join_calls(base.1, new.1);
        comparison
    }

    /// The calls of both sides' analyses, joined by their pairs (again
    /// after another selection of parts).
    pub fn join_calls(&mut self, base: &Analysis, new: &Analysis) {
        let (pair_of_base, pair_of_new) = (&self.pair_of_base, &self.pair_of_new);
        let mut calls = Vec::with_capacity(new.edges.len());
        let mut at: HashMap<(usize, usize), usize> = HashMap::default();
        for (i, e) in new.edges.iter().enumerate() {
            let key = (pair_of_new[e.caller.index()], pair_of_new[e.callee.index()]);
            at.insert(key, calls.len());
            calls.push(PairCall {
                caller: key.0,
                callee: key.1,
                base: None,
                new: Some(i),
            });
        }
        for (i, e) in base.edges.iter().enumerate() {
            let key = (
                pair_of_base[e.caller.index()],
                pair_of_base[e.callee.index()],
            );
            match at.get(&key) {
                Some(&c) => calls[c].base = Some(i),
                None => calls.push(PairCall {
                    caller: key.0,
                    callee: key.1,
                    base: Some(i),
                    new: None,
                }),
            }
        }
        self.calls = calls;
    }

    /// The pair of a function of one side.
    pub fn pair_of(&self, side: Side, f: FnId) -> usize {
        match side {
            Side::Base => self.pair_of_base[f.index()],
            Side::New => self.pair_of_new[f.index()],
        }
    }

    /// The function of a pair on one side.
    pub fn function(&self, pair: usize, side: Side) -> Option<FnId> {
        let p = self.pairs[pair];
        match side {
            Side::Base => p.base,
            Side::New => p.new,
        }
    }

    /// A row of the base's event columns in the new profile's, `width`
    /// wide (0 in an event of the new profile only): how a base's costs
    /// are set beside the new profile's.
    pub fn base_in_new_columns(&self, row: &[Cost], width: usize) -> Vec<Cost> {
        let mut out = vec![0; width];
        for e in &self.events {
            if let (Some(o), Some(&v)) = (out.get_mut(e.new), row.get(e.base)) {
                *o = v;
            }
        }
        out
    }

    /// The column of common event `ev` on one side.
    pub fn column(&self, ev: usize, side: Side) -> usize {
        match side {
            Side::Base => self.events[ev].base,
            Side::New => self.events[ev].new,
        }
    }

    /// A pair's self cost of common event `ev` on one side (0 where the
    /// function is not in that profile).
    pub fn self_cost(&self, a: &Analysis, side: Side, pair: usize, ev: usize) -> Cost {
        self.function(pair, side)
            .map_or(0, |f| a.self_cost(f)[self.column(ev, side)])
    }

    /// A pair's inclusive cost of common event `ev` on one side.
    pub fn inclusive(&self, a: &Analysis, side: Side, pair: usize, ev: usize) -> Cost {
        self.function(pair, side)
            .map_or(0, |f| a.inclusive(f)[self.column(ev, side)])
    }

    /// A call's count and inclusive cost of common event `ev` on one side
    /// (zeros where that profile has no such call).
    pub fn call(&self, a: &Analysis, side: Side, call: usize, ev: usize) -> (u64, Cost) {
        let c = self.calls[call];
        let edge = match side {
            Side::Base => c.base,
            Side::New => c.new,
        };
        edge.map_or((0, 0), |e| {
            (a.edges[e].count, a.edge_cost(e)[self.column(ev, side)])
        })
    }
}

/// The base side of a comparison, owned, with the new side's analysis and
/// how the two join: what the browser keeps beside the new profile.
#[derive(Debug)]
pub struct Joined {
    pub base: Profile,
    pub base_analysis: Analysis,
    /// The new side's own analysis (of the extended new profile).
    pub new_analysis: Analysis,
    pub comparison: Comparison,
}

impl Joined {
    /// Joins `base` to `new`, which gains the base's functions that match
    /// none of its own (so that a pair's index is its id in `new`); also
    /// returns the difference, new minus base.
    pub fn new(base: Profile, new: &mut Profile, options: &MatchOptions) -> (Joined, Analysis) {
        Self::with_parts(base, &[], new, &[], options)
    }

    /// The same with only some parts of each side (flags as
    /// `Analysis::with_parts` takes them; missing flags count as set).
    pub fn with_parts(
        base: Profile,
        base_parts: &[bool],
        new: &mut Profile,
        new_parts: &[bool],
        options: &MatchOptions,
    ) -> (Joined, Analysis) {
        let base_analysis = Analysis::with_parts(&base, base_parts);
        let new_analysis = Analysis::with_parts(new, new_parts);
        let comparison = Comparison::new((&base, &base_analysis), (new, &new_analysis), options);
        extend_with_base(new, &base, &comparison);
        let new_analysis = new_analysis.grown(new.functions.len());
        let difference = Analysis::difference(&base_analysis, &new_analysis, &comparison);
        let joined = Joined {
            base,
            base_analysis,
            new_analysis,
            comparison,
        };
        (joined, difference)
    }

    /// Another selection of the new profile's parts (`new` is the
    /// extended profile): the new side's analysis again, and the
    /// difference, returned.
    pub fn select_parts(&mut self, new: &Profile, parts: &[bool]) -> Analysis {
        self.new_analysis = Analysis::with_parts(new, parts);
        self.comparison
            .join_calls(&self.base_analysis, &self.new_analysis);
        Analysis::difference(&self.base_analysis, &self.new_analysis, &self.comparison)
    }

    /// Both sides, to read the comparison by.
    pub fn compared<'a>(&'a self, new: &'a Profile) -> Compared<'a> {
        Compared {
            base: &self.base,
            base_analysis: &self.base_analysis,
            new,
            analysis: &self.new_analysis,
            comparison: &self.comparison,
        }
    }
}

/// Both sides and how they compare, for the readers of a comparison.
#[derive(Clone, Copy)]
pub struct Compared<'a> {
    pub base: &'a Profile,
    pub base_analysis: &'a Analysis,
    pub new: &'a Profile,
    pub analysis: &'a Analysis,
    pub comparison: &'a Comparison,
}

impl Compared<'_> {
    /// A pair's self cost of common event `ev`: base, new.
    pub fn self_costs(&self, pair: usize, ev: usize) -> (Cost, Cost) {
        let c = self.comparison;
        (
            c.self_cost(self.base_analysis, Side::Base, pair, ev),
            c.self_cost(self.analysis, Side::New, pair, ev),
        )
    }

    /// A pair's inclusive cost of common event `ev`: base, new.
    pub fn inclusive_costs(&self, pair: usize, ev: usize) -> (Cost, Cost) {
        let c = self.comparison;
        (
            c.inclusive(self.base_analysis, Side::Base, pair, ev),
            c.inclusive(self.analysis, Side::New, pair, ev),
        )
    }

    /// Common event `ev`'s totals: base, new.
    pub fn totals(&self, ev: usize) -> (Cost, Cost) {
        let c = self.comparison;
        (
            self.base_analysis.totals[c.column(ev, Side::Base)],
            self.analysis.totals[c.column(ev, Side::New)],
        )
    }

    /// A pair's name, file and object, from the new profile where it is.
    pub fn names(&self, pair: usize) -> (&str, &str, &str) {
        let p = self.comparison.pairs[pair];
        let (profile, f) = match (p.new, p.base) {
            (Some(f), _) => (self.new, f),
            (None, Some(f)) => (self.base, f),
            (None, None) => return ("", "", ""),
        };
        (profile.fn_name(f), profile.fn_file(f), profile.fn_object(f))
    }
}

/// The events of both profiles, in the new profile's order.
fn common_events(base: &Profile, new: &Profile) -> Vec<CommonEvent> {
    new.events
        .events
        .iter()
        .enumerate()
        .filter_map(|(n, e)| {
            base.events.index_of(&e.name).map(|b| CommonEvent {
                name: e.name.clone(),
                base: b,
                new: n,
            })
        })
        .collect()
}

fn left_out(base: &Profile, new: &Profile, common: &[CommonEvent]) -> Vec<(String, Side)> {
    let shared = |name: &str| common.iter().any(|c| c.name == name);
    let only = |p: &Profile, side: Side| {
        p.events
            .events
            .iter()
            .filter(|e| !shared(&e.name))
            .map(move |e| (e.name.clone(), side))
            .collect::<Vec<_>>()
    };
    let mut out = only(base, Side::Base);
    out.extend(only(new, Side::New));
    out
}

#[cfg(test)]
mod tests;
