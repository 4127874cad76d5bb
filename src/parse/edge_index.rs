//! (caller, callee) -> edge number. Each caller's edges form a chain
//! through the edges (newest first), walked to find a callee: most
//! functions call few others, and a function's calls are read together (in
//! its `fn=` block), so its chain is in cache where a hash table of millions
//! of pairs would not be, and no caller has an allocation of its own (a
//! million callers would be a million of them). Callees past the first few
//! of a caller go to a hash table, so a function calling thousands of others
//! stays fast.

use rustc_hash::FxHashMap;

/// Callees kept in a caller's chain before the hash table takes over.
const SHORT: usize = 16;
const NONE: u32 = u32::MAX;

/// Edge numbers by caller, then callee. Edges are numbered 0, 1, 2... in
/// the order they are made; their callees are read from the edges
/// themselves (`callee_of`), not copied here.
#[derive(Debug, Default)]
pub struct EdgeIndex {
    /// Each caller's newest edge in its chain, or `NONE`.
    newest: Vec<u32>,
    /// Per edge: the caller's next older edge in the chain (`NONE` at the
    /// end; edges in `more` are in no chain).
    older: Vec<u32>,
    more: FxHashMap<(u32, u32), u32>,
}

impl EdgeIndex {
    /// An index with room for `callers` callers and `edges` edges.
    pub fn with_capacity(callers: usize, edges: usize) -> Self {
        EdgeIndex {
            newest: Vec::with_capacity(callers),
            older: Vec::with_capacity(edges),
            ..EdgeIndex::default()
        }
    }

    /// The edge number of (caller, callee); `next` (and true) if it is new,
    /// `next` being the number of edges made so far. `callee_of` gives the
    /// callee of an edge made before.
    #[inline]
    pub fn get_or_insert(
        &mut self,
        caller: u32,
        callee: u32,
        next: u32,
        callee_of: impl Fn(u32) -> u32,
    ) -> (u32, bool) {
        let c = caller as usize;
        if c >= self.newest.len() {
            self.newest.resize(c + 1, NONE);
        }
        let (mut e, mut length) = (self.newest[c], 0);
        while e != NONE {
            if callee_of(e) == callee {
                return (e, false);
            }
            e = self.older[e as usize];
            length += 1;
        }
        debug_assert_eq!(next as usize, self.older.len(), "edges numbered in order");
        if length < SHORT {
            self.older.push(self.newest[c]);
            self.newest[c] = next;
            return (next, true);
        }
        let e = *self.more.entry((caller, callee)).or_insert(next);
        if e == next {
            // Numbered with the others, in no chain.
            self.older.push(NONE);
        }
        (e, e == next)
    }

    /// Forgets every edge; `callers` are the callers of the edges made.
    pub fn clear(&mut self, callers: impl Iterator<Item = u32>) {
        for c in callers {
            if let Some(newest) = self.newest.get_mut(c as usize) {
                *newest = NONE;
            }
        }
        self.older.clear();
        self.more.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_each_pair_once_until_cleared() {
        let mut index = EdgeIndex::default();
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut get = |index: &mut EdgeIndex, caller, callee| {
            let next = edges.len() as u32;
            let got = index.get_or_insert(caller, callee, next, |e| edges[e as usize].1);
            if got.1 {
                edges.push((caller, callee));
            }
            got
        };
        assert_eq!(get(&mut index, 5, 1), (0, true));
        assert_eq!(get(&mut index, 5, 2), (1, true));
        assert_eq!(get(&mut index, 0, 1), (2, true));
        assert_eq!(get(&mut index, 5, 1), (0, false));
        index.clear([5, 5, 0].into_iter());
        assert_eq!(index.get_or_insert(5, 1, 0, |_| unreachable!()), (0, true));
        assert_eq!(index.get_or_insert(0, 1, 1, |_| unreachable!()), (1, true));
    }

    #[test]
    fn a_caller_of_many_keeps_every_pair() {
        let mut index = EdgeIndex::default();
        // Edge n calls function n.
        for callee in 0..100 {
            assert_eq!(
                index.get_or_insert(7, callee, callee, |e| e),
                (callee, true)
            );
        }
        for callee in (0..100).rev() {
            assert_eq!(index.get_or_insert(7, callee, 100, |e| e), (callee, false));
        }
        index.clear(std::iter::repeat_n(7, 100));
        assert_eq!(index.get_or_insert(7, 50, 0, |_| unreachable!()), (0, true));
    }
}
