//! The call tree and caller tree of a comparison (`--base`): each side's
//! own tree, built on that side's analysis exactly as it is alone, joined
//! node by node where the paths match by function pair. A joined node's
//! `value` is the change of its inclusive cost (new minus base), its own
//! share and its self cost the changes of theirs; its two sides' own
//! numbers are read with `Tree::sides`. A path of one profile only is a
//! node with one side (the other's costs are 0). Children come by the
//! size of their change, largest first (then by the larger of their two
//! costs), so the hottest path (`Tree::expand_hottest`) leads to where
//! the change is.
//!
//! Each side's tree keeps its own bounds (`Limits`); what a bound cut on
//! either side is one marker, joined with the other side's.

use super::{Cost, Direction, FnId, Limits, Node, NodeCosts, Tree};
use crate::analysis::diff::{Joined, Side};
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

/// A comparison tree's sides: each side's own tree, and where each joined
/// node is in them.
#[derive(Clone, Debug)]
pub(super) struct Sides {
    joined: Arc<Joined>,
    base: Option<Tree>,
    new: Option<Tree>,
    /// Per joined node: its node in the base's tree and in the new one's.
    at: Vec<[Option<u32>; 2]>,
}

impl Sides {
    pub(super) fn set_limits(&mut self, limits: Limits) {
        for t in [self.base.as_mut(), self.new.as_mut()]
            .into_iter()
            .flatten()
        {
            t.limits = limits;
        }
    }
}

/// A joined node's costs on each side: each side's own numbers for the
/// path (0 on a side without the path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideCosts {
    /// The inclusive cost along the path.
    pub base: Cost,
    pub new: Cost,
    /// The self cost on the path (`Node::self_cost`), once known.
    pub base_self: Option<Cost>,
    pub new_self: Option<Cost>,
    /// Whether the path is in the base, in the new profile.
    pub in_base: bool,
    pub in_new: bool,
}

impl SideCosts {
    /// The change of the inclusive cost, new minus base.
    pub fn change(&self) -> Cost {
        self.new.saturating_sub(self.base)
    }

    /// The change of the self cost, once both sides' are known.
    pub fn self_change(&self) -> Option<Cost> {
        let known = |on: bool, c: Option<Cost>| if on { c } else { Some(0) };
        Some(
            known(self.in_new, self.new_self)?.saturating_sub(known(self.in_base, self.base_self)?),
        )
    }

    /// `new` or `gone` for a path of one profile only.
    pub fn status(&self) -> Option<&'static str> {
        match (self.in_base, self.in_new) {
            (false, true) => Some("new"),
            (true, false) => Some("gone"),
            _ => None,
        }
    }
}

/// What joins two children: the pair of their function (and whether the
/// node is a recursive leaf), or the marker of what a bound cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    Call(usize, bool),
    Cut,
}

impl Tree {
    /// The tree of a comparison, on `joined`'s two sides, for the new
    /// profile's event column `event` (the base's is the same event's):
    /// the call tree (`Direction::Callees`) of the pair `from` (a pair's
    /// index is its id in the new profile) or of the whole program, or
    /// the caller tree of `from`.
    ///
    /// Each side's tree is also valued in `events` (the new profile's
    /// columns; the base's tree in the same events' columns of the base),
    /// for `compared_costs`.
    pub fn compared(
        joined: Arc<Joined>,
        direction: Direction,
        event: usize,
        from: Option<FnId>,
        events: &[usize],
    ) -> Tree {
        let c = &joined.comparison;
        let base_of = |e: usize| c.events.iter().find(|x| x.new == e).map(|x| x.base);
        let base_event = base_of(event);
        let side_tree = |side: Side, a, ev: Option<usize>, events: Vec<usize>| {
            let ev = ev?;
            let root = match from {
                Some(p) => Some(c.function(p.index(), side)?),
                None => None,
            };
            let tree = match (direction, root) {
                (Direction::Callers, Some(f)) => Tree::callers(a, ev, f),
                (Direction::Callers, None) => return None,
                (Direction::Callees, root) => Tree::callees(a, ev, root),
            };
            Some(tree.with_events(a, events))
        };
        let base_events = events.iter().filter_map(|&e| base_of(e)).collect();
        let base = side_tree(Side::Base, &joined.base_analysis, base_event, base_events);
        let new = side_tree(
            Side::New,
            &joined.new_analysis,
            Some(event),
            events.to_vec(),
        );
        let value = |t: &Option<Tree>| t.as_ref().map_or(0, |t| t.nodes[0].value);
        let spent = |t: &Option<Tree>| t.as_ref().map_or(0, |t| t.nodes[0].spent);
        let mut tree = Tree::rooted(
            direction,
            event,
            from,
            value(&new).saturating_sub(value(&base)),
            spent(&new).saturating_sub(spent(&base)),
        );
        tree.nodes[0].exact = [&base, &new]
            .iter()
            .all(|t| t.as_ref().is_none_or(|t| t.nodes[0].exact));
        let root = |t: &Option<Tree>| t.as_ref().map(|_| 0);
        tree.sides = Some(Box::new(Sides {
            at: vec![[root(&base), root(&new)]],
            joined,
            base,
            new,
        }));
        tree
    }

    /// Whether this is a comparison's tree.
    pub fn is_compared(&self) -> bool {
        self.sides.is_some()
    }

    /// A comparison tree's node on each side; `None` in a tree of one
    /// profile.
    pub fn sides(&self, i: usize) -> Option<SideCosts> {
        let s = self.sides.as_deref()?;
        let [b, n] = *s.at.get(i)?;
        let side = |t: &Option<Tree>, k: Option<u32>| {
            let node = k.and_then(|k| t.as_ref().map(|t| t.node(k as usize)))?;
            Some((node.value, node.self_cost(self.direction)))
        };
        let (base, base_self) = side(&s.base, b).unwrap_or((0, None));
        let (new, new_self) = side(&s.new, n).unwrap_or((0, None));
        Some(SideCosts {
            base,
            new,
            base_self,
            new_self,
            in_base: b.is_some() && s.base.is_some(),
            in_new: n.is_some() && s.new.is_some(),
        })
    }

    /// A comparison tree's node `i` on each side in the events of
    /// `compared`, as rows of the new profile's columns (the base's
    /// mapped onto them; 0 on a side without the path); `None` in a tree
    /// of one profile or without those events.
    pub fn compared_costs(&self, i: usize) -> Option<[NodeCosts; 2]> {
        let s = self.sides.as_deref()?;
        let [b, n] = *s.at.get(i)?;
        let width = s.joined.new_analysis.width;
        let c = &s.joined.comparison;
        let side = |t: &Option<Tree>, k: Option<u32>, w: usize| -> Option<Option<NodeCosts>> {
            match (t, k) {
                (Some(t), Some(k)) => Some(Some(t.costs(k as usize, w)?)),
                _ => Some(None),
            }
        };
        let zero = || NodeCosts {
            inclusive: vec![0; width],
            own: Some(vec![0; width]),
        };
        let remap = |row: &[Cost]| c.base_in_new_columns(row, width);
        let base =
            side(&s.base, b, s.joined.base_analysis.width)?.map_or_else(zero, |x| NodeCosts {
                inclusive: remap(&x.inclusive),
                own: x.own.as_deref().map(remap),
            });
        let new = side(&s.new, n, width)?.unwrap_or_else(zero);
        Some([base, new])
    }

    /// The comparison a comparison tree is of.
    pub fn joined(&self) -> Option<&Arc<Joined>> {
        self.sides.as_ref().map(|s| &s.joined)
    }

    /// Computes a comparison tree's node `i`'s children: each side's
    /// children of the node, joined by function pair, by the size of
    /// their change.
    pub(super) fn expand_compared(&mut self, i: usize) {
        let Some(mut sides) = self.sides.take() else {
            return;
        };
        let node = self.nodes[i].clone();
        if !node.is_call() {
            self.nodes[i].own = Some(node.value);
            self.sides = Some(sides);
            return;
        }
        let joined = sides.joined.clone();
        let c = &joined.comparison;
        let [b, n] = sides.at[i];
        let grow = |t: Option<&mut Tree>, k: Option<u32>, a, side: Side| {
            let (Some(t), Some(k)) = (t, k) else {
                return (Vec::new(), 0);
            };
            let kids = t.children(a, k as usize);
            let own = t.nodes[k as usize].own.unwrap_or(0);
            let keys = kids
                .map(|k| {
                    let n = &t.nodes[k];
                    let key = match n.func {
                        Some(f) => Key::Call(c.pair_of(side, f), n.recursive),
                        None => Key::Cut,
                    };
                    (key, k as u32)
                })
                .collect::<Vec<_>>();
            (keys, own)
        };
        let (base_kids, base_own) = grow(sides.base.as_mut(), b, &joined.base_analysis, Side::Base);
        let (new_kids, new_own) = grow(sides.new.as_mut(), n, &joined.new_analysis, Side::New);
        // Joined by key: the new side's first, then the base's of no match.
        let mut pairs: Vec<(Key, [Option<u32>; 2])> = Vec::new();
        let mut at: HashMap<Key, usize> = HashMap::default();
        for (key, k) in new_kids {
            at.entry(key).or_insert_with(|| {
                pairs.push((key, [None, Some(k)]));
                pairs.len() - 1
            });
        }
        for (key, k) in base_kids {
            match at.get(&key) {
                Some(&p) if pairs[p].1[0].is_none() => pairs[p].1[0] = Some(k),
                Some(_) => {}
                None => {
                    at.insert(key, pairs.len());
                    pairs.push((key, [Some(k), None]));
                }
            }
        }
        let side_node = |t: &Option<Tree>, k: Option<u32>| {
            k.and_then(|k| t.as_ref().map(|t| t.nodes[k as usize].clone()))
        };
        let mut children: Vec<(Node, [Option<u32>; 2])> = pairs
            .into_iter()
            .map(|(key, ks)| {
                let bn = side_node(&sides.base, ks[0]);
                let nn = side_node(&sides.new, ks[1]);
                let value = |n: &Option<Node>| n.as_ref().map_or(0, |n| n.value);
                let spent = |n: &Option<Node>| n.as_ref().map_or(0, |n| n.spent);
                let either = nn.as_ref().or(bn.as_ref());
                let (func, recursive) = match key {
                    Key::Call(p, r) => (Some(FnId::from_index(p)), r),
                    Key::Cut => (None, false),
                };
                let kid = Node {
                    func,
                    value: value(&nn).saturating_sub(value(&bn)),
                    calls: either.map_or(0, |n| n.calls),
                    exact: [&bn, &nn]
                        .iter()
                        .all(|n| n.as_ref().is_none_or(|n| n.exact)),
                    recursive,
                    cut: either.and_then(|n| n.cut),
                    depth: node.depth + 1,
                    spent: spent(&nn).saturating_sub(spent(&bn)),
                    parent: i as u32,
                    own: None,
                    children: 0..0,
                };
                (kid, ks)
            })
            .collect();
        // Calls by the size of their change (then of their larger side,
        // then by pair), then the marker, then the recursive leaves.
        let size = |ks: &[Option<u32>; 2]| {
            let v = |t: &Option<Tree>, k: Option<u32>| {
                k.and_then(|k| t.as_ref().map(|t| t.nodes[k as usize].value))
                    .unwrap_or(0)
                    .saturating_abs()
            };
            v(&sides.base, ks[0]).max(v(&sides.new, ks[1]))
        };
        children.sort_by_cached_key(|(n, ks)| {
            let rank = u8::from(n.cut.is_some()) + 2 * u8::from(n.recursive);
            (
                rank,
                std::cmp::Reverse(n.value.saturating_abs()),
                std::cmp::Reverse(size(ks)),
                n.func.map_or(usize::MAX, FnId::index),
            )
        });
        let start = self.nodes.len() as u32;
        for (kid, ks) in children {
            self.nodes.push(kid);
            sides.at.push(ks);
        }
        let end = self.nodes.len() as u32;
        let own = |on: bool, own: Cost| if on { own } else { 0 };
        let node = &mut self.nodes[i];
        node.own = Some(own(n.is_some(), new_own).saturating_sub(own(b.is_some(), base_own)));
        node.children = start..end;
        self.sides = Some(sides);
    }
}
