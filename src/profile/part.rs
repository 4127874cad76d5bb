//! One part of a profile: a thread, a dump, or one of several files loaded
//! together. Costs in a part are stored in the part's own event columns;
//! `event_map` maps them to the profile's raw events.

use super::detail::{Detail, Record};
use super::{Cost, FileId, FnId, Profile};
use std::sync::Arc;

/// Which subpositions lead each cost line (`positions:` header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Positions {
    pub instr: bool,
    pub bb: bool,
    pub line: bool,
}

impl Default for Positions {
    fn default() -> Self {
        Positions {
            instr: false,
            bb: false,
            line: true,
        }
    }
}

impl Positions {
    pub fn count(self) -> usize {
        usize::from(self.instr) + usize::from(self.bb) + usize::from(self.line)
    }

    /// The (instruction address, line number) of decoded subpositions `at`
    /// (0 where the profile has no such column): the address is the first
    /// column, the line the last.
    pub fn addr_line(self, at: [u64; 3]) -> (u64, u64) {
        let addr = if self.instr { at[0] } else { 0 };
        let line = if self.line { at[self.count() - 1] } else { 0 };
        (addr, line)
    }
}

/// Self cost at one source line / instruction of one function. Records are
/// kept in file order, not merged: consumers aggregate what they show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCost {
    pub func: FnId,
    /// The source file of this line: the `fi=`/`fe=` file, else the function's.
    pub file: FileId,
    pub line: u64,
    pub addr: u64,
}

/// One `calls=` record: a call site and the inclusive cost of its calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallSite {
    pub caller: FnId,
    pub callee: FnId,
    /// Number of calls; 0 means "unknown" (pprof, xtree), not "never".
    pub count: u64,
    /// Source file of the call site (the current `fi=`/`fe=` file).
    pub file: FileId,
    pub line: u64,
    pub addr: u64,
    /// The callee's position named on the `calls=` line.
    pub target_line: u64,
    pub target_addr: u64,
}

/// One `jump=` or `jcnd=` record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    pub func: FnId,
    pub file: FileId,
    pub line: u64,
    pub addr: u64,
    pub target_func: FnId,
    pub target_file: FileId,
    pub target_line: u64,
    pub target_addr: u64,
    /// Times the jump was taken.
    pub taken: u64,
    /// For a conditional jump, times the branch was executed; `None` for `jump=`.
    pub executed: Option<u64>,
}

#[derive(Clone, Debug, Default)]
pub struct Part {
    /// Index into `Profile::sources`.
    pub source: usize,
    /// 1-based line in that source where the part's header begins.
    pub first_line: usize,
    pub number: Option<u64>,
    pub pid: Option<u64>,
    pub thread: Option<u64>,
    /// Shared with the parts after it that the same `cmd:` applies to.
    pub cmd: Option<Arc<str>>,
    /// `desc:` lines, verbatim after the key.
    pub desc: Vec<String>,
    pub positions: Positions,
    /// Part column -> raw event index in the profile's `EventTable`;
    /// shared with the parts after it under the same `events:` line.
    pub event_map: Arc<[usize]>,
    /// `summary:` and `totals:` as written, in part columns.
    pub summary: Option<Vec<Cost>>,
    pub totals: Option<Vec<Cost>>,
    /// The part's total cost in part columns, set after loading: the
    /// `summary:` where it is consistent, else the sum of the cost lines.
    pub total: Vec<Cost>,
    /// Lines of the `summary:` and `totals:` headers (0 if absent).
    pub summary_line: usize,
    pub totals_line: usize,
    /// Self cost rows, `width()` columns each: one row per function with
    /// cost in this part, in the order of `self_fns` (so many parts of few
    /// functions each cost no more than their data). Shared with an
    /// `Analysis` of this part alone when every function has a row.
    pub self_costs: Arc<Vec<Cost>>,
    /// The function of each row of `self_costs`; sorted once the part is
    /// finished, so a row is found by binary search without an index, and
    /// then left empty where row `i` is function `i` for every row (most
    /// parts: 4 bytes a function saved).
    pub self_fns: Vec<FnId>,
    /// Calls summed per (caller, callee) pair. Shared with an `Analysis` of
    /// this part alone, which has the same edges (calls are most of a big
    /// profile's memory).
    pub edges: Arc<Vec<PartEdge>>,
    /// `width()` columns per entry of `edges`: the inclusive cost of those
    /// calls (shared likewise).
    pub edge_costs: Arc<Vec<Cost>>,
    /// Every line, call site and jump record, compactly encoded.
    pub detail: Detail,
}

/// The calls from one function to another within a part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartEdge {
    pub caller: FnId,
    pub callee: FnId,
    /// Sum of the call counts (0 where every site said "unknown").
    pub count: u64,
}

/// A part with its records decoded into vectors (for tests and small tools;
/// views decode only the function they show). Derefs to the part.
#[derive(Clone, Debug)]
pub struct Decoded<'a> {
    part: &'a Part,
    width: usize,
    pub lines: Vec<LineCost>,
    /// `width` columns per entry of `lines`.
    pub line_costs: Vec<Cost>,
    pub calls: Vec<CallSite>,
    /// `width` columns per entry of `calls`.
    pub call_costs: Vec<Cost>,
    pub jumps: Vec<Jump>,
    /// Why the records could not be read (kept out of memory and the
    /// profile file changed since).
    pub error: Option<String>,
}

impl std::ops::Deref for Decoded<'_> {
    type Target = Part;

    fn deref(&self) -> &Part {
        self.part
    }
}

impl Decoded<'_> {
    pub fn line_cost(&self, i: usize) -> &[Cost] {
        &self.line_costs[i * self.width..(i + 1) * self.width]
    }

    pub fn call_cost(&self, i: usize) -> &[Cost] {
        &self.call_costs[i * self.width..(i + 1) * self.width]
    }
}

impl Part {
    /// Number of cost columns in this part.
    pub fn width(&self) -> usize {
        self.event_map.len()
    }

    /// The self cost row of `f` in part columns (empty if never seen here).
    pub fn self_cost(&self, f: FnId) -> &[Cost] {
        let w = self.width();
        let row = if self.self_fns.is_empty() {
            (f.index() < self.rows()).then_some(f.index())
        } else {
            self.self_fns.binary_search(&f).ok()
        };
        row.map_or(&[], |row| &self.self_costs[row * w..(row + 1) * w])
    }

    /// How many self cost rows there are.
    pub fn rows(&self) -> usize {
        match self.width() {
            0 => self.self_fns.len(),
            w => self.self_costs.len() / w,
        }
    }

    /// Whether row `i` is function `i`'s, for every row.
    pub fn rows_are_functions(&self) -> bool {
        (self.self_fns.iter().enumerate()).all(|(i, f)| f.index() == i)
    }

    /// The function of self cost row `row`.
    pub fn self_fn(&self, row: usize) -> FnId {
        (self.self_fns.get(row).copied()).unwrap_or_else(|| FnId::from_index(row))
    }

    /// Sorts the self cost rows by function once the part is complete
    /// (they nearly always are already: functions are numbered as met).
    pub fn finish(&mut self) {
        if !self.self_fns.is_sorted() {
            let mut order = order_by_function(&self.self_fns);
            let w = self.width();
            let costs = Arc::make_mut(&mut self.self_costs);
            permute_rows(&mut order, &mut self.self_fns, costs, w);
        }
        if self.width() > 0 && self.rows_are_functions() {
            self.self_fns = Vec::new();
        }
        // Room was made toward a guess (`reserve_toward`): what is not
        // used goes back (a tiny part's one row had room for four).
        if let Some(costs) = Arc::get_mut(&mut self.self_costs) {
            costs.shrink_to_fit();
        }
        self.self_fns.shrink_to_fit();
    }

    /// The inclusive cost of edge `i`, in part columns.
    pub fn edge_cost(&self, i: usize) -> &[Cost] {
        let w = self.width();
        &self.edge_costs[i * w..(i + 1) * w]
    }

    /// All records, decoded, with costs padded to the part's width
    /// (`profile`: the one this part belongs to).
    pub fn decode(&self, profile: &Profile) -> Decoded<'_> {
        let width = self.width();
        let mut d = Decoded {
            part: self,
            width,
            lines: Vec::new(),
            line_costs: Vec::new(),
            calls: Vec::new(),
            call_costs: Vec::new(),
            jumps: Vec::new(),
            error: None,
        };
        let pad = |out: &mut Vec<Cost>, costs: &[Cost]| {
            out.extend_from_slice(costs);
            out.extend(std::iter::repeat_n(0, width.saturating_sub(costs.len())));
        };
        let result = self.detail.for_each(profile, |r| match r {
            Record::Line(l, c) => {
                d.lines.push(l);
                pad(&mut d.line_costs, c);
            }
            Record::Call(call, c) => {
                d.calls.push(call);
                pad(&mut d.call_costs, c);
            }
            Record::Jump(j) => d.jumps.push(j),
        });
        d.error = result.err();
        d
    }

    /// Sum of all self costs, in part columns.
    pub fn self_sum(&self) -> Vec<Cost> {
        let w = self.width();
        let mut sum: Vec<Cost> = vec![0; w];
        if w > 0 {
            for row in self.self_costs.chunks_exact(w) {
                for (s, c) in sum.iter_mut().zip(row) {
                    *s = s.saturating_add(*c);
                }
            }
        }
        sum
    }

    /// A description for lists: "part 2, thread 3 (callgrind.out.1-03)".
    pub fn label(&self, sources: &[String]) -> String {
        let mut bits = Vec::new();
        if let Some(n) = self.number {
            bits.push(format!("part {n}"));
        }
        if let Some(t) = self.thread {
            bits.push(format!("thread {t}"));
        }
        if let Some(p) = self.pid {
            bits.push(format!("pid {p}"));
        }
        let file = sources.get(self.source).map_or("", String::as_str);
        let name = std::path::Path::new(file)
            .file_name()
            .map_or(file.into(), |n| n.to_string_lossy());
        format!("{} ({name})", bits.join(", "))
    }
}

/// The rows of `fns` in function order, rows of one function in their
/// own order. Where the ids are dense (a part of most of the profile's
/// functions, a file's blocks) a counting sort, no comparison: a million
/// self-cost rows 27 -> 7 ms with the moves, a million blocks 20 -> 5.5 ms.
pub fn order_by_function(fns: &[FnId]) -> Vec<u32> {
    let end = fns.iter().map(|f| f.index() + 1).max().unwrap_or(0);
    if end > 4 * fns.len() {
        let mut order: Vec<u32> = (0..fns.len() as u32).collect();
        order.sort_unstable_by_key(|&row| (fns[row as usize], row));
        return order;
    }
    // Per function, where its first row goes (after the counts' sum).
    let mut next = vec![0u32; end + 1];
    for f in fns {
        next[f.index() + 1] += 1;
    }
    for i in 1..=end {
        next[i] += next[i - 1];
    }
    let mut order = vec![0u32; fns.len()];
    for (row, f) in fns.iter().enumerate() {
        let slot = &mut next[f.index()];
        order[*slot as usize] = row as u32;
        *slot += 1;
    }
    order
}

/// Puts row `order[i]` of `fns` and of `costs` (rows of `w`) at row `i`,
/// in place, a cycle of the permutation at a time (a sorted copy of the
/// table was its size again at the peak of the load); `order` is used up.
fn permute_rows(order: &mut [u32], fns: &mut [FnId], costs: &mut [Cost], w: usize) {
    let mut held = vec![0; w];
    for start in 0..order.len() {
        if order[start] as usize == start {
            continue;
        }
        let held_fn = fns[start];
        held.copy_from_slice(&costs[start * w..(start + 1) * w]);
        let mut at = start;
        loop {
            let from = std::mem::replace(&mut order[at], at as u32) as usize;
            if from == start {
                fns[at] = held_fn;
                costs[at * w..(at + 1) * w].copy_from_slice(&held);
                break;
            }
            fns[at] = fns[from];
            costs.copy_within(from * w..(from + 1) * w, at * w);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In place, rows end where a sorted copy puts them: fixed points,
    /// cycles of two and a long cycle, rows of three.
    #[test]
    fn rows_are_permuted_in_place_as_a_copy_would_be() {
        let n = 1000u32;
        let fns: Vec<FnId> = (0..n).map(|i| FnId((i * 7919 + i % 3) % 2003)).collect();
        let costs: Vec<Cost> = (0..n as i64 * 3).map(|v| v * 11 - 5).collect();
        let mut order: Vec<u32> = (0..n).collect();
        order.sort_unstable_by_key(|&row| fns[row as usize]);
        let want_fns: Vec<FnId> = order.iter().map(|&r| fns[r as usize]).collect();
        let want_costs: Vec<Cost> = order
            .iter()
            .flat_map(|&r| costs[r as usize * 3..r as usize * 3 + 3].to_vec())
            .collect();
        let (mut got_fns, mut got_costs) = (fns.clone(), costs.clone());
        permute_rows(&mut order, &mut got_fns, &mut got_costs, 3);
        assert!(got_fns.is_sorted());
        assert_eq!(got_fns, want_fns);
        assert_eq!(got_costs, want_costs);
    }

    /// Dense ids (counted), sparse ones (sorted), and functions met more
    /// than once (a file's blocks): the order a stable sort by function
    /// gives.
    #[test]
    fn rows_are_ordered_by_function_whatever_the_ids() {
        let sorted = |fns: &[FnId]| {
            let mut order: Vec<u32> = (0..fns.len() as u32).collect();
            order.sort_by_key(|&row| (fns[row as usize], row));
            order
        };
        let dense: Vec<FnId> = (0..500u32).map(|i| FnId(i * 7 % 500)).collect();
        let sparse: Vec<FnId> = (0..50u32).map(|i| FnId(i * 7919 % 100_000)).collect();
        let twice: Vec<FnId> = [3, 1, 2, 1, 0].map(FnId).to_vec();
        let blocks: Vec<FnId> = (0..2000u32).map(|b| FnId(b * 7919 % 613)).collect();
        for fns in [dense, sparse, twice, blocks] {
            assert_eq!(order_by_function(&fns), sorted(&fns));
        }
    }

    /// Rows of functions 0, 1, 2... need no list of their functions once
    /// the part is finished; rows of other functions keep theirs. Either
    /// way each function's row is found.
    #[test]
    fn rows_of_every_function_in_order_keep_no_list() {
        let part = |fns: &[u32]| {
            let mut part = Part {
                event_map: Arc::from([0, 1]),
                self_fns: fns.iter().map(|&f| FnId(f)).collect(),
                self_costs: Arc::new(fns.iter().flat_map(|&f| [f as Cost, 10]).collect()),
                ..Part::default()
            };
            part.finish();
            part
        };
        let every = part(&[0, 1, 2]);
        assert!(every.self_fns.is_empty());
        assert_eq!(every.rows(), 3);
        assert_eq!(every.self_cost(FnId(2)), &[2, 10]);
        assert_eq!(every.self_fn(1), FnId(1));
        assert_eq!(every.self_cost(FnId(3)), &[] as &[Cost]);
        let some = part(&[4, 1]);
        assert_eq!(some.self_fns, vec![FnId(1), FnId(4)]);
        assert_eq!(some.self_cost(FnId(4)), &[4, 10]);
        assert_eq!(some.self_fn(0), FnId(1));
        assert_eq!(some.self_cost(FnId(0)), &[] as &[Cost]);
    }
}
