//! Moving around: the current function and its history, the panes of the
//! browse screen, and the lists that follow the sort, the event and the
//! parts (the flat list's order, the callers and callees).

use super::{App, Pane, SortKey, lists, orders};
use crate::analysis::Analysis;
use crate::profile::FnId;
use crate::tui::action::Action;
use crate::tui::scroll::Scroll;
use crate::tui::source::SourceView;
use orders::Orders;
use std::sync::Arc;

impl App {
    /// Makes `f` current, remembering the previous one.
    pub fn go_to(&mut self, f: FnId) {
        if let Some(cur) = self.current
            && cur != f
        {
            self.back.push(cur);
            self.forward.clear();
        }
        self.set_current(f);
    }

    pub(super) fn set_current(&mut self, f: FnId) {
        self.current = Some(f);
        if let Some(i) = self.order.iter().position(|&g| g == f) {
            self.list.selected = i;
            let h = self.heights().0;
            self.list.center(h, self.order.len());
        }
        self.refresh_calls();
        if self.source.is_some() {
            self.open_source(None);
        }
    }

    pub(super) fn go_back(&mut self) {
        if let Some(f) = self.back.pop() {
            if let Some(cur) = self.current {
                self.forward.push(cur);
            }
            self.set_current(f);
        }
    }

    pub(super) fn go_forward(&mut self) {
        if let Some(f) = self.forward.pop() {
            if let Some(cur) = self.current {
                self.back.push(cur);
            }
            self.set_current(f);
        }
    }

    pub(super) fn browse_action(&mut self, action: Action) {
        let (list_h, callers_h, callees_h, _, _) = self.heights();
        let (scroll, len, h) = match self.focus {
            Pane::List => (&mut self.list, self.order.len(), list_h),
            Pane::Callers => (&mut self.caller_scroll, self.callers.len(), callers_h),
            Pane::Callees => (&mut self.callee_scroll, self.callees.len(), callees_h),
        };
        let page = h.max(1) as isize;
        match action {
            Action::Up => scroll.move_by(-1, len),
            Action::Down => scroll.move_by(1, len),
            Action::PageUp => scroll.move_by(-page, len),
            Action::PageDown => scroll.move_by(page, len),
            Action::Top => scroll.select(0, len),
            Action::Bottom => scroll.select(len, len),
            Action::NextPane | Action::PrevPane => {
                let panes = [Pane::List, Pane::Callers, Pane::Callees];
                let i = panes.iter().position(|&p| p == self.focus).unwrap_or(0);
                let step = if action == Action::NextPane { 1 } else { 2 };
                self.focus = panes[(i + step) % 3];
            }
            Action::Close => self.focus = Pane::List,
            Action::Open => {
                let target = match self.focus {
                    Pane::List => self.order.get(self.list.selected).copied(),
                    Pane::Callers => self
                        .callers
                        .get(self.caller_scroll.selected)
                        .map(|&e| self.analysis.edges[e as usize].caller),
                    Pane::Callees => self
                        .callees
                        .get(self.callee_scroll.selected)
                        .map(|&e| self.analysis.edges[e as usize].callee),
                };
                if let Some(f) = target {
                    self.go_to(f);
                }
            }
            _ => {}
        }
    }

    pub(super) fn refresh_calls(&mut self) {
        let Some(f) = self.current else { return };
        self.callers = lists::sorted_edges(
            &self.profile,
            &self.analysis,
            self.analysis.callers(f),
            self.event,
            true,
        );
        self.callees = lists::sorted_edges(
            &self.profile,
            &self.analysis,
            self.analysis.callees(f),
            self.event,
            false,
        );
        self.caller_scroll = Scroll::default();
        self.callee_scroll = Scroll::default();
    }

    pub(super) fn toggle_part(&mut self, which: Option<usize>) {
        let mut parts = self.analysis.parts.clone();
        match which {
            Some(i) if i < parts.len() => parts[i] = !parts[i],
            Some(_) => return,
            None => parts.iter_mut().for_each(|p| *p = true),
        }
        self.analysis = Arc::new(Analysis::with_parts(&self.profile, &parts));
        self.orders = Orders::new(
            self.analysis.clone(),
            self.name_ranks.clone(),
            self.by_name.clone(),
            self.event,
            self.profile.functions.len() >= orders::BACKGROUND_FROM,
        );
        self.costs_changed();
        if self.source.is_some() {
            let file = self.source.as_ref().map(SourceView::file_id);
            self.open_source(file);
        }
    }

    /// Event or parts changed: sort again, keep the selection on the same
    /// function.
    pub(super) fn costs_changed(&mut self) {
        self.search_order_stale = true;
        self.resort();
        self.refresh_calls();
    }

    pub(super) fn set_sort(&mut self, sort: SortKey) {
        self.sort = sort;
        self.resort();
    }

    pub(super) fn resort(&mut self) {
        let keep = self.order.get(self.list.selected).copied();
        self.order = self.orders.get(self.sort, self.event);
        self.list.selected = keep
            .and_then(|f| self.order.iter().position(|&g| g == f))
            .unwrap_or(0);
        let h = self.heights().0;
        self.list.center(h, self.order.len());
    }
}
