//! The flat list's orders, one per (sort key, event), each computed once
//! per selection of parts and kept, so that `i`/`S`/`c`/`a` and `e`/`E`
//! only swap a list. On a large profile a background thread computes them
//! all right after loading (the current event's first); asking for one
//! that is being computed waits for it, one never being computed twice.
//! Ties are broken by name, then id, so every order is deterministic
//! whoever computes it: by the name ranks (`Names`) once they are known,
//! and before that, for the first screen, by comparing the tied names.

use super::{SortKey, lists, rows};
use crate::analysis::Analysis;
use crate::profile::{FnId, Profile};
use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// From this many functions the orders are computed in the background.
pub const BACKGROUND_FROM: usize = 20_000;

/// A list of functions in some order, shared with the worker.
pub type List = Arc<[FnId]>;

/// Runs of equal costs longer than this are put in name order by the
/// name ranks (waiting for them), shorter ones by comparing names: a
/// million functions of one cost sort far faster by rank.
const COMPARE_NAMES_UP_TO: usize = 4096;

/// The name order of a profile's functions, computed once, when first
/// needed (the first screen does not wait for it), and shared by every
/// `Orders` of the app.
#[derive(Clone)]
pub struct Names {
    profile: Arc<Profile>,
    /// Each function's position in name order (ties by id), and the
    /// functions in that order.
    order: Arc<OnceLock<(Vec<u32>, Vec<FnId>)>>,
}

impl Names {
    pub fn new(profile: Arc<Profile>) -> Self {
        Names {
            profile,
            order: Arc::default(),
        }
    }

    fn get(&self) -> &(Vec<u32>, Vec<FnId>) {
        self.order.get_or_init(|| lists::name_ranks(&self.profile))
    }

    /// A function's rank; cycles' rows after every function.
    fn rank(ranks: &[u32], f: FnId) -> u32 {
        ranks.get(f.index()).copied().unwrap_or(u32::MAX)
    }

    /// `a` against `b` by name, then id, without the ranks; cycles' rows
    /// after every function, as `rank` puts them.
    fn compare(&self, a: FnId, b: FnId) -> std::cmp::Ordering {
        let n = self.profile.functions.len();
        let name = |f: FnId| {
            (
                f.index() >= n,
                (f.index() < n).then(|| self.profile.fn_name(f)),
            )
        };
        name(a).cmp(&name(b)).then(a.cmp(&b))
    }
}

/// The orders of one `Analysis`.
pub struct Orders {
    shared: Arc<Shared>,
}

struct Shared {
    analysis: Arc<Analysis>,
    names: Names,
    /// Inclusive by event, self by event, calls, name.
    slots: Vec<OnceLock<List>>,
    /// Functions without cost or call in the selected parts, by id.
    inactive: OnceLock<List>,
    /// Set when the orders are dropped: the worker stops.
    cancel: AtomicBool,
}

impl Orders {
    /// The orders of `analysis`; `background` starts a worker computing
    /// them all, those of `event` first.
    pub fn new(analysis: Arc<Analysis>, names: Names, event: usize, background: bool) -> Self {
        let width = analysis.width;
        let shared = Arc::new(Shared {
            analysis,
            names,
            slots: (0..2 * width + 2).map(|_| OnceLock::new()).collect(),
            inactive: OnceLock::new(),
            cancel: AtomicBool::new(false),
        });
        if background {
            let worker = shared.clone();
            let spawned = std::thread::Builder::new()
                .name("cgtui-orders".into())
                .spawn(move || worker.compute_all(event));
            // Without a thread every order is computed when first needed.
            drop(spawned);
        }
        Orders { shared }
    }

    /// The active functions sorted by `sort` on `event`, ties by name.
    pub fn get(&self, sort: SortKey, event: usize) -> List {
        self.shared.get(sort, event)
    }

    /// Every function, by inclusive cost of `event` (ties by name), the
    /// inactive ones last: the tie-break order of search results.
    pub fn search_order(&self, event: usize) -> Vec<u32> {
        let active = self.shared.get(SortKey::Inclusive, event);
        let inactive = self.shared.inactive();
        active.iter().chain(inactive.iter()).map(|f| f.0).collect()
    }

    /// Computes (or waits for) every order: for benchmarks and tests.
    pub fn complete(&self) {
        self.shared.compute_all(0);
    }
}

impl Drop for Orders {
    fn drop(&mut self) {
        self.shared.cancel.store(true, Ordering::Relaxed);
    }
}

impl Shared {
    fn slot(&self, sort: SortKey, event: usize) -> usize {
        let w = self.analysis.width;
        let e = event.min(w.saturating_sub(1));
        match sort {
            // A metric column is ordered by `lists::by_metric`, from this.
            SortKey::Inclusive | SortKey::Column(_) => e,
            SortKey::SelfCost => w + e,
            SortKey::Calls => 2 * w,
            SortKey::Name => 2 * w + 1,
        }
    }

    fn get(&self, sort: SortKey, event: usize) -> List {
        match self.slots.get(self.slot(sort, event)) {
            Some(cell) => cell.get_or_init(|| self.sorted(sort, event)).clone(),
            None => self.sorted(sort, event),
        }
    }

    fn inactive(&self) -> List {
        self.inactive
            .get_or_init(|| {
                (0..self.analysis.function_count())
                    .map(FnId::from_index)
                    .filter(|&f| !self.analysis.is_active(f))
                    .collect()
            })
            .clone()
    }

    fn compute_all(&self, first: usize) {
        let w = self.analysis.width.max(1);
        let mut todo = vec![
            (SortKey::Inclusive, first),
            (SortKey::SelfCost, first),
            (SortKey::Calls, first),
            (SortKey::Name, first),
        ];
        for e in (first + 1..w).chain(0..first) {
            todo.extend([(SortKey::Inclusive, e), (SortKey::SelfCost, e)]);
        }
        for (i, (sort, event)) in todo.into_iter().enumerate() {
            if self.cancel.load(Ordering::Relaxed) {
                return;
            }
            self.get(sort, event);
            if i == 0 {
                // The first screen's order was sorted without the name
                // order (not to share the cores with it); the others use it.
                self.names.get();
                self.inactive();
            }
        }
    }

    /// Active functions and the cycles' rows sorted by `sort`
    /// (descending costs, or sizes of signed costs, and calls), ties by
    /// name, then id; by name, the
    /// cycles first (`<` sorts before letters), in number order.
    fn sorted(&self, sort: SortKey, event: usize) -> List {
        let a = &*self.analysis;
        let cycles = (0..a.cycles.len()).map(|c| rows::cycle_id(a, c));
        if sort == SortKey::Name {
            let by_name = &self.names.get().1;
            let active = by_name.iter().copied().filter(|&f| a.is_active(f));
            return cycles.chain(active).collect();
        }
        // In id order, which reads the analysis front to back; the sort
        // below decides the order.
        let active = (0..a.function_count())
            .map(FnId::from_index)
            .filter(|&f| a.is_active(f));
        // A column with negative costs (a difference) is ordered by size:
        // the biggest change first, gain or loss.
        let signed = a.is_signed(event);
        let at = |row: &[i64]| {
            let v = row.get(event).copied().unwrap_or(0);
            if signed { v.saturating_abs() } else { v }
        };
        let mut keyed: Vec<(i64, FnId)> = cycles
            .chain(active)
            .map(|f| {
                let key = match sort {
                    SortKey::Inclusive => at(rows::inclusive(a, f)),
                    SortKey::SelfCost => at(rows::self_cost(a, f)),
                    _ => i64::try_from(rows::called(a, f)).unwrap_or(i64::MAX),
                };
                (key, f)
            })
            .collect();
        if let Some((ranks, _)) = self.names.order.get() {
            keyed.sort_unstable_by_key(|&(key, f)| (Reverse(key), Names::rank(ranks, f), f));
        } else {
            keyed.sort_unstable_by_key(|&(key, f)| (Reverse(key), f));
            self.break_ties(&mut keyed);
        }
        keyed.into_iter().map(|(_, f)| f).collect()
    }

    /// Puts each run of equal keys (in id order) in name order.
    fn break_ties(&self, keyed: &mut [(i64, FnId)]) {
        for run in keyed.chunk_by_mut(|x, y| x.0 == y.0) {
            if run.len() > COMPARE_NAMES_UP_TO {
                let ranks = &self.names.get().0;
                run.sort_unstable_by_key(|&(_, f)| (Names::rank(ranks, f), f));
            } else if run.len() > 1 {
                run.sort_unstable_by(|x, y| self.names.compare(x.1, y.1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    /// Ties broken by comparing names (the first screen's order) and by
    /// the name ranks give the same order, cycles' rows included: a run
    /// of one cost longer than `COMPARE_NAMES_UP_TO`, short runs, and
    /// names some functions share.
    #[test]
    fn ties_by_compared_names_and_by_ranks_agree() {
        let mut text = String::from("events: A B\n");
        let n = COMPARE_NAMES_UP_TO + 3000;
        for i in 0..n {
            let cost = if i < COMPARE_NAMES_UP_TO + 100 {
                5
            } else {
                i % 9
            };
            // Every name once, not in id order.
            let name = format!("g{}", i * 7919 % n);
            let _ = writeln!(text, "fl=f.c\nfn={name}\n1 {cost} {}", i % 3);
            if i % 50 == 0 {
                // A cycle of two: calls both ways.
                let _ = writeln!(
                    text,
                    "cfn=h{i}\ncalls=1 1\n1 3 3\nfn=h{i}\n1 1 1\ncfn={name}\ncalls=1 1\n1 2 2"
                );
            }
        }
        // One name in many files, at one cost.
        for j in 0..200 {
            let _ = writeln!(text, "fl=d{j}.c\nfn=dup{}\n1 4 {}", j % 20, j % 2);
        }
        let profile = Arc::new(crate::parse::load_reader("t", text.as_bytes()).unwrap());
        let analysis = Arc::new(Analysis::new(&profile));
        assert!(!analysis.cycles.is_empty(), "cycles' rows are sorted too");
        let orders = Orders::new(analysis, Names::new(profile), 0, false);
        let shared = &orders.shared;
        let keys = [SortKey::Inclusive, SortKey::SelfCost, SortKey::Calls];
        let compared: Vec<List> = keys
            .iter()
            .flat_map(|&sort| (0..2).map(move |e| (sort, e)))
            .map(|(sort, e)| shared.sorted(sort, e))
            .collect();
        assert!(
            shared.names.order.get().is_some(),
            "the long run asked for the ranks"
        );
        let ranked: Vec<List> = keys
            .iter()
            .flat_map(|&sort| (0..2).map(move |e| (sort, e)))
            .map(|(sort, e)| shared.sorted(sort, e))
            .collect();
        assert_eq!(compared, ranked);
    }
}
