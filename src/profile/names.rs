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
    starts: Vec<usize>,
    /// Ids with their names' hashes, so growing the table never reads the
    /// names again (a million names would be a million cache misses).
    index: HashTable<Slot>,
}

#[derive(Clone, Copy, Debug)]
struct Slot {
    id: u32,
    hash: u32,
}

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

fn slice<'a>(text: &'a str, starts: &[usize], id: u32) -> &'a str {
    let i = id as usize;
    match (starts.get(i), starts.get(i + 1)) {
        (Some(&a), Some(&b)) => &text[a..b],
        (Some(&a), None) => &text[a..],
        _ => "",
    }
}

/// A name's text; bytes that are not UTF-8 become U+FFFD. Names are nearly
/// always valid, and checking that is much faster than the lossy decoder.
fn text_of(name: &[u8]) -> std::borrow::Cow<'_, str> {
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
            index: HashTable::new(),
        };
        interner.intern("");
        interner
    }
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> u32 {
        let (text, starts) = (&self.text, &self.starts);
        let hash = name_hash(name.as_bytes());
        // One probe finds the name or the slot it goes in.
        let entry = self.index.entry(
            table_hash(hash),
            |s| s.hash == hash && slice(text, starts, s.id) == name,
            |s| table_hash(s.hash),
        );
        match entry {
            hashbrown::hash_table::Entry::Occupied(found) => found.get().id,
            hashbrown::hash_table::Entry::Vacant(slot) => {
                let id = u32::try_from(self.starts.len()).unwrap_or(u32::MAX);
                slot.insert(Slot { id, hash });
                self.starts.push(self.text.len());
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
        let (text, starts) = (&self.text, &self.starts);
        let hash = name_hash(name.as_bytes());
        self.index
            .find(table_hash(hash), |s| {
                s.hash == hash && slice(text, starts, s.id) == name
            })
            .map(|s| s.id)
    }

    /// Makes room for `additional` more names of `bytes` bytes in all, to
    /// the byte (doubling would leave up to half of a million names' room
    /// unused).
    pub fn reserve(&mut self, additional: usize, bytes: usize) {
        self.starts.reserve_exact(additional);
        self.text.reserve_exact(bytes);
        self.index.reserve(additional, |s| table_hash(s.hash));
    }

    pub fn name(&self, id: u32) -> &str {
        slice(&self.text, &self.starts, id)
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }
}
