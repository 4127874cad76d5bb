//! The whole call graph at once: the call tree (`t`), the caller tree
//! (`b`) and the flame graph (`f`) of the current event, on the estimated
//! trees of `analysis::tree`. The trees grow as the user opens nodes (and
//! the flame graph as far as its boxes are a cell wide), so a profile of a
//! million functions costs what is on screen.

use crate::analysis::Analysis;
use crate::analysis::diff::{Joined, Side};
use crate::analysis::tree::{Direction, Tree};
use crate::profile::{Cost, FnId};
use crate::tui::action::Action;
use crate::tui::app::filter::Filter;
use crate::tui::scroll::Scroll;
use std::sync::Arc;

/// Which view of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeKind {
    Calls,
    Callers,
    Flame,
}

/// Expand-all (`*`) opens nodes of at least this share of the node's value.
const EXPAND_ALL_SHARE: Cost = 100;
/// Expand-all creates at most about this many nodes.
const EXPAND_ALL_LIMIT: usize = 5_000;

#[derive(Clone, Debug)]
pub struct TreeView {
    pub kind: TreeKind,
    pub tree: Tree,
    /// Per node: shown open (its children listed).
    open: Vec<bool>,
    /// The nodes listed, in order (call and caller trees).
    pub rows: Vec<usize>,
    pub scroll: Scroll,
    /// Flame graph: the node drawn across the whole width, and the
    /// selected box.
    pub zoom: usize,
    pub selected: usize,
    /// Flame graph: each box's self cost shaded under it (`v`).
    pub show_self: bool,
    /// A filter of the list (`o`, `F`): the rows and boxes shown are its
    /// functions and the paths that lead to them.
    pub(super) keep: Option<Filter>,
}

impl TreeView {
    /// The view `kind` from `current`, its tree valued in `events` too
    /// (the chosen columns'), opened along the hottest path.
    pub(super) fn new(
        kind: TreeKind,
        a: &Analysis,
        event: usize,
        current: Option<FnId>,
        joined: Option<&Arc<Joined>>,
        events: Vec<usize>,
    ) -> TreeView {
        let tree = match (kind, current, joined) {
            (TreeKind::Callers, Some(f), Some(j)) => {
                Tree::compared(j.clone(), Direction::Callers, event, Some(f), &events)
            }
            (TreeKind::Callers, Some(f), None) => Tree::callers(a, event, f),
            (_, Some(f), Some(j)) if !is_root(a, f) => {
                Tree::compared(j.clone(), Direction::Callees, event, Some(f), &events)
            }
            (_, _, Some(j)) => Tree::compared(j.clone(), Direction::Callees, event, None, &events),
            (TreeKind::Calls, Some(f), None) if !is_root(a, f) => Tree::callees(a, event, Some(f)),
            _ => Tree::callees(a, event, None),
        };
        let tree = tree.with_events(a, events);
        let mut view = TreeView {
            kind,
            tree,
            open: Vec::new(),
            rows: Vec::new(),
            scroll: Scroll::default(),
            zoom: 0,
            selected: 0,
            show_self: false,
            keep: None,
        };
        // The hottest path open down to where its cost is spent, which is
        // selected.
        let path = view.tree.expand_hottest(a, 0);
        view.set_open(0, true);
        for &n in &path {
            view.set_open(n, true);
        }
        let last = path.last().copied().unwrap_or(0);
        view.rebuild();
        view.select_node(last);
        if kind == TreeKind::Flame {
            view.selected = 0;
        }
        view
    }

    /// Flame graph of a comparison: the side whose costs make the boxes'
    /// widths: the new profile's, or the base's where the zoomed box is
    /// gone in the new one (so a path that is gone can be looked into).
    pub fn width_side(&self) -> Side {
        match self.tree.sides(self.zoom) {
            Some(s) if s.new <= 0 && s.base > 0 => Side::Base,
            _ => Side::New,
        }
    }

    /// Flame graph: the cost that makes a box's width: its value, in a
    /// comparison its cost on the width side (`width_side`).
    pub fn extent(&self, n: usize) -> Cost {
        match self.tree.sides(n) {
            Some(s) => match self.width_side() {
                Side::Base => s.base,
                Side::New => s.new,
            },
            None => self.tree.node(n).value,
        }
    }

    pub fn is_open(&self, n: usize) -> bool {
        self.open.get(n).copied().unwrap_or(false)
    }

    fn set_open(&mut self, n: usize, open: bool) {
        if self.open.len() <= n {
            self.open.resize(self.tree.len().max(n + 1), false);
        }
        self.open[n] = open;
    }

    /// The rows: every node under an open one, depth first; with a filter,
    /// only its functions' nodes and those on the way to them.
    pub(super) fn rebuild(&mut self) {
        self.rows.clear();
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            self.rows.push(n);
            if self.is_open(n) {
                stack.extend(self.tree.children_of(n).rev());
            }
        }
        if self.keep.is_some() {
            let shown = self.leads_to_kept();
            self.rows.retain(|&n| n == 0 || shown[n]);
        }
    }

    /// Per node computed: whether it or a node below it (computed so far)
    /// is of a function the filter keeps.
    fn leads_to_kept(&self) -> Vec<bool> {
        let t = &self.tree;
        let mut shown: Vec<bool> = (0..t.len())
            .map(|n| {
                t.node(n)
                    .func
                    .is_some_and(|f| self.keep.as_ref().is_none_or(|k| k.keeps(f)))
            })
            .collect();
        // Children come after their parents: from the end, each node tells
        // its parent.
        for n in (1..t.len()).rev() {
            if shown[n]
                && let Some(p) = t.node(n).parent()
            {
                shown[p] = true;
            }
        }
        shown
    }

    /// Whether a flame graph box is drawn (every box without a filter).
    pub fn shows(&self, n: usize, shown: &[bool]) -> bool {
        self.keep.is_none() || n == self.zoom || shown.get(n).copied().unwrap_or(false)
    }

    /// `leads_to_kept` for drawing (empty without a filter).
    pub fn kept_paths(&self) -> Vec<bool> {
        if self.keep.is_some() {
            self.leads_to_kept()
        } else {
            Vec::new()
        }
    }

    fn select_node(&mut self, n: usize) {
        if let Some(i) = self.rows.iter().position(|&r| r == n) {
            self.scroll.select(i, self.rows.len());
        }
    }

    /// The node of the selected row (the selected box in a flame graph).
    pub fn node(&self) -> usize {
        match self.kind {
            TreeKind::Flame => self.selected,
            _ => self.rows.get(self.scroll.selected).copied().unwrap_or(0),
        }
    }

    /// The same view on its tree valued in `events` (other columns
    /// chosen): the tree is made again, and the nodes open, the selection
    /// and the zoom found again by their paths from the root.
    pub(crate) fn revalue(&mut self, a: &Analysis, events: Vec<usize>) {
        let old = &self.tree;
        let root = old.node(0).func;
        let mut tree = match (old.joined(), old.direction, root) {
            (Some(j), direction, root) => {
                Tree::compared(j.clone(), direction, old.event, root, &events)
            }
            (None, Direction::Callers, Some(f)) => Tree::callers(a, old.event, f),
            (None, ..) => Tree::callees(a, old.event, root),
        };
        if !tree.is_compared() {
            tree = tree.with_limits(old.limits()).with_events(a, events);
        }
        let steps = |n: usize| -> Vec<(Option<FnId>, bool)> {
            let mut out = Vec::new();
            let mut at = n;
            while let Some(p) = old.node(at).parent() {
                out.push((old.node(at).func, old.node(at).recursive));
                at = p;
            }
            out.reverse();
            out
        };
        let find = |tree: &mut Tree, path: &[(Option<FnId>, bool)]| -> Option<usize> {
            let mut at = 0;
            for &step in path {
                at = (tree.children(a, at))
                    .find(|&k| (tree.node(k).func, tree.node(k).recursive) == step)?;
            }
            Some(at)
        };
        let open: Vec<usize> = (0..old.len()).filter(|&n| self.is_open(n)).collect();
        let open_paths: Vec<_> = open.iter().map(|&n| steps(n)).collect();
        let (selected, zoom, row) = (steps(self.selected), steps(self.zoom), steps(self.node()));
        let mut now_open = Vec::new();
        for path in &open_paths {
            if let Some(n) = find(&mut tree, path) {
                tree.children(a, n);
                now_open.push(n);
            }
        }
        let selected = find(&mut tree, &selected).unwrap_or(0);
        let zoom = find(&mut tree, &zoom).unwrap_or(0);
        let row = find(&mut tree, &row).unwrap_or(0);
        self.tree = tree;
        self.open.clear();
        for n in now_open {
            self.set_open(n, true);
        }
        self.selected = selected;
        self.zoom = zoom;
        self.rebuild();
        self.select_node(row);
    }

    pub(super) fn expand(&mut self, a: &Analysis) {
        let n = self.node();
        if self.is_open(n) {
            if let Some(first) = self.tree.children_of(n).next() {
                self.rebuild();
                self.select_node(first);
            }
            return;
        }
        if self.tree.may_expand(n) {
            self.tree.children(a, n);
            self.set_open(n, true);
            self.rebuild();
        }
    }

    pub(super) fn collapse(&mut self) {
        let n = self.node();
        if self.is_open(n) && n != 0 {
            self.set_open(n, false);
            self.rebuild();
            self.select_node(n);
        } else if let Some(p) = self.tree.node(n).parent() {
            self.select_node(p);
        }
    }

    pub(super) fn expand_all(&mut self, a: &Analysis) {
        let n = self.node();
        let min = (self.tree.magnitude(n) / EXPAND_ALL_SHARE).max(1);
        for m in self.tree.expand_all(a, n, min, EXPAND_ALL_LIMIT) {
            if !self.tree.children_of(m).is_empty() {
                self.set_open(m, true);
            }
        }
        self.rebuild();
        self.select_node(n);
    }

    /// Flame graph: the neighbour box in a direction.
    pub(crate) fn step(&mut self, action: Action) {
        let n = self.selected;
        let siblings = |v: &TreeView, n: usize| -> Vec<usize> {
            v.tree.node(n).parent().map_or(vec![n], |p| {
                v.tree.children_of(p).filter(|&k| v.extent(k) > 0).collect()
            })
        };
        self.selected = match action {
            Action::Up if n != self.zoom => self.tree.node(n).parent().unwrap_or(n),
            Action::Down => self
                .tree
                .children_of(n)
                .find(|&k| self.extent(k) > 0)
                .unwrap_or(n),
            Action::ShiftLeft | Action::ShiftRight if n != self.zoom => {
                let s = siblings(self, n);
                let at = s.iter().position(|&k| k == n).unwrap_or(0);
                let to = if action == Action::ShiftLeft {
                    at.checked_sub(1)
                } else {
                    Some(at + 1)
                };
                to.and_then(|i| s.get(i).copied()).unwrap_or(n)
            }
            _ => n,
        };
    }

    /// Call and caller trees: computes the children of the rows on screen
    /// (`height` rows), so that drawing (which cannot change the tree)
    /// knows their self costs and which of them have children.
    pub fn prepare_rows(&mut self, a: &Analysis, height: usize) {
        let (_, window) = self.scroll.window(height, self.rows.len());
        for i in window {
            if let Some(&n) = self.rows.get(i) {
                self.tree.self_cost_of(a, n);
            }
        }
    }

    /// Flame graph: computes the children of every box at least a cell
    /// wide within `rows` levels of the zoomed node, so drawing (which
    /// cannot change the tree) finds them.
    pub fn prepare(&mut self, a: &Analysis, width: u16, rows: u16) {
        let whole = self.extent(self.zoom).max(1);
        let mut level = vec![self.zoom];
        for _ in 0..rows {
            let mut next = Vec::new();
            for n in level {
                let wide = i128::from(self.extent(n)) * i128::from(width) >= i128::from(whole);
                if wide && self.tree.node(n).is_call() {
                    next.extend(self.tree.children(a, n));
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        // The status line says the selected box's self cost.
        self.tree.self_cost_of(a, self.selected);
    }
}

/// A function no one outside its own cycle calls.
fn is_root(a: &Analysis, f: FnId) -> bool {
    a.callers(f)
        .iter()
        .all(|e| a.calls_within_cycle(a.edges[e as usize].caller, f))
}
