//! Call trees estimated from the call graph, built lazily a node at a time.
//!
//! A Callgrind profile records caller→callee edges, not whole stacks. The
//! first level below a function is exact: the measured cost of each call.
//! Deeper, a node's value is shared among its function's self cost and the
//! calls it makes in proportion to their measured costs (`share`), as
//! KCachegrind's call graph and speedscope's Callgrind import estimate, so
//! a node's children and its self share add up exactly to its value. A
//! value is exact while every function above it on the path got its whole
//! cost through that path. A function already on the path is not expanded
//! again: it appears once more as a recursive leaf with no value, so cycles
//! expand once through their members.
//!
//! The caller tree (bottom-up) shares a node's value among the calls into
//! its function the same way, keeping as the node's own share what no
//! recorded call explains (a root's cost).

use super::Analysis;
use super::share::share;
use crate::profile::{Cost, FnId};
use rustc_hash::FxHashSet as HashSet;
use std::ops::Range;

/// Which way the tree grows from its root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// To the functions called (call tree, flame graph, folded stacks).
    Callees,
    /// To the callers (caller tree).
    Callers,
}

/// No parent: the tree's root.
const NO_PARENT: u32 = u32::MAX;

/// One path through the call graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The function at the path's end; `None` for the root of a tree of
    /// the whole program (all roots under one node).
    pub func: Option<FnId>,
    /// The cost of the event along this path (0 for a recursive leaf).
    pub value: Cost,
    /// The calls along this path: measured where `exact`, else estimated
    /// in proportion to the value.
    pub calls: u64,
    /// The value is measured, not estimated.
    pub exact: bool,
    /// The function is already on the path above: a leaf.
    pub recursive: bool,
    /// How many steps below the root.
    pub depth: u32,
    parent: u32,
    /// Set when the children are computed: what of the value stays with
    /// the node (its function's self share, or in a caller tree what no
    /// call explains).
    own: Option<Cost>,
    children: Range<u32>,
}

impl Node {
    pub fn parent(&self) -> Option<usize> {
        (self.parent != NO_PARENT).then_some(self.parent as usize)
    }

    /// What of the value stays with this node, once its children are known.
    pub fn own(&self) -> Option<Cost> {
        self.own
    }
}

/// A tree of paths from one function (or from every root), for one event.
#[derive(Clone, Debug)]
pub struct Tree {
    pub direction: Direction,
    pub event: usize,
    nodes: Vec<Node>,
}

/// A call that may become a child: the function at its other end, its
/// measured cost and count.
struct Candidate {
    func: FnId,
    weight: Cost,
    count: u64,
    recursive: bool,
}

impl Tree {
    /// The call tree of `from` (its inclusive cost at the root), or of the
    /// whole program (the total at the root, every root function below it).
    pub fn callees(a: &Analysis, event: usize, from: Option<FnId>) -> Tree {
        let value = match from {
            Some(f) => a.inclusive(f)[event],
            None => a.totals[event],
        };
        Self::rooted(Direction::Callees, event, from, value)
    }

    /// The caller tree of `of`: its inclusive cost at the root, shared among
    /// its callers, theirs among their callers, and so on.
    pub fn callers(a: &Analysis, event: usize, of: FnId) -> Tree {
        Self::rooted(Direction::Callers, event, Some(of), a.inclusive(of)[event])
    }

    fn rooted(direction: Direction, event: usize, func: Option<FnId>, value: Cost) -> Tree {
        let root = Node {
            func,
            value,
            calls: 0,
            exact: true,
            recursive: false,
            depth: 0,
            parent: NO_PARENT,
            own: None,
            children: 0..0,
        };
        Tree {
            direction,
            event,
            nodes: vec![root],
        }
    }

    pub fn node(&self, i: usize) -> &Node {
        &self.nodes[i]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Whether `i`'s children have been computed.
    pub fn is_expanded(&self, i: usize) -> bool {
        self.nodes[i].own.is_some()
    }

    /// Whether `i` can have children (an unexpanded node may turn out to
    /// have none).
    pub fn may_expand(&self, i: usize) -> bool {
        let n = &self.nodes[i];
        !n.recursive && (n.own.is_none() || !n.children.is_empty())
    }

    /// The children of `i` if computed (largest first), else none.
    pub fn children_of(&self, i: usize) -> Range<usize> {
        let r = &self.nodes[i].children;
        r.start as usize..r.end as usize
    }

    /// The functions from the root down to `i`.
    pub fn path(&self, mut i: usize) -> Vec<FnId> {
        let mut path = Vec::new();
        loop {
            path.extend(self.nodes[i].func);
            match self.nodes[i].parent() {
                Some(p) => i = p,
                None => break,
            }
        }
        path.reverse();
        path
    }

    /// The children of `i`, computed on first use.
    pub fn children(&mut self, a: &Analysis, i: usize) -> Range<usize> {
        if !self.is_expanded(i) {
            self.expand(a, i);
        }
        self.children_of(i)
    }

    /// Expands from `i` down its largest children to a leaf; the nodes of
    /// that hottest path below `i`, in order.
    pub fn expand_hottest(&mut self, a: &Analysis, mut i: usize) -> Vec<usize> {
        let mut path = Vec::new();
        loop {
            let kids = self.children(a, i);
            // Children come largest first; a recursive leaf is no way down.
            match kids.clone().find(|&k| !self.nodes[k].recursive) {
                Some(k) if self.nodes[k].value != 0 => {
                    path.push(k);
                    i = k;
                }
                _ => return path,
            }
        }
    }

    /// Expands every node below `i` whose value is at least `min` in size,
    /// nearest first, creating at most about `limit` nodes; the nodes
    /// expanded, `i` first.
    pub fn expand_all(&mut self, a: &Analysis, i: usize, min: Cost, limit: usize) -> Vec<usize> {
        let mut expanded = Vec::new();
        let mut queue = std::collections::VecDeque::from([i]);
        let stop = self.nodes.len().saturating_add(limit);
        while let Some(n) = queue.pop_front() {
            if self.nodes.len() >= stop {
                break;
            }
            expanded.push(n);
            let kids = self.children(a, n);
            queue.extend(kids.filter(|&k| {
                let k = &self.nodes[k];
                !k.recursive && k.value.saturating_abs() >= min.saturating_abs()
            }));
        }
        expanded
    }

    fn expand(&mut self, a: &Analysis, i: usize) {
        let node = &self.nodes[i];
        if node.recursive {
            self.nodes[i].own = Some(0);
            return;
        }
        let on_path: HashSet<FnId> = self.path(i).into_iter().collect();
        let (own_weight, candidates) = self.candidates(a, node.func, &on_path);
        let counted: Vec<&Candidate> = candidates.iter().filter(|c| !c.recursive).collect();
        let mut weights = Vec::with_capacity(counted.len() + 1);
        weights.push(own_weight);
        weights.extend(counted.iter().map(|c| c.weight));
        let sum: i128 = weights.iter().map(|&w| i128::from(w)).sum();
        let value = node.value;
        let (shares, whole) = if sum == 0 {
            // Nothing measured to go by: the node keeps its value.
            let mut s = vec![0; weights.len()];
            s[0] = value;
            (s, false)
        } else {
            (share(value, &weights), i128::from(value) == sum)
        };
        let exact = node.exact && whole;
        let depth = node.depth + 1;
        let scale = |count: u64, part: Cost| -> u64 {
            if exact || sum == 0 {
                return count;
            }
            estimate(count, part, Cost::try_from(sum).unwrap_or(Cost::MAX))
        };
        let mut children: Vec<Node> = Vec::new();
        let mut next = 1;
        for c in &candidates {
            let (value, calls) = if c.recursive {
                (0, scale(c.count, value))
            } else {
                let v = shares[next];
                next += 1;
                let calls = if exact {
                    c.count
                } else {
                    estimate(c.count, v, c.weight)
                };
                (v, calls)
            };
            children.push(Node {
                func: Some(c.func),
                value,
                calls,
                exact: exact && !c.recursive,
                recursive: c.recursive,
                depth,
                parent: i as u32,
                own: None,
                children: 0..0,
            });
        }
        children.sort_by(|x, y| {
            x.recursive
                .cmp(&y.recursive)
                .then(y.value.saturating_abs().cmp(&x.value.saturating_abs()))
        });
        let start = self.nodes.len() as u32;
        self.nodes.extend(children);
        let end = self.nodes.len() as u32;
        let node = &mut self.nodes[i];
        node.own = Some(shares[0]);
        node.children = start..end;
    }

    /// The weight of what stays with a node of `func`, and the calls that
    /// may become its children (those with no cost in the event left out).
    fn candidates(
        &self,
        a: &Analysis,
        func: Option<FnId>,
        on_path: &HashSet<FnId>,
    ) -> (Cost, Vec<Candidate>) {
        let ev = self.event;
        let Some(f) = func else {
            return whole_program(a, ev);
        };
        let edges = match self.direction {
            Direction::Callees => a.callees(f),
            Direction::Callers => a.callers(f),
        };
        let mut out = Vec::with_capacity(edges.len());
        for e in edges {
            let edge = a.edges[e as usize];
            let other = match self.direction {
                Direction::Callees => edge.callee,
                Direction::Callers => edge.caller,
            };
            let weight = a.edge_cost(e as usize)[ev];
            if weight != 0 {
                out.push(Candidate {
                    func: other,
                    weight,
                    count: edge.count,
                    recursive: on_path.contains(&other),
                });
            }
        }
        let own = match self.direction {
            Direction::Callees => a.self_cost(f)[ev],
            // A caller tree keeps what the calls into `f` do not explain.
            Direction::Callers => {
                let called: Cost = out
                    .iter()
                    .filter(|c| !c.recursive)
                    .fold(0, |s: Cost, c| s.saturating_add(c.weight));
                a.inclusive(f)[ev].saturating_sub(called).max(0)
            }
        };
        (own, out)
    }
}

/// `count` calls scaled by `part / whole`, rounded, and at least one where
/// any call and any cost is left (0 means "unknown" to the views).
fn estimate(count: u64, part: Cost, whole: Cost) -> u64 {
    if whole == 0 || count == 0 || part == 0 {
        return 0;
    }
    let (p, w) = (i128::from(part).abs(), i128::from(whole).abs());
    let est = (i128::from(count) * p + w / 2) / w;
    u64::try_from(est.max(1)).unwrap_or(u64::MAX)
}

/// The entries of the program under the whole program's node: every
/// function whose inclusive cost is more than its callers' calls into it
/// pay, weighted by the difference, what no recorded call explains. That
/// is the whole inclusive cost of a function no one calls (`_start`, a
/// signal handler), and the thread work a profile made without
/// `--separate-threads` records as a call from `clone` to `start_thread`
/// while the calls into `clone` cost the parent thread next to nothing.
/// A cycle counts as one function (its inclusive cost against the calls
/// into it from outside), entered at the member whose calls cost most.
/// What the entries do not cover stays with the node.
fn whole_program(a: &Analysis, ev: usize) -> (Cost, Vec<Candidate>) {
    let mut out = Vec::new();
    let mut cycles_seen = HashSet::default();
    // Calls into `f` from outside its cycle, and whether there are any.
    let called = |f: FnId| {
        a.callers(f)
            .iter()
            .filter(|&e| !a.calls_within_cycle(a.edges[e as usize].caller, f))
            .fold((0 as Cost, false), |(sum, _), e| {
                (sum.saturating_add(a.edge_cost(e as usize)[ev]), true)
            })
    };
    // In a column with negative costs (cg_diff) only functions no one
    // calls are entries: a difference of differences means nothing.
    let signed = a.is_signed(ev);
    for i in 0..a.function_count() {
        let f = FnId::from_index(i);
        if !a.is_active(f) {
            continue;
        }
        let (inclusive, (paid, has_callers), entry) = match a.cycle_of(f) {
            None => (a.inclusive(f)[ev], called(f), f),
            Some(c) => {
                if !cycles_seen.insert(c.number) {
                    continue;
                }
                let paid = c
                    .members
                    .iter()
                    .map(|&m| called(m))
                    .fold((0 as Cost, false), |(sum, any), (s, a)| {
                        (sum.saturating_add(s), any || a)
                    });
                (c.inclusive[ev], paid, busiest_member(a, ev, &c.members))
            }
        };
        let weight = if has_callers {
            if signed {
                continue;
            }
            inclusive.saturating_sub(paid).max(0)
        } else {
            inclusive
        };
        if weight != 0 {
            out.push(Candidate {
                func: entry,
                weight,
                count: a.called(entry),
                recursive: false,
            });
        }
    }
    let covered = out.iter().fold(0, |s: Cost, c| s.saturating_add(c.weight));
    (a.totals[ev].saturating_sub(covered).max(0), out)
}

/// The member of a cycle whose self cost and calls (to other members
/// too) cost most: where the cycle's cost is seen to be spent.
fn busiest_member(a: &Analysis, ev: usize, members: &[FnId]) -> FnId {
    let spent = |m: FnId| {
        a.callees(m).iter().fold(a.self_cost(m)[ev], |s, e| {
            s.saturating_add(a.edge_cost(e as usize)[ev])
        })
    };
    members
        .iter()
        .copied()
        .max_by_key(|&m| spent(m))
        .unwrap_or(members[0])
}
