//! (caller, callee) -> edge, as a short list of callees per caller: most
//! functions call few others, and a function's calls are read together (in
//! its `fn=` block), so the list is in cache where a hash table of millions
//! of pairs would not be. Callees past the first few of a caller go to a
//! hash table, so a function calling thousands of others stays fast.

use rustc_hash::FxHashMap;

/// Callees kept in a caller's list before the hash table takes over.
const SHORT: usize = 16;

/// Edge numbers by caller, then callee.
#[derive(Debug, Default)]
pub struct EdgeIndex {
    by_caller: Vec<Vec<(u32, u32)>>,
    more: FxHashMap<(u32, u32), u32>,
    /// Callers with a list, to clear only those.
    touched: Vec<u32>,
}

impl EdgeIndex {
    /// The edge number of (caller, callee); `next` (and true) if it is new.
    pub fn get_or_insert(&mut self, caller: u32, callee: u32, next: u32) -> (u32, bool) {
        let c = caller as usize;
        if c >= self.by_caller.len() {
            self.by_caller.resize_with(c + 1, Vec::new);
        }
        let list = &mut self.by_caller[c];
        if let Some(&(_, e)) = list.iter().find(|&&(to, _)| to == callee) {
            return (e, false);
        }
        if list.is_empty() {
            self.touched.push(caller);
        }
        if list.len() < SHORT {
            list.push((callee, next));
            return (next, true);
        }
        let e = *self.more.entry((caller, callee)).or_insert(next);
        (e, e == next)
    }

    pub fn clear(&mut self) {
        for &c in &self.touched {
            self.by_caller[c as usize] = Vec::new();
        }
        self.touched.clear();
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
