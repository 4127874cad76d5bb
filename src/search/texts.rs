//! Where a search reads its names: the caller's own text, by id. The
//! index keeps no copy of the names (a million C++ names are over 100 MB,
//! and the browser already holds them in its profile); it reads each one
//! where the caller keeps it, when a query gets that far. Pure data: no
//! I/O, no UI.

/// Names by id, `0..len()`, read from wherever their owner keeps them.
/// Called from several threads at once during a scan.
pub trait Texts: Send + Sync {
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Name `id` (empty past the end): borrowed from `self`, or written
    /// into `buf` (cleared first) when it is made of parts.
    fn text<'a>(&'a self, id: u32, buf: &'a mut String) -> &'a str;
}

/// Names given as strings, stored back to back: for searches over names
/// their caller does not keep (tests, benchmarks, small lists).
pub struct Owned {
    text: String,
    /// Where each name starts; one more entry for the end.
    starts: Vec<usize>,
}

impl Owned {
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Self {
        let mut owned = Owned {
            text: String::new(),
            starts: vec![0],
        };
        for name in names {
            owned.text.push_str(name.as_ref());
            owned.starts.push(owned.text.len());
        }
        owned
    }
}

impl Texts for Owned {
    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    fn text<'a>(&'a self, id: u32, _: &'a mut String) -> &'a str {
        let i = id as usize;
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&a), Some(&b)) => self.text.get(a..b).unwrap_or_default(),
            _ => "",
        }
    }
}
