//! String interning: every file, object and function name is stored once.

use hashbrown::HashTable;
use std::hash::BuildHasher;

/// Maps names to dense ids and back. Id 0 is always the empty string, which
/// stands for "not given" (a cost line before any `fl=`, say). The text of
/// all names is kept once, end to end; the index holds only ids.
#[derive(Debug)]
pub struct Interner {
    text: String,
    /// Where each name starts in `text`; it ends where the next begins.
    /// Four bytes a name: the text of all names together is kept under
    /// 4 GiB (beyond it `intern` gives the empty name and sets
    /// `overflowed`, and the loader refuses the profile).
    starts: Vec<u32>,
    /// The `name_hash` of each name, by id: a name is compared with
    /// another only when their hashes are equal (a comparison reads two
    /// places at random, this one), and the index grows without reading a
    /// name again (`grow`).
    hashes: Vec<u32>,
    /// Ids by their names' hashes. Four bytes a slot: the table grows by
    /// being built again from `hashes`, in id order.
    index: HashTable<u32>,
    /// Whether a name was left out for lack of room (see `starts`).
    overflowed: bool,
}

/// How many names ahead of the one being put in the index the slot of
/// another is read (`touch`). Measured on 5M new names: 8 to 32 all take a
/// third less time than none.
pub const TOUCH_AHEAD: usize = 8;

/// A name's hash in 32 bits: what a table of names keeps beside each id.
pub fn name_hash(name: &[u8]) -> u32 {
    let h = rustc_hash::FxBuildHasher.hash_one(name);
    (h ^ (h >> 32)) as u32
}

/// A kept 32-bit hash spread over the 64 bits a hash table reads (its top
/// bits pick the control byte, its low bits the bucket).
pub fn table_hash(hash: u32) -> u64 {
    u64::from(hash).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

fn slice<'a>(text: &'a str, starts: &[u32], id: u32) -> &'a str {
    let i = id as usize;
    match (starts.get(i), starts.get(i + 1)) {
        (Some(&a), Some(&b)) => &text[a as usize..b as usize],
        (Some(&a), None) => &text[a as usize..],
        _ => "",
    }
}

/// A name's text; bytes that are not UTF-8 become U+FFFD. Names are nearly
/// always valid, and checking that is much faster than the lossy decoder.
pub fn text_of(name: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(name) {
        Ok(text) => text.into(),
        Err(_) => String::from_utf8_lossy(name),
    }
}

impl Default for Interner {
    fn default() -> Self {
        let mut interner = Interner {
            text: String::new(),
            starts: Vec::new(),
            hashes: Vec::new(),
            index: HashTable::new(),
            overflowed: false,
        };
        interner.intern("");
        interner
    }
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> u32 {
        self.intern_hashed(name, name_hash(name.as_bytes()))
    }

    /// `intern` of a name whose `name_hash` is known (the parallel load
    /// hashes names on the threads that read them).
    pub fn intern_hashed(&mut self, name: &str, hash: u32) -> u32 {
        if self.index.len() == self.index.capacity() {
            self.grow(1);
        }
        let (text, starts, hashes) = (&self.text, &self.starts, &self.hashes);
        // One probe finds the name or the slot it goes in.
        let entry = self.index.entry(
            table_hash(hash),
            |&id| hashes[id as usize] == hash && slice(text, starts, id) == name,
            |&id| table_hash(hashes[id as usize]),
        );
        match entry {
            hashbrown::hash_table::Entry::Occupied(found) => *found.get(),
            hashbrown::hash_table::Entry::Vacant(slot) => {
                let (Ok(id), Ok(start)) = (
                    u32::try_from(self.starts.len()),
                    u32::try_from(self.text.len() + name.len()),
                ) else {
                    // The loader refuses the profile (`overflowed`).
                    self.overflowed = true;
                    return 0;
                };
                slot.insert(id);
                self.starts.push(start - name.len() as u32);
                self.hashes.push(hash);
                self.text.push_str(name);
                id
            }
        }
    }

    /// Interns a name as a profile file spells it: UTF-8, or made so.
    pub fn intern_bytes(&mut self, name: &[u8]) -> u32 {
        self.intern(&text_of(name))
    }

    /// The id of a name as a profile file spells it, if interned.
    pub fn get_bytes(&self, name: &[u8]) -> Option<u32> {
        self.get(&text_of(name))
    }

    pub fn get(&self, name: &str) -> Option<u32> {
        let (text, starts, hashes) = (&self.text, &self.starts, &self.hashes);
        let hash = name_hash(name.as_bytes());
        let same = |&id: &u32| hashes[id as usize] == hash && slice(text, starts, id) == name;
        self.index.find(table_hash(hash), same).copied()
    }

    /// Reads the part of the index where a name of `hash` would be, so that
    /// its `intern_hashed` a few names later finds it in the cache: names
    /// met for the first time land all over a table of millions, and this
    /// lets the processor wait for several of them at once.
    pub fn touch(&self, hash: u32) {
        std::hint::black_box(self.index.find(table_hash(hash), |_| false));
    }

    /// Builds the index again with room for `additional` more names.
    fn grow(&mut self, additional: usize) {
        let n = self.starts.len();
        let mut index = HashTable::with_capacity((n + additional).max(2 * n).max(16));
        let hashes = &self.hashes;
        let hash = |id: u32| table_hash(hashes[id as usize]);
        for id in 0..n as u32 {
            // As `touch`: the slot of a name a few ahead is read now.
            if (id as usize) + TOUCH_AHEAD < n {
                std::hint::black_box(index.find(hash(id + TOUCH_AHEAD as u32), |_| false));
            }
            index.insert_unique(hash(id), id, |&id| hash(id));
        }
        self.index = index;
    }

    /// Makes room for `additional` more names of `bytes` bytes in all. If
    /// the index must grow, it grows to hold `expected` names (a guess from
    /// the part of a file read so far) where that is more, up to four times
    /// what it must hold (before the table rounds it up): each growth reads
    /// every name again, and a profile of millions of names would otherwise
    /// grow some twenty times.
    pub fn reserve(&mut self, additional: usize, bytes: usize, expected: usize) {
        super::reserve_toward(&mut self.starts, additional, expected);
        super::reserve_toward(&mut self.hashes, additional, expected);
        self.text.reserve(bytes);
        if self.index.capacity() - self.index.len() < additional {
            self.grow(super::room(self.len(), additional, expected) - self.len());
        }
    }

    pub fn name(&self, id: u32) -> &str {
        slice(&self.text, &self.starts, id)
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether a name did not fit (more than 4 GiB of names, or 2^32 names).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_their_ids_through_every_growth_of_the_index() {
        let mut names = Interner::default();
        let name = |i: usize| format!("f{i}");
        for chunk in 0..50 {
            // As the parallel merge does: room made a chunk at a time, with
            // a guess of the total that is sometimes far too high.
            let expected = if chunk % 2 == 0 { 10_000_000 } else { 0 };
            names.reserve(1000, 6000, expected);
            for i in chunk * 1000..(chunk + 1) * 1000 {
                assert_eq!(names.intern(&name(i)), i as u32 + 1);
            }
            // Four times what it must hold, and the table's own rounding
            // up (at most twice).
            assert!(
                names.index.capacity() <= 8 * (names.len() + 1000),
                "a guess grows the index at most four times what it needs"
            );
        }
        // Without any reserve, one at a time.
        for i in 50_000..60_000 {
            assert_eq!(names.intern(&name(i)), i as u32 + 1);
        }
        for i in 0..60_000 {
            assert_eq!(names.get(&name(i)), Some(i as u32 + 1));
            assert_eq!(names.intern(&name(i)), i as u32 + 1, "found, not added");
            assert_eq!(names.name(i as u32 + 1), name(i));
        }
        assert_eq!(names.len(), 60_001);
        assert_eq!(names.get("f60000"), None);
    }
}
