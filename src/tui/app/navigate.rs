//! Moving around: the current function and its history, the panes of the
//! browse screen, and the lists that follow the sort, the event and the
//! parts (the flat list's order, the callers and callees).
//!
//! The highlighted row of the list is the current function: moving the
//! cursor there changes what the panes, the header and `s` describe, as in
//! KCachegrind and `perf report`. History records only the places the user
//! went to (Enter on a caller or callee, a search result, a followed call
//! or jump line), not every cursor move.

use super::{App, Pane, Place, SortKey, lists, orders, rows};
use crate::analysis::Analysis;
use crate::profile::FnId;
use crate::tui::action::Action;
use crate::tui::scroll::Scroll;
use crate::tui::views::source::SourceView;
use orders::Orders;
use std::sync::Arc;

impl App {
    /// Where the user is now.
    pub fn place(&self) -> Option<Place> {
        let func = self.current?;
        let source = self.source().map(|v| (v.file_id(), v.scroll));
        let asm = match self.views.top() {
            Some(crate::tui::views::View::Asm(v)) => v.selected_address(),
            _ => None,
        };
        Some(Place { func, source, asm })
    }

    /// Makes `f` current, remembering where the user was.
    pub fn go_to(&mut self, f: FnId) {
        self.remember();
        self.set_current(f);
    }

    /// Pushes the place the user is at onto the history.
    pub(crate) fn remember(&mut self) {
        if let Some(here) = self.place() {
            self.back.push(here);
            self.forward.clear();
        }
    }

    /// Makes `f` current and selects it in the list; the source view, if
    /// open, shows it at its hottest line (a cycle has none: it closes).
    pub(crate) fn set_current(&mut self, f: FnId) {
        self.show_function(f);
        if self.source().is_some() {
            self.open_source(None);
        }
    }

    /// The function (or cycle row) the focused pane has selected.
    pub fn selected(&self) -> Option<FnId> {
        match self.browse.focus {
            Pane::List => self.current,
            Pane::Callers => self
                .panes
                .callers
                .get(self.panes.caller_scroll.selected)
                .map(|&e| self.analysis.edges[e as usize].caller),
            Pane::Callees => {
                let i = self.panes.callee_scroll.selected;
                match i.checked_sub(self.panes.members.len()) {
                    None => self.panes.members.get(i).copied(),
                    Some(i) => self
                        .panes
                        .callees
                        .get(i)
                        .map(|&e| self.analysis.edges[e as usize].callee),
                }
            }
        }
    }

    /// `C`: goes to the `<cycle N>` row of the selected function's cycle.
    pub(crate) fn go_to_cycle(&mut self) {
        let cycle = self
            .selected()
            .filter(|&f| self.is_function(f))
            .and_then(|f| self.analysis.cycle_of(f))
            .map(|c| rows::cycle_id(&self.analysis, c.number - 1));
        match cycle {
            Some(c) => self.go_to(c),
            None => self.message = Some("not in a cycle of mutual recursion".into()),
        }
    }

    /// Makes `f` current and selects it in the list.
    fn show_function(&mut self, f: FnId) {
        self.current = Some(f);
        self.browse.moved = true;
        if let Some(i) = self.browse.order.iter().position(|&g| g == f) {
            self.browse.list.selected = i;
            let h = self.areas().list.body.height as usize;
            if i < self.browse.list.offset || i >= self.browse.list.offset + h {
                self.browse.list.top_or_center(h, self.browse.order.len());
            }
        }
        self.refresh_calls();
    }

    /// Returns to `place`: its function, and the source view's file and
    /// position when the view is open.
    fn restore(&mut self, place: Place) {
        self.show_function(place.func);
        let asm_shown = matches!(self.views.top(), Some(crate::tui::views::View::Asm(_)));
        if place.asm.is_some() || asm_shown {
            return self.show_asm_at(place.func, place.asm);
        }
        if self.source().is_some() {
            match place.source {
                Some((file, scroll)) => {
                    self.open_source(Some(file));
                    if let Some(view) = self.views.source_mut() {
                        view.scroll = scroll;
                    }
                }
                None => self.open_source(None),
            }
        }
    }

    pub(super) fn go_back(&mut self) {
        match self.back.pop() {
            Some(p) => {
                if let Some(here) = self.place() {
                    self.forward.push(here);
                }
                self.restore(p);
            }
            None => self.message = Some("nothing to go back to".into()),
        }
    }

    pub(super) fn go_forward(&mut self) {
        if let Some(p) = self.forward.pop() {
            if let Some(here) = self.place() {
                self.back.push(here);
            }
            self.restore(p);
        }
    }

    /// The list's cursor moved: its function becomes the current one.
    pub(super) fn follow_list(&mut self) {
        self.browse.moved = true;
        if let Some(&f) = self.browse.order.get(self.browse.list.selected)
            && self.current != Some(f)
        {
            self.current = Some(f);
            self.refresh_calls();
        }
    }

    pub(super) fn browse_action(&mut self, action: Action) {
        let a = self.areas();
        let (scroll, len, h) = match self.browse.focus {
            Pane::List => (
                &mut self.browse.list,
                self.browse.order.len(),
                a.list.body.height,
            ),
            Pane::Callers => (
                &mut self.panes.caller_scroll,
                self.panes.callers.len(),
                a.callers.body.height,
            ),
            Pane::Callees => (
                &mut self.panes.callee_scroll,
                self.panes.members.len() + self.panes.callees.len(),
                a.callees.body.height,
            ),
        };
        let page = h.max(1) as isize;
        let before = scroll.selected;
        match action {
            Action::Up => scroll.move_by(-1, len),
            Action::Down => scroll.move_by(1, len),
            Action::PageUp => scroll.move_by(-page, len),
            Action::PageDown => scroll.move_by(page, len),
            Action::Top => scroll.select(0, len),
            Action::Bottom => scroll.select(len, len),
            Action::NextPane | Action::PrevPane => {
                let panes = [Pane::List, Pane::Callers, Pane::Callees];
                let i = panes
                    .iter()
                    .position(|&p| p == self.browse.focus)
                    .unwrap_or(0);
                let step = if action == Action::NextPane { 1 } else { 2 };
                self.browse.focus = panes[(i + step) % 3];
            }
            // Esc in the list clears a filter; in a pane, back to the list.
            Action::Close if self.browse.focus == Pane::List && self.filter.is_some() => {
                self.set_filter(None);
            }
            Action::Close => self.browse.focus = Pane::List,
            Action::Open => self.open_selected(),
            Action::GoToCycle => self.go_to_cycle(),
            _ => {}
        }
        if self.browse.focus == Pane::List && self.browse.list.selected != before {
            self.follow_list();
        }
    }

    /// Enter: in the list, walk into the current function's callees (its
    /// callers when it calls nothing); in a call pane, go to the function
    /// selected there.
    fn open_selected(&mut self) {
        if self.browse.focus == Pane::List {
            self.browse.focus = if self.callee_rows() == 0 && !self.panes.callers.is_empty() {
                Pane::Callers
            } else {
                Pane::Callees
            };
        } else if let Some(f) = self.selected() {
            self.go_to(f);
        }
    }

    /// Rows of the callees pane: a cycle's members, then the calls.
    pub fn callee_rows(&self) -> usize {
        self.panes.members.len() + self.panes.callees.len()
    }

    pub(super) fn refresh_calls(&mut self) {
        let Some(f) = self.current else { return };
        let a = &self.analysis;
        let sort = |edges: Vec<u32>, callers| {
            lists::sorted_edges(&self.profile, a, edges, self.event, callers)
        };
        let (callers, callees, mut members) = match rows::cycle(a, f) {
            Some(c) => {
                let i = c.number - 1;
                let callers = sort(a.cycle_callers(i), true);
                let callees = sort(a.cycle_callees(i), false);
                (callers, callees, c.members.clone())
            }
            None => (
                sort(a.callers(f).iter().collect(), true),
                sort(a.callees(f).iter().collect(), false),
                Vec::new(),
            ),
        };
        let at = |f: &FnId| a.inclusive(*f).get(self.event).copied().unwrap_or(0);
        members.sort_by_key(|m| (std::cmp::Reverse(at(m)), *m));
        self.panes.callers = callers;
        self.panes.callees = callees;
        self.panes.members = members;
        self.panes.caller_scroll = Scroll::default();
        self.panes.callee_scroll = Scroll::default();
    }

    pub(super) fn toggle_part(&mut self, which: Option<usize>) {
        let mut parts = self.analysis.parts.clone();
        match which {
            Some(i) if i < parts.len() => parts[i] = !parts[i],
            Some(_) => return,
            None => parts.iter_mut().for_each(|p| *p = true),
        }
        // A comparison's tree holds the comparison: let go of it here,
        // and open the tree again from the same root after.
        let reopen = (self.diff.is_some())
            .then(|| {
                self.views
                    .take_tree()
                    .map(|v| (v.kind, v.tree.node(0).func))
            })
            .flatten();
        self.analysis = Arc::new(match self.diff.as_mut() {
            // A comparison: the new side's parts, against the whole base
            // (the app is the comparison's only holder).
            Some(joined) => match Arc::get_mut(joined) {
                Some(joined) => joined.select_parts(&self.profile, &parts),
                None => return,
            },
            None => Analysis::with_parts(&self.profile, &parts),
        });
        self.browse.orders = Orders::new(
            self.analysis.clone(),
            self.browse.names.clone(),
            self.event,
            self.profile.functions.len() >= orders::BACKGROUND_FROM,
        );
        self.costs_changed();
        if let Some((kind, from)) = reopen {
            self.reopen_tree(kind, from);
        }
        if self.source().is_some() {
            let file = self.source().map(SourceView::file_id);
            self.open_source(file);
        }
        // What the load warned of for all parts, said for this selection.
        if (0..self.analysis.width).any(|ev| self.analysis.is_cut(ev)) {
            self.message = Some(match self.diff {
                Some(_) => "some changes of these parts pass 64 bits: those shown >= or <= are bounds".into(),
                None => "some sums of these parts pass 64 bits: those at the limit are saturated, not exact".into(),
            });
        }
    }

    /// The tree view `kind` from `from` again, on the current costs.
    fn reopen_tree(&mut self, kind: super::TreeKind, from: Option<FnId>) {
        let view = self.tree_view(kind, from);
        self.views.replace(crate::tui::views::View::Tree(view));
    }

    /// Event or parts changed: sort again, keep the selection on the same
    /// function, centred.
    pub(super) fn costs_changed(&mut self) {
        self.search_order_stale = true;
        self.resort();
        let h = self.areas().list.body.height as usize;
        self.browse.list.top_or_center(h, self.browse.order.len());
        self.refresh_calls();
        // The groups follow the event: their costs hold every event.
        if matches!(self.popup, Some(super::Popup::Groups(_))) {
            self.sort_groups();
        }
        // The tree views follow the event and parts, from the same root.
        if let Some(v) = self.tree() {
            let (kind, from) = (v.kind, v.tree.node(0).func);
            self.reopen_tree(kind, from);
        }
    }

    /// A sort key: the list sorted by it (pressed again: turned around),
    /// shown from its top. The function the user moved to stays selected;
    /// if they never moved (the list as opened), the top row is.
    pub(super) fn set_sort(&mut self, sort: SortKey) {
        self.browse.reversed = self.browse.sort == sort && !self.browse.reversed;
        self.browse.sort = sort;
        self.resort();
        if !self.browse.moved {
            self.browse.list.selected = 0;
        }
        let h = self.areas().list.body.height as usize;
        self.browse.list.top_or_center(h, self.browse.order.len());
        let moved = self.browse.moved;
        self.follow_list();
        self.browse.moved = moved;
    }

    /// The order of the current sort and event, with the same function
    /// selected.
    pub(super) fn resort(&mut self) {
        let keep = self.browse.order.get(self.browse.list.selected).copied();
        let order = self.browse.orders.get(self.browse.sort, self.event);
        let order = match self.browse.sort {
            // In a comparison: by the size of the metric's change, gain
            // or loss, as the events' changes are ordered.
            SortKey::Column(c) if self.diff.is_some() => super::lists::by_value(&order, |f| {
                let [b, n] = super::rows::compared(self, f)?;
                let change = self.columns.change(c, (&b.0, &b.1), (&n.0, &n.1))?;
                Some(change.abs())
            }),
            SortKey::Column(c) => super::lists::by_metric(&self.analysis, &self.columns, c, &order),
            _ => order,
        };
        self.browse.order = match (&self.filter, self.browse.reversed) {
            (None, false) => order,
            (None, true) => order.iter().rev().copied().collect(),
            (Some(filter), reversed) => {
                let kept = order.iter().copied().filter(|&f| filter.keeps(f));
                if reversed {
                    kept.rev().collect()
                } else {
                    kept.collect()
                }
            }
        };
        self.browse.list.selected = keep
            .and_then(|f| self.browse.order.iter().position(|&g| g == f))
            .unwrap_or(0);
    }
}
