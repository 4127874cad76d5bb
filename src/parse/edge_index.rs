//! (caller, callee) -> edge, as a short list of callees per caller: a
//! function calls few others, and its calls are read together (in its
//! `fn=` block), so the list is in cache where a hash table of millions of
//! pairs would not be.

/// Edge numbers by caller, then callee.
#[derive(Debug, Default)]
pub struct EdgeIndex {
    by_caller: Vec<Vec<(u32, u32)>>,
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
        list.push((callee, next));
        (next, true)
    }

    pub fn clear(&mut self) {
        for &c in &self.touched {
            self.by_caller[c as usize] = Vec::new();
        }
        self.touched.clear();
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
}
