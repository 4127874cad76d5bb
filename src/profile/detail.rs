//! Per-line, per-call-site and per-jump records of one part, kept compact:
//! a byte stream of varint fields, positions delta-coded and trailing zero
//! costs left out, cut into blocks of one function each so that one
//! function's records decode without touching the others. This is what lets
//! a profile stay smaller in memory than its text (about half of it).

use super::{CallSite, Cost, FileId, FnId, Jump, LineCost, Profile};
use std::sync::Arc;

const LINE: u8 = 0;
const CALL: u8 = 1;
const JUMP: u8 = 2;
const FILE_CHANGED: u8 = 4;
/// The cost count lives in the tag's top 5 bits; this value means "a varint
/// count follows".
const MANY: u8 = 31;

/// One decoded record; costs are in part columns, missing ones zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record<'a> {
    Line(LineCost, &'a [Cost]),
    Call(CallSite, &'a [Cost]),
    Jump(Jump),
}

/// Bytes per chunk: the stream grows a chunk at a time, never by doubling.
const CHUNK: usize = 1 << 18;
/// Room a record needs besides its costs: a tag and at most 8 varints of at
/// most 10 bytes (costs add at most 11 bytes each).
const RESERVE: usize = 96;

/// Records kept out of memory, read again from the profile when asked for
/// (what the parallel loader leaves behind).
pub trait Reread: Send + Sync + std::fmt::Debug {
    /// Calls `visit` with the records of function `only` (of every function
    /// if `None`) in file order; an error says why they cannot be read.
    fn reread(
        &self,
        profile: &Profile,
        only: Option<FnId>,
        visit: &mut dyn FnMut(Record<'_>),
    ) -> Result<(), String>;
}

/// The records of one part: encoded in memory, or read again on demand.
#[derive(Clone, Debug, Default)]
pub struct Detail {
    /// Set when the records are not in memory but in the profile file.
    source: Option<Arc<dyn Reread>>,
    chunks: Vec<Vec<u8>>,
    /// Each block: its function, chunk and offset; it ends where the next
    /// block of the same chunk begins, or at the chunk's end.
    blocks: Vec<(FnId, u32, u32)>,
    /// Block indexes sorted by function (built by `finish`).
    by_func: Vec<u32>,
    // Encoder state within the current block.
    file: FileId,
    line: u64,
    addr: u64,
}

/// Costs up to the last non-zero one (Valgrind drops trailing zeros too).
fn significant(costs: &[Cost]) -> usize {
    costs.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1)
}

/// The cost values of a record whose count is in its tag (or follows it).
fn put_costs(out: &mut Vec<u8>, costs: &[Cost]) {
    if costs.len() >= usize::from(MANY) {
        put(out, costs.len() as u64);
    }
    for &c in costs {
        put_signed(out, c);
    }
}

#[inline]
fn put(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline]
fn put_signed(out: &mut Vec<u8>, v: i64) {
    put(out, ((v << 1) ^ (v >> 63)) as u64);
}

fn get(bytes: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        if shift < 64 {
            v |= u64::from(b & 0x7f) << shift;
        }
        shift += 7;
        if b < 0x80 {
            break;
        }
    }
    v
}

fn get_signed(bytes: &[u8], at: &mut usize) -> i64 {
    let v = get(bytes, at);
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

impl Detail {
    /// Starts a new block when `func` differs from the current one, or when
    /// the chunk is nearly full (a block never spans two chunks); then writes
    /// the record's tag (kind, file change, cost count), the file if it
    /// changed, and the position deltas. Returns the chunk to go on in.
    fn begin(
        &mut self,
        func: FnId,
        kind: u8,
        file: FileId,
        line: u64,
        addr: u64,
        n: usize,
    ) -> &mut Vec<u8> {
        let full = self
            .chunks
            .last()
            .is_none_or(|c| c.len() + RESERVE + 11 * n > CHUNK);
        if full {
            self.chunks
                .push(Vec::with_capacity(CHUNK.max(RESERVE + 11 * n)));
        }
        let chunk = self.chunks.len() - 1;
        let mut tag = kind | ((n.min(usize::from(MANY)) as u8) << 3);
        if full || self.blocks.last().is_none_or(|b| b.0 != func) {
            let offset = self.chunks[chunk].len();
            self.blocks.push((func, chunk as u32, offset as u32));
            tag |= FILE_CHANGED;
            self.line = 0;
            self.addr = 0;
        } else if file != self.file {
            tag |= FILE_CHANGED;
        }
        self.file = file;
        let (dl, da) = (line.wrapping_sub(self.line), addr.wrapping_sub(self.addr));
        self.line = line;
        self.addr = addr;
        let out = &mut self.chunks[chunk];
        out.push(tag);
        if tag & FILE_CHANGED != 0 {
            put(out, u64::from(file.0));
        }
        put_signed(out, dl as i64);
        put_signed(out, da as i64);
        out
    }

    pub fn push_line(&mut self, l: &LineCost, costs: &[Cost]) {
        let n = significant(costs);
        let out = self.begin(l.func, LINE, l.file, l.line, l.addr, n);
        put_costs(out, &costs[..n]);
    }

    pub fn push_call(&mut self, c: &CallSite, costs: &[Cost]) {
        let n = significant(costs);
        let out = self.begin(c.caller, CALL, c.file, c.line, c.addr, n);
        put(out, u64::from(c.callee.0));
        put(out, c.count);
        put_signed(out, c.target_line.wrapping_sub(c.line) as i64);
        put_signed(out, c.target_addr.wrapping_sub(c.addr) as i64);
        put_costs(out, &costs[..n]);
    }

    pub fn push_jump(&mut self, j: &Jump) {
        let out = self.begin(j.func, JUMP, j.file, j.line, j.addr, 0);
        put(out, u64::from(j.target_func.0));
        put(out, u64::from(j.target_file.0));
        put_signed(out, j.target_line.wrapping_sub(j.line) as i64);
        put_signed(out, j.target_addr.wrapping_sub(j.addr) as i64);
        put(out, j.taken);
        // Whether it is conditional, then its count: every count, `u64::MAX`
        // too, as the file says it.
        put(out, u64::from(j.executed.is_some()));
        if let Some(executed) = j.executed {
            put(out, executed);
        }
    }

    /// Builds the per-function index once the part is complete.
    pub fn finish(&mut self) {
        let mut order: Vec<u32> = (0..self.blocks.len() as u32).collect();
        order.sort_by_key(|&b| self.blocks[b as usize].0);
        self.by_func = order;
        if let Some(last) = self.chunks.last_mut() {
            last.shrink_to_fit();
        }
        self.blocks.shrink_to_fit();
    }

    /// Bytes held, for memory accounting.
    pub fn size(&self) -> usize {
        self.chunks.iter().map(Vec::capacity).sum::<usize>()
            + self.blocks.len() * 12
            + self.by_func.len() * 4
    }

    /// Block `b`: its function, chunk, and byte range in the chunk.
    fn block_range(&self, b: usize) -> (FnId, &[u8], usize, usize) {
        let (func, chunk, start) = self.blocks[b];
        let bytes = &self.chunks[chunk as usize];
        let end = match self.blocks.get(b + 1) {
            Some(&(_, c, next)) if c == chunk => next as usize,
            _ => bytes.len(),
        };
        (func, bytes, start as usize, end)
    }

    /// Keeps the records out of memory: `source` reads them when asked.
    pub fn set_source(&mut self, source: Arc<dyn Reread>) {
        self.source = Some(source);
    }

    /// Calls `visit` with every record, in file order.
    pub fn for_each(
        &self,
        profile: &Profile,
        mut visit: impl FnMut(Record<'_>),
    ) -> Result<(), String> {
        if let Some(source) = &self.source {
            return source.reread(profile, None, &mut visit);
        }
        let mut costs = Vec::new();
        for b in 0..self.blocks.len() {
            let (func, bytes, start, end) = self.block_range(b);
            decode_block(func, bytes, start, end, &mut costs, &mut visit);
        }
        Ok(())
    }

    /// Calls `visit` with the records of function `f` only.
    pub fn for_each_of(
        &self,
        profile: &Profile,
        f: FnId,
        mut visit: impl FnMut(Record<'_>),
    ) -> Result<(), String> {
        if let Some(source) = &self.source {
            return source.reread(profile, Some(f), &mut visit);
        }
        let from = self
            .by_func
            .partition_point(|&b| self.blocks[b as usize].0 < f);
        let mut costs = Vec::new();
        for &b in self.by_func[from..]
            .iter()
            .take_while(|&&b| self.blocks[b as usize].0 == f)
        {
            let (func, bytes, start, end) = self.block_range(b as usize);
            decode_block(func, bytes, start, end, &mut costs, &mut visit);
        }
        Ok(())
    }
}

/// Decodes the records in `bytes[start..end]`, a block of function `func`.
fn decode_block(
    func: FnId,
    bytes: &[u8],
    start: usize,
    end: usize,
    costs: &mut Vec<Cost>,
    visit: &mut impl FnMut(Record<'_>),
) {
    {
        let bytes = &bytes[..end];
        let mut at = start;
        let (mut file, mut line, mut addr) = (FileId(0), 0u64, 0u64);
        let id = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        while at < end {
            let tag = bytes[at];
            at += 1;
            if tag & FILE_CHANGED != 0 {
                file = FileId(id(get(bytes, &mut at)));
            }
            line = line.wrapping_add(get_signed(bytes, &mut at) as u64);
            addr = addr.wrapping_add(get_signed(bytes, &mut at) as u64);
            let read_costs = |costs: &mut Vec<Cost>, at: &mut usize| {
                costs.clear();
                let n = match tag >> 3 {
                    MANY => get(bytes, at),
                    n => u64::from(n),
                };
                for _ in 0..n {
                    costs.push(get_signed(bytes, at));
                }
            };
            match tag & 3 {
                LINE => {
                    read_costs(costs, &mut at);
                    visit(Record::Line(
                        LineCost {
                            func,
                            file,
                            line,
                            addr,
                        },
                        costs,
                    ));
                }
                CALL => {
                    let callee = FnId(id(get(bytes, &mut at)));
                    let count = get(bytes, &mut at);
                    let target_line = line.wrapping_add(get_signed(bytes, &mut at) as u64);
                    let target_addr = addr.wrapping_add(get_signed(bytes, &mut at) as u64);
                    read_costs(costs, &mut at);
                    let call = CallSite {
                        caller: func,
                        callee,
                        count,
                        file,
                        line,
                        addr,
                        target_line,
                        target_addr,
                    };
                    visit(Record::Call(call, costs));
                }
                _ => {
                    let target_func = FnId(id(get(bytes, &mut at)));
                    let target_file = FileId(id(get(bytes, &mut at)));
                    let target_line = line.wrapping_add(get_signed(bytes, &mut at) as u64);
                    let target_addr = addr.wrapping_add(get_signed(bytes, &mut at) as u64);
                    let taken = get(bytes, &mut at);
                    let executed = match get(bytes, &mut at) {
                        0 => None,
                        _ => Some(get(bytes, &mut at)),
                    };
                    visit(Record::Jump(Jump {
                        func,
                        file,
                        line,
                        addr,
                        target_func,
                        target_file,
                        target_line,
                        target_addr,
                        taken,
                        executed,
                    }));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_in_order_and_by_function() {
        let mut d = Detail::default();
        let l = |func: u32, file: u32, line: u64, addr: u64| LineCost {
            func: FnId(func),
            file: FileId(file),
            line,
            addr,
        };
        d.push_line(&l(0, 1, 10, 0x4000), &[5, 0, 7, 0]);
        d.push_line(&l(0, 2, 3, 0x3ff0), &[u64::MAX as i64 / 2, -9]);
        let call = CallSite {
            caller: FnId(0),
            callee: FnId(1),
            count: 0,
            file: FileId(2),
            line: 4,
            addr: 0x3ff4,
            target_line: 1,
            target_addr: u64::MAX,
        };
        d.push_call(&call, &[100]);
        d.push_line(&l(1, 1, 1, 0), &[]);
        let jump = Jump {
            func: FnId(0),
            file: FileId(1),
            line: 12,
            addr: 0,
            target_func: FnId(0),
            target_file: FileId(1),
            target_line: 9,
            target_addr: 0,
            taken: 3,
            executed: Some(u64::MAX),
        };
        d.push_jump(&jump);
        d.finish();
        let p = Profile::default();
        let mut all = Vec::new();
        d.for_each(&p, |r| all.push(format!("{r:?}"))).unwrap();
        assert_eq!(all.len(), 5);
        assert_eq!(
            all[0],
            format!("{:?}", Record::Line(l(0, 1, 10, 0x4000), &[5, 0, 7]))
        );
        assert_eq!(
            all[1],
            format!(
                "{:?}",
                Record::Line(l(0, 2, 3, 0x3ff0), &[u64::MAX as i64 / 2, -9])
            )
        );
        assert_eq!(all[2], format!("{:?}", Record::Call(call, &[100])));
        assert_eq!(all[3], format!("{:?}", Record::Line(l(1, 1, 1, 0), &[])));
        let mut of0 = Vec::new();
        d.for_each_of(&p, FnId(0), |r| of0.push(format!("{r:?}")))
            .unwrap();
        assert_eq!(of0.len(), 4);
        assert!(
            of0[3].contains("executed: Some(18446744073709551615)"),
            "{}",
            of0[3]
        );
        let mut of1 = 0;
        d.for_each_of(&p, FnId(1), |_| of1 += 1).unwrap();
        assert_eq!(of1, 1);
    }

    #[test]
    fn many_cost_columns_use_a_varint_count() {
        let mut d = Detail::default();
        let costs: Vec<Cost> = (1..=40).collect();
        let l = LineCost {
            func: FnId(3),
            file: FileId(1),
            line: 7,
            addr: 0,
        };
        d.push_line(&l, &costs);
        d.push_line(&l, &costs[..31]);
        d.finish();
        let mut seen = Vec::new();
        d.for_each(&Profile::default(), |r| {
            if let Record::Line(_, c) = r {
                seen.push(c.to_vec());
            }
        })
        .unwrap();
        assert_eq!(seen, vec![costs.clone(), costs[..31].to_vec()]);
    }
}
