//! Body lines: position specs (`fn=`, `cfi=`, ...), associations (`calls=`,
//! `jump=`, `jcnd=`) and cost lines.

use super::{Loader, Pending, Space};
use crate::parse::fields::Field;
use crate::parse::idmap::UNREADABLE_FUNCTION;
use crate::parse::lines::{self, SubPos};
use crate::parse::messages;
use crate::parse::parallel::sums::within_care;
use crate::profile::{CallSite, Cost, FileId, FnId, LineCost, ObjId, PartEdge};

impl Loader<'_> {
    pub(super) fn spec(&mut self, key: &[u8], value: &[u8]) {
        if !matches!(key, b"fn" | b"fl" | b"fi" | b"fe" | b"ob") {
            self.use_declared();
        }
        match key {
            b"ob" => {
                if let Some(id) = self.name(Space::Object, value) {
                    self.at.obj = ObjId(id);
                }
            }
            b"fl" => {
                if let Some(id) = self.name(Space::File, value) {
                    self.at.function_file(FileId(id));
                }
            }
            b"fi" | b"fe" => {
                if let Some(id) = self.name(Space::File, value) {
                    self.at.line_file = FileId(id);
                }
            }
            b"fn" => {
                // An unreadable name still starts a new function: its costs
                // go to `???`, never to the function before it.
                let name = self.name(Space::Function, value);
                let id = name.unwrap_or_else(|| self.profile.fn_names.intern(UNREADABLE_FUNCTION));
                // Created by the first line that uses it: yappi declares
                // every name up front under whatever `fl=` came last, and
                // such a declaration alone is no function of the profile.
                self.at.func = None;
                self.declared = Some((id, self.at.fn_file, self.at.obj));
                self.at.new_function();
            }
            b"cob" => {
                let obj = self.name(Space::Object, value).map(ObjId);
                self.at.call_object(obj);
            }
            b"cfi" | b"cfl" => {
                let file = self.name(Space::File, value).map(FileId);
                self.at.call_file(file);
            }
            b"cfn" => {
                if let Some(id) = self.name(Space::Function, value) {
                    let (file, obj) = self.at.callee_place();
                    self.at.callee = Some(self.profile.function_id(id, file, obj));
                }
            }
            b"jfi" => {
                let file = self.name(Space::File, value).map(FileId);
                self.at.jump_file(file);
            }
            b"jfn" => {
                let name = self.name(Space::Function, value);
                self.at.jump_function(name);
            }
            b"calls" => self.calls(value),
            b"jump" | b"jcnd" => self.jump(key == b"jcnd", value),
            _ => self.warn_once(key, "line", '='),
        }
    }

    /// Creates the function declared by the last `fn=`, now that a line
    /// uses it (the parallel scanner does the same, so both paths number
    /// functions alike).
    pub(super) fn use_declared(&mut self) {
        if let Some((name, file, obj)) = self.declared.take() {
            self.at.func = Some(self.profile.function_id(name, file, obj));
        }
    }

    /// Resolves `(id) name`, `(id)` or `name` in an ID space to an interned id.
    fn name(&mut self, space: Space, value: &[u8]) -> Option<u32> {
        let Ok((_, (id, name))) = lines::compressed_name(value) else {
            self.error(messages::UNREADABLE_NAME.into());
            return None;
        };
        let interner = match space {
            Space::File => &mut self.profile.files,
            Space::Object => &mut self.profile.objects,
            Space::Function => &mut self.profile.fn_names,
        };
        let table = match space {
            Space::File => &mut self.files,
            Space::Object => &mut self.objects,
            Space::Function => &mut self.fns,
        };
        let Some(id) = id else {
            return Some(interner.intern_bytes(name));
        };
        if id.overflow {
            self.error(messages::NAME_ID_BEYOND_64_BITS.into());
            return None;
        }
        if !name.is_empty() {
            let interned = interner.intern_bytes(name);
            table.define(id.value, interned);
            return Some(interned);
        }
        if let Some(interned) = table.get(id.value) {
            return Some(interned);
        }
        // Used before defined: keep going under a visible placeholder name.
        let placeholder = interner.intern(&crate::parse::idmap::placeholder(id.value));
        table.define(id.value, placeholder);
        self.warn(messages::used_before_defined(id.value));
        Some(placeholder)
    }

    /// Decodes target subpositions (fewer than declared are allowed: the rest
    /// repeat the last position) without moving the last position.
    fn target(&mut self, text: &[u8]) -> Option<[u64; 3]> {
        let mut out = self.last;
        let mut rest = text.trim_ascii();
        for (k, slot) in out.iter_mut().enumerate().take(self.part.positions.count()) {
            if rest.is_empty() {
                break;
            }
            let Ok((r, p)) = lines::subpos(rest) else {
                self.error(messages::unreadable_target(rest));
                return None;
            };
            *slot = self.resolve(k, p)?;
            rest = r.trim_ascii_start();
        }
        Some(out)
    }

    fn resolve(&mut self, column: usize, p: SubPos) -> Option<u64> {
        let last = self.last[column];
        let value = match p {
            SubPos::Abs(v) => Some(v),
            SubPos::Same => Some(last),
            SubPos::Rel {
                negative: false,
                delta,
            } => last.checked_add(delta),
            SubPos::Rel {
                negative: true,
                delta,
            } => last.checked_sub(delta),
        };
        if value.is_none() {
            self.error(messages::position_out_of_range(p, last));
        }
        value
    }

    fn calls(&mut self, value: &[u8]) {
        let Ok((rest, count)) = lines::count_then_target(value) else {
            self.error(messages::UNREADABLE_CALL_COUNT.into());
            self.pending = Pending::SkipNext;
            return;
        };
        let Some(callee) = self.at.callee else {
            self.error(messages::CALL_WITHOUT_CALLEE.into());
            self.pending = Pending::SkipNext;
            return;
        };
        let Some(target) = self.target(rest) else {
            self.pending = Pending::SkipNext;
            return;
        };
        if count.overflow {
            self.warn(messages::SATURATED_CALL_COUNT.into());
        }
        self.pending = Pending::Call {
            callee,
            count: count.value,
            target,
        };
    }

    fn jump(&mut self, conditional: bool, value: &[u8]) {
        let parsed = lines::jump_counts(conditional, value).map(|(r, (t, e))| {
            let overflow = t.overflow || e.is_some_and(|e| e.overflow);
            (r, t.value, e.map(|e| e.value), overflow)
        });
        // A jump that cannot be used still owns its position row.
        let Ok((rest, taken, executed, overflow)) = parsed else {
            let key = if conditional { "jcnd" } else { "jump" };
            self.pending = Pending::SkipJumpRow;
            return self.error(messages::unreadable_jump_counts(key));
        };
        if overflow {
            self.warn(messages::SATURATED_JUMP_COUNT.into());
        }
        let Some(func) = self.at.func else {
            self.pending = Pending::SkipJumpRow;
            return self.error(messages::JUMP_WITHOUT_FUNCTION.into());
        };
        let Some(target) = self.target(rest) else {
            self.pending = Pending::SkipJumpRow;
            return;
        };
        let profile = &mut *self.profile;
        let function = |name, file, obj| profile.function_id(name, file, obj);
        self.pending = self.at.jump(func, (target, taken, executed), function);
    }

    /// Records the pending jump as made from position `at`.
    pub(super) fn push_jump(&mut self, at: [u64; 3]) {
        if let Some(jump) = self.at.take_jump(&mut self.pending, at) {
            let record = jump.record(self.part.positions);
            self.part.detail.push_jump(&record);
            self.part_has_data = true;
        }
    }

    /// Adds `costs` to `func`'s self cost row in the current part; true if
    /// a sum saturated.
    pub(super) fn add_self(&mut self, func: FnId, costs: &[Cost]) -> bool {
        self.self_rows().add(func, costs)
    }

    /// The current part's self-cost rows, unshared once here rather than on
    /// every row added (an atomic operation each).
    pub(super) fn self_rows(&mut self) -> SelfRows<'_> {
        SelfRows {
            width: self.part.width(),
            row_of: &mut self.row_of,
            fns: &mut self.part.self_fns,
            costs: std::sync::Arc::make_mut(&mut self.part.self_costs),
            careful: false,
        }
    }

    /// Adds a call site's count and cost to its (caller, callee) edge; true
    /// if a sum saturated, or, if `careful`, was not within care before
    /// (`parallel::sums::within_care`).
    pub(super) fn add_edge(
        &mut self,
        (caller, callee, count): (FnId, FnId, u64),
        costs: &[Cost],
        careful: bool,
    ) -> bool {
        let width = self.part.width();
        // The part is not shared while it is being loaded: no copies.
        let edges = std::sync::Arc::make_mut(&mut self.part.edges);
        let edge_costs = std::sync::Arc::make_mut(&mut self.part.edge_costs);
        let next = edges.len() as u32;
        let (e, new) = (self.edge_index)
            .get_or_insert(caller.0, callee.0, next, |e| edges[e as usize].callee.0);
        let e = e as usize;
        if new {
            edges.push(PartEdge {
                caller,
                callee,
                count: 0,
            });
            edge_costs.resize(edge_costs.len() + width, 0);
        }
        let sums = &mut edge_costs[e * width..(e + 1) * width];
        if careful && !within_care(sums) {
            return true;
        }
        let edge = &mut edges[e];
        let overflow = edge.count.checked_add(count).is_none();
        edge.count = edge.count.saturating_add(count);
        saturating_add(&mut edge_costs[e * width..(e + 1) * width], costs) || overflow
    }

    /// Warns, once per file, that a sum reached the limit of a cost.
    pub(super) fn sum_saturated(&mut self) {
        if !self.saturated_warned {
            self.saturated_warned = true;
            self.warn(messages::SUM_SATURATED.into());
        }
    }

    /// Splits decoded columns into (instruction address, line number).
    fn addr_line(&self, at: [u64; 3]) -> (u64, u64) {
        self.part.positions.addr_line(at)
    }

    /// The common case, fast: a plain cost line (nothing pending, a current
    /// function) already split into `fields`, applied with no intermediate
    /// values. Returns false, having changed nothing, on anything unusual
    /// (more counters than events, a position below zero, a relative
    /// counter): `cost_line` then reads the line again and reports it, so
    /// both paths mean exactly the same.
    pub(super) fn apply_fields(&mut self, fields: &[Field]) -> bool {
        const MAX_WIDTH: usize = 16;
        let (Some(func), Pending::None) = (self.at.func, self.pending) else {
            return false;
        };
        let width = self.part.width();
        let npos = self.part.positions.count();
        if width > MAX_WIDTH || !self.events_declared || fields.len() < npos {
            return false;
        }
        let (positions, counters) = fields.split_at(npos);
        if counters.len() > width {
            return false;
        }
        let mut at = self.last;
        for (column, field) in at.iter_mut().zip(positions) {
            let value = match *field {
                Field::Same => Some(*column),
                Field::Plus(d) => column.checked_add(d),
                Field::Minus(d) => column.checked_sub(d),
                Field::Abs(v) => Some(v),
            };
            let Some(value) = value else { return false };
            *column = value;
        }
        let mut costs = [0i64; MAX_WIDTH];
        for (slot, field) in costs.iter_mut().zip(counters) {
            *slot = match *field {
                Field::Abs(v) => v as i64,
                Field::Minus(v) => -(v as i64),
                Field::Same | Field::Plus(_) => return false,
            };
        }
        let costs = &costs[..counters.len()];
        self.last = at;
        let (addr, line_no) = self.addr_line(at);
        if self.add_self(func, costs) {
            self.sum_saturated();
        }
        let record = LineCost {
            func,
            file: self.at.line_file,
            line: line_no,
            addr,
        };
        self.part.detail.push_line(&record, costs);
        self.part_has_data = true;
        true
    }

    pub(super) fn cost_line(&mut self, line: &[u8]) {
        if !self.events_declared {
            return self.error(messages::COST_LINE_BEFORE_EVENTS.into());
        }
        let npos = self.part.positions.count();
        let mut pos = self.pos;
        let mut costs = std::mem::take(&mut self.costs);
        let parsed = lines::cost_line(line, npos, &mut pos, &mut costs);
        self.cost_row(parsed, pos, &costs);
        self.costs = costs;
    }

    fn cost_row(&mut self, parsed: Result<usize, &[u8]>, pos: [SubPos; 3], costs: &[i64]) {
        let mut pending = std::mem::replace(&mut self.pending, Pending::None);
        if matches!(pending, Pending::SkipJumpRow) {
            if costs.is_empty() {
                return;
            }
            pending = Pending::None;
        }
        let overflows = match parsed {
            Ok(n) => n,
            Err(at) => return self.error(messages::unreadable_cost_line(at)),
        };
        let mut at = self.last;
        for (k, p) in pos.iter().enumerate().take(self.part.positions.count()) {
            match self.resolve(k, *p) {
                Some(v) => at[k] = v,
                None => return,
            }
        }
        let width = self.part.width();
        if overflows > 0 {
            self.warn(messages::saturated_counters(overflows));
        }
        if costs.len() > width {
            self.warn(messages::extra_counters(costs.len(), width));
        }
        let costs = &costs[..costs.len().min(width)];
        let (addr, line) = self.addr_line(at);
        match pending {
            Pending::Call {
                callee,
                count,
                target,
            } => {
                let Some(caller) = self.at.func else {
                    return self.error(messages::CALL_WITHOUT_FUNCTION.into());
                };
                let (target_addr, target_line) = self.addr_line(target);
                let site = CallSite {
                    caller,
                    callee,
                    count,
                    file: self.at.line_file,
                    line,
                    addr,
                    target_line,
                    target_addr,
                };
                self.part.detail.push_call(&site, costs);
                if self.add_edge((caller, callee, count), costs, false) {
                    self.sum_saturated();
                }
                self.part_has_data = true;
            }
            Pending::Jump { .. } => {
                self.pending = pending;
                self.push_jump(at);
            }
            Pending::SkipNext | Pending::SkipJumpRow => {}
            Pending::None => {
                let Some(func) = self.at.func else {
                    return self.error(messages::COST_LINE_WITHOUT_FUNCTION.into());
                };
                self.last = at;
                if self.add_self(func, costs) {
                    self.sum_saturated();
                }
                let record = LineCost {
                    func,
                    file: self.at.line_file,
                    line,
                    addr,
                };
                self.part.detail.push_line(&record, costs);
                self.part_has_data = true;
            }
        }
    }
}

/// The self-cost rows of the part being loaded, and which row each
/// function has.
pub(super) struct SelfRows<'a> {
    width: usize,
    row_of: &'a mut Vec<u32>,
    fns: &'a mut Vec<FnId>,
    costs: &'a mut Vec<Cost>,
    /// Whether a row not within care counts as saturated (`add_edge`).
    pub careful: bool,
}

impl SelfRows<'_> {
    /// Adds `costs` to `func`'s row, made if it has none; true if a sum
    /// saturated.
    pub(super) fn add(&mut self, func: FnId, costs: &[Cost]) -> bool {
        let (width, i) = (self.width, func.index());
        if i >= self.row_of.len() {
            self.row_of.resize(i + 1, super::NO_ROW);
        }
        let row = match self.row_of[i] {
            super::NO_ROW => {
                let row = self.fns.len();
                self.fns.push(func);
                self.costs.resize((row + 1) * width, 0);
                self.row_of[i] = row as u32;
                row
            }
            row => row as usize,
        };
        let sums = &mut self.costs[row * width..(row + 1) * width];
        if self.careful && !within_care(sums) {
            return true;
        }
        saturating_add(sums, costs)
    }
}

/// Adds `costs` into `sums`, saturating; true if any sum saturated.
fn saturating_add(sums: &mut [Cost], costs: &[Cost]) -> bool {
    let mut saturated = false;
    for (s, &c) in sums.iter_mut().zip(costs) {
        saturated |= s.checked_add(c).is_none();
        *s = s.saturating_add(c);
    }
    saturated
}
