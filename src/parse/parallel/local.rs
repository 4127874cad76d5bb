//! Name tables local to one chunk. A chunk is parsed without knowing what
//! came before it, so names are kept as written (`(12)` defined elsewhere,
//! `(12) name`, `name`) and only resolved to the profile's ids when the
//! chunks are merged in file order; the object and file current at the
//! chunk's start are entry 0, `Inherited`.

use super::Bail;
use crate::parse::{fields, lines, messages};
use crate::profile::{FunctionIndex, name_hash, table_hash, text_of};
use hashbrown::HashTable;

/// One name as a chunk saw it first, with the `name_hash` of its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry<'a> {
    /// Whatever was current where the chunk begins (objects and files only).
    Inherited,
    /// A name of the profile, by its id: what the body before left current
    /// where a body continues it (`Scanner::continue_from`).
    Global(u32),
    /// An uncompressed name.
    Literal(&'a str, u32),
    /// `(id) name`: defined in this chunk (again, if named again: each
    /// definition is an entry, the uses after it its).
    Defined(u64, &'a str, u32),
    /// `(id)`: defined in an earlier chunk, or nowhere (the merge then
    /// names it `(id)` and says so).
    External(u64),
}

/// A name's local index, or what is said of it where it cannot be read.
pub type Named = Result<u32, &'static str>;

/// Where a line is: its byte offset in the file and its line in the chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct At {
    pub offset: u64,
    pub line: usize,
}

/// What an entry is (its name and id are kept beside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Inherited,
    Global,
    Literal,
    Defined,
    External,
}

/// One ID space (objects, files or function names) of a chunk, in a few
/// bytes a name beyond its text: a chunk of millions of tiny functions
/// must not cost more than the profile it becomes. Names are made text
/// (UTF-8 checked) and hashed here, on the thread that reads the chunk,
/// not when it is merged, which is the part of the load that cannot be
/// shared between threads.
#[derive(Debug, Default)]
pub struct Space {
    kinds: Vec<Kind>,
    /// The `(id)` of compressed entries.
    ids: Vec<u64>,
    /// The `name_hash` of each entry's text.
    hashes: Vec<u32>,
    /// The names' text, end to end; entry `i` ends at `ends[i]`.
    text: String,
    ends: Vec<u32>,
    /// Literal entries, by the hash of their text.
    literal: HashTable<u32>,
    /// Compressed entries, by their `(id)`: hashed, not a vector indexed
    /// by id as the profile's table is, since a chunk late in a file of a
    /// million names would otherwise clear megabytes for the few it uses.
    compressed: rustc_hash::FxHashMap<u64, u32>,
    /// Where each compressed entry was first met, by entry: a definition's
    /// place tells a re-read which blocks come after it, a use's line
    /// where the loader says that an ID was used before it was defined.
    /// (Literal names, millions in some files, need neither.)
    first_at: Vec<(u32, At)>,
}

/// Entry `i`'s text, entries ending at `ends`.
fn name_of<'a>(text: &'a str, ends: &[u32], i: usize) -> &'a str {
    let start = i.checked_sub(1).map_or(0, |p| ends[p] as usize);
    &text[start..ends[i] as usize]
}

impl Space {
    /// A space whose entry 0 is the value current at the chunk's start.
    pub fn inheriting() -> Self {
        Space {
            kinds: vec![Kind::Inherited],
            ids: vec![0],
            hashes: vec![0],
            ends: vec![0],
            ..Space::default()
        }
    }

    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// How much this space holds, for `reserve`.
    fn room(&self) -> SpaceRoom {
        SpaceRoom {
            entries: self.len(),
            text: self.text.len(),
            literal: self.literal.len(),
            compressed: self.compressed.len(),
        }
    }

    /// Makes room for as much as `room` says at once.
    fn reserve(&mut self, room: SpaceRoom) {
        let n = room.entries;
        self.kinds.reserve(n);
        self.ids.reserve(n);
        self.hashes.reserve(n);
        self.ends.reserve(n);
        self.first_at.reserve(room.compressed);
        self.text.reserve(room.text);
        let hashes = &self.hashes;
        (self.literal).reserve(room.literal, |&j| table_hash(hashes[j as usize]));
        self.compressed.reserve(room.compressed);
    }

    /// Where compressed entry `i` was first met.
    pub fn first_at(&self, i: usize) -> At {
        let at = self.first_at.partition_point(|&(j, _)| (j as usize) < i);
        self.first_at.get(at).map_or(At::default(), |&(_, at)| at)
    }

    /// The bytes of all names together.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    fn name(&self, i: usize) -> &str {
        name_of(&self.text, &self.ends, i)
    }

    /// Entry `i`.
    pub fn entry(&self, i: usize) -> Entry<'_> {
        match self.kinds[i] {
            Kind::Inherited => Entry::Inherited,
            Kind::Global => Entry::Global(self.ids[i] as u32),
            Kind::Literal => Entry::Literal(self.name(i), self.hashes[i]),
            Kind::Defined => Entry::Defined(self.ids[i], self.name(i), self.hashes[i]),
            Kind::External => Entry::External(self.ids[i]),
        }
    }

    /// The `name_hash` of entry `i`'s name, if it has one.
    pub fn hash(&self, i: usize) -> Option<u32> {
        match self.kinds.get(i)? {
            Kind::Literal | Kind::Defined => Some(self.hashes[i]),
            Kind::Inherited | Kind::Global | Kind::External => None,
        }
    }

    fn push(
        &mut self,
        (kind, id): (Kind, u64),
        name: &str,
        hash: u32,
        at: At,
    ) -> Result<u32, Bail> {
        self.text.push_str(name);
        let end = u32::try_from(self.text.len()).map_err(|_| Bail("names beyond 4 GiB"))?;
        self.kinds.push(kind);
        self.ids.push(id);
        self.hashes.push(hash);
        self.ends.push(end);
        let i = (self.kinds.len() - 1) as u32;
        if matches!(kind, Kind::Defined | Kind::External) {
            self.first_at.push((i, at));
        }
        Ok(i)
    }

    /// A local index for the profile's name `id`.
    pub fn global(&mut self, id: u32) -> u32 {
        let end = self.ends.last().copied().unwrap_or(0);
        self.kinds.push(Kind::Global);
        self.ids.push(u64::from(id));
        self.hashes.push(0);
        self.ends.push(end);
        (self.kinds.len() - 1) as u32
    }

    /// The local index of the name written as `value` on the line `at`,
    /// or what is said of it where it cannot be read (an ID beyond 64 bits
    /// too). An ID named again, after a use or with another name, is a new
    /// entry from there on, as the profile's table of IDs takes the new
    /// name from there on (`IdMap::rename`).
    pub fn resolve(&mut self, value: &[u8], at: At) -> Result<Named, Bail> {
        let (id, name) = match fields::compressed_name(value) {
            Some(parsed) => parsed,
            None => match lines::compressed_name(value) {
                Ok((_, (Some(id), _))) if id.overflow => {
                    return Ok(Err(messages::NAME_ID_BEYOND_64_BITS));
                }
                Ok((_, (id, name))) => (id.map(|id| id.value), name),
                Err(_) => return Ok(Err(messages::UNREADABLE_NAME)),
            },
        };
        // Names that read the same as text are one name, as in the profile.
        let name = text_of(name);
        let Some(id) = id else {
            let h = name_hash(name.as_bytes());
            let (hashes, text, ends) = (&self.hashes, &self.text, &self.ends);
            // One probe finds the name or the slot it goes in.
            let entry = self.literal.entry(
                table_hash(h),
                |&i| hashes[i as usize] == h && name_of(text, ends, i as usize) == name,
                |&j| table_hash(hashes[j as usize]),
            );
            return match entry {
                hashbrown::hash_table::Entry::Occupied(found) => Ok(Ok(*found.get())),
                hashbrown::hash_table::Entry::Vacant(slot) => {
                    let i = u32::try_from(self.kinds.len()).map_err(|_| Bail("too many names"))?;
                    slot.insert(i);
                    self.push((Kind::Literal, 0), &name, h, at).map(Ok)
                }
            };
        };
        let same = |i: u32| match self.entry(i as usize) {
            Entry::Defined(_, n, _) => n == name,
            _ => false,
        };
        match self.compressed.get(&id).copied() {
            Some(i) if name.is_empty() || same(i) => Ok(Ok(i)),
            _ => {
                let (kind, hash) = if name.is_empty() {
                    (Kind::External, 0)
                } else {
                    (Kind::Defined, name_hash(name.as_bytes()))
                };
                let i = self.push((kind, id), &name, hash, at)?;
                self.compressed.insert(id, i);
                Ok(Ok(i))
            }
        }
    }
}

/// What a `Space` held.
#[derive(Clone, Copy, Debug, Default)]
struct SpaceRoom {
    entries: usize,
    text: usize,
    literal: usize,
    compressed: usize,
}

/// What a chunk's `Tables` held at its end. A thread makes the next
/// chunk's tables that large from the start (the chunks of a file are
/// alike): they are not grown a doubling at a time, each growth hashing
/// every name again, and they take the place the last chunk's freed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Room {
    spaces: [SpaceRoom; 3],
    functions: usize,
}

/// A chunk's names and functions, each function a (name, file, object)
/// triple of local indexes, numbered in the order they were first seen.
#[derive(Debug)]
pub struct Tables {
    pub objects: Space,
    pub files: Space,
    pub names: Space,
    pub functions: Vec<(u32, u32, u32)>,
    fn_index: FunctionIndex,
}

impl Default for Tables {
    fn default() -> Self {
        Tables {
            objects: Space::inheriting(),
            files: Space::inheriting(),
            names: Space::default(),
            functions: Vec::new(),
            fn_index: FunctionIndex::default(),
        }
    }
}

impl Tables {
    /// Tables with room for what `room` says.
    pub fn with_room(room: Room) -> Self {
        let mut tables = Tables::default();
        let [objects, files, names] = room.spaces;
        tables.objects.reserve(objects);
        tables.files.reserve(files);
        tables.names.reserve(names);
        tables.functions.reserve(room.functions);
        tables.fn_index.reserve_names(names.entries, names.entries);
        tables
    }

    /// What these tables hold, for the next chunk's `with_room`.
    pub fn room(&self) -> Room {
        Room {
            spaces: [self.objects.room(), self.files.room(), self.names.room()],
            functions: self.functions.len(),
        }
    }

    pub fn function(&mut self, name: u32, file: u32, obj: u32) -> u32 {
        let key = (name, file, obj);
        if let Some(id) = self.fn_index.find(name, &key, &self.functions) {
            return id;
        }
        let id = self.functions.len() as u32;
        self.functions.push(key);
        self.fn_index.insert(name, id, &self.functions);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Resolves `value` at line `line` (its offset ten times that); what
    /// cannot be read, or gives up, is the error.
    fn at(s: &mut Space, value: &[u8], line: usize) -> Result<u32, &'static str> {
        let at = At {
            offset: line as u64 * 10,
            line,
        };
        s.resolve(value, at).map_err(|Bail(why)| why)?
    }

    #[test]
    fn names_resolve_to_first_sight_order() {
        let mut s = Space::inheriting();
        assert_eq!(at(&mut s, b"(3) a.c", 1).ok(), Some(1));
        assert_eq!(at(&mut s, b"(3)", 2).ok(), Some(1));
        assert_eq!(at(&mut s, b"(3) a.c", 3).ok(), Some(1), "same name again");
        assert_eq!(at(&mut s, b"(7)", 4).ok(), Some(2));
        assert_eq!(at(&mut s, b"b.c", 5).ok(), Some(3));
        assert_eq!(at(&mut s, b"b.c", 6).ok(), Some(3));
        assert_eq!(
            (0..s.len()).map(|i| s.entry(i)).collect::<Vec<_>>(),
            vec![
                Entry::Inherited,
                Entry::Defined(3, "a.c", name_hash(b"a.c")),
                Entry::External(7),
                Entry::Literal("b.c", name_hash(b"b.c"))
            ]
        );
    }

    #[test]
    fn a_name_given_again_is_a_new_entry_from_there_on() {
        let mut s = Space::default();
        let used = at(&mut s, b"(7)", 1).unwrap();
        let named = at(&mut s, b"(7) late.c", 2).unwrap();
        assert_ne!(named, used, "named after its use");
        assert_eq!(at(&mut s, b"(7)", 3), Ok(named));
        let x = at(&mut s, b"(8) x", 4).unwrap();
        let y = at(&mut s, b"(8) y", 5).unwrap();
        assert_ne!(x, y, "named again with another name");
        assert_eq!(at(&mut s, b"(8)", 6), Ok(y));
        let first_at = |i: u32| s.first_at(i as usize);
        assert_eq!((first_at(used).line, first_at(named).offset), (1, 20));
        assert_eq!(
            first_at(y),
            At {
                offset: 50,
                line: 5
            }
        );
        let overflow = at(&mut s, b"(99999999999999999999999) x", 7);
        assert_eq!(overflow, Err(messages::NAME_ID_BEYOND_64_BITS));
    }
}
