//! The load's `Sink`: self costs summed per function, calls per edge, and
//! where each `fn=` block starts, all with ids local to the chunk.

use super::Bail;
use super::local::Tables;
use super::reread::Blocks;
use super::sink::{Last, LocalCall, LocalJump, Sink};
use crate::parse::EdgeIndex;
use crate::profile::Cost;

/// The `Sink` of a load: self costs per function, calls per edge, blocks.
pub struct Sums {
    width: usize,
    /// `width` columns per local function.
    pub rows: Vec<Cost>,
    has_row: Vec<bool>,
    /// Local functions in the order they first had self cost.
    pub row_order: Vec<u32>,
    edge_index: EdgeIndex,
    /// (caller, callee, count), in the order first seen.
    pub edges: Vec<(u32, u32, u64)>,
    pub edge_costs: Vec<Cost>,
    pub blocks: Blocks<u32>,
    pub has_data: bool,
    /// The chunk is the whole body, read in the file's order: a sum beyond
    /// a cost's range saturates where that order makes it, rather than
    /// giving up (with chunks, where it saturates depends on them).
    pub in_order: bool,
    /// A sum saturated since `saturated` was last asked.
    saturated: bool,
    /// A negative cost came: each sum stays within `CAREFUL` (`negative`).
    pub careful: bool,
}

/// Where the chunk's sums add costs of both signs (`Sums::negative`),
/// every sum stays below this in size, or the chunk gives up.
const CAREFUL: u64 = 1 << 62;

/// Whether `costs` all stay below `CAREFUL` in size.
pub fn within_care(costs: &[Cost]) -> bool {
    costs.iter().all(|c| c.unsigned_abs() < CAREFUL)
}

/// Adds `costs` into `into`; false on overflow (the sum saturates, and
/// that is said, where the file's order makes it), `into` then left as it
/// was: the caller may read
/// the line again another way, which must not find it added once already.
#[inline(always)]
pub fn add(into: &mut [Cost], costs: &[Cost]) -> bool {
    let mut overflow = false;
    for (s, &c) in into.iter_mut().zip(costs) {
        let (v, o) = s.overflowing_add(c);
        *s = v;
        overflow |= o;
    }
    if overflow {
        // Wrapping sums undo exactly.
        for (s, &c) in into.iter_mut().zip(costs) {
            *s = s.wrapping_sub(c);
        }
    }
    !overflow
}

/// What a chunk's `Sums` held: the next chunk of the thread starts with
/// room for as much (as `local::Room` for its tables).
#[derive(Clone, Copy, Debug, Default)]
pub struct SumsRoom {
    functions: usize,
    rows: usize,
    edges: usize,
    blocks: usize,
}

impl Sums {
    /// Sums with room for what `room` says.
    pub fn with_room(width: usize, npos: usize, room: SumsRoom) -> Self {
        let mut blocks = Blocks::new(npos);
        blocks.reserve(room.blocks);
        Sums {
            width,
            rows: Vec::with_capacity(room.functions * width),
            has_row: Vec::with_capacity(room.functions),
            row_order: Vec::with_capacity(room.rows),
            edge_index: EdgeIndex::with_capacity(room.functions, room.edges),
            edges: Vec::with_capacity(room.edges),
            edge_costs: Vec::with_capacity(room.edges * width),
            blocks,
            has_data: false,
            in_order: false,
            saturated: false,
            careful: false,
        }
    }

    /// What these sums hold, for the next chunk's `with_room`.
    pub fn room(&self) -> SumsRoom {
        SumsRoom {
            functions: self.has_row.len(),
            rows: self.row_order.len(),
            edges: self.edges.len(),
            blocks: self.blocks.len(),
        }
    }

    /// Gives `func` a row on its first self cost.
    #[cold]
    fn new_row(&mut self, func: u32) {
        let f = func as usize;
        if f >= self.has_row.len() {
            self.has_row.resize(f + 1, false);
            self.rows.resize((f + 1) * self.width, 0);
        }
        self.has_row[f] = true;
        self.row_order.push(func);
        self.has_data = true;
    }

    /// `add`, or where it overflows, the saturating sum if the chunk is read
    /// in order (noted for `saturated`).
    fn add_or_saturate(&mut self, into: Slot, costs: &[Cost]) -> Result<(), Bail> {
        let (w, in_order, careful) = (self.width, self.in_order, self.careful);
        let into = match into {
            Slot::Row(f) => self.row_of(f).unwrap_or_default(),
            Slot::Edge(e) => &mut self.edge_costs[e * w..(e + 1) * w],
        };
        if add(into, costs) {
            return match careful && !within_care(into) {
                true => Err(Bail::SUM_BEYOND),
                false => Ok(()),
            };
        }
        if !in_order {
            return Err(Bail::SUM_BEYOND);
        }
        for (s, &c) in into.iter_mut().zip(costs) {
            *s = s.saturating_add(c);
        }
        self.saturated = true;
        Ok(())
    }
}

/// Where `Sums::add_or_saturate` adds: a function's row, an edge's.
enum Slot {
    Row(u32),
    Edge(usize),
}

impl Sums {
    /// `func`'s row, made on its first self cost.
    #[inline(always)]
    fn row_of(&mut self, func: u32) -> Option<&mut [Cost]> {
        let f = func as usize;
        if !self.has_row.get(f).is_some_and(|&has| has) {
            self.new_row(func);
        }
        let w = self.width;
        self.rows.get_mut(f * w..(f + 1) * w)
    }
}

impl Sink for Sums {
    /// Summed straight into, unless each sum must be watched (`careful`).
    #[inline(always)]
    fn row(&mut self, func: u32) -> Option<&mut [Cost]> {
        match self.careful {
            true => None,
            false => self.row_of(func),
        }
    }

    fn self_cost(
        &mut self,
        _: &Tables,
        func: u32,
        _: u32,
        _: [u64; 3],
        costs: &[Cost],
    ) -> Result<(), Bail> {
        self.add_or_saturate(Slot::Row(func), costs)
    }

    fn call(&mut self, _: &Tables, call: LocalCall, costs: &[Cost]) -> Result<(), Bail> {
        let w = self.width;
        let next = self.edges.len() as u32;
        let edges = &self.edges;
        let (e, new) = (self.edge_index)
            .get_or_insert(call.caller, call.callee, next, |e| edges[e as usize].1);
        let e = e as usize;
        if new {
            self.edges.push((call.caller, call.callee, 0));
            self.edge_costs.resize(self.edge_costs.len() + w, 0);
        }
        self.has_data = true;
        let count = &mut self.edges[e].2;
        match count.checked_add(call.count) {
            Some(sum) => *count = sum,
            None if self.in_order => {
                *count = u64::MAX;
                self.saturated = true;
            }
            None => return Err(Bail::COUNT_BEYOND),
        }
        self.add_or_saturate(Slot::Edge(e), costs)
    }

    /// Costs that all go one way add up to the same, and saturate or not
    /// alike, in any order. With negative ones among them, the sums of a
    /// chunk are those of the file's order if no sum before the chunk and
    /// no sum in it (each of a function's or call's lines in the chunk
    /// added in order) reaches `CAREFUL` in size: no sum in the file's
    /// order then goes beyond 64 bits. From a chunk's first negative cost
    /// on, its sums are watched; the merge watches the sums it adds to
    /// (`loader::merge`). A chunk that is the whole body needs no care.
    fn negative(&mut self) -> Result<(), Bail> {
        if self.in_order || self.careful {
            return Ok(());
        }
        self.careful = true;
        match within_care(&self.rows) && within_care(&self.edge_costs) {
            true => Ok(()),
            false => Err(Bail::SUM_BEYOND),
        }
    }

    fn jump(&mut self, _: &Tables, _: LocalJump) -> Result<(), Bail> {
        self.has_data = true;
        Ok(())
    }

    fn block(&mut self, func: u32, start: u64, last: Last) {
        self.blocks.push(func, start, last);
    }

    fn saturated(&mut self) -> bool {
        std::mem::take(&mut self.saturated)
    }
}
