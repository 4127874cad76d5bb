//! The rows of the list: every function, and after them in id space each
//! cycle of mutual recursion as the pseudo-function `<cycle N>` (as
//! KCachegrind shows them): id `functions + c` is cycle `c`. Every view
//! asks here for a row's name and costs, so a cycle's row is never looked
//! up as a function.

use super::App;
use crate::analysis::diff::{Joined, Side};
use crate::analysis::{Analysis, Cycle};
use crate::profile::{Cost, FnId};
use std::borrow::Cow;

/// The cycle that pseudo-id `f` stands for, if it is one.
pub fn cycle(a: &Analysis, f: FnId) -> Option<&Cycle> {
    f.index()
        .checked_sub(a.function_count())
        .and_then(|c| a.cycles.get(c))
}

/// The pseudo-id of cycle `c` (an index into `cycles`).
pub fn cycle_id(a: &Analysis, c: usize) -> FnId {
    FnId::from_index(a.function_count() + c)
}

/// The name of cycle number `number` (1-based).
pub fn cycle_name(number: usize) -> String {
    format!("<cycle {number}>")
}

pub fn inclusive(a: &Analysis, f: FnId) -> &[Cost] {
    match cycle(a, f) {
        Some(c) => &c.inclusive,
        None => a.inclusive(f),
    }
}

pub fn self_cost(a: &Analysis, f: FnId) -> &[Cost] {
    match cycle(a, f) {
        Some(c) => &c.self_cost,
        None => a.self_cost(f),
    }
}

pub fn called(a: &Analysis, f: FnId) -> u64 {
    match cycle(a, f) {
        Some(c) => c.called,
        None => a.called(f),
    }
}

impl App {
    /// The cycle row `f` is, if it is one.
    pub fn cycle_row(&self, f: FnId) -> Option<&Cycle> {
        cycle(&self.analysis, f)
    }

    /// A row's name: the function's, or `<cycle N>`.
    pub fn name(&self, f: FnId) -> Cow<'_, str> {
        match self.cycle_row(f) {
            Some(c) => cycle_name(c.number).into(),
            None if f.index() < self.profile.functions.len() => self.function_name(f).into(),
            None => "?".into(),
        }
    }

    /// A function's name as shown: demangled unless the user asked for the
    /// names as written (`D`).
    pub fn function_name(&self, f: FnId) -> &str {
        match self.demangled.get(&f.0) {
            Some(readable) if !self.raw_names => readable,
            _ => self.profile.fn_name(f),
        }
    }

    /// Whether `f` is a real function (not a cycle's row).
    pub fn is_function(&self, f: FnId) -> bool {
        f.index() < self.profile.functions.len()
    }
}

/// A function's self and inclusive costs in the base and in the new
/// profile, each in the new profile's columns (an event of the new
/// profile only is 0 in the base): what the metric columns of a
/// comparison are computed from. `None` outside a comparison and for
/// the rows of cycles.
pub fn compared(app: &App, f: FnId) -> Option<[(Vec<Cost>, Vec<Cost>); 2]> {
    let j = app.diff.as_deref()?;
    if !app.is_function(f) {
        return None;
    }
    let c = &j.comparison;
    let width = j.new_analysis.width;
    let base = c.function(f.index(), Side::Base).map_or_else(
        || (vec![0; width], vec![0; width]),
        |g| {
            let a = &j.base_analysis;
            (remap(j, a.self_cost(g)), remap(j, a.inclusive(g)))
        },
    );
    let new = c.function(f.index(), Side::New).map_or_else(
        || (vec![0; width], vec![0; width]),
        |g| {
            let a = &j.new_analysis;
            (a.self_cost(g).to_vec(), a.inclusive(g).to_vec())
        },
    );
    Some([base, new])
}

/// A call's cost in the base and in the new profile, as `compared` gives
/// a function's (`edge` indexes the change's calls, which are the pairs').
pub fn compared_call(app: &App, edge: usize) -> Option<[Vec<Cost>; 2]> {
    let j = app.diff.as_deref()?;
    let pc = j.comparison.calls.get(edge)?;
    let width = j.new_analysis.width;
    let base = pc.base.map_or_else(
        || vec![0; width],
        |e| remap(j, j.base_analysis.edge_cost(e)),
    );
    let new = pc
        .new
        .map_or_else(|| vec![0; width], |e| j.new_analysis.edge_cost(e).to_vec());
    Some([base, new])
}

fn remap(j: &Joined, row: &[Cost]) -> Vec<Cost> {
    j.comparison.base_in_new_columns(row, j.new_analysis.width)
}
