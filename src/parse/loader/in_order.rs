//! A body read again into the profile's rows, line by line in the file's
//! order, where the chunk's own sums would not be exact: a function the
//! body spells two ways (an ID named in a part before, then its name) has
//! two rows in the chunk, and where sums saturate, adding each row up and
//! then the two is not what adding the lines in order gives.

use super::Loader;
use crate::parse::parallel::Bail;
use crate::parse::parallel::local::Tables;
use crate::parse::parallel::sink::{Last, LocalCall, LocalJump, Sink};
use crate::profile::{Cost, FnId};

/// The `Sink` that adds each line into the profile's rows and edges.
pub(in crate::parse) struct InOrder<'l, 'p> {
    loader: &'l mut Loader<'p>,
    /// The profile's function of each of the chunk's.
    fns: &'l [FnId],
    saturated: bool,
}

impl<'l, 'p> InOrder<'l, 'p> {
    pub fn new(loader: &'l mut Loader<'p>, fns: &'l [FnId]) -> Self {
        InOrder {
            loader,
            fns,
            saturated: false,
        }
    }
}

impl Sink for InOrder<'_, '_> {
    fn self_cost(
        &mut self,
        _: &Tables,
        func: u32,
        _: u32,
        _: [u64; 3],
        costs: &[Cost],
    ) -> Result<(), Bail> {
        let func = self.fns[func as usize];
        self.saturated |= self.loader.self_rows().add(func, costs);
        Ok(())
    }

    fn call(&mut self, _: &Tables, call: LocalCall, costs: &[Cost]) -> Result<(), Bail> {
        let (caller, callee) = (
            self.fns[call.caller as usize],
            self.fns[call.callee as usize],
        );
        let edge = (caller, callee, call.count);
        self.saturated |= self.loader.add_edge(edge, costs, false);
        Ok(())
    }

    fn jump(&mut self, _: &Tables, _: LocalJump) -> Result<(), Bail> {
        Ok(())
    }

    fn block(&mut self, _: u32, _: u64, _: Last) {}

    fn saturated(&mut self) -> bool {
        std::mem::take(&mut self.saturated)
    }
}
