//! The callers and callees panes' rows and selections: the calls into
//! and out of the current function, made again when it changes
//! (`navigate::refresh_calls`).

use crate::profile::FnId;
use crate::tui::scroll::Scroll;

#[derive(Clone, Debug, Default)]
pub struct CallPanes {
    /// Edges into / out of the current function, costliest first.
    pub callers: Vec<u32>,
    pub callees: Vec<u32>,
    /// When the current row is a cycle: its members, costliest first,
    /// listed in the callees pane before the calls leaving the cycle.
    pub members: Vec<FnId>,
    pub caller_scroll: Scroll,
    pub callee_scroll: Scroll,
}
