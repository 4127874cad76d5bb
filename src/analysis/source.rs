//! Per-line and per-instruction costs of one function, for the source view
//! and `cgtui annotate` (both must show the same numbers, so both use this).
//! Costs go to the file the profile names for each line (`fi=`/`fe=`), which
//! for inlined code is not the function's own file.

use super::{Analysis, add};
use crate::profile::{Cost, FileId, FnId, Profile, Record};
use std::collections::BTreeMap;

/// Self cost at one source line, summed over the selected parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineRow {
    pub file: FileId,
    pub line: u64,
    pub cost: Vec<Cost>,
}

/// Calls from one source line to one callee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallRow {
    pub file: FileId,
    pub line: u64,
    pub callee: FnId,
    /// 0: the profile gives no count (`calls=0`: Go pprof, xtree).
    pub count: u64,
    pub inclusive: Vec<Cost>,
    /// A call to the function itself or within its cycle: `inclusive`
    /// includes the nested calls, so it can exceed the caller's own cost.
    pub recursive: bool,
}

/// Jumps from one source line to one target line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpRow {
    pub file: FileId,
    pub line: u64,
    pub target_func: FnId,
    pub target_file: FileId,
    pub target_line: u64,
    pub taken: u64,
    /// `Some(executed)` for a conditional jump.
    pub executed: Option<u64>,
}

/// Self cost at one instruction address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstrRow {
    pub addr: u64,
    pub file: FileId,
    pub line: u64,
    pub cost: Vec<Cost>,
}

/// The jumps from one instruction address to one target address (a
/// `jump=`/`jcnd=` record's positions, summed over the parts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstrJump {
    pub addr: u64,
    pub target_addr: u64,
    pub target_func: FnId,
    pub taken: u64,
    /// `Some(executed)` for a conditional jump.
    pub executed: Option<u64>,
}

/// The calls from one instruction address to one callee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstrCall {
    pub addr: u64,
    pub callee: FnId,
    /// 0: the profile gives no count.
    pub count: u64,
    pub inclusive: Vec<Cost>,
}

/// Everything the profile says about the inside of one function.
#[derive(Clone, Debug, Default)]
pub struct FunctionSource {
    /// Sorted by (file, line); line 0 means "no line information".
    pub lines: Vec<LineRow>,
    /// Sorted by (file, line, callee).
    pub calls: Vec<CallRow>,
    /// Sorted by (file, line, target).
    pub jumps: Vec<JumpRow>,
    /// Sorted by address; empty unless the profile has `positions: instr`.
    pub instrs: Vec<InstrRow>,
    /// Sorted by (address, target); collected with `instrs`.
    pub instr_jumps: Vec<InstrJump>,
    /// Sorted by (address, callee); collected with `instrs`.
    pub instr_calls: Vec<InstrCall>,
    /// Why the rows are missing or incomplete: detail kept in the profile
    /// file could not be read again (the file changed or went away).
    pub error: Option<String>,
}

impl FunctionSource {
    /// The rows of one source file (lines, calls and jumps are sorted by
    /// file, so this costs a search, not a pass over every row).
    pub fn in_file(&self, file: FileId) -> FunctionSource {
        fn range<T: Clone>(rows: &[T], file: FileId, of: impl Fn(&T) -> FileId) -> Vec<T> {
            let from = rows.partition_point(|r| of(r) < file);
            let to = from + rows[from..].partition_point(|r| of(r) == file);
            rows[from..to].to_vec()
        }
        FunctionSource {
            lines: range(&self.lines, file, |r| r.file),
            calls: range(&self.calls, file, |r| r.file),
            jumps: range(&self.jumps, file, |r| r.file),
            instrs: self
                .instrs
                .iter()
                .filter(|r| r.file == file)
                .cloned()
                .collect(),
            instr_jumps: Vec::new(),
            instr_calls: Vec::new(),
            error: self.error.clone(),
        }
    }

    /// The source files this function has costs or calls in, in id order.
    pub fn files(&self) -> Vec<FileId> {
        let mut files: Vec<FileId> = self
            .lines
            .iter()
            .map(|l| l.file)
            .chain(self.calls.iter().map(|c| c.file))
            .collect();
        files.dedup();
        files.sort();
        files.dedup();
        files
    }
}

/// Collects `f`'s lines, call sites, jumps and instructions in the parts
/// `analysis` selects, in `analysis`'s columns (derived events included).
pub fn function_source(profile: &Profile, analysis: &Analysis, f: FnId) -> FunctionSource {
    one_function(profile, analysis, f, true)
}

/// The same for every function `keep` accepts, summed: with all functions,
/// what each source line costs in the whole program. Instructions are left
/// out (they are shown per function): for a whole `--dump-instr` profile
/// they would take more memory than everything else.
pub fn collect(
    profile: &Profile,
    analysis: &Analysis,
    keep: impl Fn(FnId) -> bool,
) -> FunctionSource {
    let mut acc = [Accumulator::default()];
    let error = scan(profile, analysis, None, false, &mut acc, |f| {
        keep(f).then_some(0)
    });
    let [acc] = acc;
    acc.finish(error)
}

/// `function_source` without the instructions (for reports of every function).
pub fn function_lines(profile: &Profile, analysis: &Analysis, f: FnId) -> FunctionSource {
    one_function(profile, analysis, f, false)
}

fn one_function(profile: &Profile, analysis: &Analysis, f: FnId, instrs: bool) -> FunctionSource {
    let mut acc = [Accumulator::default()];
    let error = scan(profile, analysis, Some(f), instrs, &mut acc, |_| Some(0));
    let [acc] = acc;
    acc.finish(error)
}

/// (file, line, target function, target file, target line).
type JumpKey = (FileId, u64, FnId, FileId, u64);

/// A call site's count, inclusive cost and whether it is recursive.
type CallSum = (u64, Vec<Cost>, bool);

/// Rows being summed, keyed so that equal positions merge.
#[derive(Default)]
struct Accumulator {
    lines: BTreeMap<(FileId, u64), Vec<Cost>>,
    instrs: BTreeMap<u64, (FileId, u64, Vec<Cost>)>,
    /// (count, inclusive, recursive) per (file, line, callee).
    calls: BTreeMap<(FileId, u64, FnId), CallSum>,
    jumps: BTreeMap<JumpKey, (u64, Option<u64>)>,
    /// Per (address, target address): target function, taken, executed.
    instr_jumps: BTreeMap<(u64, u64), (FnId, u64, Option<u64>)>,
    /// Per (address, callee): count, inclusive.
    instr_calls: BTreeMap<(u64, FnId), (u64, Vec<Cost>)>,
}

/// Feeds every line, call and jump record of the selected parts (of `only`
/// that function, decoding nothing else) to the accumulator `slot` picks for
/// its function (none: skipped); per-instruction rows only if `instrs`.
/// Returns the first part's error, if any.
fn scan(
    profile: &Profile,
    analysis: &Analysis,
    only: Option<FnId>,
    instrs: bool,
    accs: &mut [Accumulator],
    slot: impl Fn(FnId) -> Option<usize>,
) -> Option<String> {
    let mut error = None;
    let width = analysis.width;
    let mut row = vec![0; width];
    let selected = profile
        .parts
        .iter()
        .zip(&analysis.parts)
        .filter(|(_, s)| **s);
    for (part, _) in selected {
        let mapped = |costs: &[Cost], row: &mut Vec<Cost>| {
            row.iter_mut().for_each(|c| *c = 0);
            for (c, &v) in costs.iter().enumerate() {
                row[part.event_map[c]] = v;
            }
            profile.events.derive(row);
        };
        let visit = |record: Record<'_>| match record {
            Record::Line(l, costs) => {
                let Some(acc) = slot(l.func).and_then(|i| accs.get_mut(i)) else {
                    return;
                };
                mapped(costs, &mut row);
                add(
                    acc.lines
                        .entry((l.file, l.line))
                        .or_insert_with(|| vec![0; width]),
                    &row,
                );
                if instrs && part.positions.instr {
                    let e = acc
                        .instrs
                        .entry(l.addr)
                        .or_insert_with(|| (l.file, l.line, vec![0; width]));
                    add(&mut e.2, &row);
                }
            }
            Record::Call(c, costs) => {
                let Some(acc) = slot(c.caller).and_then(|i| accs.get_mut(i)) else {
                    return;
                };
                mapped(costs, &mut row);
                let e = acc
                    .calls
                    .entry((c.file, c.line, c.callee))
                    .or_insert_with(|| (0, vec![0; width], false));
                e.0 = e.0.saturating_add(c.count);
                add(&mut e.1, &row);
                e.2 |= recursive(analysis, c.caller, c.callee);
                if instrs && part.positions.instr {
                    let e = acc
                        .instr_calls
                        .entry((c.addr, c.callee))
                        .or_insert_with(|| (0, vec![0; width]));
                    e.0 = e.0.saturating_add(c.count);
                    add(&mut e.1, &row);
                }
            }
            Record::Jump(j) => {
                let Some(acc) = slot(j.func).and_then(|i| accs.get_mut(i)) else {
                    return;
                };
                let key = (j.file, j.line, j.target_func, j.target_file, j.target_line);
                let e = acc.jumps.entry(key).or_insert((0, j.executed.map(|_| 0)));
                e.0 = e.0.saturating_add(j.taken);
                if let (Some(sum), Some(x)) = (&mut e.1, j.executed) {
                    *sum = sum.saturating_add(x);
                }
                if instrs && part.positions.instr {
                    let e = acc.instr_jumps.entry((j.addr, j.target_addr)).or_insert((
                        j.target_func,
                        0,
                        j.executed.map(|_| 0),
                    ));
                    e.1 = e.1.saturating_add(j.taken);
                    if let (Some(sum), Some(x)) = (&mut e.2, j.executed) {
                        *sum = sum.saturating_add(x);
                    }
                }
            }
        };
        let result = match only {
            Some(f) => part.detail.for_each_of(profile, f, visit),
            None => part.detail.for_each(profile, visit),
        };
        error = error.or(result.err());
    }
    error
}

/// A call from `caller` to itself or to a member of its cycle.
fn recursive(analysis: &Analysis, caller: FnId, callee: FnId) -> bool {
    caller == callee
        || matches!(
            (analysis.cycle_of(caller), analysis.cycle_of(callee)),
            (Some(a), Some(b)) if std::ptr::eq(a, b)
        )
}

impl Accumulator {
    fn finish(self, error: Option<String>) -> FunctionSource {
        FunctionSource {
            error,
            lines: self
                .lines
                .into_iter()
                .map(|((file, line), cost)| LineRow { file, line, cost })
                .collect(),
            calls: self
                .calls
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
            jumps: self
                .jumps
                .into_iter()
                .map(
                    |((file, line, target_func, target_file, target_line), (taken, executed))| {
                        JumpRow {
                            file,
                            line,
                            target_func,
                            target_file,
                            target_line,
                            taken,
                            executed,
                        }
                    },
                )
                .collect(),
            instrs: self
                .instrs
                .into_iter()
                .map(|(addr, (file, line, cost))| InstrRow {
                    addr,
                    file,
                    line,
                    cost,
                })
                .collect(),
            instr_jumps: self
                .instr_jumps
                .into_iter()
                .map(
                    |((addr, target_addr), (target_func, taken, executed))| InstrJump {
                        addr,
                        target_addr,
                        target_func,
                        taken,
                        executed,
                    },
                )
                .collect(),
            instr_calls: self
                .instr_calls
                .into_iter()
                .map(|((addr, callee), (count, inclusive))| InstrCall {
                    addr,
                    callee,
                    count,
                    inclusive,
                })
                .collect(),
        }
    }
}
