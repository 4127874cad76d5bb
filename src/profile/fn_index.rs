//! Finding a function by its key (name, file, object) without hashing in
//! the common case. Name compression already gives every name a dense id,
//! and a name is nearly always one function: the first function of each
//! name is found by indexing an array with that id, and only the others
//! (one name in several files or objects) are kept in a hash table. A
//! profile of millions of tiny functions loads at array speed and pays four
//! bytes a name for the index.

use hashbrown::HashTable;
use std::hash::{BuildHasher, Hash};

const NONE: u32 = u32::MAX;

/// Indexes of a table of function keys `K`, each of which names its name id.
#[derive(Debug, Default)]
pub struct FunctionIndex {
    /// The first function of each name id, or `NONE`.
    first: Vec<u32>,
    /// Every function that is not the first of its name, by hash of its key.
    others: HashTable<u32>,
}

fn hash<K: Hash>(key: &K) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(key)
}

impl FunctionIndex {
    /// The index in `functions` of `key`, whose name id is `name`.
    pub fn find<K: Eq + Hash>(&self, name: u32, key: &K, functions: &[K]) -> Option<u32> {
        let first = *self.first.get(name as usize)?;
        if first == NONE {
            return None;
        }
        if functions[first as usize] == *key {
            return Some(first);
        }
        if self.others.is_empty() {
            return None;
        }
        self.others
            .find(hash(key), |&i| functions[i as usize] == *key)
            .copied()
    }

    /// Makes room for names up to id `names - 1`, toward `expected`.
    pub fn reserve_names(&mut self, names: usize, expected: usize) {
        let more = names.saturating_sub(self.first.len());
        super::reserve_toward(&mut self.first, more, expected);
    }

    /// Records that `functions[id]`, of name id `name`, is new.
    pub fn insert<K: Hash>(&mut self, name: u32, id: u32, functions: &[K]) {
        let n = name as usize;
        if n >= self.first.len() {
            self.first.resize(n + 1, NONE);
        }
        if self.first[n] == NONE {
            self.first[n] = id;
        } else {
            self.others
                .insert_unique(hash(&functions[id as usize]), id, |&i| {
                    hash(&functions[i as usize])
                });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_function_of_a_name_shared_by_several() {
        let keys: Vec<(u32, u32)> = vec![(5, 1), (5, 2), (0, 1), (5, 3), (900, 0)];
        let mut index = FunctionIndex::default();
        for (i, &(name, _)) in keys.iter().enumerate() {
            assert_eq!(index.find(name, &keys[i], &keys[..i]), None, "{i} is new");
            index.insert(name, i as u32, &keys[..=i]);
        }
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(index.find(key.0, key, &keys), Some(i as u32));
        }
        assert_eq!(index.find(5, &(5, 9), &keys), None);
        assert_eq!(index.find(7, &(7, 1), &keys), None);
        assert_eq!(index.find(100_000, &(100_000, 1), &keys), None);
    }
}
