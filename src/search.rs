//! Fuzzy search over function names, behind the small `Matcher` trait
//! (fuzzy-matcher's `SkimMatcherV2` by default), with our own ranking:
//! an exact name first, then whole-substring matches at a word start, then
//! other substring matches, then scattered matches by fuzzy score; ties
//! keep the tie-break order given (by cost). Must not import `tui`, ratatui
//! or crossterm.
//!
//! Speed (a million names, every keystroke in a few milliseconds):
//! - the index keeps no text: the names are read where their owner keeps
//!   them (`Texts`; the browser's profile), and the index holds two 64-bit
//!   masks a name, of the characters it contains and of those that start
//!   a word, so that a name lacking a character of the query is rejected
//!   with one AND before any byte of it is read, and the first key typed
//!   is answered from the masks alone;
//! - a scan is split over the cores; a byte subsequence test comes first,
//!   then a substring test, and only scattered matches are scored by the
//!   fuzzy matcher (at most `SCORE_LIMIT` of them, else they keep the
//!   tie-break order);
//! - the results of each query prefix typed are kept (`levels`): a query
//!   that extends one filters its matches only, and Backspace goes back to
//!   the shorter query's results without scanning.

mod quality;
mod scan;
mod texts;

use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;
use scan::{Found, Matches};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
pub use texts::{Owned, Texts};

/// Above this many scattered matches, they are ranked by cost alone.
pub const SCORE_LIMIT: usize = 5_000;

/// A fuzzy scorer: higher is better; `None` when `query` does not match.
pub trait Matcher: Sync {
    fn score(&self, text: &str, query: &str) -> Option<i64>;
    /// Char indexes of `text` that the query matched, for highlighting.
    fn indices(&self, text: &str, query: &str) -> Option<Vec<usize>>;
    /// The score and the char indexes together.
    fn scored(&self, text: &str, query: &str) -> Option<(i64, Vec<usize>)> {
        Some((self.score(text, query)?, self.indices(text, query)?))
    }
}

/// fuzzy-matcher's skim V2 algorithm with smart case.
pub struct Skim(SkimMatcherV2);

impl Default for Skim {
    fn default() -> Self {
        Skim(SkimMatcherV2::default().smart_case())
    }
}

impl Matcher for Skim {
    fn score(&self, text: &str, query: &str) -> Option<i64> {
        self.0.fuzzy_match(text, query)
    }

    fn indices(&self, text: &str, query: &str) -> Option<Vec<usize>> {
        self.0.fuzzy_indices(text, query).map(|(_, i)| i)
    }

    fn scored(&self, text: &str, query: &str) -> Option<(i64, Vec<usize>)> {
        self.0.fuzzy_indices(text, query)
    }
}

/// How well a name matches; lower ranks first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    Exact,
    WordStart,
    Substring,
    Scattered,
}

/// One query typed, with what it matched.
struct Level {
    query: String,
    /// Matching ids in id order (the candidates of a longer query), and
    /// where the greedy match of the query ended in each; both empty when
    /// the masks alone found the matches (a first key), which they find
    /// again for a longer query at no more cost than reading a list.
    pool: Vec<u32>,
    ends: Vec<u16>,
    masks_only: bool,
    /// The same ids, ranked.
    results: Vec<u32>,
    /// How many of `results` come before the weak matches (`quality`),
    /// or all of them once the user asked for those.
    strong: usize,
}

/// The names' index, or the thread building it: the browser draws its
/// first screen while a million names are indexed, and waits for them only
/// if a search comes first.
struct Index {
    ready: OnceLock<scan::Names>,
    building: Mutex<Option<JoinHandle<scan::Names>>>,
    /// The names, for indexing them here if the thread is gone.
    texts: Arc<dyn Texts>,
    /// How many names it holds (known before they are indexed).
    len: usize,
}

impl Index {
    fn get(&self) -> &scan::Names {
        let names = self.ready.get_or_init(|| {
            let building = self.building.lock().map(|mut b| b.take());
            match building.unwrap_or_else(|poisoned| poisoned.into_inner().take()) {
                Some(thread) => thread
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e)),
                None => scan::Names::new(self.texts.clone()),
            }
        });
        debug_assert_eq!(names.len(), self.len, "as many names as said");
        names
    }
}

/// Names to search, each with an id the caller understands, and the
/// results of the query and of the prefixes typed before it.
pub struct Search<M: Matcher = Skim> {
    matcher: M,
    names: Index,
    /// Ids in tie-break order (ids left out are not searched), and each
    /// id's position in it (`u32::MAX` when left out); empty until the
    /// first query or `set_order` (then id order unless set).
    order: Vec<u32>,
    ranks: Vec<u32>,
    ordered: bool,
    /// A chain of queries, each a prefix of the next; the last is current.
    levels: Vec<Level>,
}

impl Search<Skim> {
    /// A search over names it keeps itself (`Owned`).
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Self {
        Self::with_matcher(names, Skim::default())
    }

    /// A search over the names of `texts`, read where `texts` keeps them,
    /// their masks made on another thread.
    pub fn in_background(texts: Arc<dyn Texts>) -> Self {
        let len = texts.len();
        let theirs = texts.clone();
        let thread = std::thread::Builder::new().name("cgtui-search".into());
        let (ready, building) = match thread.spawn(move || scan::Names::new(theirs)) {
            Ok(thread) => (OnceLock::new(), Some(thread)),
            // No thread: the masks are made at once.
            Err(_) => (OnceLock::from(scan::Names::new(texts.clone())), None),
        };
        let index = Index {
            ready,
            building: Mutex::new(building),
            texts,
            len,
        };
        Self::with_index(index, Skim::default())
    }
}

impl<M: Matcher> Search<M> {
    pub fn with_matcher<S: AsRef<str>>(names: impl IntoIterator<Item = S>, matcher: M) -> Self {
        let texts: Arc<dyn Texts> = Arc::new(Owned::new(names));
        let names = scan::Names::new(texts.clone());
        let len = names.len();
        let index = Index {
            ready: OnceLock::from(names),
            building: Mutex::new(None),
            texts,
            len,
        };
        Self::with_index(index, matcher)
    }

    fn with_index(names: Index, matcher: M) -> Self {
        Search {
            matcher,
            names,
            order: Vec::new(),
            ranks: Vec::new(),
            ordered: false,
            levels: Vec::new(),
        }
    }

    /// Sets the tie-break order (ids, e.g. by cost; ids left out are not
    /// searched) and runs the current query again.
    pub fn set_order(&mut self, order: Vec<u32>) {
        self.take_order(order);
        let query = self.query().to_string();
        self.levels.clear();
        self.set_query(&query);
    }

    /// Keeps `order` (its first place of each id) and each id's rank in
    /// it, the old ones freed first: on a million names each is 4 MB.
    fn take_order(&mut self, mut order: Vec<u32>) {
        (self.order, self.ranks) = (Vec::new(), Vec::new());
        let mut ranks = vec![u32::MAX; self.names.len];
        let mut kept = 0;
        order.retain(|&id| match ranks.get_mut(id as usize) {
            Some(r) if *r == u32::MAX => {
                *r = kept;
                kept += 1;
                true
            }
            _ => false,
        });
        self.order = order;
        self.ranks = ranks;
        self.ordered = true;
    }

    pub fn query(&self) -> &str {
        self.levels.last().map_or("", |l| l.query.as_str())
    }

    /// Ranked matches of the current query (ids).
    pub fn results(&self) -> &[u32] {
        self.levels.last().map_or(&[], |l| l.results.as_slice())
    }

    /// The matches to list: all but the weak ones until the user asks for
    /// them (`show_weaker`), or all where every match is weak.
    pub fn shown(&self) -> &[u32] {
        match self.levels.last() {
            Some(l) if l.strong > 0 => &l.results[..l.strong],
            _ => self.results(),
        }
    }

    /// How many weak matches `shown` leaves out.
    pub fn weaker_hidden(&self) -> usize {
        self.results().len() - self.shown().len()
    }

    /// Lists the weak matches too, until the query changes.
    pub fn show_weaker(&mut self) {
        if let Some(l) = self.levels.last_mut() {
            l.strong = l.results.len();
        }
    }

    /// Name `i` as searched.
    pub fn name(&self, i: u32) -> String {
        self.names.get().name(i, &mut String::new()).to_string()
    }

    /// Runs `query`: from the results of the longest prefix of it typed
    /// before, or at once when it was typed before (Backspace).
    pub fn set_query(&mut self, query: &str) {
        let query: String = query.chars().filter(|&c| c != '\0').collect();
        let keep = self
            .levels
            .iter()
            .rposition(|l| query.starts_with(l.query.as_str()))
            .map_or(0, |i| i + 1);
        self.levels.truncate(keep);
        if query.is_empty() || self.query() == query {
            if query.is_empty() {
                self.levels.clear();
            }
            return;
        }
        if !self.ordered {
            self.take_order((0..self.names.len as u32).collect());
        }
        let sensitive = |q: &str| q.chars().any(char::is_uppercase);
        let among = match self.levels.last() {
            Some(prev) if !prev.masks_only => Matches::Refine {
                ids: &prev.pool,
                ends: &prev.ends,
                // Greedy ends found ignoring case do not hold with case.
                matched: if sensitive(&prev.query) == sensitive(&query) {
                    prev.query.len()
                } else {
                    0
                },
            },
            // A query longer than a first key has that key's class in its
            // mask: the masks find the first key's matches again.
            _ => Matches::All,
        };
        let mut found = self.names.get().scan(among, &query, &self.ranks);
        let (pool, ends, masks_only) = (
            std::mem::take(&mut found.pool),
            std::mem::take(&mut found.ends),
            found.masks_only,
        );
        let (results, strong) = self.rank(found, &query);
        self.levels.push(Level {
            query,
            pool,
            ends,
            masks_only,
            results,
            strong,
        });
        self.forget_old_levels();
    }

    /// Orders each tier by the tie-break order, scores scattered matches
    /// and puts the weak ones last; the ranked ids, and how many come
    /// before the weak ones (unscored scattered matches, beyond
    /// `SCORE_LIMIT`, are all weak).
    fn rank(&self, found: Found, query: &str) -> (Vec<u32>, usize) {
        let tiers = found.tiers;
        let [a, b, c, scattered] = scan::by_rank(tiers, &self.order, &self.ranks);
        let scattered = if scattered.len() <= SCORE_LIMIT {
            let names = self.names.get();
            // Weak matches after the strong ones, each by score.
            let score = |ids: &[u32]| -> Vec<((bool, i64), u32)> {
                let mut buf = String::new();
                ids.iter()
                    .map(|&i| {
                        let name = names.name(i, &mut buf);
                        let key = match self.matcher.scored(name, query) {
                            Some((s, at)) => (!quality::is_strong(name, &at), s),
                            None => (true, i64::MIN),
                        };
                        (key, i)
                    })
                    .collect()
            };
            let mut scored = if scattered.len() < 256 {
                score(&scattered)
            } else {
                let half = scattered.len() / 2;
                let (a, b) = scattered.split_at(half);
                std::thread::scope(|s| {
                    let other = s.spawn(|| score(b));
                    let mut scored = score(a);
                    scored.extend(other.join().unwrap_or_else(|_| score(b)));
                    scored
                })
            };
            // Stable: equal scores keep the tie-break order.
            scored.sort_by_key(|&((weak, s), _)| (weak, std::cmp::Reverse(s)));
            let strong = scored.iter().take_while(|((weak, _), _)| !weak).count();
            (scored.into_iter().map(|(_, i)| i).collect(), strong)
        } else {
            (scattered, 0)
        };
        let (scattered, strong_scattered) = scattered;
        let strong = a.len() + b.len() + c.len() + strong_scattered;
        let mut results = Vec::with_capacity(strong + scattered.len());
        for tier in [a, b, c, scattered] {
            results.extend(tier);
        }
        (results, strong)
    }

    /// Keeps the stored results within a few times the number of names:
    /// the shortest prefixes go first (they are the largest).
    fn forget_old_levels(&mut self) {
        let budget = (4 * self.names.len).max(1 << 20);
        let size = |l: &Level| l.pool.len() + l.results.len();
        let mut used: usize = self.levels.iter().map(size).sum();
        while used > budget && self.levels.len() > 1 {
            used = used.saturating_sub(size(&self.levels[0]));
            self.levels.remove(0);
        }
    }

    /// How `name` matches the current query, or `None`.
    pub fn tier(&self, name: &str) -> Option<Tier> {
        let (hay, q) = self.folded(name);
        scan::tier(hay.as_bytes(), &memchr::memmem::Finder::new(q.as_bytes()))
    }

    /// Char indexes of `name` to highlight for the current query: the
    /// substring when there is one, else the fuzzy matcher's positions.
    pub fn highlight(&self, name: &str) -> Vec<usize> {
        if self.query().is_empty() {
            return Vec::new();
        }
        let (hay, q) = self.folded(name);
        if let Some(at) = hay.find(q.as_str()) {
            let start = hay[..at].chars().count();
            return (start..start + q.chars().count()).collect();
        }
        self.matcher.indices(name, self.query()).unwrap_or_default()
    }

    /// `name` and the query, both lowercased unless the query has capitals.
    fn folded(&self, name: &str) -> (String, String) {
        let query = self.query().to_string();
        if query.chars().any(char::is_uppercase) {
            (name.to_string(), query)
        } else {
            (name.to_ascii_lowercase(), query)
        }
    }
}

#[cfg(test)]
mod tests;
