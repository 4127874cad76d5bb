//! The browse screen's state: the flat list (its order, sort and
//! selection) and which of its panes has the keys. The call panes'
//! rows are `panes`; the keys that change this are in `navigate`.

use super::orders::{self, Orders};
use super::{Pane, SortKey};
use crate::tui::scroll::Scroll;

pub struct Browse {
    pub sort: SortKey,
    /// The sort's order turned around (the sort key pressed again).
    pub reversed: bool,
    /// The user moved the list's selection since the last sort.
    pub moved: bool,
    /// The flat list: active functions in sort order (one of `orders`).
    pub order: orders::List,
    /// Every order of the flat list, computed once each.
    pub(super) orders: Orders,
    /// The name order (sort tie-break), kept for the orders of another
    /// selection of parts.
    pub(super) names: orders::Names,
    pub list: Scroll,
    pub focus: Pane,
}
