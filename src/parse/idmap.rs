//! Name compression tables: `(id)` -> interned name, one per ID space.

use rustc_hash::FxHashMap as HashMap;

/// Dense ids (the usual case) live in a vector; huge ones in a map.
#[derive(Clone, Debug, Default)]
pub struct IdMap {
    dense: Vec<u32>,
    sparse: HashMap<u64, u32>,
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

    pub fn get(&self, id: u64) -> Option<u32> {
        if id < DENSE_LIMIT {
            self.dense.get(id as usize).copied().filter(|&n| n != UNSET)
        } else {
            self.sparse.get(&id).copied()
        }
    }

    pub fn clear(&mut self) {
        self.dense.clear();
        self.sparse.clear();
    }
}
