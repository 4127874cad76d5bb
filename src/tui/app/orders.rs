//! The flat list's orders, one per (sort key, event), each computed once
//! per selection of parts and kept, so that `i`/`S`/`c`/`a` and `e`/`E`
//! only swap a list. On a large profile a background thread computes them
//! all right after loading (the current event's first); asking for one
//! that is being computed waits for it, one never being computed twice.
//! Ties are broken by name, then id (the name ranks), so every order is
//! deterministic whoever computes it.

use super::{SortKey, rows};
use crate::analysis::Analysis;
use crate::profile::FnId;
use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// From this many functions the orders are computed in the background.
pub const BACKGROUND_FROM: usize = 20_000;

/// A list of functions in some order, shared with the worker.
pub type List = Arc<[FnId]>;

/// The orders of one `Analysis`.
pub struct Orders {
    shared: Arc<Shared>,
}

struct Shared {
    analysis: Arc<Analysis>,
    /// Each function's position in name order (ties by id), and the
    /// functions in that order.
    ranks: Arc<[u32]>,
    by_name: Arc<[FnId]>,
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
    pub fn new(
        analysis: Arc<Analysis>,
        ranks: Arc<[u32]>,
        by_name: Arc<[FnId]>,
        event: usize,
        background: bool,
    ) -> Self {
        let width = analysis.width;
        let shared = Arc::new(Shared {
            analysis,
            ranks,
            by_name,
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
            SortKey::Inclusive => e,
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
            let active = self.by_name.iter().copied().filter(|&f| a.is_active(f));
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
        let rank = |f: FnId| self.ranks.get(f.index()).copied().unwrap_or(u32::MAX);
        let mut keyed: Vec<(i64, u32, FnId)> = cycles
            .chain(active)
            .map(|f| {
                let key = match sort {
                    SortKey::Inclusive => at(rows::inclusive(a, f)),
                    SortKey::SelfCost => at(rows::self_cost(a, f)),
                    _ => i64::try_from(rows::called(a, f)).unwrap_or(i64::MAX),
                };
                (key, rank(f), f)
            })
            .collect();
        keyed.sort_unstable_by_key(|&(key, rank, f)| (Reverse(key), rank, f));
        keyed.into_iter().map(|(_, _, f)| f).collect()
    }
}
