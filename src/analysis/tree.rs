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
//!
//! A node's self cost (`Node::self_cost`) is, in a call tree, its own
//! share: the part of its value its function spends itself, not passed to
//! the calls below it. In a caller tree it is, as in hotspot's bottom-up
//! view, the part of the root function's self cost that arrives by this
//! path: the root's self cost shared among the callers in the same
//! proportions as the value.
//!
//! A tree is bounded whatever the graph (a chain a million deep, 2^60
//! paths through 60 layers): in depth, in children per node and in nodes
//! (`Limits`; the browser's are `MAX_DEPTH`, `MAX_CHILDREN`, `MAX_NODES`).
//! What a bound leaves out is one marker child (`Cut`) holding its share
//! of the value, so the values of the nodes shown are those of the
//! unbounded tree. Opening a node costs what it creates: the recursion
//! test walks only the part of the path inside the node's cycle, and the
//! sorted calls of a function with many are kept for the tree's life.

mod compare;
mod costs;

pub use compare::SideCosts;
pub use costs::NodeCosts;

use super::Analysis;
use super::share::share;
use crate::profile::{Cost, FnId};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::ops::Range;
use std::sync::Arc;

/// Which way the tree grows from its root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// To the functions called (call tree, flame graph, folded stacks).
    Callees,
    /// To the callers (caller tree).
    Callers,
}

/// The browser's bound on depth: a node this many calls below the root
/// gets one `Cut::Depth` child for everything below it. Real call trees
/// are far shallower (a function already on a path is not expanded
/// again); a generated chain may be a million deep.
pub const MAX_DEPTH: u32 = 1_000;

/// The browser's bound on the children of one node: the smallest calls
/// past it are summed in one `Cut::Calls` child.
pub const MAX_CHILDREN: usize = 1_000;

/// The browser's bound on the nodes of one tree (about 80 bytes each,
/// and 32 more per event of the columns chosen, see `costs`);
/// once reached, a node opened gets one `Cut::Calls` child for all its
/// calls (and no recursive leaves), so a tree never holds more than twice
/// this many (and one).
pub const MAX_NODES: usize = 200_000;

/// A function with more calls than this keeps its sorted calls for the
/// tree's life, so that opening it again costs what it shows.
const KEEP_DEGREE: usize = 64;

/// How far a tree may grow (see `MAX_DEPTH`, `MAX_CHILDREN`, `MAX_NODES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub depth: u32,
    pub children: usize,
    pub nodes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: MAX_DEPTH,
            children: MAX_CHILDREN,
            nodes: MAX_NODES,
        }
    }
}

/// What a marker node stands for: the part of its parent's value that
/// a bound left out (so a node's children still add up to its value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Every call below a node at the depth bound.
    Depth,
    /// This many calls of the parent, its smallest, past the bound on
    /// children or on nodes.
    Calls(u64),
}

/// No parent: the tree's root.
const NO_PARENT: u32 = u32::MAX;

/// One path through the call graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The function at the path's end; `None` for the root of a tree of
    /// the whole program (all roots under one node) and for a marker.
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
    /// A marker leaf standing for what a bound left out.
    pub cut: Option<Cut>,
    /// How many steps below the root.
    pub depth: u32,
    /// Caller tree: the part of the root function's self cost that comes
    /// by this path (0 in a call tree).
    spent: Cost,
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

    /// The node's self cost on its path: in a call tree its own share
    /// (what of the value its function spends itself, not passed to its
    /// calls), known once its children are computed; in a caller tree the
    /// part of the root function's self cost that comes by this path.
    /// `None` for a marker and a recursive leaf, which have no self cost
    /// of their own.
    pub fn self_cost(&self, direction: Direction) -> Option<Cost> {
        if !self.is_call() {
            return None;
        }
        match direction {
            Direction::Callees => self.own,
            Direction::Callers => Some(self.spent),
        }
    }

    /// A node of a function that can be drawn and opened: neither a
    /// recursive leaf nor a marker.
    pub fn is_call(&self) -> bool {
        !self.recursive && self.cut.is_none()
    }
}

/// A tree of paths from one function (or from every root), for one event.
#[derive(Clone, Debug)]
pub struct Tree {
    pub direction: Direction,
    pub event: usize,
    limits: Limits,
    nodes: Vec<Node>,
    /// The sorted calls of functions with many, kept once computed.
    kept: HashMap<FnId, Calls>,
    /// A comparison's tree: each side's own tree, which its nodes join
    /// (see `compare`).
    sides: Option<Box<compare::Sides>>,
    /// The nodes' values in more events, for the chosen columns.
    rows: Option<Box<costs::EventRows>>,
}

/// A call that may become a child: the function at its other end, its
/// measured cost and count.
#[derive(Clone, Debug)]
struct Candidate {
    func: FnId,
    weight: Cost,
    count: u64,
    /// The edge measured (`NO_EDGE` for an entry of the whole program).
    edge: u32,
}

/// A candidate that is no edge of the graph: an entry of the program.
const NO_EDGE: u32 = u32::MAX;

/// The calls of one function in one direction (or the entries of the
/// program), with their sums: what every node of the function shares its
/// value by. Only as many are sorted as a node has shown (a function may
/// have a million callees).
#[derive(Clone, Debug)]
struct Calls {
    /// Callees: the function's self cost. Callers: its inclusive cost
    /// (what the calls do not explain is worked out per node). The whole
    /// program: what its entries do not cover.
    base: Cost,
    /// In the order of the edges.
    calls: Vec<Candidate>,
    /// Indexes into `calls`, costliest first for the first `sorted`.
    order: Vec<u32>,
    sorted: usize,
    weight: i128,
    count: u128,
    /// Where each function is in `calls`, for a function in a cycle with
    /// many calls (any of them may be on the path).
    at: HashMap<FnId, u32>,
    /// Where the function's call to itself is.
    itself: Option<u32>,
}

impl Calls {
    fn new(base: Cost, calls: Vec<Candidate>, func: Option<FnId>, in_cycle: bool) -> Calls {
        let weight = calls.iter().map(|c| i128::from(c.weight)).sum();
        let count = calls.iter().map(|c| u128::from(c.count)).sum();
        let at = if in_cycle && calls.len() > KEEP_DEGREE {
            (calls.iter().enumerate())
                .map(|(i, c)| (c.func, i as u32))
                .collect()
        } else {
            HashMap::default()
        };
        let itself = (calls.iter())
            .position(|c| Some(c.func) == func)
            .map(|i| i as u32);
        Calls {
            base,
            order: (0..calls.len() as u32).collect(),
            sorted: 0,
            calls,
            weight,
            count,
            at,
            itself,
        }
    }

    /// Puts the `n` costliest calls first in `order`, sorted (equal
    /// weights in the order of the edges): linear in the calls, plus the
    /// sort of those `n`.
    fn sort_first(&mut self, n: usize) {
        let n = n.min(self.order.len());
        if n <= self.sorted {
            return;
        }
        let calls = &self.calls;
        let key = |&i: &u32| {
            (
                std::cmp::Reverse(calls[i as usize].weight.saturating_abs()),
                i,
            )
        };
        let rest = &mut self.order[self.sorted..];
        let k = n - self.sorted;
        if k < rest.len() {
            rest.select_nth_unstable_by_key(k - 1, key);
        }
        rest[..k].sort_unstable_by_key(key);
        self.sorted = n;
    }

    /// The positions in `calls` of the calls to functions of `path`, in
    /// order; `path` is the function's own and those of its cycle.
    fn positions_of(&self, path: &[FnId]) -> Vec<usize> {
        let mut out: Vec<usize> = if !self.at.is_empty() {
            path.iter()
                .filter_map(|f| self.at.get(f).map(|&i| i as usize))
                .collect()
        } else if self.calls.len() > KEEP_DEGREE && path.len() == 1 {
            // In no cycle: only a call to itself can be on the path.
            self.itself.map(|i| i as usize).into_iter().collect()
        } else {
            // Few calls; the part of the path in a cycle may be long.
            let long: HashSet<FnId> = if path.len() > 8 {
                path.iter().copied().collect()
            } else {
                HashSet::default()
            };
            let on_path = |f: &FnId| {
                if long.is_empty() {
                    path.contains(f)
                } else {
                    long.contains(f)
                }
            };
            (self.calls.iter().enumerate())
                .filter(|(_, c)| on_path(&c.func))
                .map(|(i, _)| i)
                .collect()
        };
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl Tree {
    /// The call tree of `from` (its inclusive cost at the root), or of the
    /// whole program (the total at the root, every root function below it).
    pub fn callees(a: &Analysis, event: usize, from: Option<FnId>) -> Tree {
        let value = match from {
            Some(f) => a.inclusive(f)[event],
            None => a.totals[event],
        };
        Self::rooted(Direction::Callees, event, from, value, 0)
    }

    /// The caller tree of `of`: its inclusive cost at the root, shared among
    /// its callers, theirs among their callers, and so on.
    pub fn callers(a: &Analysis, event: usize, of: FnId) -> Tree {
        let spent = a.self_cost(of)[event];
        Self::rooted(
            Direction::Callers,
            event,
            Some(of),
            a.inclusive(of)[event],
            spent,
        )
    }

    /// The same tree with other bounds (before it grows).
    pub fn with_limits(mut self, limits: Limits) -> Tree {
        self.limits = limits;
        if let Some(s) = self.sides.as_mut() {
            s.set_limits(limits);
        }
        self
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn rooted(
        direction: Direction,
        event: usize,
        func: Option<FnId>,
        value: Cost,
        spent: Cost,
    ) -> Tree {
        let root = Node {
            func,
            value,
            calls: 0,
            exact: true,
            recursive: false,
            cut: None,
            depth: 0,
            spent,
            parent: NO_PARENT,
            own: None,
            children: 0..0,
        };
        Tree {
            direction,
            event,
            limits: Limits::default(),
            nodes: vec![root],
            kept: HashMap::default(),
            sides: None,
            rows: None,
        }
    }

    /// The same tree also valued in `events` (before it grows; not for a
    /// comparison's tree): see `costs`.
    pub fn with_events(mut self, a: &Analysis, events: Vec<usize>) -> Tree {
        if self.sides.is_none() && self.nodes.len() == 1 && !events.is_empty() {
            self.rows = Some(Box::new(costs::EventRows::new(a, &self, events)));
        }
        self
    }

    /// Node `i`'s costs in the events of `with_events`, as rows of
    /// `width` columns (0 in the others); `None` without them.
    pub fn costs(&self, i: usize, width: usize) -> Option<NodeCosts> {
        Some(self.rows.as_ref()?.costs(self, i, width))
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
        n.is_call() && (n.own.is_none() || !n.children.is_empty())
    }

    /// The children of `i` if computed (largest first, then a marker of
    /// what was cut, then the recursive leaves), else none.
    pub fn children_of(&self, i: usize) -> Range<usize> {
        let r = &self.nodes[i].children;
        r.start as usize..r.end as usize
    }

    /// The functions from the root down to `i` (at most the depth bound).
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

    /// The self cost of node `i` (see `Node::self_cost`), its children
    /// computed first where that is needed to know it.
    pub fn self_cost_of(&mut self, a: &Analysis, i: usize) -> Option<Cost> {
        if self.direction == Direction::Callees && self.nodes[i].is_call() {
            self.children(a, i);
        }
        self.nodes[i].self_cost(self.direction)
    }

    /// Expands from `i` down to where the cost is spent: into the largest
    /// child while it is larger than what stays with the node (in a call
    /// tree its self cost, in a caller tree what no call into it
    /// explains), to a leaf, or to the marker of the depth bound; the
    /// nodes of that hottest path below `i`, in order (empty when `i`
    /// itself is where the cost is spent).
    pub fn expand_hottest(&mut self, a: &Analysis, mut i: usize) -> Vec<usize> {
        let mut path = Vec::new();
        loop {
            let kids = self.children(a, i);
            let own = self.nodes[i].own.unwrap_or(0).saturating_abs();
            // Children come largest first; a recursive leaf is no way down.
            match kids.clone().find(|&k| !self.nodes[k].recursive) {
                Some(k)
                    if self.nodes[k].value != 0 && self.nodes[k].value.saturating_abs() > own =>
                {
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
            queue.extend(
                kids.filter(|&k| {
                    self.nodes[k].is_call() && self.magnitude(k) >= min.saturating_abs()
                }),
            );
        }
        expanded
    }

    /// How much node `i` weighs: the size of its value, or in a
    /// comparison's tree the larger of its two sides' (its value there is
    /// the change, which may be nothing on a costly path).
    pub fn magnitude(&self, i: usize) -> Cost {
        match self.sides(i) {
            Some(s) => s.base.saturating_abs().max(s.new.saturating_abs()),
            None => self.nodes[i].value.saturating_abs(),
        }
    }

    /// The functions on the path down to `i` that may be among its calls:
    /// `i`'s own, and those of its cycle just above it. (A function of the
    /// path that `i` calls is in `i`'s cycle, and the path's nodes in one
    /// cycle come one after another, so the walk stops at the first node
    /// outside it: one step for a function in no cycle.)
    fn recursion_suspects(&self, a: &Analysis, i: usize, f: FnId) -> Vec<FnId> {
        let mut out = vec![f];
        let mut at = self.nodes[i].parent();
        while let Some(p) = at {
            match self.nodes[p].func {
                Some(g) if a.calls_within_cycle(f, g) => out.push(g),
                _ => break,
            }
            at = self.nodes[p].parent();
        }
        out
    }

    fn calls_of(&mut self, a: &Analysis, func: Option<FnId>) -> Calls {
        let Some(f) = func else {
            let program = whole_program(a, self.event);
            return Calls::new(program.base, program.entries.clone(), None, false);
        };
        if let Some(c) = self.kept.remove(&f) {
            return c;
        }
        let edges = match self.direction {
            Direction::Callees => a.callees(f),
            Direction::Callers => a.callers(f),
        };
        let mut calls = Vec::with_capacity(edges.len());
        for e in edges {
            let edge = a.edges[e as usize];
            let other = match self.direction {
                Direction::Callees => edge.callee,
                Direction::Callers => edge.caller,
            };
            let weight = a.edge_cost(e as usize)[self.event];
            if weight != 0 {
                calls.push(Candidate {
                    func: other,
                    weight,
                    count: edge.count,
                    edge: e,
                });
            }
        }
        let base = match self.direction {
            Direction::Callees => a.self_cost(f)[self.event],
            Direction::Callers => a.inclusive(f)[self.event],
        };
        Calls::new(base, calls, Some(f), a.cycle_of(f).is_some())
    }

    /// Computes `i`'s children: its value shared among what stays with it
    /// and its calls, the costliest calls up to the bounds, the rest in one
    /// marker. Costs what it creates, plus the calls of a function with
    /// few of them, or the first time a function with many is opened.
    fn expand(&mut self, a: &Analysis, i: usize) {
        if self.sides.is_some() {
            self.expand_compared(i);
            return;
        }
        let node = self.nodes[i].clone();
        if !node.is_call() {
            self.nodes[i].own = Some(node.value);
            if let Some(rows) = self.rows.as_mut() {
                rows.keep(i);
            }
            return;
        }
        let mut calls = self.calls_of(a, node.func);
        let on_path = match node.func {
            Some(f) => self.recursion_suspects(a, i, f),
            None => Vec::new(),
        };
        let recursive = match node.func {
            Some(_) => calls.positions_of(&on_path),
            None => Vec::new(),
        };
        let rec_weight: i128 = recursive
            .iter()
            .map(|&p| i128::from(calls.calls[p].weight))
            .sum();
        let rec_count: u128 = recursive
            .iter()
            .map(|&p| u128::from(calls.calls[p].count))
            .sum();
        let counted_weight = calls.weight - rec_weight;
        let own_weight = match (self.direction, node.func) {
            // A caller tree keeps what the calls into `f` do not explain.
            (Direction::Callers, Some(_)) => {
                saturate((i128::from(calls.base) - counted_weight).max(0))
            }
            _ => calls.base,
        };
        let room = if node.depth >= self.limits.depth {
            0
        } else {
            (self.limits.children).min(self.limits.nodes.saturating_sub(self.nodes.len()))
        };
        // The costliest calls not on the path, up to the room.
        calls.sort_first(room.saturating_add(recursive.len()));
        let top: Vec<usize> = (calls.order.iter())
            .map(|&p| p as usize)
            .filter(|p| recursive.binary_search(p).is_err())
            .take(room)
            .collect();
        let left = calls.calls.len() - recursive.len() - top.len();
        let top_weight: i128 = top.iter().map(|&p| i128::from(calls.calls[p].weight)).sum();
        let top_count: u128 = top.iter().map(|&p| u128::from(calls.calls[p].count)).sum();
        let rest_weight = counted_weight - top_weight;
        let rest_count = calls.count - rec_count - top_count;
        let mut weights = Vec::with_capacity(top.len() + 2);
        weights.push(own_weight);
        weights.extend(top.iter().map(|&p| calls.calls[p].weight));
        if left > 0 {
            weights.push(saturate(rest_weight));
        }
        let sum = i128::from(own_weight) + counted_weight;
        let value = node.value;
        let (shares, spent) = costs::split(self.direction, value, node.spent, &weights, sum);
        // Nothing measured to go by: the node keeps its value, estimated.
        let whole = sum != 0 && i128::from(value) == sum;
        let exact = node.exact && whole;
        let child = |func: Option<FnId>, value: Cost, calls: u64, cut: Option<Cut>| Node {
            func,
            value,
            calls,
            exact: exact && cut.is_none(),
            recursive: false,
            cut,
            depth: node.depth + 1,
            spent: 0,
            parent: i as u32,
            own: None,
            children: 0..0,
        };
        let mut kids: Vec<(Node, costs::Slot)> =
            Vec::with_capacity(top.len() + 1 + recursive.len());
        for (k, &p) in top.iter().enumerate() {
            let c = &calls.calls[p];
            let v = shares[k + 1];
            let n = if exact {
                c.count
            } else {
                estimate(c.count, v, c.weight)
            };
            let mut kid = child(Some(c.func), v, n, None);
            kid.spent = spent[k + 1];
            kids.push((kid, costs::Slot::Top(k)));
        }
        kids.sort_by_key(|(n, _)| std::cmp::Reverse(n.value.saturating_abs()));
        if left > 0 {
            let v = shares[top.len() + 1];
            let count = u64::try_from(rest_count).unwrap_or(u64::MAX);
            let n = if exact {
                count
            } else {
                estimate(count, v, saturate(rest_weight))
            };
            let cut = if room == 0 && node.depth >= self.limits.depth {
                Cut::Depth
            } else {
                Cut::Calls(left as u64)
            };
            let mut marker = child(None, v, n, Some(cut));
            marker.own = Some(v);
            marker.spent = spent[top.len() + 1];
            kids.push((marker, costs::Slot::Rest));
        }
        // Recursive leaves (no value) take what room is left.
        for &p in recursive.iter().take(room.saturating_sub(top.len())) {
            let c = &calls.calls[p];
            let n = if exact || sum == 0 {
                c.count
            } else {
                estimate(c.count, value, saturate(sum))
            };
            let mut leaf = child(Some(c.func), 0, n, None);
            leaf.recursive = true;
            leaf.exact = false;
            kids.push((leaf, costs::Slot::Recursive));
        }
        let slots: Vec<costs::Slot> = kids.iter().map(|&(_, s)| s).collect();
        let start = self.nodes.len() as u32;
        self.nodes.extend(kids.into_iter().map(|(n, _)| n));
        let end = self.nodes.len() as u32;
        let node = &mut self.nodes[i];
        node.own = Some(shares[0]);
        node.children = start..end;
        if let Some(mut rows) = self.rows.take() {
            let x = costs::Expansion {
                calls: &calls,
                top: &top,
                recursive: &recursive,
                on_path: &on_path,
                rest: left > 0,
                slots: &slots,
            };
            rows.expand(a, self, i, &x);
            self.rows = Some(rows);
        }
        if let Some(f) = self.nodes[i].func
            && calls.calls.len() > KEEP_DEGREE
        {
            self.kept.insert(f, calls);
        }
    }
}

/// An `i128` sum as a cost, saturated.
fn saturate(x: i128) -> Cost {
    Cost::try_from(x).unwrap_or(if x < 0 { Cost::MIN } else { Cost::MAX })
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
fn whole_program(a: &Analysis, ev: usize) -> Arc<ProgramEntries> {
    a.program_entries
        .get_or(ev, || ProgramEntries::new(find_entries(a, ev)))
}

/// The whole program's entries in one event column, made once per
/// analysis (a pass over every function and its callers: some 0.2 s on a
/// million functions, too slow for every opening of a tree).
pub(super) struct ProgramEntries {
    /// What the entries do not cover.
    base: Cost,
    /// By function (ties of weight keep this order in the tree).
    entries: Vec<Candidate>,
}

impl ProgramEntries {
    fn new((base, mut entries): (Cost, Vec<Candidate>)) -> Self {
        entries.sort_by_key(|c| c.func);
        ProgramEntries { base, entries }
    }

    /// The weight of `f`'s entry (0: not an entry).
    fn weight(&self, f: FnId) -> Cost {
        self.entries
            .binary_search_by_key(&f, |c| c.func)
            .map_or(0, |i| self.entries[i].weight)
    }
}

fn find_entries(a: &Analysis, ev: usize) -> (Cost, Vec<Candidate>) {
    let mut out = Vec::new();
    let mut cycles_seen = vec![false; a.cycles.len()];
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
        let cycle = a.cycle_index(f).map(|i| i as usize);
        let (inclusive, (paid, has_callers), entry) =
            match cycle.zip(cycle.and_then(|i| a.cycles.get(i))) {
                None => (a.inclusive(f)[ev], called(f), f),
                Some((i, c)) => {
                    if std::mem::replace(&mut cycles_seen[i], true) {
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
                edge: NO_EDGE,
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
