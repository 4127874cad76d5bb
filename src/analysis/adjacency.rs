//! Each function's edges. As compressed rows: a list of edge indexes by
//! function, 4 bytes an edge and a function. Or, where most functions'
//! edges are already together (a function's calls are read in its `fn=`
//! block, so its edges are made one after another), as where each
//! function's run of edges starts, with a bit an edge marking where runs
//! end: 4 bytes a function and a bit an edge, the few functions whose
//! edges are apart listed on the side. Each table takes the smaller.

use super::Edge;
use crate::profile::FnId;

/// Each function's edges, in the order of the edges.
#[derive(Clone, Debug)]
pub(super) enum Adjacency {
    /// Function `f`'s edges are `list[start[f]..start[f + 1]]`.
    Listed { start: Vec<u32>, list: Vec<u32> },
    /// Function `f`'s edges are `first[f]` up to the next edge with its bit
    /// set in `run_ends`; none if `first[f]` is `NONE`; those of function
    /// `k` in `apart` if it is `APART | k`.
    Runs {
        first: Vec<u32>,
        run_ends: Vec<u64>,
        apart: Box<Adjacency>,
    },
}

const NONE: u32 = u32::MAX;
const APART: u32 = 1 << 31;

/// The indexes into the edges of one function's calls.
#[derive(Clone, Copy, Debug)]
pub enum EdgeIds<'a> {
    Listed(&'a [u32]),
    Run(u32, u32),
}

impl Adjacency {
    /// The edges of each function `key` gives, up to the last function
    /// that has any: a million functions without calls cost nothing.
    pub fn build(edges: &[Edge], key: impl Fn(&Edge) -> FnId) -> Self {
        let n = edges.iter().map(|e| key(e).index() + 1).max().unwrap_or(0);
        let key_at = |i: usize| key(&edges[i]).index() as u32;
        if edges.len() >= APART as usize {
            return Self::listed(edges.len(), n, key_at);
        }
        // Each function's first edge, marked `APART` if it has others
        // after another function's; a bit at the end of each run.
        let mut first = vec![NONE; n];
        let mut run_ends = vec![0u64; edges.len().div_ceil(64)];
        let mut last = NONE;
        for i in 0..edges.len() {
            let f = key_at(i);
            let at = &mut first[f as usize];
            if *at == NONE {
                *at = i as u32;
            } else if f != last {
                *at |= APART;
            }
            if f != last && i > 0 {
                set(&mut run_ends, i - 1);
            }
            last = f;
        }
        if let Some(end) = edges.len().checked_sub(1) {
            set(&mut run_ends, end);
        }
        let is_apart = |at: u32| at != NONE && at & APART != 0;
        let apart_fns = first.iter().filter(|&&at| is_apart(at)).count();
        let apart_edges = (0..edges.len())
            .filter(|&i| is_apart(first[key_at(i) as usize]))
            .count();
        let runs_bytes = 4 * (n + apart_fns + apart_edges) + 8 * run_ends.len();
        if runs_bytes >= 4 * (n + edges.len()) {
            return Self::listed(edges.len(), n, key_at);
        }
        // The functions apart, numbered in function order.
        let mut number = 0;
        for at in first.iter_mut().filter(|at| is_apart(**at)) {
            *at = APART | number;
            number += 1;
        }
        let apart = Self::listed(edges.len(), number as usize, |i| {
            let at = first[key_at(i) as usize];
            if is_apart(at) { at & !APART } else { NONE }
        });
        Adjacency::Runs {
            first,
            run_ends,
            apart: Box::new(apart),
        }
    }

    /// Compressed rows of the `len` edges by `key_at`, below `n` (edges
    /// whose key is `NONE` left out).
    fn listed(len: usize, n: usize, key_at: impl Fn(usize) -> u32) -> Self {
        let mut start = vec![0u32; n + 1];
        for i in 0..len {
            if let Some(count) = start.get_mut((key_at(i) as usize).wrapping_add(1)) {
                *count += 1;
            }
        }
        for f in 0..n {
            start[f + 1] += start[f];
        }
        let mut list = vec![0u32; start[n] as usize];
        for i in 0..len {
            if let Some(slot) = start.get_mut(key_at(i) as usize) {
                list[*slot as usize] = i as u32;
                *slot += 1;
            }
        }
        // Each slot is now where the next function's edges start.
        start.rotate_right(1);
        start[0] = 0;
        Adjacency::Listed { start, list }
    }

    /// How many functions the table covers (those after have no edges).
    pub fn functions(&self) -> usize {
        match self {
            Adjacency::Listed { start, .. } => start.len() - 1,
            Adjacency::Runs { first, .. } => first.len(),
        }
    }

    /// The `k`th of `f`'s edges, `k` below their count (`of(f).len()`),
    /// without finding where they end.
    pub fn nth(&self, f: FnId, k: usize) -> Option<u32> {
        match self {
            Adjacency::Listed { start, list } => {
                list.get(*start.get(f.index())? as usize + k).copied()
            }
            Adjacency::Runs { first, apart, .. } => match *first.get(f.index())? {
                NONE => None,
                at if at & APART != 0 => apart.nth(FnId::from_index((at & !APART) as usize), k),
                at => Some(at + k as u32),
            },
        }
    }

    pub fn of(&self, f: FnId) -> EdgeIds<'_> {
        let f = f.index();
        match self {
            Adjacency::Listed { start, list } => match (start.get(f), start.get(f + 1)) {
                (Some(&a), Some(&b)) => EdgeIds::Listed(&list[a as usize..b as usize]),
                _ => EdgeIds::Run(0, 0),
            },
            Adjacency::Runs {
                first,
                run_ends,
                apart,
            } => match first.get(f).copied().unwrap_or(NONE) {
                NONE => EdgeIds::Run(0, 0),
                at if at & APART != 0 => apart.of(FnId::from_index((at & !APART) as usize)),
                at => EdgeIds::Run(at, run_end(run_ends, at) + 1),
            },
        }
    }
}

fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// The first set bit at or after `from` (the last edge's is always set).
fn run_end(bits: &[u64], from: u32) -> u32 {
    let mut word = from as usize / 64;
    let mut rest = bits[word] & (u64::MAX << (from % 64));
    while rest == 0 && word + 1 < bits.len() {
        word += 1;
        rest = bits[word];
    }
    (word * 64) as u32 + rest.trailing_zeros().min(63)
}

impl<'a> EdgeIds<'a> {
    pub fn len(&self) -> usize {
        match *self {
            EdgeIds::Listed(list) => list.len(),
            EdgeIds::Run(a, b) => (b - a) as usize,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`th edge index.
    pub fn get(&self, i: usize) -> Option<u32> {
        match *self {
            EdgeIds::Listed(list) => list.get(i).copied(),
            EdgeIds::Run(a, b) => a.checked_add(i as u32).filter(|&e| e < b),
        }
    }

    pub fn iter(self) -> EdgeIter<'a> {
        self.into_iter()
    }
}

impl<'a> IntoIterator for EdgeIds<'a> {
    type Item = u32;
    type IntoIter = EdgeIter<'a>;

    fn into_iter(self) -> EdgeIter<'a> {
        match self {
            EdgeIds::Listed(list) => EdgeIter {
                list: list.iter(),
                run: 0..0,
            },
            EdgeIds::Run(a, b) => EdgeIter {
                list: [].iter(),
                run: a..b,
            },
        }
    }
}

/// The edge indexes of an `EdgeIds`, in order.
#[derive(Clone, Debug)]
pub struct EdgeIter<'a> {
    list: std::slice::Iter<'a, u32>,
    run: std::ops::Range<u32>,
}

impl Iterator for EdgeIter<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        self.list.next().copied().or_else(|| self.run.next())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len() + self.run.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for EdgeIter<'_> {}

impl DoubleEndedIterator for EdgeIter<'_> {
    fn next_back(&mut self) -> Option<u32> {
        self.run
            .next_back()
            .or_else(|| self.list.next_back().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edges(calls: &[(u32, u32)]) -> Vec<Edge> {
        (calls.iter())
            .map(|&(caller, callee)| Edge {
                caller: FnId(caller),
                callee: FnId(callee),
                count: 1,
            })
            .collect()
    }

    /// A function's edges are those with it as key, in the order of the
    /// edges, whichever way they are kept.
    fn assert_each_functions_edges(edges: &[Edge], adjacency: &Adjacency, key: fn(&Edge) -> FnId) {
        for f in (0..adjacency.functions() as u32 + 2).map(FnId) {
            let want: Vec<u32> = (0..edges.len() as u32)
                .filter(|&e| key(&edges[e as usize]) == f)
                .collect();
            let got = adjacency.of(f);
            assert_eq!(got.iter().collect::<Vec<_>>(), want, "{f:?}");
            assert_eq!(got.len(), want.len());
            assert_eq!(got.get(0), want.first().copied());
            let nth: Vec<u32> = (0..want.len())
                .filter_map(|k| adjacency.nth(f, k))
                .collect();
            assert_eq!(nth, want, "{f:?}");
            assert_eq!(got.iter().next_back(), want.last().copied());
        }
    }

    #[test]
    fn edges_made_together_are_runs_and_scattered_ones_a_list() {
        let few = edges(&[(0, 2), (0, 1), (2, 0), (2, 2), (2, 1), (4, 0)]);
        let callees = Adjacency::build(&few, |e| e.caller);
        let callers = Adjacency::build(&few, |e| e.callee);
        assert!(matches!(callees, Adjacency::Runs { .. }));
        assert!(matches!(callers, Adjacency::Listed { .. }));
        assert_each_functions_edges(&few, &callees, |e| e.caller);
        assert_each_functions_edges(&few, &callers, |e| e.callee);
        // 100 functions calling three each, then two calling once more:
        // runs, those two kept apart. Edges across 64-bit words.
        let mut calls: Vec<(u32, u32)> = (0..300).map(|i| (i / 3, i % 7)).collect();
        calls.extend([(0, 9), (57, 9)]);
        let many = edges(&calls);
        let callees = Adjacency::build(&many, |e| e.caller);
        let Adjacency::Runs { apart, .. } = &callees else {
            panic!("{callees:?}");
        };
        assert_eq!(apart.functions(), 2);
        assert_each_functions_edges(&many, &callees, |e| e.caller);
        assert_each_functions_edges(&many, &Adjacency::build(&many, |e| e.callee), |e| e.callee);
        assert_each_functions_edges(&[], &Adjacency::build(&[], |e| e.caller), |e| e.caller);
    }
}
