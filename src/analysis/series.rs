//! A series of runs (`report --series FILE...`): the first profile is the
//! baseline, the others the runs in order. Each function is one row with
//! its function in every run, matched from run to run as `--base` matches
//! two profiles (each run against the one before it), and the events all
//! runs have are compared; the others are named. Each run keeps its own
//! profile and analysis, so a run's numbers are what it shows alone.
//! Plain data for `report::series`; must not import `tui`.

use super::Analysis;
use super::diff::{MatchOptions, match_functions};
use crate::profile::{Cost, FnId, Profile};

/// One run: its profile and analysis.
pub type Run<'a> = (&'a Profile, &'a Analysis);

/// An event every run has: its column in each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesEvent {
    pub name: String,
    pub columns: Vec<usize>,
}

/// The runs joined; see the module's comment.
#[derive(Clone, Debug, Default)]
pub struct Series {
    pub runs: usize,
    /// In the first run's order.
    pub events: Vec<SeriesEvent>,
    /// Events some runs lack: the name and the runs (0-based) that have it.
    pub left_out: Vec<(String, Vec<usize>)>,
    /// Row `r`'s function in run `i` at `r * runs + i`.
    functions: Vec<Option<FnId>>,
}

impl Series {
    pub fn new(runs: &[Run<'_>], options: &MatchOptions) -> Series {
        let n = runs.len();
        let (events, left_out) = events(runs);
        let mut functions: Vec<Option<FnId>> = Vec::new();
        let mut row_of: Vec<usize> = Vec::new();
        if let Some((first, _)) = runs.first() {
            functions.reserve(first.functions.len() * n);
            for i in 0..first.functions.len() {
                row_of.push(i);
                let mut row = vec![None; n];
                row[0] = Some(FnId::from_index(i));
                functions.extend(row);
            }
        }
        for i in 1..n {
            let (before, now) = (runs[i - 1].0, runs[i].0);
            let mut next = vec![0; now.functions.len()];
            for pair in match_functions(before, now, options) {
                let Some(f) = pair.new else { continue };
                let row = match pair.base {
                    Some(b) => row_of[b.index()],
                    None => {
                        functions.extend(std::iter::repeat_n(None, n));
                        functions.len() / n - 1
                    }
                };
                functions[row * n + i] = Some(f);
                next[f.index()] = row;
            }
            row_of = next;
        }
        Series {
            runs: n,
            events,
            left_out,
            functions,
        }
    }

    /// How many rows (functions of any run).
    pub fn len(&self) -> usize {
        self.functions.len().checked_div(self.runs).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `row`'s function in run `run`.
    pub fn function(&self, row: usize, run: usize) -> Option<FnId> {
        self.functions[row * self.runs + run]
    }

    /// The first run that has row `row`, and its function there.
    pub fn first_present(&self, row: usize) -> Option<(usize, FnId)> {
        (0..self.runs).find_map(|i| self.function(row, i).map(|f| (i, f)))
    }

    /// A row's self (or inclusive) cost of common event `ev` in each run
    /// (0 where the run lacks the function).
    pub fn costs(&self, runs: &[Run<'_>], row: usize, ev: usize, inclusive: bool) -> Vec<Cost> {
        (0..self.runs)
            .map(|i| {
                self.function(row, i).map_or(0, |f| {
                    let a = runs[i].1;
                    let costs = if inclusive {
                        a.inclusive(f)
                    } else {
                        a.self_cost(f)
                    };
                    costs[self.events[ev].columns[i]]
                })
            })
            .collect()
    }

    /// Common event `ev`'s total in each run.
    pub fn totals(&self, runs: &[Run<'_>], ev: usize) -> Vec<Cost> {
        (0..self.runs)
            .map(|i| runs[i].1.totals[self.events[ev].columns[i]])
            .collect()
    }

    /// Every row, the largest change in the last run (from the run before
    /// it) first, then the largest change from the baseline; ties by
    /// name, file and object.
    pub fn ranked(&self, runs: &[Run<'_>], ev: usize, inclusive: bool) -> Vec<usize> {
        let mut keyed: Vec<(u128, u128, usize)> = (0..self.len())
            .map(|row| {
                let c = self.costs(runs, row, ev, inclusive);
                let last = c.len().saturating_sub(1);
                let step = crate::format::change(c[last.saturating_sub(1)], c[last]);
                let whole = crate::format::change(c[0], c[last]);
                (step.unsigned_abs(), whole.unsigned_abs(), row)
            })
            .collect();
        let name = |row: usize| {
            self.first_present(row).map_or(("", "", ""), |(i, f)| {
                let p = runs[i].0;
                (p.fn_name(f), p.fn_file(f), p.fn_object(f))
            })
        };
        keyed.sort_by(|x, y| {
            (y.0, y.1)
                .cmp(&(x.0, x.1))
                .then_with(|| name(x.2).cmp(&name(y.2)))
        });
        keyed.into_iter().map(|k| k.2).collect()
    }
}

/// The events of every run (in the first run's order), and the others
/// with the runs that have them.
fn events(runs: &[Run<'_>]) -> (Vec<SeriesEvent>, Vec<(String, Vec<usize>)>) {
    let mut common = Vec::new();
    let mut left_out: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, (p, _)) in runs.iter().enumerate() {
        for e in &p.events.events {
            let columns: Option<Vec<usize>> = runs
                .iter()
                .map(|(q, _)| q.events.index_of(&e.name))
                .collect();
            match columns {
                Some(columns) if i == 0 => common.push(SeriesEvent {
                    name: e.name.clone(),
                    columns,
                }),
                Some(_) => {}
                None if left_out.iter().any(|(n, _)| *n == e.name) => {}
                None => {
                    let having = (runs.iter().enumerate())
                        .filter(|(_, (q, _))| q.events.index_of(&e.name).is_some())
                        .map(|(j, _)| j)
                        .collect();
                    left_out.push((e.name.clone(), having));
                }
            }
        }
    }
    (common, left_out)
}

#[cfg(test)]
mod tests;
