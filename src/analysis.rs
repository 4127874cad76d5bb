//! Derived facts about a loaded profile for a chosen set of parts: self and
//! inclusive costs per function in the profile's event columns (derived events
//! included), call edges with counts and costs, and recursion cycles.
//! Must not import `tui`, ratatui or crossterm.

mod combine;
mod scc;
pub mod source;

use crate::profile::{Cost, EventTable, FnId, Profile};

/// A caller -> callee pair, summed over call sites and selected parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub caller: FnId,
    pub callee: FnId,
    /// Number of calls (0 where the profile only says "unknown").
    pub count: u64,
}

/// A strongly connected set of functions: mutual recursion, shown as the
/// pseudo-function `<cycle N>` the way KCachegrind does.
#[derive(Clone, Debug)]
pub struct Cycle {
    /// 1-based, in order of the cycles' smallest member id.
    pub number: usize,
    pub members: Vec<FnId>,
    /// Sum of the members' self costs.
    pub self_cost: Vec<Cost>,
    /// Self cost plus calls from members to functions outside the cycle.
    pub inclusive: Vec<Cost>,
    /// Calls into the cycle from outside it.
    pub called: u64,
}

/// Everything the views need, for one selection of parts.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Columns per row: every event of the profile, derived ones included.
    pub width: usize,
    /// Which of the profile's parts are summed here.
    pub parts: Vec<bool>,
    /// Sum of all self costs.
    pub totals: Vec<Cost>,
    self_costs: Vec<Cost>,
    inclusive: Vec<Cost>,
    /// Calls into each function, from every caller (recursive calls included).
    pub called: Vec<u64>,
    pub edges: Vec<Edge>,
    edge_costs: Vec<Cost>,
    callers: Adjacency,
    callees: Adjacency,
    /// Index into `cycles` for functions in a cycle of two or more.
    cycle_of: Vec<Option<u32>>,
    pub cycles: Vec<Cycle>,
}

/// Edge indexes grouped by function (compressed rows).
#[derive(Clone, Debug, Default)]
struct Adjacency {
    start: Vec<u32>,
    edges: Vec<u32>,
}

impl Adjacency {
    fn build(n: usize, edges: &[Edge], key: impl Fn(&Edge) -> FnId) -> Self {
        let mut start = vec![0u32; n + 1];
        for e in edges {
            start[key(e).index() + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut list = vec![0u32; edges.len()];
        for (i, e) in edges.iter().enumerate() {
            let slot = &mut fill[key(e).index()];
            list[*slot as usize] = i as u32;
            *slot += 1;
        }
        Adjacency { start, edges: list }
    }

    fn of(&self, f: FnId) -> &[u32] {
        let (a, b) = (self.start[f.index()], self.start[f.index() + 1]);
        &self.edges[a as usize..b as usize]
    }
}

impl Analysis {
    /// All parts summed.
    pub fn new(profile: &Profile) -> Self {
        Self::with_parts(profile, &vec![true; profile.parts.len()])
    }

    /// Only the parts whose flag is set (missing flags count as set).
    pub fn with_parts(profile: &Profile, parts: &[bool]) -> Self {
        let selected: Vec<bool> = (0..profile.parts.len())
            .map(|i| parts.get(i).copied().unwrap_or(true))
            .collect();
        let combined = combine::combine(profile, &selected);
        let n = profile.functions.len();
        let callers = Adjacency::build(n, &combined.edges, |e| e.callee);
        let callees = Adjacency::build(n, &combined.edges, |e| e.caller);
        let mut analysis = Analysis {
            width: combined.width,
            parts: selected,
            totals: combined.totals,
            inclusive: Vec::new(),
            self_costs: combined.self_costs,
            called: combined.called,
            edges: combined.edges,
            edge_costs: combined.edge_costs,
            callers,
            callees,
            cycle_of: vec![None; n],
            cycles: Vec::new(),
        };
        analysis.compute_inclusive(&profile.events);
        analysis
    }

    pub fn function_count(&self) -> usize {
        self.called.len()
    }

    pub fn self_cost(&self, f: FnId) -> &[Cost] {
        &self.self_costs[f.index() * self.width..(f.index() + 1) * self.width]
    }

    pub fn inclusive(&self, f: FnId) -> &[Cost] {
        &self.inclusive[f.index() * self.width..(f.index() + 1) * self.width]
    }

    pub fn edge_cost(&self, edge: usize) -> &[Cost] {
        &self.edge_costs[edge * self.width..(edge + 1) * self.width]
    }

    /// Indexes into `edges` of the calls into `f`.
    pub fn callers(&self, f: FnId) -> &[u32] {
        self.callers.of(f)
    }

    /// Indexes into `edges` of the calls `f` makes.
    pub fn callees(&self, f: FnId) -> &[u32] {
        self.callees.of(f)
    }

    /// The cycle `f` belongs to, if it is part of mutual recursion.
    pub fn cycle_of(&self, f: FnId) -> Option<&Cycle> {
        self.cycle_of[f.index()].map(|c| &self.cycles[c as usize])
    }

    /// A call from a function to itself or within its cycle: its cost is
    /// already inside the caller's inclusive cost.
    pub fn is_recursive(&self, edge: usize) -> bool {
        let e = self.edges[edge];
        self.calls_within_cycle(e.caller, e.callee)
    }

    /// Whether a call from `caller` to `callee` is recursive: to itself or
    /// within its cycle (see `is_recursive`).
    pub fn calls_within_cycle(&self, caller: FnId, callee: FnId) -> bool {
        caller == callee
            || (self.cycle_of[caller.index()].is_some()
                && self.cycle_of[caller.index()] == self.cycle_of[callee.index()])
    }

    /// Whether `f` has any cost or call in the selected parts.
    pub fn is_active(&self, f: FnId) -> bool {
        self.self_cost(f).iter().any(|&c| c != 0)
            || !self.callers(f).is_empty()
            || !self.callees(f).is_empty()
    }

    /// Inclusive cost, defined so that no activation is counted twice.
    ///
    /// Functions are grouped into strongly connected components of the call
    /// graph. A call is *recursive* when it stays inside one component (a
    /// function calling itself, or one member of a cycle calling another);
    /// every other call enters a new component.
    ///
    /// - For a function in a cycle of two or more, and for the cycle's
    ///   `<cycle N>` pseudo-function: `self + Σ calls leaving the cycle`.
    ///   Calls inside the cycle are left out: their cost is made of the
    ///   members' own activations, already counted.
    /// - For any other function `f`: per event, the larger of
    ///   `self(f) + Σ non-recursive calls made by f` and
    ///   `Σ non-recursive calls into f`. With complete data the two are
    ///   equal; where the profile misses something they differ, and each is
    ///   a lower bound (a signal handler's cost has no incoming call;
    ///   the instructions before a process exits appear only in the cost of
    ///   the call into `_exit`, not as anyone's self cost).
    /// - Where the data contradicts itself badly (yappi's calls into `main`
    ///   measure more ticks than all self costs together), an inclusive cost
    ///   is capped at the total: it can never be more than the whole run.
    ///
    /// Call costs are the inclusive costs the profile measured for each call,
    /// so nothing is propagated over the graph, and nothing recurses.
    fn compute_inclusive(&mut self, events: &EventTable) {
        let n = self.function_count();
        let w = self.width;
        let components = scc::components(n, |f| {
            self.callees(FnId::from_index(f))
                .iter()
                .map(|&e| self.edges[e as usize].callee.index())
        });
        for members in components.into_iter().filter(|m| m.len() > 1) {
            self.cycles.push(Cycle {
                number: 0,
                members: members.iter().map(|&m| FnId::from_index(m)).collect(),
                self_cost: vec![0; w],
                inclusive: vec![0; w],
                called: 0,
            });
        }
        self.cycles.sort_by_key(|c| c.members.iter().min().copied());
        for (i, cycle) in self.cycles.iter_mut().enumerate() {
            cycle.number = i + 1;
            cycle.members.sort();
            for &m in &cycle.members {
                self.cycle_of[m.index()] = Some(i as u32);
            }
        }
        let mut outgoing = self.self_costs.clone();
        let mut incoming = vec![0; n * w];
        // Only calls measure a function from outside: one never called (a
        // root, or any function of a Cachegrind file) has no such figure.
        let mut called_from_outside = vec![false; n];
        let mut cycle_in: Vec<Option<Vec<Cost>>> = vec![None; self.cycles.len()];
        for (i, e) in self.edges.iter().enumerate() {
            if self.is_recursive(i) {
                continue;
            }
            let cost = &self.edge_costs[i * w..(i + 1) * w];
            add(
                &mut outgoing[e.caller.index() * w..(e.caller.index() + 1) * w],
                cost,
            );
            add(
                &mut incoming[e.callee.index() * w..(e.callee.index() + 1) * w],
                cost,
            );
            called_from_outside[e.callee.index()] = true;
            if let Some(c) = self.cycle_of[e.caller.index()] {
                add(&mut self.cycles[c as usize].inclusive, cost);
            }
            if let Some(c) = self.cycle_of[e.callee.index()] {
                let cycle = &mut self.cycles[c as usize];
                cycle.called = cycle.called.saturating_add(e.count);
                add(cycle_in[c as usize].get_or_insert_with(|| vec![0; w]), cost);
            }
        }
        for (c, cycle) in self.cycles.iter_mut().enumerate() {
            for &m in &cycle.members {
                let own = &self.self_costs[m.index() * w..(m.index() + 1) * w];
                add(&mut cycle.self_cost, own);
                add(&mut cycle.inclusive, own);
            }
            if let Some(called) = &cycle_in[c] {
                max_into(&mut cycle.inclusive, called);
            }
        }
        // max and min are taken on raw events; derived ones are then computed
        // from them again, so `Sum = Ir + 2 Dr` holds for inclusive costs too.
        for f in 0..n {
            let row = &mut outgoing[f * w..(f + 1) * w];
            if self.cycle_of[f].is_none() && called_from_outside[f] {
                max_into(row, &incoming[f * w..(f + 1) * w]);
            }
            cap_at_total(row, &self.totals);
            events.derive(row);
        }
        for cycle in &mut self.cycles {
            cap_at_total(&mut cycle.inclusive, &self.totals);
            events.derive(&mut cycle.inclusive);
        }
        self.inclusive = outgoing;
    }
}

/// `row = min(row, total)` per column where the total is not negative
/// (`cg_diff` profiles have costs of both signs and no such bound).
fn cap_at_total(row: &mut [Cost], totals: &[Cost]) {
    for (a, &t) in row.iter_mut().zip(totals) {
        if t >= 0 {
            *a = (*a).min(t);
        }
    }
}

/// `row = max(row, other)` per column.
fn max_into(row: &mut [Cost], other: &[Cost]) {
    for (a, &b) in row.iter_mut().zip(other) {
        *a = (*a).max(b);
    }
}

/// `row += other`, saturating.
pub(crate) fn add(row: &mut [Cost], other: &[Cost]) {
    for (a, b) in row.iter_mut().zip(other) {
        *a = a.saturating_add(*b);
    }
}

#[cfg(test)]
mod tests;
