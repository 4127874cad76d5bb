//! The scan behind `Search`: what it keeps of each name (a character mask
//! and a word-start mask, no text: the names are read where their owner
//! keeps them, `Texts`), the match test of one name (a greedy byte
//! subsequence, carried on from where the shorter query's ended, then the
//! substring tiers), the scan of many names split over the cores, and the
//! ordering of matches by a tie-break rank. Pure computation: no I/O, no UI.

use super::Tier;
use super::texts::Texts;
use memchr::memmem::Finder;
use std::sync::Arc;

/// Below this many candidates a scan stays on one thread.
const PARALLEL_FROM: usize = 1 << 16;

/// Set in a name's word mask when the name is one byte long (an exact
/// match of the first key typed): the word bits are those of letters and
/// digits, below 36.
const ONE_BYTE: u64 = 1 << 63;

/// The names, by id: their text where the caller keeps it, and 16 bytes
/// each of our own.
pub struct Names {
    texts: Arc<dyn Texts>,
    /// Each name's `mask` (case folded), and the mask of the letters and
    /// digits it has at a word start (with `ONE_BYTE`).
    masks: Vec<u64>,
    word_masks: Vec<u64>,
}

/// Which names a scan looks at.
#[derive(Clone, Copy)]
pub enum Matches<'a> {
    All,
    /// The matches of a shorter query this one extends: ids in increasing
    /// order, and where in each name the greedy match of the first
    /// `matched` bytes of the query ended (`u16::MAX`: not known).
    Refine {
        ids: &'a [u32],
        ends: &'a [u16],
        matched: usize,
    },
}

/// What a scan found, in id order.
#[derive(Default)]
pub struct Found {
    /// Every match, and where the greedy match of the query ended in it.
    pub pool: Vec<u32>,
    pub ends: Vec<u16>,
    /// The matches of each tier (`Tier as usize`).
    pub tiers: [Vec<u32>; 4],
    /// Found by the masks alone (a first key): `pool` and `ends` are left
    /// empty, the masks find the same names again.
    pub masks_only: bool,
}

/// The query, ready to test names with.
struct Test<'a> {
    /// Names are compared as written (the query has capitals), else
    /// lowercased (ASCII only, as smart case needs).
    sensitive: bool,
    finder: Finder<'a>,
    mask: u64,
    ranks: &'a [u32],
    /// Query bytes already matched at the ends given with the candidates.
    matched: usize,
}

impl Names {
    /// The masks of every name of `texts`, read once, in id order.
    pub fn new(texts: Arc<dyn Texts>) -> Self {
        let n = texts.len();
        let (mut masks, mut word_masks) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut buf = String::new();
        for id in 0..n {
            let name = texts.text(id as u32, &mut buf).as_bytes();
            let (all, word) = masks_of(name);
            masks.push(all);
            word_masks.push(if name.len() == 1 {
                word | ONE_BYTE
            } else {
                word
            });
        }
        Names {
            texts,
            masks,
            word_masks,
        }
    }

    pub fn len(&self) -> usize {
        self.masks.len()
    }

    /// Name `i`, borrowed from its owner or written into `buf`.
    pub fn name<'a>(&'a self, i: u32, buf: &'a mut String) -> &'a str {
        if (i as usize) < self.len() {
            self.texts.text(i, buf)
        } else {
            ""
        }
    }

    /// The names among `among` that match `query` (ids whose rank is
    /// `u32::MAX` are left out), on several threads when there are many.
    pub fn scan(&self, among: Matches<'_>, query: &str, ranks: &[u32]) -> Found {
        if let (Matches::All, &[b]) = (among, query.as_bytes())
            && (b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            return self.scan_class(class_bit(b), ranks);
        }
        let (count, matched) = match among {
            Matches::All => (self.len(), 0),
            Matches::Refine { ids, matched, .. } => (ids.len(), matched),
        };
        let test = Test {
            sensitive: query.chars().any(char::is_uppercase),
            finder: Finder::new(query.as_bytes()),
            mask: mask(query.as_bytes()),
            ranks,
            matched,
        };
        let threads = if count < PARALLEL_FROM {
            1
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
        };
        let chunk = count.div_ceil(threads).max(1);
        let run = |from: usize, to: usize| match among {
            Matches::All => {
                let ids = from as u32..to as u32;
                self.scan_part(&test, ids.map(|id| (id, 0)))
            }
            Matches::Refine { ids, ends, .. } => {
                let items = (from..to).filter_map(|k| {
                    let id = *ids.get(k)?;
                    Some((id, ends.get(k).copied().unwrap_or(u16::MAX)))
                });
                self.scan_part(&test, items)
            }
        };
        if threads == 1 {
            return run(0, count);
        }
        let parts: Vec<Found> = std::thread::scope(|s| {
            let run = &run;
            let handles: Vec<_> = (0..count)
                .step_by(chunk)
                .map(|from| s.spawn(move || run(from, (from + chunk).min(count))))
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        let mut all = Found::default();
        for part in parts {
            all.pool.extend(part.pool);
            all.ends.extend(part.ends);
            for (t, ids) in all.tiers.iter_mut().zip(part.tiers) {
                t.extend(ids);
            }
        }
        all
    }

    /// Every name with a letter or digit of class `bit`, case folded: the
    /// first key typed. The masks tell where it is, without reading names
    /// (no greedy ends: `masks_only`).
    fn scan_class(&self, bit: u64, ranks: &[u32]) -> Found {
        let mut found = Found {
            masks_only: true,
            ..Found::default()
        };
        let names = self.masks.iter().zip(&self.word_masks).zip(ranks);
        for (i, ((&m, &w), &r)) in names.enumerate() {
            if m & bit == 0 || r == u32::MAX {
                continue;
            }
            let tier = if w & ONE_BYTE != 0 {
                Tier::Exact
            } else if w & bit != 0 {
                Tier::WordStart
            } else {
                Tier::Substring
            };
            found.tiers[tier as usize].push(i as u32);
        }
        found
    }

    /// The candidates of `items` (ids, each with the end of its greedy
    /// match so far) that match. A name is read only when its mask allows
    /// a match, from where its owner keeps it (lowercased into a buffer of
    /// this scan's when the query is not case sensitive).
    fn scan_part(&self, test: &Test<'_>, items: impl Iterator<Item = (u32, u16)>) -> Found {
        let mut found = Found::default();
        let q = test.finder.needle();
        let (mut buf, mut lower) = (String::new(), Vec::new());
        for (id, prev) in items {
            let i = id as usize;
            let (Some(&m), Some(&r)) = (self.masks.get(i), test.ranks.get(i)) else {
                continue;
            };
            if r == u32::MAX || m & test.mask != test.mask {
                continue;
            }
            let text = self.texts.text(id, &mut buf).as_bytes();
            let hay = if test.sensitive {
                text
            } else {
                lower.clear();
                lower.extend_from_slice(text);
                lower.make_ascii_lowercase();
                &lower
            };
            let (from, rest) = match q.get(test.matched..) {
                Some(rest) if test.matched > 0 && prev != u16::MAX => (prev as usize, rest),
                _ => (0, q),
            };
            let Some(greedy) = subsequence_end(hay, from, rest) else {
                continue;
            };
            let tier = match test.finder.find(hay) {
                Some(at) => substring_tier(hay, at, &test.finder),
                None => Tier::Scattered,
            };
            found.pool.push(id);
            found.ends.push(u16::try_from(greedy).unwrap_or(u16::MAX));
            found.tiers[tier as usize].push(id);
        }
        found
    }
}

/// A bit per character class present in `bytes` (ASCII letters and digits
/// one each, case folded; other bytes share the remaining 28 bits): a name
/// can only match a query whose mask is inside its own.
fn mask(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |m, &b| m | class_bit(b))
}

/// `mask` of `bytes`, and that of the letters and digits that start a word
/// (see `starts_word`), in one pass: a million names are indexed at start.
fn masks_of(bytes: &[u8]) -> (u64, u64) {
    let (mut all, mut word, mut after_alphanumeric) = (0, 0, false);
    for &b in bytes {
        let bit = CLASS_BITS[b as usize];
        all |= bit;
        let alphanumeric = b.is_ascii_alphanumeric();
        if alphanumeric && !after_alphanumeric {
            word |= bit;
        }
        after_alphanumeric = alphanumeric;
    }
    (all, word)
}

/// `class_bit` of every byte.
const CLASS_BITS: [u64; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = class_bit(b as u8);
        b += 1;
    }
    table
};

const fn class_bit(b: u8) -> u64 {
    let bit = match b.to_ascii_lowercase() {
        c @ b'a'..=b'z' => c - b'a',
        c @ b'0'..=b'9' => 26 + c - b'0',
        c => 36 + c % 28,
    };
    1 << bit
}

/// Whether a word starts at `at`: the start, or after a character that is
/// not alphanumeric.
fn starts_word(hay: &[u8], at: usize) -> bool {
    at == 0 || hay.get(at - 1).is_some_and(|b| !b.is_ascii_alphanumeric())
}

/// How `hay` matches the needle of `finder`, or `None`.
pub fn tier(hay: &[u8], finder: &Finder<'_>) -> Option<Tier> {
    match finder.find(hay) {
        Some(at) => Some(substring_tier(hay, at, finder)),
        None => subsequence_end(hay, 0, finder.needle()).map(|_| Tier::Scattered),
    }
}

/// The tier of `hay`, whose first occurrence of the needle is at `first`.
fn substring_tier(hay: &[u8], first: usize, finder: &Finder<'_>) -> Tier {
    if hay.len() == finder.needle().len() {
        Tier::Exact
    } else if word_start(hay, first, finder) {
        Tier::WordStart
    } else {
        Tier::Substring
    }
}

/// Each tier's ids in tie-break order: as they are when already so, a sort
/// by rank for few matches, one pass over all ranks for many.
pub fn by_rank(tiers: [Vec<u32>; 4], order: &[u32], ranks: &[u32]) -> [Vec<u32>; 4] {
    let rank = |id: &u32| ranks.get(*id as usize).copied().unwrap_or(u32::MAX);
    let total: usize = tiers.iter().map(Vec::len).sum();
    let ordered = |t: &Vec<u32>| t.windows(2).all(|w| rank(&w[0]) < rank(&w[1]));
    if tiers.iter().all(ordered) {
        return tiers;
    }
    if total < order.len() / 16 {
        let mut tiers = tiers;
        for t in &mut tiers {
            t.sort_unstable_by_key(rank);
        }
        return tiers;
    }
    let mut marks = vec![0u8; order.len()];
    for (t, ids) in tiers.iter().enumerate() {
        for id in ids {
            if let Some(m) = marks.get_mut(rank(id) as usize) {
                *m = t as u8 + 1;
            }
        }
    }
    let mut out: [Vec<u32>; 4] = [0, 1, 2, 3].map(|t| Vec::with_capacity(tiers[t].len()));
    for (&m, &id) in marks.iter().zip(order) {
        if let Some(t) = (m as usize).checked_sub(1).and_then(|t| out.get_mut(t)) {
            t.push(id);
        }
    }
    out
}

/// Where the leftmost (greedy) match of `needle` as a subsequence of
/// `hay[from..]` ends (just past its last byte), or `None`.
fn subsequence_end(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let mut at = from;
    for &b in needle {
        at += 1 + memchr::memchr(b, hay.get(at..)?)?;
    }
    Some(at)
}

/// Whether some occurrence of the needle (the first at `first`) begins a
/// word: at the start, or after a character that is not alphanumeric.
fn word_start(hay: &[u8], first: usize, finder: &Finder<'_>) -> bool {
    starts_word(hay, first)
        || finder
            .find_iter(hay.get(first + 1..).unwrap_or_default())
            .any(|at| starts_word(hay, first + 1 + at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_masks_in_one_pass_are_those_of_their_definitions() {
        let names = [
            "",
            "a",
            "std::vector<int>::push_back(int&&)",
            "ÄbC d9 _x",
            "9lives",
            "::a::B",
        ];
        for name in names {
            let bytes = name.as_bytes();
            let words = (0..bytes.len())
                .filter(|&at| bytes[at].is_ascii_alphanumeric() && starts_word(bytes, at))
                .fold(0, |m, at| m | class_bit(bytes[at]));
            assert_eq!(masks_of(bytes), (mask(bytes), words), "{name}");
        }
    }
}
