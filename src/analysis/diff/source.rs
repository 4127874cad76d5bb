//! A function's lines, call sites and instructions in a comparison: each
//! side's own (`analysis::source`), the base's moved into the new
//! profile's files and functions, and joined by position: per line the
//! new cost minus the base's, per call line and callee the change of the
//! calls' cost (the new count beside it). Jumps are the new side's. A
//! change beyond 64 bits is held at the limit (`clamped_change`).

use super::{Comparison, Joined, Side};
use crate::analysis::source::{CallRow, FunctionSource, InstrRow, LineRow, function_source};
use crate::profile::{Cost, FileId, FnId, Profile};
use std::collections::BTreeMap;

/// A call line's count, inclusive cost and whether it is recursive.
type CallSum = (u64, Vec<Cost>, bool);

/// The change of pair `f`'s rows, in the new profile's ids and columns
/// (`new` is the profile `Joined::new` extended).
pub fn function_source_change(joined: &Joined, new: &Profile, f: FnId) -> FunctionSource {
    let c = &joined.comparison;
    let width = joined.new_analysis.width;
    let mine = c
        .function(f.index(), Side::New)
        .map(|g| function_source(new, &joined.new_analysis, g))
        .unwrap_or_default();
    let theirs = c
        .function(f.index(), Side::Base)
        .map(|b| function_source(&joined.base, &joined.base_analysis, b))
        .unwrap_or_default();
    // The base's columns in the new side's order (none: zero).
    let mut column: Vec<Option<usize>> = vec![None; width];
    for e in &c.events {
        column[e.new] = Some(e.base);
    }
    let moved = |costs: &[Cost]| -> Vec<Cost> {
        column
            .iter()
            .map(|b| b.and_then(|b| costs.get(b).copied()).unwrap_or(0))
            .collect()
    };
    let file = |id: FileId| file_in_new(joined, new, f, id);
    let minus = |into: &mut Vec<Cost>, costs: &[Cost]| {
        for (a, b) in into.iter_mut().zip(moved(costs)) {
            *a = super::clamped_change(b, *a);
        }
    };

    let mut lines: BTreeMap<(FileId, u64), Vec<Cost>> = BTreeMap::new();
    for l in mine.lines {
        lines.insert((l.file, l.line), l.cost);
    }
    for l in &theirs.lines {
        minus(
            lines
                .entry((file(l.file), l.line))
                .or_insert_with(|| vec![0; width]),
            &l.cost,
        );
    }
    let mut calls: BTreeMap<(FileId, u64, FnId), CallSum> = BTreeMap::new();
    for k in mine.calls {
        calls.insert(
            (k.file, k.line, k.callee),
            (k.count, k.inclusive, k.recursive),
        );
    }
    for k in &theirs.calls {
        let callee = FnId::from_index(c.pair_of(Side::Base, k.callee));
        let entry = calls
            .entry((file(k.file), k.line, callee))
            .or_insert_with(|| (0, vec![0; width], k.recursive));
        minus(&mut entry.1, &k.inclusive);
    }
    let mut instrs: BTreeMap<u64, (FileId, u64, Vec<Cost>)> = BTreeMap::new();
    for i in mine.instrs {
        instrs.insert(i.addr, (i.file, i.line, i.cost));
    }
    for i in &theirs.instrs {
        let entry = instrs
            .entry(i.addr)
            .or_insert_with(|| (file(i.file), i.line, vec![0; width]));
        minus(&mut entry.2, &i.cost);
    }
    FunctionSource {
        lines: lines
            .into_iter()
            .map(|((file, line), cost)| LineRow { file, line, cost })
            .collect(),
        calls: calls
            .into_iter()
            .map(
                |((file, line, callee), (count, inclusive, recursive))| CallRow {
                    file,
                    line,
                    callee,
                    count,
                    inclusive,
                    recursive,
                },
            )
            .collect(),
        jumps: mine.jumps,
        instrs: instrs
            .into_iter()
            .map(|(addr, (file, line, cost))| InstrRow {
                addr,
                file,
                line,
                cost,
            })
            .collect(),
        // Per-address jumps and calls are the new side's, as `jumps`.
        instr_jumps: mine.instr_jumps,
        instr_calls: mine.instr_calls,
        error: mine.error.or(theirs.error),
    }
}

/// The new profile's file for a base file of pair `f`: the new
/// function's own file for the base function's own (a build folder may
/// differ), else the file of the same name (`Joined::new` adds every base
/// file's name to the new profile).
fn file_in_new(joined: &Joined, new: &Profile, f: FnId, id: FileId) -> FileId {
    let c: &Comparison = &joined.comparison;
    let base_fn = c.function(f.index(), Side::Base);
    let new_fn = c.function(f.index(), Side::New);
    if let (Some(b), Some(n)) = (base_fn, new_fn)
        && joined.base.functions[b.index()].file == id
    {
        return new.functions[n.index()].file;
    }
    let name = joined.base.file_name(id);
    new.files.get(name).map_or(FileId::default(), FileId)
}
