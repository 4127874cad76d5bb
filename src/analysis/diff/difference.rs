//! The change between two profiles as one `Analysis`, so that every view
//! of one profile shows a comparison: functions are the comparison's pairs
//! (the new profile's functions, then the base's that match none, which
//! `extend_with_base` adds to the new profile, so ids line up), each cost
//! is the new side's minus the base side's, and each side's inclusive
//! costs are its own (a difference of inclusive costs, never inclusive
//! costs of differences). Events of one profile only are zero. A change
//! needs 65 bits where a cost has 64: one that does not fit is held at
//! the limit it passes, and the column is marked (`Analysis::cut`).

use super::Comparison;
use crate::analysis::{Adjacency, Analysis, Edge};
use crate::profile::{Cost, FileId, FnId, ObjId, Profile};

/// Adds to `new` the base functions that match none of its own, in the
/// order of `comparison.pairs`: then a pair's index is its id in `new`.
/// Every base file's name is added too, so that the base's per-line costs
/// have a file in `new`.
pub fn extend_with_base(new: &mut Profile, base: &Profile, comparison: &Comparison) {
    for i in 0..base.files.len() {
        new.files.intern(base.files.name(i as u32));
    }
    for p in &comparison.pairs[new.functions.len().min(comparison.pairs.len())..] {
        if let (Some(b), None) = (p.base, p.new) {
            let name = new.fn_names.intern(base.fn_name(b));
            let file = FileId(new.files.intern(base.fn_file(b)));
            let object = ObjId(new.objects.intern(base.fn_object(b)));
            new.function_id(name, file, object);
        }
    }
}

impl Analysis {
    /// The same analysis for a profile that has gained `n - function_count`
    /// functions with no cost and no call (`extend_with_base`).
    pub fn grown(mut self, n: usize) -> Analysis {
        let width = self.width;
        std::sync::Arc::make_mut(&mut self.self_costs).resize(n * width, 0);
        std::sync::Arc::make_mut(&mut self.inclusive).resize(n * width, 0);
        self.functions = n;
        self.program_entries = crate::analysis::memo::PerColumn::new(width);
        if !self.called.is_empty() {
            self.called.resize(n, 0);
        }
        self
    }

    /// New minus base, per pair, call and total; `new` is the analysis of
    /// the profile `extend_with_base` extended (one function per pair).
    pub fn difference(base: &Analysis, new: &Analysis, comparison: &Comparison) -> Analysis {
        let width = new.width;
        let n = comparison.pairs.len();
        // For each of the new profile's columns, the base's, if common.
        let mut base_column: Vec<Option<usize>> = vec![None; width];
        for e in &comparison.events {
            base_column[e.new] = Some(e.base);
        }
        let change = |out: &mut Vec<Cost>, new_row: Option<&[Cost]>, base_row: Option<&[Cost]>| {
            push_change(out, &base_column, new_row, base_row);
        };
        let mut self_costs = Vec::with_capacity(n * width);
        let mut inclusive = Vec::with_capacity(n * width);
        let mut called = Vec::with_capacity(n);
        for (i, p) in comparison.pairs.iter().enumerate() {
            let f = FnId::from_index(i);
            // The base-only functions `extend_with_base` added have no cost
            // in the new analysis.
            let own = p.new.is_some().then_some(f);
            change(
                &mut self_costs,
                own.map(|f| new.self_cost(f)),
                p.base.map(|b| base.self_cost(b)),
            );
            change(
                &mut inclusive,
                own.map(|f| new.inclusive(f)),
                p.base.map(|b| base.inclusive(b)),
            );
            called.push(match (own, p.base) {
                (Some(f), _) => new.called(f),
                (None, Some(b)) => base.called(b),
                (None, None) => 0,
            });
        }
        let mut edges = Vec::with_capacity(comparison.calls.len());
        let mut edge_costs = Vec::with_capacity(comparison.calls.len() * width);
        for c in &comparison.calls {
            let count = match (c.new, c.base) {
                (Some(e), _) => new.edges[e].count,
                (None, Some(e)) => base.edges[e].count,
                (None, None) => 0,
            };
            edges.push(Edge {
                caller: FnId::from_index(c.caller),
                callee: FnId::from_index(c.callee),
                count,
            });
            change(
                &mut edge_costs,
                c.new.map(|e| new.edge_cost(e)),
                c.base.map(|e| base.edge_cost(e)),
            );
        }
        let mut totals = Vec::with_capacity(width);
        change(&mut totals, Some(&new.totals), Some(&base.totals));
        let mut cut = at_limit(&totals, width);
        for rows in [&self_costs, &inclusive, &edge_costs] {
            for (c, r) in cut.iter_mut().zip(at_limit(rows, width)) {
                *c |= r;
            }
        }
        let mut signed: Vec<bool> = totals.iter().map(|&t| t < 0).collect();
        if width > 0 {
            for (i, &c) in self_costs
                .iter()
                .chain(&inclusive)
                .chain(&edge_costs)
                .enumerate()
            {
                signed[i % width] |= c < 0;
            }
        }
        Analysis {
            width,
            parts: new.parts.clone(),
            totals,
            callers: Adjacency::build(&edges, |e| e.callee),
            callees: Adjacency::build(&edges, |e| e.caller),
            functions: n,
            self_costs: self_costs.into(),
            inclusive: inclusive.into(),
            called,
            edges: edges.into(),
            edge_costs: edge_costs.into(),
            cycle_of: Default::default(),
            cycles: Vec::new(),
            signed,
            cut,
            every_function: true,
            program_entries: crate::analysis::memo::PerColumn::new(width),
        }
    }
}

/// Appends a row of new minus base, `base_column[col]` being the base's
/// column of the new side's `col` (none: an event of one side only, 0).
fn push_change(
    out: &mut Vec<Cost>,
    base_column: &[Option<usize>],
    new_row: Option<&[Cost]>,
    base_row: Option<&[Cost]>,
) {
    out.extend(base_column.iter().enumerate().map(|(col, b)| match b {
        None => 0,
        Some(b) => {
            let n = new_row.map_or(0, |r| r[col]);
            clamped_change(base_row.map_or(0, |r| r[*b]), n)
        }
    }));
}

/// `new - base` where it fits a cost, else the limit it passes: the
/// change of two 64-bit costs needs 65 bits. A change at a limit is shown
/// as a bound (`format::change_bound`), and `Analysis::cut` tells that
/// the limit was passed.
pub fn clamped_change(base: Cost, new: Cost) -> Cost {
    let exact = crate::format::change(base, new);
    Cost::try_from(exact).unwrap_or(if exact > 0 { Cost::MAX } else { Cost::MIN })
}

/// Per column: whether a change in `rows` (of `width` columns) reached a
/// 64-bit limit, where it may have been cut.
fn at_limit(rows: &[Cost], width: usize) -> Vec<bool> {
    let mut cut = vec![false; width];
    if width > 0 {
        for (i, &c) in rows.iter().enumerate() {
            cut[i % width] |= c == Cost::MAX || c == Cost::MIN;
        }
    }
    cut
}
