//! Name tables local to one chunk. A chunk is parsed without knowing what
//! came before it, so names are kept as written (`(12)` defined elsewhere,
//! `(12) name`, `name`) and only resolved to the profile's ids when the
//! chunks are merged in file order; the object and file current at the
//! chunk's start are entry 0, `Inherited`.

use super::Bail;
use crate::parse::IdMap;
use crate::parse::{fields, lines};
use rustc_hash::FxHashMap as HashMap;

/// One name as a chunk saw it first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Whatever was current where the chunk begins (objects and files only).
    Inherited,
    /// An uncompressed name.
    Literal(Vec<u8>),
    /// `(id) name`: defined in this chunk, before any use here.
    Defined(u64, Vec<u8>),
    /// `(id)`: defined in an earlier chunk (or nowhere: the merge then gives up).
    External(u64),
}

/// One ID space (objects, files or function names) of a chunk.
#[derive(Debug, Default)]
pub struct Space {
    pub entries: Vec<Entry>,
    literal: HashMap<Vec<u8>, u32>,
    compressed: IdMap,
}

impl Space {
    /// A space whose entry 0 is the value current at the chunk's start.
    pub fn inheriting() -> Self {
        Space {
            entries: vec![Entry::Inherited],
            ..Space::default()
        }
    }

    /// The local index of the name written as `value`. Gives up on what the
    /// sequential loader would report (an unreadable name, an ID beyond 64
    /// bits) or resolve differently (an ID defined after its first use here,
    /// or redefined with another name).
    pub fn resolve(&mut self, value: &[u8]) -> Result<u32, Bail> {
        let (id, name) = match fields::compressed_name(value) {
            Some(parsed) => parsed,
            None => match lines::compressed_name(value) {
                Ok((_, (Some(id), _))) if id.overflow => {
                    return Err(Bail("name ID beyond 64 bits"));
                }
                Ok((_, (id, name))) => (id.map(|id| id.value), name),
                Err(_) => return Err(Bail("unreadable name")),
            },
        };
        let next = self.entries.len() as u32;
        let Some(id) = id else {
            if let Some(&i) = self.literal.get(name) {
                return Ok(i);
            }
            self.literal.insert(name.to_vec(), next);
            self.entries.push(Entry::Literal(name.to_vec()));
            return Ok(next);
        };
        match self.compressed.get(id) {
            Some(i) if name.is_empty() => Ok(i),
            Some(i) => match &self.entries[i as usize] {
                Entry::Defined(_, n) if n == name => Ok(i),
                _ => Err(Bail("name ID defined after use or redefined")),
            },
            None => {
                self.compressed.define(id, next);
                self.entries.push(match name {
                    [] => Entry::External(id),
                    _ => Entry::Defined(id, name.to_vec()),
                });
                Ok(next)
            }
        }
    }
}

/// A chunk's names and functions, each function a (name, file, object)
/// triple of local indexes, numbered in the order they were first seen.
#[derive(Debug)]
pub struct Tables {
    pub objects: Space,
    pub files: Space,
    pub names: Space,
    pub functions: Vec<(u32, u32, u32)>,
    fn_index: HashMap<(u32, u32, u32), u32>,
    /// The function last made of each name: a name is nearly always one
    /// function, and this array is looked up without hashing.
    by_name: Vec<u32>,
}

impl Default for Tables {
    fn default() -> Self {
        Tables {
            objects: Space::inheriting(),
            files: Space::inheriting(),
            names: Space::default(),
            functions: Vec::new(),
            fn_index: HashMap::default(),
            by_name: Vec::new(),
        }
    }
}

impl Tables {
    pub fn function(&mut self, name: u32, file: u32, obj: u32) -> u32 {
        let key = (name, file, obj);
        let n = name as usize;
        if let Some(&f) = self.by_name.get(n)
            && self.functions.get(f as usize) == Some(&key)
        {
            return f;
        }
        let next = self.functions.len() as u32;
        let id = *self.fn_index.entry(key).or_insert(next);
        if id == next {
            self.functions.push(key);
        }
        if n >= self.by_name.len() {
            self.by_name.resize(n + 1, u32::MAX);
        }
        self.by_name[n] = id;
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_to_first_sight_order() {
        let mut s = Space::inheriting();
        assert_eq!(s.resolve(b"(3) a.c").ok(), Some(1));
        assert_eq!(s.resolve(b"(3)").ok(), Some(1));
        assert_eq!(s.resolve(b"(3) a.c").ok(), Some(1), "same name again");
        assert_eq!(s.resolve(b"(7)").ok(), Some(2));
        assert_eq!(s.resolve(b"b.c").ok(), Some(3));
        assert_eq!(s.resolve(b"b.c").ok(), Some(3));
        assert_eq!(
            s.entries,
            vec![
                Entry::Inherited,
                Entry::Defined(3, b"a.c".to_vec()),
                Entry::External(7),
                Entry::Literal(b"b.c".to_vec())
            ]
        );
    }

    #[test]
    fn gives_up_where_the_order_of_lines_would_matter() {
        let mut s = Space::default();
        s.resolve(b"(7)").ok();
        assert!(s.resolve(b"(7) late.c").is_err(), "defined after use");
        s.resolve(b"(8) x").ok();
        assert!(s.resolve(b"(8) y").is_err(), "redefined");
        assert!(s.resolve(b"(99999999999999999999999) x").is_err());
    }
}
