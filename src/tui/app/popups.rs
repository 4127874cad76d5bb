//! The popups' keys: help and parts scrolling, the parts switched on and
//! off, the groups' grouping and sort, and the search prompt (accepting, `n`/`N` through the results;
//! editing the query is in `query`).

use super::{App, Popup, SortKey, TreeKind};
use crate::profile::FnId;
use crate::tui::action::Action;
use crate::tui::scroll::Scroll;

/// Cells a `>` or `<` scrolls the load warnings sideways by.
const SHIFT: usize = 20;
/// The farthest they scroll: a message is at most a few hundred cells.
const MAX_SHIFT: usize = 4096;

impl App {
    pub(super) fn popup_action(&mut self, action: Action) {
        if matches!(self.popup, Some(Popup::Search(_))) && self.edit_query(action) {
            return;
        }
        let parts = self.profile.parts.len();
        let results = self.search_rows();
        let warnings = self.profile.diagnostics.len();
        let page = self.areas().popup_rows.max(1) as isize;
        let help_len = match self.popup {
            Some(Popup::Help(_)) => self.help_rows(self.areas().popup.width),
            _ => 0,
        }
        .saturating_sub(page as usize)
            + 1;
        let Some(popup) = self.popup.as_mut() else {
            return;
        };

        let groups = self.groups.list.len();
        let metrics = self.columns.metrics.list.len();
        let in_groups = matches!(popup, Popup::Groups(_));
        let (scroll, len) = match popup {
            Popup::Groups(s) => (s, groups),
            Popup::Columns(s) => (s, metrics),
            Popup::Help(s) => (s, help_len),
            Popup::Parts(s) => (s, parts),
            Popup::Search(s) => (s, results),
            Popup::Warnings(s, _) => (s, warnings.saturating_sub(page as usize) + 1),
        };
        match action {
            Action::Up => scroll.move_by(-1, len),
            Action::Down => scroll.move_by(1, len),
            Action::PageUp => scroll.move_by(-page, len),
            Action::PageDown => scroll.move_by(page, len),
            Action::Close => {
                self.popup = None;
                self.filtering = false;
            }
            Action::ShiftRight | Action::ShiftLeft => {
                if let Some(Popup::Warnings(_, shift)) = self.popup.as_mut() {
                    *shift = match action {
                        Action::ShiftRight => (*shift + SHIFT).min(MAX_SHIFT),
                        _ => shift.saturating_sub(SHIFT),
                    };
                }
            }
            Action::TogglePart => {
                let i = scroll.selected;
                self.toggle_part(Some(i));
            }
            Action::AllParts => self.toggle_part(None),
            Action::ToggleColumn | Action::ToggleSelfColumn => {
                let own = action == Action::ToggleSelfColumn;
                let i = scroll.selected;
                self.toggle_column(i, own);
            }
            Action::SortByColumn => {
                let i = scroll.selected;
                self.popup = None;
                self.sort_by_column(i);
            }
            Action::SortSelf if in_groups => self.set_group_sort(SortKey::SelfCost),
            Action::SortInclusive if in_groups => self.set_group_sort(SortKey::Inclusive),
            Action::SortCalls if in_groups => self.set_group_sort(SortKey::Calls),
            Action::SortName if in_groups => self.set_group_sort(SortKey::Name),
            Action::SearchAccept if in_groups => {
                let i = scroll.selected;
                self.popup = None;
                self.filter_by_group(i);
            }
            Action::NextGrouping => {
                self.groups.by = self.groups.by.next();
                self.compute_groups();
                if let Some(Popup::Groups(s)) = self.popup.as_mut() {
                    *s = Scroll::default();
                }
            }
            // `F`: the prompt's query filters the list.
            Action::SearchAccept if self.filtering => {
                self.popup = None;
                self.filtering = false;
                self.filter_by_query();
            }
            // In a flame graph the search marks boxes; Enter goes to the first.
            Action::SearchAccept
                if self
                    .views
                    .shown_tree()
                    .is_some_and(|t| t.kind == TreeKind::Flame) =>
            {
                self.popup = None;
                self.step_box(true);
            }
            // The line of the weaker matches: they are listed.
            Action::SearchAccept
                if scroll.selected == self.search.shown().len()
                    && self.search.weaker_hidden() > 0 =>
            {
                self.search.show_weaker();
            }
            Action::SearchAccept => {
                let i = scroll.selected;
                self.popup = None;
                // The function is shown in the main view.
                self.views.close_tree();
                match self.search.shown().get(i) {
                    Some(&r) => {
                        self.match_index = i;
                        self.go_to(FnId(r));
                    }
                    None => self.message = Some("no match".into()),
                }
            }
            _ => {}
        }
        if let Some(Popup::Help(s) | Popup::Warnings(s, _)) = self.popup.as_mut() {
            s.offset = s.selected;
        }
    }

    /// `F`: the search prompt, whose Enter filters the list.
    pub(super) fn open_filter(&mut self) {
        self.open_search();
        self.filtering = true;
    }

    pub(super) fn open_search(&mut self) {
        self.filtering = false;
        // Start with a fresh query; `n`/`N` keep the last results until then.
        self.search.set_query("");
        self.search_cursor = 0;
        if self.search_order_stale {
            let mut order = self.browse.orders.search_order(self.event);
            if let Some(filter) = &self.filter {
                order.retain(|&f| filter.keeps(FnId(f)));
            }
            self.search.set_order(order);
            self.search_order_stale = false;
        }
        self.popup = Some(Popup::Search(Scroll::default()));
    }

    /// Rows of the search popup: the matches listed, and the line of the
    /// weaker ones if they are not.
    pub(super) fn search_rows(&self) -> usize {
        self.search.shown().len() + usize::from(self.search.weaker_hidden() > 0)
    }

    pub(super) fn step_match(&mut self, forward: bool) {
        let n = self.search.shown().len();
        if n == 0 {
            self.message = Some("no search results: / searches".into());
            return;
        }
        self.match_index = if forward {
            (self.match_index + 1) % n
        } else {
            (self.match_index + n - 1) % n
        };
        if let Some(&r) = self.search.shown().get(self.match_index) {
            self.message = Some(format!("match {} of {n}", self.match_index + 1));
            let msg = self.message.clone();
            self.go_to(FnId(r));
            self.message = msg;
        }
    }
}
