//! Derived facts about a loaded profile for a chosen set of parts: self and
//! inclusive costs per function in the profile's event columns (derived events
//! included), call edges with counts and costs, and recursion cycles.
//! Must not import `tui`, ratatui or crossterm.

mod adjacency;
mod combine;
mod cycle_index;
pub mod diff;
pub mod gate;
pub mod groups;
mod inclusive;
mod memo;
mod scc;
pub mod series;
pub(crate) mod share;
pub mod source;
pub mod tree;

use crate::profile::{Cost, FnId, Profile};
use adjacency::Adjacency;
pub use adjacency::{EdgeIds, EdgeIter};
use std::sync::Arc;

/// A caller -> callee pair, summed over call sites and selected parts.
pub use crate::profile::PartEdge as Edge;

/// A strongly connected set of functions: mutual recursion, shown as the
/// pseudo-function `<cycle N>` the way KCachegrind does.
#[derive(Clone, Debug)]
pub struct Cycle {
    /// 1-based, in order of the cycles' smallest member id.
    pub number: usize,
    pub members: Vec<FnId>,
    /// Sum of the members' self costs.
    pub self_cost: Vec<Cost>,
    /// The larger of the members' self costs plus the calls leaving the
    /// cycle, and the calls into it from outside (see `compute_inclusive`).
    pub inclusive: Vec<Cost>,
    /// Calls into the cycle from outside it (0 where every such count is
    /// unknown, as for `calls=0` edges).
    pub called: u64,
}

/// Calls from which the analysis works on two cores.
const TWO_CORES_FROM: usize = 50_000;

/// Everything the views need, for one selection of parts.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Columns per row: every event of the profile, derived ones included.
    pub width: usize,
    /// Which of the profile's parts are summed here.
    pub parts: Vec<bool>,
    /// Sum of all self costs.
    pub totals: Vec<Cost>,
    /// Shared with the part when one part is selected and every function
    /// has a row in it (see `combine`).
    self_costs: Arc<Vec<Cost>>,
    /// The self costs themselves where no function calls another (a
    /// Cachegrind file): one array, not two.
    inclusive: Arc<Vec<Cost>>,
    /// How many functions there are.
    functions: usize,
    /// Calls into each function where that is not the sum of the counts of
    /// its callers' edges (a comparison takes it from one side); else empty.
    called: Vec<u64>,
    /// Shared with the part when one part is selected (see `combine`).
    pub edges: Arc<Vec<Edge>>,
    edge_costs: Arc<Vec<Cost>>,
    callers: Adjacency,
    callees: Adjacency,
    /// Index into `cycles` for functions in a cycle of two or more.
    cycle_of: cycle_index::CycleIndex,
    pub cycles: Vec<Cycle>,
    /// Per column: whether any self, call or total cost is negative.
    signed: Vec<bool>,
    /// Per column: whether a number computed here passed the signed
    /// 64-bit range and is held at its limit: a sum of the selected parts
    /// or a derived event's formula (saturated), or a comparison's change
    /// (see `diff::clamped_change`).
    cut: Vec<bool>,
    /// Every function counts as active (a comparison lists the functions
    /// of both profiles, changed or not).
    every_function: bool,
    /// Per column, the whole program's entries (the call trees' root).
    program_entries: memo::PerColumn<tree::ProgramEntries>,
}

impl Analysis {
    /// All parts summed.
    pub fn new(profile: &Profile) -> Self {
        Self::with_parts(profile, &vec![true; profile.parts.len()])
    }

    /// Only the parts whose flag is set (missing flags count as set).
    pub fn with_parts(profile: &Profile, parts: &[bool]) -> Self {
        Self::on_cores(profile, parts, None)
    }

    /// `with_parts` on two cores or one as `two_cores` says, else as many
    /// calls as there are make worth it.
    fn on_cores(profile: &Profile, parts: &[bool], two_cores: Option<bool>) -> Self {
        let selected: Vec<bool> = (0..profile.parts.len())
            .map(|i| parts.get(i).copied().unwrap_or(true))
            .collect();
        let combined = combine::combine(profile, &selected);
        let n = profile.functions.len();
        let two_cores = two_cores.unwrap_or(combined.edges.len() >= TWO_CORES_FROM);
        let ((callers, signed), (callees, components)) = crate::threads::both_if(
            two_cores,
            || {
                let callers = Adjacency::build(&combined.edges, |e| e.callee);
                (callers, negative_columns(&combined))
            },
            || {
                let callees = Adjacency::build(&combined.edges, |e| e.caller);
                let components = inclusive::components(&callees, &combined.edges);
                (callees, components)
            },
        );
        let mut analysis = Analysis {
            width: combined.width,
            parts: selected,
            totals: combined.totals,
            inclusive: Arc::default(),
            self_costs: combined.self_costs,
            functions: n,
            called: Vec::new(),
            edges: combined.edges,
            edge_costs: combined.edge_costs,
            callers,
            callees,
            cycle_of: Default::default(),
            cycles: Vec::new(),
            signed,
            cut: combined.cut,
            every_function: false,
            program_entries: memo::PerColumn::new(combined.width),
        };
        analysis.set_cycles(components);
        analysis.compute_inclusive(&profile.events, two_cores);
        analysis
    }

    pub fn function_count(&self) -> usize {
        self.functions
    }

    /// Calls into `f`, from every caller (recursive calls included).
    pub fn called(&self, f: FnId) -> u64 {
        match self.called.get(f.index()) {
            Some(&called) => called,
            None => (self.callers(f).iter())
                .map(|e| self.edges[e as usize].count)
                .fold(0, u64::saturating_add),
        }
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
    pub fn callers(&self, f: FnId) -> EdgeIds<'_> {
        self.callers.of(f)
    }

    /// Indexes into `edges` of the calls `f` makes.
    pub fn callees(&self, f: FnId) -> EdgeIds<'_> {
        self.callees.of(f)
    }

    /// The index into `cycles` of `f`'s cycle.
    pub fn cycle_index(&self, f: FnId) -> Option<u32> {
        self.cycle_of.get(f)
    }

    /// The cycle `f` belongs to, if it is part of mutual recursion.
    pub fn cycle_of(&self, f: FnId) -> Option<&Cycle> {
        self.cycle_index(f).map(|c| &self.cycles[c as usize])
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
            || (self.cycle_index(caller)).is_some_and(|c| self.cycle_index(callee) == Some(c))
    }

    /// Whether `f` has any cost or call in the selected parts.
    pub fn is_active(&self, f: FnId) -> bool {
        self.every_function
            || self.self_cost(f).iter().any(|&c| c != 0)
            || !self.callers(f).is_empty()
            || !self.callees(f).is_empty()
    }

    /// Whether column `ev` holds a negative cost anywhere (`cg_diff` output):
    /// its total then bounds no function, and listings order it by size.
    pub fn is_signed(&self, ev: usize) -> bool {
        self.signed.get(ev).copied().unwrap_or(false)
    }

    /// Whether a number of column `ev` passed the signed 64-bit range (see
    /// `cut`): a comparison shows such a change as a bound; either way
    /// sums that include it (a tree's, a group's) are not exact.
    pub fn is_cut(&self, ev: usize) -> bool {
        self.cut.get(ev).copied().unwrap_or(false)
    }

    /// A warning on `profile` per column whose sums passed the signed
    /// 64-bit range here (`is_cut`): the loader warns of a sum within a
    /// part, this of the parts summed and of derived events, so that no
    /// saturated figure passes for an exact one. Returns how many.
    pub fn warn_of_cut_sums(&self, profile: &mut Profile) -> usize {
        let file = profile
            .loaded_sources()
            .next()
            .unwrap_or_default()
            .to_string();
        let messages: Vec<String> = (profile.events.events.iter().enumerate())
            .filter(|(i, _)| self.is_cut(*i))
            .map(|(_, e)| match e.formula {
                Some(_) => format!(
                    "the formula of {} gives values beyond the signed 64-bit range: those at the limit are saturated, not exact",
                    e.name
                ),
                None => format!(
                    "the costs of {} of the parts selected add up beyond the signed 64-bit range: sums at the limit are saturated, not exact",
                    e.name
                ),
            })
            .collect();
        let n = messages.len();
        for message in messages {
            profile.diagnose(&file, 0, crate::profile::Severity::Warning, message);
        }
        n
    }

    /// Indexes into `edges` of the calls into members of `cycles[cycle]`
    /// from functions outside it, member by member: the callers of the
    /// `<cycle N>` pseudo-function. Empty for an index out of range.
    pub fn cycle_callers(&self, cycle: usize) -> Vec<u32> {
        self.cycle_edges(cycle, |f| self.callers(f), |e| e.caller)
    }

    /// Indexes into `edges` of the calls from members of `cycles[cycle]` to
    /// functions outside it, member by member: with the members, the callees
    /// of the `<cycle N>` pseudo-function. Empty for an index out of range.
    pub fn cycle_callees(&self, cycle: usize) -> Vec<u32> {
        self.cycle_edges(cycle, |f| self.callees(f), |e| e.callee)
    }

    /// The edges `of` each member whose `other` end is outside the cycle.
    fn cycle_edges<'a>(
        &'a self,
        cycle: usize,
        of: impl Fn(FnId) -> EdgeIds<'a>,
        other: impl Fn(&Edge) -> FnId,
    ) -> Vec<u32> {
        let Some(c) = self.cycles.get(cycle) else {
            return Vec::new();
        };
        c.members
            .iter()
            .flat_map(|&m| of(m))
            .filter(|&e| self.cycle_index(other(&self.edges[e as usize])) != Some(cycle as u32))
            .collect()
    }
}

/// `signed` per column (see `Analysis::is_signed`): whether any self,
/// call or total cost in it is negative.
fn negative_columns(combined: &combine::Combined) -> Vec<bool> {
    let mut least = combined.totals.clone();
    if combined.width > 0 {
        let rows = (combined.self_costs.chunks_exact(combined.width))
            .chain(combined.edge_costs.chunks_exact(combined.width));
        for row in rows {
            for (m, &c) in least.iter_mut().zip(row) {
                *m = (*m).min(c);
            }
        }
    }
    least.iter().map(|&m| m < 0).collect()
}

/// `row += other`, saturating.
pub(crate) fn add(row: &mut [Cost], other: &[Cost]) {
    for (a, b) in row.iter_mut().zip(other) {
        *a = a.saturating_add(*b);
    }
}

#[cfg(test)]
mod tests;
