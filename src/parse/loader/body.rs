//! Body lines: position specs (`fn=`, `cfi=`, ...), associations (`calls=`,
//! `jump=`, `jcnd=`) and cost lines.

use super::{Loader, Pending, Space};
use crate::parse::lines::{self, SubPos};
use crate::profile::{CallSite, Cost, FileId, FnId, Jump, LineCost, ObjId, PartEdge};

impl Loader<'_> {
    pub(super) fn spec(&mut self, key: &[u8], value: &[u8]) {
        match key {
            b"ob" => {
                if let Some(id) = self.name(Space::Object, value) {
                    self.obj = ObjId(id);
                }
            }
            b"fl" => {
                if let Some(id) = self.name(Space::File, value) {
                    self.fn_file = FileId(id);
                    self.line_file = FileId(id);
                }
            }
            b"fi" | b"fe" => {
                if let Some(id) = self.name(Space::File, value) {
                    self.line_file = FileId(id);
                }
            }
            b"fn" => {
                // An unreadable name still starts a new function: its costs
                // go to `???`, never to the function before it.
                let name = self.name(Space::Function, value);
                let id = name.unwrap_or_else(|| self.profile.fn_names.intern("???"));
                self.func = Some(self.profile.function_id(id, self.fn_file, self.obj));
                // A function's lines start in its own file (KCachegrind does the same).
                self.line_file = self.fn_file;
                self.callee = None;
                self.call_file = None;
                self.call_obj = None;
                self.jump_file = None;
                self.jump_fn = None;
            }
            b"cob" => self.call_obj = self.name(Space::Object, value).map(ObjId),
            b"cfi" | b"cfl" => self.call_file = self.name(Space::File, value).map(FileId),
            b"cfn" => {
                if let Some(id) = self.name(Space::Function, value) {
                    // Without `cfi=` the callee is in the current (possibly inlined)
                    // file: that is what Valgrind's writer leaves out.
                    let file = self.call_file.take().unwrap_or(self.line_file);
                    let obj = self.call_obj.take().unwrap_or(self.obj);
                    self.callee = Some(self.profile.function_id(id, file, obj));
                }
            }
            b"jfi" => self.jump_file = self.name(Space::File, value).map(FileId),
            b"jfn" => self.jump_fn = self.name(Space::Function, value),
            b"calls" => self.calls(value),
            b"jump" | b"jcnd" => self.jump(key == b"jcnd", value),
            _ => self.warn_once(key, "line", '='),
        }
    }

    /// Resolves `(id) name`, `(id)` or `name` in an ID space to an interned id.
    fn name(&mut self, space: Space, value: &[u8]) -> Option<u32> {
        let Ok((_, (id, name))) = lines::compressed_name(value) else {
            self.error("cannot read name".into());
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
            return Some(interner.intern(&String::from_utf8_lossy(name)));
        };
        if id.overflow {
            self.error("name ID does not fit in 64 bits".into());
            return None;
        }
        if !name.is_empty() {
            let interned = interner.intern(&String::from_utf8_lossy(name));
            table.define(id.value, interned);
            return Some(interned);
        }
        if let Some(interned) = table.get(id.value) {
            return Some(interned);
        }
        // Used before defined: keep going under a visible placeholder name.
        let placeholder = interner.intern(&format!("({})", id.value));
        table.define(id.value, placeholder);
        self.warn(format!("name ({}) used before it was defined", id.value));
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
                self.error(format!(
                    "cannot read target position `{}`",
                    String::from_utf8_lossy(rest)
                ));
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
            self.error(format!(
                "relative position goes {} (last was {last})",
                if matches!(p, SubPos::Rel { negative: true, .. }) {
                    "below zero"
                } else {
                    "beyond 64 bits"
                }
            ));
        }
        value
    }

    fn calls(&mut self, value: &[u8]) {
        let Ok((rest, count)) = lines::count_then_target(value) else {
            self.error("cannot read `calls=` count".into());
            self.pending = Pending::SkipNext;
            return;
        };
        let Some(callee) = self.callee else {
            self.error("`calls=` without a `cfn=` before it".into());
            self.pending = Pending::SkipNext;
            return;
        };
        let Some(target) = self.target(rest) else {
            self.pending = Pending::SkipNext;
            return;
        };
        self.pending = Pending::Call {
            callee,
            count: count.value,
            target,
        };
    }

    fn jump(&mut self, conditional: bool, value: &[u8]) {
        let parsed = if conditional {
            lines::jcnd_counts(value).map(|(r, (t, e))| (r, t.value, Some(e.value)))
        } else {
            lines::count_then_target(value).map(|(r, t)| (r, t.value, None))
        };
        // A jump that cannot be used still owns its position row.
        let Ok((rest, taken, executed)) = parsed else {
            let key = if conditional { "jcnd" } else { "jump" };
            self.pending = Pending::SkipJumpRow;
            return self.error(format!("cannot read `{key}=` counts"));
        };
        let Some(func) = self.func else {
            self.pending = Pending::SkipJumpRow;
            return self.error("jump before any `fn=`".into());
        };
        let Some(target) = self.target(rest) else {
            self.pending = Pending::SkipJumpRow;
            return;
        };
        let target_file = self.jump_file.take().unwrap_or(self.line_file);
        let target_func = match self.jump_fn.take() {
            Some(name) => self.profile.function_id(name, target_file, self.obj),
            None => func,
        };
        self.pending = Pending::Jump {
            target_func,
            target_file,
            target,
            taken,
            executed,
        };
    }

    /// Records the pending jump as made from position `at`.
    pub(super) fn push_jump(&mut self, at: [u64; 3]) {
        let (
            Pending::Jump {
                target_func,
                target_file,
                target,
                taken,
                executed,
            },
            Some(func),
        ) = (self.pending, self.func)
        else {
            return;
        };
        let (addr, line) = self.addr_line(at);
        let (target_addr, target_line) = self.addr_line(target);
        self.part.detail.push_jump(&Jump {
            func,
            file: self.line_file,
            line,
            addr,
            target_func,
            target_file,
            target_line,
            target_addr,
            taken,
            executed,
        });
        self.part_has_data = true;
    }

    /// Adds a call site's count and cost to its (caller, callee) edge.
    fn add_edge(&mut self, caller: FnId, callee: FnId, count: u64, costs: &[Cost]) {
        let width = self.part.width();
        let next = self.part.edges.len() as u32;
        let e = *self.edge_index.entry((caller.0, callee.0)).or_insert(next) as usize;
        if e == self.part.edges.len() {
            self.part.edges.push(PartEdge {
                caller,
                callee,
                count: 0,
            });
            self.part
                .edge_costs
                .resize(self.part.edge_costs.len() + width, 0);
        }
        let edge = &mut self.part.edges[e];
        edge.count = edge.count.saturating_add(count);
        for (s, c) in self.part.edge_costs[e * width..(e + 1) * width]
            .iter_mut()
            .zip(costs)
        {
            *s = s.saturating_add(*c);
        }
    }

    /// Splits decoded columns into (instruction address, line number).
    fn addr_line(&self, at: [u64; 3]) -> (u64, u64) {
        let p = self.part.positions;
        let addr = if p.instr { at[0] } else { 0 };
        let line = if p.line { at[p.count() - 1] } else { 0 };
        (addr, line)
    }

    /// The common case, fast: a plain cost line (nothing pending, a current
    /// function) whose fields are all well-formed, parsed and applied in one
    /// pass with no intermediate values. Returns false, having changed
    /// nothing, on anything unusual (overflow, more counters than events, a
    /// position below zero, stray bytes): `cost_line` then handles and
    /// reports it, so both paths mean exactly the same.
    pub(super) fn fast_cost_line(&mut self, line: &[u8]) -> bool {
        const MAX_WIDTH: usize = 16;
        let (Some(func), Pending::None) = (self.func, self.pending) else {
            return false;
        };
        let width = self.part.width();
        let npos = self.part.positions.count();
        if width > MAX_WIDTH || !self.events_declared {
            return false;
        }
        let mut at = self.last;
        let mut i = 0;
        for column in at.iter_mut().take(npos) {
            let value = match line.get(i) {
                Some(b'*') => {
                    i += 1;
                    Some(*column)
                }
                Some(b'+') => digits(line, &mut i, 1).and_then(|d| column.checked_add(d)),
                Some(b'-') => digits(line, &mut i, 1).and_then(|d| column.checked_sub(d)),
                _ => absolute(line, &mut i),
            };
            let Some(value) = value else { return false };
            *column = value;
            if !blanks(line, &mut i) {
                return false;
            }
        }
        let mut costs = [0i64; MAX_WIDTH];
        let mut n = 0;
        while i < line.len() {
            let negative = line[i] == b'-';
            let Some(v) = digits(line, &mut i, usize::from(negative)) else {
                return false;
            };
            if n == width || !blanks(line, &mut i) {
                return false;
            }
            costs[n] = if negative { -(v as i64) } else { v as i64 };
            n += 1;
        }
        self.last = at;
        let (addr, line_no) = self.addr_line(at);
        let row = func.index() * width;
        if self.part.self_costs.len() < row + width {
            self.part.self_costs.resize(row + width, 0);
        }
        for (s, c) in self.part.self_costs[row..row + width]
            .iter_mut()
            .zip(&costs[..n])
        {
            *s = s.saturating_add(*c);
        }
        let record = LineCost {
            func,
            file: self.line_file,
            line: line_no,
            addr,
        };
        self.part.detail.push_line(&record, &costs[..n]);
        self.part_has_data = true;
        true
    }

    pub(super) fn cost_line(&mut self, line: &[u8]) {
        if !self.events_declared {
            return self.error("cost line before the `events:` header".into());
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
            Err(at) => {
                let shown = String::from_utf8_lossy(&at[..at.len().min(30)]).into_owned();
                return self.error(format!(
                    "cannot read cost line at `{}`",
                    shown.escape_debug()
                ));
            }
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
            self.warn(format!("{overflows} counter(s) beyond 64 bits saturated"));
        }
        if costs.len() > width {
            self.warn(format!(
                "{} counters but {width} events; the extra ones are ignored",
                costs.len()
            ));
        }
        let costs = &costs[..costs.len().min(width)];
        let (addr, line) = self.addr_line(at);
        match pending {
            Pending::Call {
                callee,
                count,
                target,
            } => {
                let Some(caller) = self.func else {
                    return self.error("call before any `fn=`".into());
                };
                let (target_addr, target_line) = self.addr_line(target);
                let site = CallSite {
                    caller,
                    callee,
                    count,
                    file: self.line_file,
                    line,
                    addr,
                    target_line,
                    target_addr,
                };
                self.part.detail.push_call(&site, costs);
                self.add_edge(caller, callee, count, costs);
                self.part_has_data = true;
            }
            Pending::Jump { .. } => {
                self.pending = pending;
                self.push_jump(at);
                self.pending = Pending::None;
            }
            Pending::SkipNext | Pending::SkipJumpRow => {}
            Pending::None => {
                let Some(func) = self.func else {
                    return self.error("cost line before any `fn=`".into());
                };
                self.last = at;
                let row = func.index() * width;
                if self.part.self_costs.len() < row + width {
                    self.part.self_costs.resize(row + width, 0);
                }
                for (s, c) in self.part.self_costs[row..row + width].iter_mut().zip(costs) {
                    *s = s.saturating_add(*c);
                }
                let record = LineCost {
                    func,
                    file: self.line_file,
                    line,
                    addr,
                };
                self.part.detail.push_line(&record, costs);
                self.part_has_data = true;
            }
        }
    }
}

/// Decimal digits at `*i + skip`, at most 18 of them (so no overflow: longer
/// numbers go to the general path, which saturates and warns).
#[inline(always)]
fn digits(line: &[u8], i: &mut usize, skip: usize) -> Option<u64> {
    let start = *i + skip;
    let mut v: u64 = 0;
    let mut j = start;
    while let Some(&b) = line.get(j) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        if j - start == 18 {
            return None;
        }
        v = v * 10 + u64::from(d);
        j += 1;
    }
    if j == start {
        return None;
    }
    *i = j;
    Some(v)
}

/// An absolute subposition: decimal, or `0x` hex of at most 15 digits.
#[inline(always)]
fn absolute(line: &[u8], i: &mut usize) -> Option<u64> {
    let rest = line.get(*i..)?;
    if rest.len() > 2 && rest[0] == b'0' && rest[1] == b'x' {
        let len = rest[2..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        if len == 0 || len > 15 {
            return None;
        }
        let mut v = 0u64;
        for &b in &rest[2..2 + len] {
            let d = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                _ => b - b'A' + 10,
            };
            v = v << 4 | u64::from(d);
        }
        *i += 2 + len;
        return Some(v);
    }
    digits(line, i, 0)
}

/// After a field: at least one blank, or the end of the line.
#[inline(always)]
fn blanks(line: &[u8], i: &mut usize) -> bool {
    let start = *i;
    while matches!(line.get(*i), Some(b' ' | b'\t')) {
        *i += 1;
    }
    *i > start || *i == line.len()
}
