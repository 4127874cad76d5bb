//! Fuzzy search over function names, behind the small `Matcher` trait
//! (fuzzy-matcher's `SkimMatcherV2` by default), with our own ranking:
//! an exact name first, then whole-substring matches at a word start, then
//! other substring matches, then scattered matches by fuzzy score; ties
//! keep the tie-break order given (by cost). Must not import `tui`, ratatui
//! or crossterm.
//!
//! Speed (a million names, every keystroke in a few milliseconds):
//! - the names are stored back to back in id order, as typed and
//!   lowercased, each with a 64-bit mask of the characters it contains, so
//!   that a name lacking a character of the query is rejected with one AND
//!   before any byte of it is read;
//! - a scan reads memory in sequence and is split over the cores; a plain
//!   substring test comes first, a byte subsequence test next, and only
//!   scattered matches are scored by the fuzzy matcher (at most
//!   `SCORE_LIMIT` of them, else they keep the tie-break order);
//! - the results of each query prefix typed are kept (`levels`): a query
//!   that extends one filters its matches only, and Backspace goes back to
//!   the shorter query's results without scanning.

mod scan;

use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;
use scan::{Found, Matches};
use std::sync::{Mutex, OnceLock};
use std::thread::JoinHandle;

/// Above this many scattered matches, they are ranked by cost alone.
pub const SCORE_LIMIT: usize = 5_000;

/// A fuzzy scorer: higher is better; `None` when `query` does not match.
pub trait Matcher: Sync {
    fn score(&self, text: &str, query: &str) -> Option<i64>;
    /// Char indexes of `text` that the query matched, for highlighting.
    fn indices(&self, text: &str, query: &str) -> Option<Vec<usize>>;
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
    /// where the greedy match of the query ended in each.
    pool: Vec<u32>,
    ends: Vec<u16>,
    /// The same ids, ranked.
    results: Vec<u32>,
}

/// The names' index, or the thread building it: the browser draws its
/// first screen while a million names are indexed, and waits for them only
/// if a search comes first.
struct Index {
    ready: OnceLock<scan::Names>,
    building: Mutex<Option<JoinHandle<scan::Names>>>,
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
                None => scan::Names::new([""; 0]),
            }
        });
        debug_assert_eq!(names.len(), self.len, "as many names as said");
        names
    }
}

/// The names `feed` gives, the first time it is asked (none after).
fn index_once<F: FnOnce(&mut dyn FnMut(&str))>(feed: &Mutex<Option<F>>) -> scan::Names {
    let feed = feed.lock().map_or(None, |mut f| f.take());
    feed.map_or_else(|| scan::Names::new([""; 0]), scan::Names::fed)
}

/// Names to search, each with an id the caller understands, and the
/// results of the query and of the prefixes typed before it.
pub struct Search<M: Matcher = Skim> {
    matcher: M,
    names: Index,
    /// Ids in tie-break order (ids left out are not searched), and each
    /// id's position in it (`u32::MAX` when left out).
    order: Vec<u32>,
    ranks: Vec<u32>,
    /// A chain of queries, each a prefix of the next; the last is current.
    levels: Vec<Level>,
}

impl Search<Skim> {
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Self {
        Self::with_matcher(names, Skim::default())
    }

    /// A search over the `len` names that `feed` hands, in order, to the
    /// function it is given, indexed on another thread.
    pub fn in_background(
        len: usize,
        feed: impl FnOnce(&mut dyn FnMut(&str)) + Send + 'static,
    ) -> Self {
        // Taken back if no thread can be started: the names are then
        // indexed at once.
        let feed = std::sync::Arc::new(Mutex::new(Some(feed)));
        let theirs = feed.clone();
        let build = move || index_once(&theirs);
        let thread = std::thread::Builder::new().name("cgtui-search".into());
        let (ready, building) = match thread.spawn(build) {
            Ok(thread) => (OnceLock::new(), Some(thread)),
            Err(_) => (OnceLock::from(index_once(&feed)), None),
        };
        let index = Index {
            ready,
            building: Mutex::new(building),
            len,
        };
        Self::with_index(index, Skim::default())
    }
}

impl<M: Matcher> Search<M> {
    pub fn with_matcher<S: AsRef<str>>(names: impl IntoIterator<Item = S>, matcher: M) -> Self {
        let names = scan::Names::new(names);
        let len = names.len();
        let index = Index {
            ready: OnceLock::from(names),
            building: Mutex::new(None),
            len,
        };
        Self::with_index(index, matcher)
    }

    fn with_index(names: Index, matcher: M) -> Self {
        let n = names.len as u32;
        let mut search = Search {
            matcher,
            names,
            order: Vec::new(),
            ranks: Vec::new(),
            levels: Vec::new(),
        };
        search.set_order((0..n).collect());
        search
    }

    /// Sets the tie-break order (ids, e.g. by cost; ids left out are not
    /// searched) and runs the current query again.
    pub fn set_order(&mut self, order: Vec<u32>) {
        let n = self.names.len;
        let mut ranks = vec![u32::MAX; n];
        let mut kept = Vec::with_capacity(order.len().min(n));
        for id in order {
            if let Some(r) = ranks.get_mut(id as usize)
                && *r == u32::MAX
            {
                *r = kept.len() as u32;
                kept.push(id);
            }
        }
        self.order = kept;
        self.ranks = ranks;
        let query = self.query().to_string();
        self.levels.clear();
        self.set_query(&query);
    }

    pub fn query(&self) -> &str {
        self.levels.last().map_or("", |l| l.query.as_str())
    }

    /// Ranked matches of the current query (ids).
    pub fn results(&self) -> &[u32] {
        self.levels.last().map_or(&[], |l| l.results.as_slice())
    }

    pub fn name(&self, i: u32) -> &str {
        self.names.get().name(i)
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
        let sensitive = |q: &str| q.chars().any(char::is_uppercase);
        let among = match self.levels.last() {
            Some(prev) => Matches::Refine {
                ids: &prev.pool,
                ends: &prev.ends,
                // Greedy ends found ignoring case do not hold with case.
                matched: if sensitive(&prev.query) == sensitive(&query) {
                    prev.query.len()
                } else {
                    0
                },
            },
            None => Matches::All,
        };
        let mut found = self.names.get().scan(among, &query, &self.ranks);
        let (pool, ends) = (
            std::mem::take(&mut found.pool),
            std::mem::take(&mut found.ends),
        );
        let results = self.rank(found, &query);
        self.levels.push(Level {
            query,
            pool,
            ends,
            results,
        });
        self.forget_old_levels();
    }

    /// Orders each tier by the tie-break order, scores scattered matches.
    fn rank(&self, found: Found, query: &str) -> Vec<u32> {
        let tiers = found.tiers;
        let [a, b, c, scattered] = scan::by_rank(tiers, &self.order, &self.ranks);
        let scattered = if scattered.len() <= SCORE_LIMIT {
            let names = self.names.get();
            let score = |ids: &[u32]| -> Vec<(i64, u32)> {
                ids.iter()
                    .map(|&i| {
                        let s = self.matcher.score(names.name(i), query);
                        (s.unwrap_or(i64::MIN), i)
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
            scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
            scored.into_iter().map(|(_, i)| i).collect()
        } else {
            scattered
        };
        let mut results = a;
        results.extend(b);
        results.extend(c);
        results.extend(scattered);
        results
    }

    /// Keeps the stored results within a few times the number of names:
    /// the shortest prefixes go first (they are the largest).
    fn forget_old_levels(&mut self) {
        let budget = (4 * self.names.len).max(1 << 20);
        let mut used: usize = self.levels.iter().map(|l| 2 * l.pool.len()).sum();
        while used > budget && self.levels.len() > 1 {
            used = used.saturating_sub(2 * self.levels[0].pool.len());
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
