//! Inclusive costs and cycles, derived once per selection of parts from the
//! call costs the profile measured: nothing is propagated over the graph and
//! nothing recurses, so a call chain a million deep is no harder than a flat one.

use super::{Analysis, Cycle, NO_CYCLE, add, scc};
use crate::profile::{Cost, EventTable, FnId};

impl Analysis {
    /// Groups the functions into strongly connected components of the call
    /// graph and records those of two or more as cycles, numbered in order of
    /// their smallest member id.
    fn find_cycles(&mut self) {
        // Functions past the last that calls any call nothing, so are in no
        // cycle: the search leaves them out (and the memory it would take
        // for them, which a Cachegrind file's functions would all need).
        let callers = self.callees.start.len().saturating_sub(1);
        let components = scc::components(callers, |f| {
            (self.callees(FnId::from_index(f)).iter())
                .map(|&e| self.edges[e as usize].callee.index())
                .filter(move |&g| g < callers)
        });
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
        if !self.cycles.is_empty() {
            self.cycle_of = vec![NO_CYCLE; self.function_count()];
        }
        for (i, cycle) in self.cycles.iter_mut().enumerate() {
            cycle.number = i + 1;
            cycle.members.sort();
            for &m in &cycle.members {
                self.cycle_of[m.index()] = i as u32;
            }
        }
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
    pub(super) fn compute_inclusive(&mut self, events: &EventTable) {
        self.find_cycles();
        if self.edges.is_empty() {
            // Nothing but self costs: those are the inclusive costs.
            self.inclusive = std::sync::Arc::clone(&self.self_costs);
            return;
        }
        let n = self.function_count();
        let w = self.width;
        let mut outgoing = self.self_costs.to_vec();
        let mut cycle_in: Vec<Option<Vec<Cost>>> = vec![None; self.cycles.len()];
        for (i, e) in self.edges.iter().enumerate() {
            if self.is_recursive(i) {
                continue;
            }
            let cost = &self.edge_costs[i * w..(i + 1) * w];
            add(&mut outgoing[e.caller.index() * w..][..w], cost);
            if let Some(c) = self.cycle_index(e.caller) {
                add(&mut self.cycles[c as usize].inclusive, cost);
            }
            if let Some(c) = self.cycle_index(e.callee) {
                let cycle = &mut self.cycles[c as usize];
                cycle.called = cycle.called.saturating_add(e.count);
                add(cycle_in[c as usize].get_or_insert_with(|| vec![0; w]), cost);
            }
        }
        for (c, cycle) in self.cycles.iter_mut().enumerate() {
            for &m in &cycle.members {
                let own = &self.self_costs[m.index() * w..][..w];
                add(&mut cycle.self_cost, own);
                add(&mut cycle.inclusive, own);
            }
            if let Some(called) = &cycle_in[c] {
                max_into(&mut cycle.inclusive, called);
            }
            cap(
                &mut cycle.inclusive,
                &cycle.self_cost,
                &self.totals,
                &self.signed,
            );
            events.derive(&mut cycle.inclusive);
        }
        // The calls into each function, summed one function at a time from
        // its callers (an array of them all would cost a row a function).
        let mut incoming = vec![0; w];
        for f in 0..n {
            incoming.fill(0);
            // Only calls measure a function from outside: one never called
            // (a root, or any function of a Cachegrind file) has no such figure.
            let mut called_from_outside = false;
            for &i in self.callers(FnId::from_index(f)) {
                let i = i as usize;
                if !self.is_recursive(i) {
                    add(&mut incoming, &self.edge_costs[i * w..(i + 1) * w]);
                    called_from_outside = true;
                }
            }
            let row = &mut outgoing[f * w..][..w];
            if called_from_outside {
                max_into(row, &incoming);
            }
            cap(
                row,
                &self.self_costs[f * w..][..w],
                &self.totals,
                &self.signed,
            );
            events.derive(row);
        }
        self.inclusive = outgoing.into();
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
