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
/// the order they are made.
#[derive(Debug, Default)]
pub struct EdgeIndex {
    /// Each caller's newest edge in its chain, or `NONE`.
    newest: Vec<u32>,
    /// Per edge: its callee, and the caller's next older edge in the chain
    /// (`NONE` at the end; edges in `more` are in no chain).
    callee: Vec<u32>,
    older: Vec<u32>,
    more: FxHashMap<(u32, u32), u32>,
    /// Callers with a chain, to clear only those.
    touched: Vec<u32>,
}

impl EdgeIndex {
    /// An index with room for `callers` callers and `edges` edges.
    pub fn with_capacity(callers: usize, edges: usize) -> Self {
        EdgeIndex {
            newest: Vec::with_capacity(callers),
            callee: Vec::with_capacity(edges),
            older: Vec::with_capacity(edges),
            touched: Vec::with_capacity(callers),
            ..EdgeIndex::default()
        }
    }

    /// The edge number of (caller, callee); `next` (and true) if it is new,
    /// `next` being the number of edges made so far.
    pub fn get_or_insert(&mut self, caller: u32, callee: u32, next: u32) -> (u32, bool) {
        let c = caller as usize;
        if c >= self.newest.len() {
            self.newest.resize(c + 1, NONE);
        }
        let (mut e, mut length) = (self.newest[c], 0);
        while e != NONE {
            if self.callee[e as usize] == callee {
                return (e, false);
            }
            e = self.older[e as usize];
            length += 1;
        }
        if length < SHORT {
            debug_assert_eq!(next as usize, self.callee.len(), "edges numbered in order");
            if length == 0 {
                self.touched.push(caller);
            }
            self.callee.push(callee);
            self.older.push(self.newest[c]);
            self.newest[c] = next;
            return (next, true);
        }
        let e = *self.more.entry((caller, callee)).or_insert(next);
        if e == next {
            debug_assert_eq!(next as usize, self.callee.len(), "edges numbered in order");
            // Numbered with the others, in no chain.
            self.callee.push(callee);
            self.older.push(NONE);
        }
        (e, e == next)
    }

    pub fn clear(&mut self) {
        for &c in &self.touched {
            self.newest[c as usize] = NONE;
        }
        self.touched.clear();
        self.callee.clear();
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
        assert_eq!(index.get_or_insert(5, 1, 0), (0, true));
        assert_eq!(index.get_or_insert(5, 2, 1), (1, true));
        assert_eq!(index.get_or_insert(0, 1, 2), (2, true));
        assert_eq!(index.get_or_insert(5, 1, 3), (0, false));
        index.clear();
        assert_eq!(index.get_or_insert(5, 1, 0), (0, true));
    }

    #[test]
    fn a_caller_of_many_keeps_every_pair() {
        let mut index = EdgeIndex::default();
        for callee in 0..100 {
            assert_eq!(index.get_or_insert(7, callee, callee), (callee, true));
        }
        for callee in (0..100).rev() {
            assert_eq!(index.get_or_insert(7, callee, 999), (callee, false));
        }
        index.clear();
        assert_eq!(index.get_or_insert(7, 50, 0), (0, true));
    }
}
