//! The rows of the part being loaded: self costs per function, and calls
//! per (caller, callee) edge, each sum saturating.

use super::Loader;
use crate::parse::messages;
use crate::parse::parallel::sums::within_care;
use crate::profile::{Cost, FnId, PartEdge};

impl Loader<'_> {
    /// The current part's self-cost rows, unshared once here rather than on
    /// every row added (an atomic operation each).
    pub(super) fn self_rows(&mut self) -> SelfRows<'_> {
        SelfRows {
            width: self.part.width(),
            row_of: &mut self.row_of,
            fns: &mut self.part.self_fns,
            costs: std::sync::Arc::make_mut(&mut self.part.self_costs),
            careful: false,
        }
    }

    /// Adds a call site's count and cost to its (caller, callee) edge; true
    /// if a sum saturated, or, if `careful`, was not within care before
    /// (`parallel::sums::within_care`).
    pub(super) fn add_edge(
        &mut self,
        (caller, callee, count): (FnId, FnId, u64),
        costs: &[Cost],
        careful: bool,
    ) -> bool {
        let width = self.part.width();
        // The part is not shared while it is being loaded: no copies.
        let edges = std::sync::Arc::make_mut(&mut self.part.edges);
        let edge_costs = std::sync::Arc::make_mut(&mut self.part.edge_costs);
        let next = edges.len() as u32;
        let (e, new) = (self.edge_index)
            .get_or_insert(caller.0, callee.0, next, |e| edges[e as usize].callee.0);
        let e = e as usize;
        if new {
            edges.push(PartEdge {
                caller,
                callee,
                count: 0,
            });
            edge_costs.resize(edge_costs.len() + width, 0);
        }
        let sums = &mut edge_costs[e * width..(e + 1) * width];
        if careful && !within_care(sums) {
            return true;
        }
        let edge = &mut edges[e];
        let overflow = edge.count.checked_add(count).is_none();
        edge.count = edge.count.saturating_add(count);
        saturating_add(&mut edge_costs[e * width..(e + 1) * width], costs) || overflow
    }

    /// Warns, once per file, that a sum reached the limit of a cost.
    pub(super) fn sum_saturated(&mut self) {
        if !self.saturated_warned {
            self.saturated_warned = true;
            self.warn(messages::SUM_SATURATED.into());
        }
    }
}

/// The self-cost rows of the part being loaded, and which row each
/// function has.
pub(super) struct SelfRows<'a> {
    width: usize,
    row_of: &'a mut Vec<u32>,
    fns: &'a mut Vec<FnId>,
    costs: &'a mut Vec<Cost>,
    /// Whether a row not within care counts as saturated (`add_edge`).
    pub careful: bool,
}

impl SelfRows<'_> {
    /// Adds `costs` to `func`'s row, made if it has none; true if a sum
    /// saturated.
    pub(super) fn add(&mut self, func: FnId, costs: &[Cost]) -> bool {
        let (width, i) = (self.width, func.index());
        if i >= self.row_of.len() {
            self.row_of.resize(i + 1, super::NO_ROW);
        }
        let row = match self.row_of[i] {
            super::NO_ROW => {
                let row = self.fns.len();
                self.fns.push(func);
                self.costs.resize((row + 1) * width, 0);
                self.row_of[i] = row as u32;
                row
            }
            row => row as usize,
        };
        let sums = &mut self.costs[row * width..(row + 1) * width];
        if self.careful && !within_care(sums) {
            return true;
        }
        saturating_add(sums, costs)
    }
}

/// Adds `costs` into `sums`, saturating; true if any sum saturated.
fn saturating_add(sums: &mut [Cost], costs: &[Cost]) -> bool {
    let mut saturated = false;
    for (s, &c) in sums.iter_mut().zip(costs) {
        saturated |= s.checked_add(c).is_none();
        *s = s.saturating_add(c);
    }
    saturated
}
