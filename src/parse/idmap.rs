//! Name compression tables: `(id)` -> interned name, one per ID space.

use rustc_hash::FxHashMap as HashMap;

/// What a function whose name cannot be read is named.
pub const UNREADABLE_FUNCTION: &str = "???";

/// What an ID used before any definition is named, until it has one.
pub fn placeholder(id: u64) -> String {
    format!("({id})")
}

/// Dense ids (the usual case) live in a vector; huge ones in a map.
#[derive(Clone, Debug, Default)]
pub struct IdMap {
    dense: Vec<u32>,
    sparse: HashMap<u64, u32>,
    /// IDs given another name (`rename`): each name with the byte offset
    /// from which it holds, in file order, the first from the start. A
    /// re-read of a block takes the name that held where it starts.
    renamed: HashMap<u64, Vec<(u64, u32)>>,
}

const DENSE_LIMIT: u64 = 1 << 22;
const UNSET: u32 = u32::MAX;

impl IdMap {
    /// Defines (or redefines: yappi and combined dumps do) `id` as `name`.
    pub fn define(&mut self, id: u64, name: u32) {
        if id < DENSE_LIMIT {
            let i = id as usize;
            if i >= self.dense.len() {
                self.dense.resize(i + 1, UNSET);
            }
            self.dense[i] = name;
        } else {
            self.sparse.insert(id, name);
        }
    }

    /// Defines `id` as `name` from byte `offset` on: where it had another
    /// name, which one held where is kept for `get_at`.
    pub fn rename(&mut self, id: u64, name: u32, offset: u64) {
        if let Some(old) = self.get(id).filter(|&old| old != name) {
            (self.renamed.entry(id).or_insert_with(|| vec![(0, old)])).push((offset, name));
        }
        self.define(id, name);
    }

    /// The name `id` had at byte `offset` (after `rename`s), else its last.
    pub fn get_at(&self, id: u64, offset: u64) -> Option<u32> {
        match self.renamed.get(&id) {
            Some(names) => {
                let held = names.partition_point(|&(from, _)| from <= offset);
                names.get(held.checked_sub(1)?).map(|&(_, name)| name)
            }
            None => self.get(id),
        }
    }

    pub fn get(&self, id: u64) -> Option<u32> {
        if id < DENSE_LIMIT {
            self.dense.get(id as usize).copied().filter(|&n| n != UNSET)
        } else {
            self.sparse.get(&id).copied()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_renamed_id_has_each_name_where_it_held() {
        let mut map = IdMap::default();
        map.rename(5, 10, 100);
        map.rename(5, 10, 150);
        assert_eq!(map.get_at(5, 0), Some(10), "named once: its name anywhere");
        map.rename(5, 11, 200);
        map.rename(1 << 40, 3, 250);
        map.rename(1 << 40, 4, 300);
        assert_eq!(map.get(5), Some(11));
        assert_eq!(map.get_at(5, 199), Some(10));
        assert_eq!(map.get_at(5, 200), Some(11));
        assert_eq!(map.get_at(1 << 40, 299), Some(3));
        assert_eq!(map.get_at(1 << 40, 301), Some(4));
    }
}
