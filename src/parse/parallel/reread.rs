//! A part's per-line detail read again from its file: the `fn=` blocks of
//! one function (or all of them), scanned from their recorded starting state
//! by the same `Scanner` that loaded them, with names resolved read-only
//! against the profile.

use super::Bail;
use super::lines_of::scan_range;
use super::local::{Entry, Space, Tables};
use super::scan::{Continued, Last, LocalCall, LocalJump, Scanner, Sink};
use crate::parse::IdMap;
use crate::parse::context::JumpMade;
use crate::parse::loader::{Loader, SectionNames};
use crate::parse::text::{Stamp, Text};
use crate::profile::{
    CallSite, Cost, FileId, FnId, Interner, LineCost, ObjId, Positions, Profile, Record, Reread,
    reserve_toward,
};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

/// Where each `fn=` block of a part starts (byte offset, to the next
/// block or the end) and the positions current there, a column each: a
/// profile of millions of tiny functions pays 9 bytes a block, and 4 more
/// per position column (twice that for offsets or positions beyond 32
/// bits). The object and file current at a block's start are its
/// function's. `F` is the function id (local to a chunk while loading).
#[derive(Debug)]
pub struct Blocks<F = FnId> {
    pub funcs: Vec<F>,
    starts: Column,
    /// Which position columns are known where each starts (a bit each).
    known: Vec<u8>,
    /// `npos` values a block.
    lasts: Column,
    npos: usize,
}

/// Numbers kept in four bytes each while all of them fit, eight after.
#[derive(Debug)]
enum Column {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Column {
    fn len(&self) -> usize {
        match self {
            Column::Narrow(v) => v.len(),
            Column::Wide(v) => v.len(),
        }
    }

    fn reserve(&mut self, n: usize, expected: usize) {
        match self {
            Column::Narrow(v) => reserve_toward(v, n, expected),
            Column::Wide(v) => reserve_toward(v, n, expected),
        }
    }

    fn shrink_to_fit(&mut self) {
        match self {
            Column::Narrow(v) => v.shrink_to_fit(),
            Column::Wide(v) => v.shrink_to_fit(),
        }
    }

    fn get(&self, i: usize) -> Option<u64> {
        match self {
            Column::Narrow(v) => v.get(i).map(|&x| u64::from(x)),
            Column::Wide(v) => v.get(i).copied(),
        }
    }

    fn push(&mut self, x: u64) {
        match self {
            Column::Narrow(v) => match u32::try_from(x) {
                Ok(x) => v.push(x),
                Err(_) => {
                    let mut wide = Vec::with_capacity(v.capacity());
                    wide.extend(v.iter().map(|&x| u64::from(x)));
                    wide.push(x);
                    *self = Column::Wide(wide);
                }
            },
            Column::Wide(v) => v.push(x),
        }
    }

    fn extend(&mut self, other: &Column) {
        match (&mut *self, other) {
            (Column::Narrow(v), Column::Narrow(o)) => v.extend_from_slice(o),
            (Column::Wide(v), Column::Wide(o)) => v.extend_from_slice(o),
            (Column::Wide(v), Column::Narrow(o)) => v.extend(o.iter().map(|&x| u64::from(x))),
            (Column::Narrow(_), Column::Wide(o)) => o.iter().for_each(|&x| self.push(x)),
        }
    }
}

impl<F> Blocks<F> {
    pub fn new(npos: usize) -> Self {
        Blocks {
            funcs: Vec::new(),
            starts: Column::Narrow(Vec::new()),
            known: Vec::new(),
            lasts: Column::Narrow(Vec::new()),
            npos: npos.min(3),
        }
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Gives back the room made toward a guess and not used.
    fn shrink_to_fit(&mut self) {
        self.funcs.shrink_to_fit();
        self.starts.shrink_to_fit();
        self.known.shrink_to_fit();
        self.lasts.shrink_to_fit();
    }

    /// Makes room for `n` more blocks.
    pub fn reserve(&mut self, n: usize) {
        self.funcs.reserve(n);
        self.starts.reserve(n, 0);
        self.known.reserve(n);
        self.lasts.reserve(n * self.npos, 0);
    }

    pub fn is_empty(&self) -> bool {
        self.starts.len() == 0
    }

    /// Where block `b` starts.
    pub fn start(&self, b: usize) -> Option<u64> {
        self.starts.get(b)
    }

    pub fn push(&mut self, func: F, start: u64, last: Last) {
        self.funcs.push(func);
        self.starts.push(start);
        self.known.push(last.known);
        last.at[..self.npos]
            .iter()
            .for_each(|&at| self.lasts.push(at));
    }

    /// Appends `other`'s blocks, their functions mapped by `func`, making
    /// room toward `expected` blocks in all (`reserve_toward`).
    pub fn append<G: Copy>(&mut self, other: Blocks<G>, func: impl Fn(G) -> F, expected: usize) {
        let n = other.len();
        reserve_toward(&mut self.funcs, n, expected);
        self.starts.reserve(n, expected);
        reserve_toward(&mut self.known, n, expected);
        self.lasts.reserve(other.lasts.len(), expected * self.npos);
        self.funcs.extend(other.funcs.iter().map(|&g| func(g)));
        self.starts.extend(&other.starts);
        self.known.extend_from_slice(&other.known);
        self.lasts.extend(&other.lasts);
    }

    /// Where block `b` starts from.
    fn last(&self, b: usize) -> Last {
        let mut at = [0; 3];
        for (i, at) in at[..self.npos].iter_mut().enumerate() {
            *at = self.lasts.get(b * self.npos + i).unwrap_or(0);
        }
        Last {
            at,
            known: self.known[b],
        }
    }
}

/// The file a part's records are read again from, shared by the file's
/// parts: a copy of its path and name in each of a hundred thousand tiny
/// parts was a tenth of what they cost.
#[derive(Debug)]
pub struct Origin {
    pub text: Text,
    /// The file's name in messages.
    pub name: String,
    /// Size and modification time when loaded: a changed file is not read.
    pub stamp: Stamp,
}

/// Where a part's records are, to be read again.
#[derive(Debug)]
pub struct LazyDetail {
    origin: Arc<Origin>,
    /// Where the part's last block ends (the file's end, or the next
    /// section's header).
    end: u64,
    positions: Positions,
    width: usize,
    /// Name-compression tables (files, objects, functions) at the end of
    /// the section, shared by its parts.
    tables: SectionNames,
    /// The blocks, their functions taken out to `funcs`.
    blocks: Blocks,
    /// Where the first block starts from, if it goes on with the function
    /// the part before left current (`Scanner::continue_from`). Boxed:
    /// most parts start with `fn=`, and it is a third of a part's detail.
    continued: Option<Box<Continued>>,
    /// The function of each block; empty when block `b` is function `b`
    /// (a Cachegrind file, where each function is one block).
    funcs: Vec<FnId>,
    /// Block indexes sorted by function; empty when the blocks already are
    /// (as in Valgrind's files, where a function's lines come together).
    by_func: Vec<u32>,
}

impl LazyDetail {
    pub fn new(
        origin: &Arc<Origin>,
        loader: &Loader<'_>,
        (width, end): (usize, u64),
        (mut blocks, continued): (Blocks, Option<Continued>),
    ) -> Self {
        let mut funcs = std::mem::take(&mut blocks.funcs);
        if funcs.iter().enumerate().all(|(b, f)| f.index() == b) {
            funcs = Vec::new();
        }
        let by_func = if funcs.is_sorted() {
            Vec::new()
        } else {
            crate::profile::order_by_function(&funcs)
        };
        blocks.shrink_to_fit();
        let positions = loader.part_positions();
        LazyDetail {
            origin: Arc::clone(origin),
            end,
            positions,
            width,
            tables: loader.section_names(),
            blocks,
            continued: continued.map(Box::new),
            funcs,
            by_func,
        }
    }

    /// The section's name tables: filled when it ended, before any view
    /// could ask.
    fn tables(&self) -> Result<&[IdMap; 3], Bail> {
        (self.tables.get()).ok_or(Bail("the section's name tables are not kept"))
    }

    /// The function block `b` belongs to.
    fn func_of(&self, b: usize) -> FnId {
        self.funcs.get(b).copied().unwrap_or(FnId::from_index(b))
    }

    fn unchanged(&self) -> Result<(), String> {
        let now = (self.origin.text.stamp()).map_err(|e| self.cannot(&e.to_string()))?;
        if now != Some(self.origin.stamp) {
            return Err(self.cannot("it changed since it was loaded"));
        }
        Ok(())
    }

    fn cannot(&self, why: &str) -> String {
        format!(
            "{}: per-line costs cannot be read again: {why}",
            self.origin.name
        )
    }

    /// Scans bytes `start..end` from `block`'s state, handing records to `visit`.
    fn scan(
        &self,
        profile: &Profile,
        b: usize,
        end: u64,
        visit: &mut dyn FnMut(Record<'_>),
    ) -> Result<(), String> {
        let function = profile.functions[self.func_of(b).index()];
        let start = self.blocks.starts.get(b).unwrap_or(self.end);
        let sink = Records {
            profile,
            detail: self,
            from: start,
            obj: function.object,
            fn_file: function.file,
            resolved: Default::default(),
            costs: Vec::new(),
            visit,
        };
        let npos = self.positions.count();
        let mut scanner = Scanner::new(sink, npos, self.width, self.blocks.last(b));
        if let (0, Some(continued)) = (b, &self.continued) {
            scanner.continue_from(continued, start);
        }
        scanner.ends_before_a_line = true;
        let read = AtomicU64::new(0);
        match scan_range(&self.origin.text, start, end, &mut scanner, &read) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(Bail(why))) => Err(self.cannot(why)),
            Err(e) => Err(self.cannot(&e.to_string())),
        }
    }
}

impl Reread for LazyDetail {
    fn reread(
        &self,
        profile: &Profile,
        only: Option<FnId>,
        visit: &mut dyn FnMut(Record<'_>),
    ) -> Result<(), String> {
        self.unchanged()?;
        let Some(f) = only else {
            // Every record: one scan from the first block to the end.
            return match self.blocks.is_empty() {
                false => self.scan(profile, 0, self.end, visit),
                true => Ok(()),
            };
        };
        let (funcs, starts) = (&self.funcs, &self.blocks.starts);
        let blocks: Vec<usize> = if funcs.is_empty() {
            (f.index() < self.blocks.len())
                .then_some(f.index())
                .into_iter()
                .collect()
        } else if self.by_func.is_empty() {
            let from = funcs.partition_point(|&g| g < f);
            (from..funcs.len()).take_while(|&b| funcs[b] == f).collect()
        } else {
            let from = self.by_func.partition_point(|&b| funcs[b as usize] < f);
            (self.by_func[from..].iter().map(|&b| b as usize))
                .take_while(|&b| funcs[b] == f)
                .collect()
        };
        for b in blocks {
            let end = starts.get(b + 1).unwrap_or(self.end);
            self.scan(profile, b, end, visit)?;
        }
        Ok(())
    }
}

/// Local ids resolved so far (objects, files, names, functions).
#[derive(Default)]
struct Resolved {
    objs: Vec<Option<u32>>,
    files: Vec<Option<u32>>,
    names: Vec<Option<u32>>,
    fns: Vec<Option<FnId>>,
}

/// The `Sink` of a re-read: records with the profile's ids.
struct Records<'a> {
    profile: &'a Profile,
    detail: &'a LazyDetail,
    /// Where the scan starts.
    from: u64,
    obj: ObjId,
    fn_file: FileId,
    resolved: Resolved,
    costs: Vec<Cost>,
    visit: &'a mut dyn FnMut(Record<'_>),
}

/// The global id of entry `i` of `space`, looked up (never created): an
/// ID defined before the scan by the name it had where the scan starts
/// (`from`), one defined in it by the name it was given.
fn lookup(
    cache: &mut Vec<Option<u32>>,
    (space, i): (&Space, u32),
    inherited: u32,
    (table, from): (&IdMap, u64),
    interner: &Interner,
) -> Result<u32, Bail> {
    let i = i as usize;
    if cache.len() <= i {
        cache.resize(space.len().max(i + 1), None);
    }
    if let Some(id) = cache[i] {
        return Ok(id);
    }
    let id = match space.entry(i) {
        Entry::Inherited => Some(inherited),
        Entry::Global(id) => Some(id),
        Entry::Literal(name, _) | Entry::Defined(_, name, _) => interner.get(name),
        Entry::External(id) => table.get_at(id, from),
    };
    let id = id.ok_or(Bail("a name not in the profile"))?;
    cache[i] = Some(id);
    Ok(id)
}

impl Records<'_> {
    fn file(&mut self, t: &Tables, i: u32) -> Result<FileId, Bail> {
        let p = self.profile;
        let table = (&self.detail.tables()?[0], self.from);
        lookup(
            &mut self.resolved.files,
            (&t.files, i),
            self.fn_file.0,
            table,
            &p.files,
        )
        .map(FileId)
    }

    fn func(&mut self, t: &Tables, i: u32) -> Result<FnId, Bail> {
        let i = i as usize;
        if let Some(Some(f)) = self.resolved.fns.get(i) {
            return Ok(*f);
        }
        let (name, file, obj) = t.functions[i];
        let p = self.profile;
        let [files, objects, fns] = self.detail.tables()?;
        let r = &mut self.resolved;
        let from = self.from;
        let names = (&t.names, name);
        let name = lookup(&mut r.names, names, u32::MAX, (fns, from), &p.fn_names)?;
        let files = (files, from);
        let file = lookup(
            &mut r.files,
            (&t.files, file),
            self.fn_file.0,
            files,
            &p.files,
        )?;
        let objects = (objects, from);
        let obj = lookup(
            &mut r.objs,
            (&t.objects, obj),
            self.obj.0,
            objects,
            &p.objects,
        )?;
        let f = p
            .lookup_function(name, FileId(file), ObjId(obj))
            .ok_or(Bail("a function not in the profile"))?;
        if r.fns.len() <= i {
            r.fns.resize(t.functions.len().max(i + 1), None);
        }
        r.fns[i] = Some(f);
        Ok(f)
    }

    /// (instruction address, line) of decoded columns.
    fn addr_line(&self, at: [u64; 3]) -> (u64, u64) {
        self.detail.positions.addr_line(at)
    }

    /// `costs` without trailing zeros, as the in-memory store keeps them.
    fn significant(&mut self, costs: &[Cost]) -> usize {
        let n = costs.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1);
        self.costs.clear();
        self.costs.extend_from_slice(&costs[..n]);
        n
    }
}

impl Sink for Records<'_> {
    fn self_cost(
        &mut self,
        t: &Tables,
        func: u32,
        file: u32,
        at: [u64; 3],
        costs: &[Cost],
    ) -> Result<(), Bail> {
        let (func, file) = (self.func(t, func)?, self.file(t, file)?);
        let (addr, line) = self.addr_line(at);
        self.significant(costs);
        let record = LineCost {
            func,
            file,
            line,
            addr,
        };
        (self.visit)(Record::Line(record, &self.costs));
        Ok(())
    }

    fn call(&mut self, t: &Tables, c: LocalCall, costs: &[Cost]) -> Result<(), Bail> {
        let (caller, callee) = (self.func(t, c.caller)?, self.func(t, c.callee)?);
        let file = self.file(t, c.file)?;
        let (addr, line) = self.addr_line(c.at);
        let (target_addr, target_line) = self.addr_line(c.target);
        self.significant(costs);
        let site = CallSite {
            caller,
            callee,
            count: c.count,
            file,
            line,
            addr,
            target_line,
            target_addr,
        };
        (self.visit)(Record::Call(site, &self.costs));
        Ok(())
    }

    fn jump(&mut self, t: &Tables, j: LocalJump) -> Result<(), Bail> {
        let jump = JumpMade {
            func: self.func(t, j.func)?,
            file: self.file(t, j.file)?,
            at: j.at,
            target_func: self.func(t, j.target_func)?,
            target_file: self.file(t, j.target_file)?,
            target: j.target,
            taken: j.taken,
            executed: j.executed,
        };
        (self.visit)(Record::Jump(jump.record(self.detail.positions)));
        Ok(())
    }

    fn block(&mut self, _: u32, _: u64, _: Last) {}
}
