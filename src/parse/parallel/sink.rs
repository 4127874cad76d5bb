//! What the lines of a chunk mean, as the scanner hands it out: to the
//! load's sums (`Sums`) or to the records of a function read again.

use super::Bail;
use super::local::Tables;
use crate::profile::Cost;

/// Position state where a chunk or block starts: the last value of each
/// column, and which of them are known (bit per column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Last {
    pub at: [u64; 3],
    pub known: u8,
}

impl Last {
    /// Where a part's body begins: every column 0 and known, as the
    /// loader starts each part.
    pub const START: Last = Last {
        at: [0; 3],
        known: 0b111,
    };
}

/// What the lines of a chunk mean, with ids local to the chunk's `Tables`.
pub trait Sink {
    /// `func`'s self cost row, to sum cost lines into directly (a `Sink`
    /// that wants each line returns `None`: `self_cost` then gets it).
    fn row(&mut self, _func: u32) -> Option<&mut [Cost]> {
        None
    }
    fn self_cost(
        &mut self,
        t: &Tables,
        func: u32,
        file: u32,
        at: [u64; 3],
        costs: &[Cost],
    ) -> Result<(), Bail>;
    fn call(&mut self, t: &Tables, call: LocalCall, costs: &[Cost]) -> Result<(), Bail>;
    fn jump(&mut self, t: &Tables, jump: LocalJump) -> Result<(), Bail>;
    /// A `fn=` line at byte `offset` starts a block of `func`, with the
    /// positions current before it.
    fn block(&mut self, func: u32, offset: u64, last: Last);
    /// A line with a negative cost comes (before its `self_cost` or `call`).
    fn negative(&mut self) -> Result<(), Bail> {
        Ok(())
    }
    /// Whether a sum saturated since last asked (`self_cost` and `call`).
    fn saturated(&mut self) -> bool {
        false
    }
}

#[derive(Clone, Copy, Debug)]
pub struct LocalCall {
    pub caller: u32,
    pub callee: u32,
    pub count: u64,
    pub file: u32,
    pub at: [u64; 3],
    pub target: [u64; 3],
}

/// A jump with ids local to the chunk.
pub type LocalJump = crate::parse::context::JumpMade<u32, u32>;
