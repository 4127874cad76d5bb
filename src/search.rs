//! Fuzzy search over function names, behind the small `Matcher` trait
//! (fuzzy-matcher's `SkimMatcherV2` by default), with our own ranking:
//! an exact name first, then whole-substring matches at a word start, then
//! other substring matches, then scattered matches by fuzzy score; ties
//! keep the order of the candidates given (by cost). Must not import `tui`,
//! ratatui or crossterm.
//!
//! Speed: names are lowercased once; a query that extends the previous one
//! only re-filters the previous matches; a plain byte subsequence test
//! rejects non-matches before any scoring, substring matches need no fuzzy
//! score at all, and scattered matches are scored by the fuzzy matcher only
//! while there are at most `SCORE_LIMIT` of them (else they keep cost order).

use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;

/// Above this many scattered matches, they are ranked by cost alone.
pub const SCORE_LIMIT: usize = 20_000;

/// A fuzzy scorer: higher is better; `None` when `query` does not match.
pub trait Matcher {
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

/// Names to search, each with an id the caller understands, and the state
/// of the last query (for incremental refinement).
pub struct Search<M: Matcher = Skim> {
    matcher: M,
    /// By id.
    names: Vec<Box<str>>,
    /// Ids in tie-break (cost) order; scans go through positions in it.
    order: Vec<u32>,
    /// The names, and lowercased, back to back in `order`, so that a scan
    /// reads memory in sequence; `ends[pos]` is where name `pos` ends.
    blob: Vec<u8>,
    lower: Vec<u8>,
    ends: Vec<usize>,
    query: String,
    /// Positions (in `order`) matching `query` as a subsequence.
    pool: Vec<u32>,
    /// Ranked ids.
    results: Vec<u32>,
}

impl Search<Skim> {
    pub fn new(names: Vec<Box<str>>) -> Self {
        Self::with_matcher(names, Skim::default())
    }
}

impl<M: Matcher> Search<M> {
    pub fn with_matcher(names: Vec<Box<str>>, matcher: M) -> Self {
        let order = (0..names.len() as u32).collect();
        let mut search = Search {
            matcher,
            names,
            order: Vec::new(),
            blob: Vec::new(),
            lower: Vec::new(),
            ends: Vec::new(),
            query: String::new(),
            pool: Vec::new(),
            results: Vec::new(),
        };
        search.set_order(order);
        search
    }

    /// Sets the tie-break order (ids, e.g. by cost; ids left out are not
    /// searched) and runs the current query again.
    pub fn set_order(&mut self, order: Vec<u32>) {
        let order: Vec<u32> = order
            .into_iter()
            .filter(|&i| (i as usize) < self.names.len())
            .collect();
        self.blob.clear();
        self.ends.clear();
        for &i in &order {
            self.blob
                .extend_from_slice(self.names[i as usize].as_bytes());
            self.ends.push(self.blob.len());
        }
        self.lower = self.blob.to_ascii_lowercase();
        self.order = order;
        let query = std::mem::take(&mut self.query);
        self.pool.clear();
        self.set_query(&query);
    }

    pub fn query(&self) -> &str {
        &self.query
    }

    /// Ranked matches of the current query (ids).
    pub fn results(&self) -> &[u32] {
        &self.results
    }

    pub fn name(&self, i: u32) -> &str {
        self.names.get(i as usize).map_or("", |n| n)
    }

    /// Runs `query`; incremental when it extends the previous query.
    pub fn set_query(&mut self, query: &str) {
        if query.is_empty() {
            self.query.clear();
            self.pool.clear();
            self.results.clear();
            return;
        }
        let extends = !self.query.is_empty() && query.starts_with(self.query.as_str());
        let candidates = if extends {
            std::mem::take(&mut self.pool)
        } else {
            (0..self.order.len() as u32).collect()
        };
        let sensitive = query.chars().any(char::is_uppercase);
        let bytes = if sensitive { &self.blob } else { &self.lower };
        let q = query.as_bytes();
        let finder = memchr::memmem::Finder::new(q);
        let mut tiers: [Vec<u32>; 3] = Default::default();
        let mut scattered = Vec::new();
        let mut pool = Vec::with_capacity(candidates.len());
        for pos in candidates {
            let p = pos as usize;
            let start = if p == 0 { 0 } else { self.ends[p - 1] };
            let hay = &bytes[start..self.ends[p]];
            let id = self.order[p];
            // A substring is a subsequence too: test the cheaper one first.
            match finder.find(hay) {
                Some(_) if hay.len() == q.len() => tiers[0].push(id),
                Some(at) if word_start(hay, at, &finder) => tiers[1].push(id),
                Some(_) => tiers[2].push(id),
                None if is_subsequence(q, hay) => scattered.push(id),
                None => continue,
            }
            pool.push(pos);
        }
        if scattered.len() <= SCORE_LIMIT {
            let mut scored: Vec<(i64, u32)> = scattered
                .iter()
                .map(|&i| {
                    let s = self.matcher.score(&self.names[i as usize], query);
                    (s.unwrap_or(i64::MIN), i)
                })
                .collect();
            // Stable: equal scores keep the candidates' (cost) order.
            scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
            scattered = scored.into_iter().map(|(_, i)| i).collect();
        }
        let [a, b, c] = tiers;
        let mut results = a;
        results.extend(b);
        results.extend(c);
        results.extend(scattered);
        self.results = results;
        self.pool = pool;
        self.query = query.to_string();
    }

    /// How `name` matches the current query, or `None`.
    pub fn tier(&self, name: &str) -> Option<Tier> {
        let (hay, q) = self.folded(name);
        let finder = memchr::memmem::Finder::new(q.as_bytes());
        match finder.find(hay.as_bytes()) {
            Some(_) if hay.len() == q.len() => Some(Tier::Exact),
            Some(at) if word_start(hay.as_bytes(), at, &finder) => Some(Tier::WordStart),
            Some(_) => Some(Tier::Substring),
            None => is_subsequence(q.as_bytes(), hay.as_bytes()).then_some(Tier::Scattered),
        }
    }

    /// Char indexes of `name` to highlight for the current query: the
    /// substring when there is one, else the fuzzy matcher's positions.
    pub fn highlight(&self, name: &str) -> Vec<usize> {
        if self.query.is_empty() {
            return Vec::new();
        }
        let (hay, q) = self.folded(name);
        if let Some(at) = hay.find(q.as_str()) {
            let start = hay[..at].chars().count();
            return (start..start + q.chars().count()).collect();
        }
        self.matcher.indices(name, &self.query).unwrap_or_default()
    }

    /// `name` and the query, both lowercased unless the query has capitals.
    fn folded(&self, name: &str) -> (String, String) {
        if self.query.chars().any(char::is_uppercase) {
            (name.to_string(), self.query.clone())
        } else {
            (name.to_ascii_lowercase(), self.query.clone())
        }
    }
}

/// Whether the bytes of `needle` occur in `hay` in order.
fn is_subsequence(needle: &[u8], hay: &[u8]) -> bool {
    let mut rest = hay;
    for &b in needle {
        match memchr::memchr(b, rest) {
            Some(at) => rest = &rest[at + 1..],
            None => return false,
        }
    }
    true
}

/// Whether some occurrence of the needle (the first at `first`) begins a
/// word: at the start, or after a character that is not alphanumeric.
fn word_start(hay: &[u8], first: usize, finder: &memchr::memmem::Finder<'_>) -> bool {
    let starts = |at: usize| at == 0 || !hay[at - 1].is_ascii_alphanumeric();
    starts(first)
        || finder
            .find_iter(&hay[first + 1..])
            .any(|at| starts(first + 1 + at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(names: &[&str]) -> Search {
        Search::new(names.iter().map(|&n| n.into()).collect())
    }

    fn ranked(s: &Search) -> Vec<&str> {
        s.results().iter().map(|&i| s.name(i)).collect()
    }

    #[test]
    fn substring_matches_rank_above_scattered_ones() {
        // Cost order is the given order: the scattered one is the costliest.
        let mut s = search(&["f_i_b_scattered", "calc_fib", "fibonacci", "fib", "xfibx"]);
        s.set_query("fib");
        assert_eq!(
            ranked(&s),
            ["fib", "calc_fib", "fibonacci", "xfibx", "f_i_b_scattered"]
        );
        assert_eq!(s.tier("f_i_b_scattered"), Some(Tier::Scattered));
        assert_eq!(s.tier("nothing"), None);
    }

    #[test]
    fn incremental_query_gives_the_same_results_as_a_fresh_one() {
        let names = ["main", "fib", "fibonacci", "is_even", "is_odd", "cycle_a"];
        let mut inc = search(&names);
        for q in ["i", "is", "is_", "is_e"] {
            inc.set_query(q);
        }
        let mut fresh = search(&names);
        fresh.set_query("is_e");
        assert_eq!(ranked(&inc), ranked(&fresh));
        assert_eq!(ranked(&inc), ["is_even"]);
        inc.set_query("is");
        assert_eq!(ranked(&inc), ["is_even", "is_odd"]);
    }

    #[test]
    fn smart_case_and_highlight() {
        let mut s = search(&["Foo::bar", "foo_bar"]);
        s.set_query("Foo");
        assert_eq!(ranked(&s), ["Foo::bar"]);
        s.set_query("bar");
        assert_eq!(s.highlight("Foo::bar"), vec![5, 6, 7]);
        s.set_query("fb");
        assert_eq!(s.highlight("foo_bar"), vec![0, 4]);
    }
}
