//! A tree's costs in more events than the one it is built by, for the
//! columns the user chose: the tree's shape (which calls are children,
//! their order, where the bounds cut) comes from its own event, and each
//! other event's value is shared along the same paths by the same rule
//! (`split`), with that event's own measured costs as the weights. So a
//! node's value in an event equals the value a tree built by that event
//! gives where both are exact (the first level below a function is), and
//! what a child leaves out is never counted twice: calls that cost
//! nothing in the tree's event but something in another keep their share
//! out of every child.
//!
//! Memory: 32 bytes per node and chosen event (value, self, and a caller
//! tree's share of the root's self cost), for at most `MAX_NODES` nodes.

use super::{Calls, Direction, Tree, share, whole_program};
use crate::analysis::Analysis;
use crate::profile::{Cost, FnId};
use rustc_hash::FxHashSet as HashSet;

/// Per node, its values in the chosen events.
#[derive(Clone, Debug, Default)]
pub(super) struct EventRows {
    /// The events, as columns of the analysis.
    pub events: Vec<usize>,
    /// Per node, per event: the cost along the path.
    values: Vec<Cost>,
    /// Per node, per event: what stays with the node once expanded.
    own: Vec<Option<Cost>>,
    /// Per node, per event (caller tree): the root's self cost that comes
    /// by this path.
    spent: Vec<Cost>,
}

/// A node's costs in the chosen events, as wide rows of the analysis's
/// columns (0 in the columns not chosen).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeCosts {
    pub inclusive: Vec<Cost>,
    /// `None` until the node's children are known (see `Node::self_cost`).
    pub own: Option<Vec<Cost>>,
}

/// Shares `value` (and, in a caller tree, the root's self cost `spent`)
/// among `weights`: the node's own weight first, then its children's.
/// With nothing measured (`sum` 0) the node keeps both. The one rule of
/// every event's values in a tree.
pub(super) fn split(
    direction: Direction,
    value: Cost,
    spent: Cost,
    weights: &[Cost],
    sum: i128,
) -> (Vec<Cost>, Vec<Cost>) {
    let keep = |v: Cost| {
        let mut s = vec![0; weights.len()];
        s[0] = v;
        s
    };
    if sum == 0 {
        return (keep(value), keep(spent));
    }
    let spent = match direction {
        // A caller tree shares the root's self cost as it shares the value.
        Direction::Callers => share(spent, weights),
        Direction::Callees => keep(spent),
    };
    (share(value, weights), spent)
}

/// Where a child's value comes from in its parent's split.
#[derive(Clone, Copy, Debug)]
pub(super) enum Slot {
    /// The `k`th of the calls shown (`Calls::calls[top[k]]`).
    Top(usize),
    /// The marker of what a bound cut.
    Rest,
    /// A recursive leaf: no value.
    Recursive,
}

/// What `expand` decided, for sharing the other events the same way.
pub(super) struct Expansion<'a> {
    pub calls: &'a Calls,
    /// Positions in `calls.calls` of the calls shown, in slot order.
    pub top: &'a [usize],
    /// Positions in `calls.calls` of the calls that are recursion.
    pub recursive: &'a [usize],
    /// The functions whose calls are recursion (not counted).
    pub on_path: &'a [FnId],
    /// Whether there is a marker of cut calls.
    pub rest: bool,
    /// The slot of each new child, in the order they were added.
    pub slots: &'a [Slot],
}

impl EventRows {
    /// Rows for `events`, of a tree holding only its root.
    pub fn new(a: &Analysis, tree: &Tree, events: Vec<usize>) -> EventRows {
        let root = tree.node(0);
        let mut rows = EventRows {
            events,
            ..EventRows::default()
        };
        for &e in &rows.events {
            let (value, spent) = match (tree.direction, root.func) {
                (Direction::Callees, Some(f)) => (a.inclusive(f)[e], 0),
                (Direction::Callees, None) => (a.totals[e], 0),
                (Direction::Callers, Some(f)) => (a.inclusive(f)[e], a.self_cost(f)[e]),
                (Direction::Callers, None) => (a.totals[e], 0),
            };
            rows.values.push(value);
            rows.spent.push(spent);
            rows.own.push(None);
        }
        rows
    }

    fn width(&self) -> usize {
        self.events.len()
    }

    /// Node `i`'s costs, scattered into rows of `width` columns.
    pub fn costs(&self, tree: &Tree, i: usize, width: usize) -> NodeCosts {
        let n = self.width();
        let at = i * n;
        let mut inclusive = vec![0; width];
        let mut own = Some(vec![0; width]);
        let node = tree.node(i);
        for (k, &e) in self.events.iter().enumerate() {
            inclusive[e] = self.values[at + k];
            let o = match tree.direction {
                _ if !node.is_call() => None,
                Direction::Callees => self.own[at + k],
                Direction::Callers => Some(self.spent[at + k]),
            };
            match (o, own.as_mut()) {
                (Some(o), Some(row)) => row[e] = o,
                _ => own = None,
            }
        }
        NodeCosts { inclusive, own }
    }

    /// A node that cannot be opened keeps its value in every event.
    pub fn keep(&mut self, i: usize) {
        let n = self.width();
        for k in 0..n {
            self.own[i * n + k] = Some(self.values[i * n + k]);
        }
    }

    /// Shares node `i`'s values among its new children (`x.slots`, added
    /// at the end of the tree) in each event, by that event's costs of
    /// the same calls.
    pub fn expand(&mut self, a: &Analysis, tree: &Tree, i: usize, x: &Expansion<'_>) {
        let n = self.width();
        let node = tree.node(i);
        let mut kids = vec![(0, 0); x.slots.len() * n];
        for k in 0..n {
            let e = self.events[k];
            let weights = self.weights(a, tree.direction, node.func, e, x);
            let sum = weights.iter().map(|&w| i128::from(w)).sum();
            let (values, spent) = split(
                tree.direction,
                self.values[i * n + k],
                self.spent[i * n + k],
                &weights,
                sum,
            );
            self.own[i * n + k] = Some(values[0]);
            for (c, slot) in x.slots.iter().enumerate() {
                let at = match slot {
                    Slot::Top(t) => t + 1,
                    Slot::Rest => x.top.len() + 1,
                    Slot::Recursive => continue,
                };
                kids[c * n + k] = (values[at], spent[at]);
            }
        }
        for (c, slot) in x.slots.iter().enumerate() {
            for &(value, spent) in &kids[c * n..(c + 1) * n] {
                self.values.push(value);
                self.spent.push(spent);
                // A marker keeps its value; a recursive leaf has none.
                self.own.push(match slot {
                    Slot::Rest => Some(value),
                    _ => None,
                });
            }
        }
    }

    /// Event `e`'s weights for a node of `func`: what stays with the node,
    /// each call shown, the cut calls if there is a marker, and last what
    /// no child stands for (calls that cost nothing in the tree's event).
    fn weights(
        &self,
        a: &Analysis,
        direction: Direction,
        func: Option<FnId>,
        e: usize,
        x: &Expansion<'_>,
    ) -> Vec<Cost> {
        let cost = |c: &super::Candidate| match func {
            Some(_) => i128::from(a.edge_cost(c.edge as usize)[e]),
            None => 0,
        };
        let (own, counted, top) = match func {
            None => {
                let program = whole_program(a, e);
                let counted = (program.entries.iter())
                    .map(|c| i128::from(c.weight))
                    .sum::<i128>();
                let top: Vec<Cost> = (x.top.iter())
                    .map(|&p| program.weight(x.calls.calls[p].func))
                    .collect();
                (program.base, counted, top)
            }
            Some(f) => {
                let edges = match direction {
                    Direction::Callees => a.callees(f),
                    Direction::Callers => a.callers(f),
                };
                let on_path: HashSet<FnId> = x.on_path.iter().copied().collect();
                let mut counted = 0i128;
                for edge in edges {
                    let ends = a.edges[edge as usize];
                    let other = match direction {
                        Direction::Callees => ends.callee,
                        Direction::Callers => ends.caller,
                    };
                    if !on_path.contains(&other) {
                        counted += i128::from(a.edge_cost(edge as usize)[e]);
                    }
                }
                let top: Vec<Cost> = (x.top.iter())
                    .map(|&p| super::saturate(cost(&x.calls.calls[p])))
                    .collect();
                let own = match direction {
                    Direction::Callees => a.self_cost(f)[e],
                    // What the calls into `f` do not explain.
                    Direction::Callers => {
                        super::saturate((i128::from(a.inclusive(f)[e]) - counted).max(0))
                    }
                };
                (own, counted, top)
            }
        };
        let top_sum: i128 = top.iter().map(|&w| i128::from(w)).sum();
        // The calls that are children in the tree's event, but recursion:
        // those shown and those the marker stands for.
        let candidates: i128 = match func {
            Some(_) => {
                let recursive: i128 = x.recursive.iter().map(|&p| cost(&x.calls.calls[p])).sum();
                x.calls.calls.iter().map(cost).sum::<i128>() - recursive
            }
            // The entries in `e` that are not shown are cut where there is
            // a marker, else entries of no child.
            None if x.rest => counted,
            None => top_sum,
        };
        let mut weights = Vec::with_capacity(top.len() + 3);
        weights.push(own);
        weights.extend(top);
        if x.rest {
            weights.push(super::saturate(candidates - top_sum));
        }
        // Without a marker every candidate is shown; what is left are the
        // calls of no child.
        weights.push(super::saturate(counted - candidates));
        weights
    }
}
