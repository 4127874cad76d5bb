//! String interning: every file, object and function name is stored once.

use std::collections::HashMap;

/// Maps names to dense ids and back. Id 0 is always the empty string, which
/// stands for "not given" (a cost line before any `fl=`, say).
#[derive(Debug)]
pub struct Interner {
    names: Vec<Box<str>>,
    index: HashMap<Box<str>, u32>,
}

impl Default for Interner {
    fn default() -> Self {
        let mut interner = Interner {
            names: Vec::new(),
            index: HashMap::new(),
        };
        interner.intern("");
        interner
    }
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.index.get(name) {
            return id;
        }
        let id = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.names.push(name.into());
        self.index.insert(name.into(), id);
        id
    }

    pub fn get(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }

    pub fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("", |s| s)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
