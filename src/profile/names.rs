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
    index: HashTable<u32>,
}

fn hash(name: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

fn slice<'a>(text: &'a str, starts: &[usize], id: u32) -> &'a str {
    let i = id as usize;
    match (starts.get(i), starts.get(i + 1)) {
        (Some(&a), Some(&b)) => &text[a..b],
        (Some(&a), None) => &text[a..],
        _ => "",
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
        if let Some(id) = self.get(name) {
            return id;
        }
        let id = u32::try_from(self.starts.len()).unwrap_or(u32::MAX);
        self.starts.push(self.text.len());
        self.text.push_str(name);
        let (text, starts) = (&self.text, &self.starts);
        self.index
            .insert_unique(hash(name), id, |&i| hash(slice(text, starts, i)));
        id
    }

    pub fn get(&self, name: &str) -> Option<u32> {
        let (text, starts) = (&self.text, &self.starts);
        self.index
            .find(hash(name), |&i| slice(text, starts, i) == name)
            .copied()
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
