//! Inclusive costs and cycles, derived once per selection of parts from the
//! call costs the profile measured: nothing is propagated over the graph and
//! nothing recurses, so a call chain a million deep is no harder than a flat one.

use super::{Adjacency, Analysis, Cycle, Edge, add, scc};
use crate::profile::{Cost, EventTable, FnId};

/// The strongly connected components of two or more functions of the call
/// graph whose calls are `callees` (indexes into `edges`).
pub(super) fn components(callees: &Adjacency, edges: &[Edge]) -> Vec<Vec<usize>> {
    // Functions past the last that calls any call nothing, so are in no
    // cycle: the search leaves them out (and the memory it would take
    // for them, which a Cachegrind file's functions would all need).
    let callers = callees.functions();
    let f = FnId::from_index;
    scc::components(
        callers,
        |v| callees.of(f(v)).len(),
        |v, k| (callees.nth(f(v), k)).map_or(usize::MAX, |e| edges[e as usize].callee.index()),
    )
}

impl Analysis {
    /// Records the `components` of two or more as cycles, numbered in
    /// order of their smallest member id.
    pub(super) fn set_cycles(&mut self, components: Vec<Vec<usize>>) {
        let w = self.width;
        for members in components {
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
        }
        self.cycle_of = super::cycle_index::CycleIndex::new(&self.cycles);
    }

    /// Inclusive cost, defined so that no activation is counted twice.
    ///
    /// A call is *recursive* when it stays inside one strongly connected
    /// component (a function calling itself, or one member of a cycle calling
    /// another); every other call enters a new component. For every function
    /// `f` (member of a cycle or not), per raw event, the larger of
    ///
    /// - `self(f) + Σ non-recursive calls made by f`, and
    /// - `Σ non-recursive calls into f` (calls from outside its component).
    ///
    /// Outside cycles, the two are equal when the data is complete; where the
    /// profile misses something each is a lower bound (a signal handler has
    /// no incoming call; the instructions before a process exits appear only
    /// in the cost of the call into `_exit`, not as anyone's self cost).
    ///
    /// Inside a cycle the first figure leaves out everything the member does
    /// through other members (SQLite's `sqlite3_step` does its work in
    /// `sqlite3VdbeExec`, which calls `sqlite3_step` again for a nested
    /// statement), so it can be a tiny fraction of the real cost. The second
    /// is sound there too: a caller `c` outside the cycle cannot be active
    /// inside an activation of the member `m` it calls, since `c` would then
    /// be reachable from `m` and, as `m` is reachable from `c`, be in the
    /// cycle. So the activations of `m` called from outside never nest in one
    /// another, and the costs of those calls add up without double counting.
    ///
    /// The `<cycle N>` pseudo-function takes the same two figures for the
    /// cycle as a whole: the members' self costs plus the calls leaving the
    /// cycle, and the calls into any member from outside.
    ///
    /// Where the data contradicts itself (yappi's calls into `main` measure
    /// more ticks than all self costs together), an inclusive cost is capped
    /// at the total: it can never be more than the whole run. A column with
    /// negative costs (`cg_diff` output) has no such bound and is not capped,
    /// and no cap ever takes an inclusive cost below the self cost.
    ///
    /// Max and min are taken on raw events; derived ones are then computed
    /// from them again, so `Sum = Ir + 2 Dr` holds for inclusive costs too.
    ///
    /// Each function's row depends only on its own calls, so the rows are
    /// computed in two halves at once where `two_cores`.
    pub(super) fn compute_inclusive(&mut self, events: &EventTable, two_cores: bool) {
        if self.edges.is_empty() {
            // Nothing but self costs: those are the inclusive costs.
            self.inclusive = std::sync::Arc::clone(&self.self_costs);
            return;
        }
        self.sum_cycles(events);
        let (n, w) = (self.function_count(), self.width);
        let mut rows = vec![0; n * w];
        let half = if two_cores { n / 2 } else { n };
        let (low, high) = rows.split_at_mut(half * w);
        let this = &*self;
        crate::threads::both_if(
            !high.is_empty(),
            || this.fill_inclusive(half, high, events),
            || this.fill_inclusive(0, low, events),
        );
        self.inclusive = rows.into();
    }

    /// The inclusive rows of the functions from `first` on, into `rows`.
    fn fill_inclusive(&self, first: usize, rows: &mut [Cost], events: &EventTable) {
        let w = self.width;
        let mut incoming = vec![0; w];
        for (i, row) in rows.chunks_exact_mut(w).enumerate() {
            let f = FnId::from_index(first + i);
            let own = self.self_cost(f);
            row.copy_from_slice(own);
            for e in self.callees(f) {
                if !self.is_recursive(e as usize) {
                    add(row, self.edge_cost(e as usize));
                }
            }
            // Only calls measure a function from outside: one never called
            // (a root, or any function of a Cachegrind file) has no such
            // figure.
            incoming.fill(0);
            let mut called_from_outside = false;
            for e in self.callers(f) {
                if !self.is_recursive(e as usize) {
                    add(&mut incoming, self.edge_cost(e as usize));
                    called_from_outside = true;
                }
            }
            if called_from_outside {
                max_into(row, &incoming);
            }
            cap(row, own, &self.totals, &self.signed);
            events.derive(row);
        }
    }

    /// Each cycle's self cost, inclusive cost and calls from outside. The
    /// calls are added in the order of the edges, whichever member makes
    /// them, so that sums are the same however the members are listed.
    fn sum_cycles(&mut self, events: &EventTable) {
        let w = self.width;
        let mut sums = Vec::with_capacity(self.cycles.len());
        for cycle in &self.cycles {
            // The calls leaving the cycle (`out`) or entering it.
            let crossing = |out: bool| {
                let mut edges: Vec<u32> = (cycle.members.iter())
                    .flat_map(|&m| {
                        if out {
                            self.callees(m)
                        } else {
                            self.callers(m)
                        }
                    })
                    .filter(|&e| !self.is_recursive(e as usize))
                    .collect();
                edges.sort_unstable();
                edges
            };
            let mut self_cost = vec![0; w];
            let mut inclusive = vec![0; w];
            for e in crossing(true) {
                add(&mut inclusive, self.edge_cost(e as usize));
            }
            let mut called = 0u64;
            let mut called_in: Option<Vec<Cost>> = None;
            for e in crossing(false) {
                called = called.saturating_add(self.edges[e as usize].count);
                add(
                    called_in.get_or_insert_with(|| vec![0; w]),
                    self.edge_cost(e as usize),
                );
            }
            for &m in &cycle.members {
                add(&mut self_cost, self.self_cost(m));
                add(&mut inclusive, self.self_cost(m));
            }
            if let Some(called_in) = &called_in {
                max_into(&mut inclusive, called_in);
            }
            cap(&mut inclusive, &self_cost, &self.totals, &self.signed);
            events.derive(&mut inclusive);
            sums.push((self_cost, inclusive, called));
        }
        for (cycle, (self_cost, inclusive, called)) in self.cycles.iter_mut().zip(sums) {
            (cycle.self_cost, cycle.inclusive, cycle.called) = (self_cost, inclusive, called);
        }
    }
}

/// `row = min(row, max(total, own))` in each column without negative costs
/// (`signed`): never above the total, never below the self cost `own`.
fn cap(row: &mut [Cost], own: &[Cost], totals: &[Cost], signed: &[bool]) {
    for (((a, &s), &t), &signed) in row.iter_mut().zip(own).zip(totals).zip(signed) {
        if !signed {
            *a = (*a).min(t.max(s));
        }
    }
}

/// `row = max(row, other)` per column.
fn max_into(row: &mut [Cost], other: &[Cost]) {
    for (a, &b) in row.iter_mut().zip(other) {
        *a = (*a).max(b);
    }
}
