//! Per-line, per-call-site and per-jump records of one part. They are not
//! kept in memory: the reader notes where each function's lines are
//! (`parse::parallel::LazyDetail`) and reads them again from the profile's
//! text when a view asks for them. This is what lets a profile stay much
//! smaller in memory than its text.

use super::{CallSite, Cost, FnId, Jump, LineCost, Profile};
use std::sync::Arc;

/// One decoded record; costs are in part columns, missing ones zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record<'a> {
    Line(LineCost, &'a [Cost]),
    Call(CallSite, &'a [Cost]),
    Jump(Jump),
}

/// Records kept out of memory, read again from the profile when asked for.
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

/// The records of one part, read again on demand (none if it has none).
#[derive(Clone, Debug, Default)]
pub struct Detail {
    source: Option<Arc<dyn Reread>>,
}

impl Detail {
    /// Where the records are read again from.
    pub fn set_source(&mut self, source: Arc<dyn Reread>) {
        self.source = Some(source);
    }

    /// Calls `visit` with every record, in file order.
    pub fn for_each(
        &self,
        profile: &Profile,
        mut visit: impl FnMut(Record<'_>),
    ) -> Result<(), String> {
        match &self.source {
            Some(source) => source.reread(profile, None, &mut visit),
            None => Ok(()),
        }
    }

    /// Calls `visit` with the records of function `f` only.
    pub fn for_each_of(
        &self,
        profile: &Profile,
        f: FnId,
        mut visit: impl FnMut(Record<'_>),
    ) -> Result<(), String> {
        match &self.source {
            Some(source) => source.reread(profile, Some(f), &mut visit),
            None => Ok(()),
        }
    }
}
