//! The UI state (current function, history, selections, query, sort,
//! event, popups) and `App::update`, the only place it changes. Holds the
//! immutable `Profile` and the `Analysis` of the selected parts.

mod lists;
pub mod orders;

use super::action::Action;
use super::keymap::{self, Context, Key};
use super::scroll::Scroll;
use super::source::{DiskChange, SourceView};
use super::theme::Theme;
use super::view;
use crate::analysis::Analysis;
use crate::locate::Locator;
use crate::profile::{Cost, FnId, Profile};
use crate::search::Search;
use orders::Orders;
use std::sync::Arc;

/// The panes of the browse screen, in Tab order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    List,
    Callers,
    Callees,
}

/// What the flat list is sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    Inclusive,
    SelfCost,
    Calls,
    Name,
}

/// Popups, drawn over the screen; the innermost gets the keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Popup {
    Help(Scroll),
    Parts(Scroll),
    /// The search prompt with its result selection.
    Search(Scroll),
}

pub struct App {
    pub profile: Profile,
    pub analysis: Arc<Analysis>,
    pub theme: Theme,
    pub locator: Locator,
    /// Event column shown and sorted by.
    pub event: usize,
    /// Costs as percent of the total instead of absolute numbers.
    pub percent: bool,
    pub sort: SortKey,
    /// The flat list: active functions in sort order (one of `orders`).
    pub order: orders::List,
    /// Every order of the flat list, computed once each.
    orders: Orders,
    pub list: Scroll,
    pub focus: Pane,
    pub current: Option<FnId>,
    /// Edges into / out of the current function, costliest first.
    pub callers: Vec<u32>,
    pub callees: Vec<u32>,
    pub caller_scroll: Scroll,
    pub callee_scroll: Scroll,
    /// Functions that were current before (`Back` pops), and after.
    pub back: Vec<FnId>,
    pub forward: Vec<FnId>,
    pub search: Search,
    search_order_stale: bool,
    /// Position in the last search's results that `n`/`N` went to.
    pub match_index: usize,
    pub popup: Option<Popup>,
    pub source: Option<SourceView>,
    /// Terminal size, for page sizes.
    pub size: (u16, u16),
    pub quit: bool,
    /// The process's exit status when it quits (see `exit`).
    pub exit_status: u8,
    /// Each part's self-cost sum in the profile's columns (derived included).
    pub part_totals: Vec<Vec<Cost>>,
    /// Each function's rank in name order (sort tie-break), and the
    /// functions in name order.
    name_ranks: Arc<[u32]>,
    by_name: Arc<[FnId]>,
    /// Number of load diagnostics, for the status line.
    pub diagnostics: usize,
    /// A one-shot message for the status line.
    pub message: Option<String>,
}

impl App {
    pub fn new(profile: Profile, theme: Theme, locator: Locator) -> Self {
        let analysis = Arc::new(Analysis::new(&profile));
        let search =
            Search::new((0..profile.functions.len()).map(|i| profile.fn_name(FnId::from_index(i))));
        let diagnostics = profile.diagnostics.len();
        let part_totals = lists::part_totals(&profile);
        let (name_ranks, by_name) = lists::name_ranks(&profile);
        let (name_ranks, by_name): (Arc<[u32]>, Arc<[FnId]>) = (name_ranks.into(), by_name.into());
        let background = profile.functions.len() >= orders::BACKGROUND_FROM;
        let orders = Orders::new(
            analysis.clone(),
            name_ranks.clone(),
            by_name.clone(),
            0,
            background,
        );
        let mut app = App {
            profile,
            analysis,
            theme,
            locator,
            event: 0,
            percent: false,
            sort: SortKey::Inclusive,
            order: Arc::new([]),
            orders,
            list: Scroll::default(),
            focus: Pane::List,
            current: None,
            callers: Vec::new(),
            callees: Vec::new(),
            caller_scroll: Scroll::default(),
            callee_scroll: Scroll::default(),
            back: Vec::new(),
            forward: Vec::new(),
            search,
            search_order_stale: true,
            match_index: 0,
            popup: None,
            source: None,
            size: (80, 24),
            quit: false,
            exit_status: super::exit::QUIT,
            part_totals,
            name_ranks,
            by_name,
            diagnostics,
            message: None,
        };
        app.resort();
        app.current = app.order.first().copied();
        app.refresh_calls();
        app
    }

    /// The keymap context of the innermost popup or view.
    pub fn context(&self) -> Context {
        match (&self.popup, &self.source) {
            (Some(Popup::Help(_)), _) => Context::Help,
            (Some(Popup::Parts(_)), _) => Context::Parts,
            (Some(Popup::Search(_)), _) => Context::Search,
            (None, Some(_)) => Context::Source,
            (None, None) => Context::Browse,
        }
    }

    /// Handles one key press.
    pub fn key(&mut self, key: Key) {
        self.keys(&[key]);
    }

    /// Handles keys that arrived together (a paste, key repeat): the
    /// characters typed into the search prompt run one query, not one each.
    pub fn keys(&mut self, keys: &[Key]) {
        let mut typed = String::new();
        for &key in keys {
            if self.quit {
                return;
            }
            match keymap::lookup(self.context(), key) {
                Some(Action::SearchInput(c)) => typed.push(c),
                action => {
                    self.type_into_search(&mut typed);
                    if let Some(action) = action {
                        self.update(action);
                    }
                }
            }
        }
        self.type_into_search(&mut typed);
    }

    /// Appends `typed` (emptied) to the search query.
    fn type_into_search(&mut self, typed: &mut String) {
        if !typed.is_empty() {
            let q = format!("{}{typed}", self.search.query());
            typed.clear();
            self.message = None;
            self.search.set_query(&q);
            self.popup = Some(Popup::Search(Scroll::default()));
            self.fit();
        }
    }

    /// Debug builds only, for the tests of the panic path: a list naming a
    /// function that does not exist, so drawing it panics.
    #[cfg(debug_assertions)]
    #[doc(hidden)]
    pub fn break_for_tests(&mut self) {
        self.order = Arc::new([FnId(u32::MAX)]);
    }

    /// Waits until every order of the flat list is computed (benchmarks).
    pub fn complete_background(&self) {
        self.orders.complete();
    }

    pub fn resize(&mut self, width: u16, height: u16) {
        self.size = (width, height);
        self.fit();
    }

    pub fn update(&mut self, action: Action) {
        self.message = None;
        let disk = self.check_source_on_disk();
        match action {
            Action::Quit => self.quit = true,
            Action::Interrupt => {
                self.quit = true;
                self.exit_status = super::exit::INTERRUPTED;
            }
            Action::Help => self.popup = Some(Popup::Help(Scroll::default())),
            Action::Parts => self.popup = Some(Popup::Parts(Scroll::default())),
            Action::Search => self.open_search(),
            Action::NextEvent | Action::PrevEvent => {
                let n = self.analysis.width.max(1);
                self.event = if action == Action::NextEvent {
                    (self.event + 1) % n
                } else {
                    (self.event + n - 1) % n
                };
                self.costs_changed();
            }
            Action::TogglePercent => self.percent = !self.percent,
            Action::SortInclusive => self.set_sort(SortKey::Inclusive),
            Action::SortSelf => self.set_sort(SortKey::SelfCost),
            Action::SortCalls => self.set_sort(SortKey::Calls),
            Action::SortName => self.set_sort(SortKey::Name),
            Action::Back => self.go_back(),
            Action::Forward => self.go_forward(),
            Action::NextMatch => self.step_match(true),
            Action::PrevMatch => self.step_match(false),
            Action::Source => self.toggle_source(),
            _ => match self.context() {
                Context::Help | Context::Parts | Context::Search => self.popup_action(action),
                Context::Source => self.source_action(action),
                _ => self.browse_action(action),
            },
        }
        if let Some(disk) = disk {
            self.message = Some(match self.message.take() {
                Some(m) => format!("{disk} · {m}"),
                None => disk.into(),
            });
        }
        self.fit();
    }

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

    fn set_current(&mut self, f: FnId) {
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

    fn go_back(&mut self) {
        if let Some(f) = self.back.pop() {
            if let Some(cur) = self.current {
                self.forward.push(cur);
            }
            self.set_current(f);
        }
    }

    fn go_forward(&mut self) {
        if let Some(f) = self.forward.pop() {
            if let Some(cur) = self.current {
                self.back.push(cur);
            }
            self.set_current(f);
        }
    }

    fn toggle_source(&mut self) {
        if self.source.is_some() {
            self.source = None;
        } else if self.current.is_some() {
            self.open_source(None);
        }
    }

    fn open_source(&mut self, file: Option<crate::profile::FileId>) {
        if let Some(f) = self.current {
            let view = SourceView::new(
                &self.profile,
                &self.analysis,
                &self.locator,
                f,
                self.event,
                file,
            );
            self.source = Some(view);
            let h = self.heights().3;
            if let Some(view) = self.source.as_mut() {
                view.scroll.center(h, view.rows.len());
            }
        }
    }

    /// A source file shown that was written since is read again (the
    /// selection kept); one removed stays shown as read. The message to
    /// show, if either.
    fn check_source_on_disk(&mut self) -> Option<&'static str> {
        let view = self.source.as_ref()?;
        match view.disk_change()? {
            DiskChange::Gone => Some("the source file is gone: showing the text read before"),
            DiskChange::Changed => {
                let (file, scroll) = (view.file_id(), view.scroll);
                self.open_source(Some(file));
                if let Some(view) = self.source.as_mut() {
                    view.scroll = scroll;
                }
                Some("the source file changed on disk: read again")
            }
        }
    }

    fn source_action(&mut self, action: Action) {
        let h = self.heights().3;
        let event = self.event;
        let Some(view) = self.source.as_mut() else {
            return;
        };
        let len = view.rows.len();
        let page = h.max(1) as isize;
        match action {
            Action::Up => view.scroll.move_by(-1, len),
            Action::Down => view.scroll.move_by(1, len),
            Action::PageUp => view.scroll.move_by(-page, len),
            Action::PageDown => view.scroll.move_by(page, len),
            Action::Top => view.scroll.select(0, len),
            Action::Bottom => view.scroll.select(len, len),
            Action::NextHot | Action::PrevHot => {
                match view.next_hot(event, action == Action::NextHot) {
                    Some(i) => {
                        view.scroll.selected = i;
                        if i < view.scroll.offset || i >= view.scroll.offset + h {
                            view.scroll.center(h, len);
                        }
                    }
                    None => self.message = Some("no more lines with a cost".into()),
                }
            }
            Action::NextFile => {
                if view.files.len() > 1 {
                    let next = view.files[(view.file + 1) % view.files.len()];
                    self.open_source(Some(next));
                } else {
                    self.message = Some("the function has costs in one file only".into());
                }
            }
            Action::Open => match view.selected_callee() {
                Some(callee) => self.go_to(callee),
                None => self.message = Some("not a call line".into()),
            },
            Action::Close => self.source = None,
            _ => {}
        }
    }

    fn popup_action(&mut self, action: Action) {
        let parts = self.profile.parts.len();
        let results = self.search.results().len();
        let page = self.heights().4.max(1) as isize;
        let Some(popup) = self.popup.as_mut() else {
            return;
        };
        let help_len = keymap::help_lines().len().saturating_sub(page as usize) + 1;
        let (scroll, len) = match popup {
            Popup::Help(s) => (s, help_len),
            Popup::Parts(s) => (s, parts),
            Popup::Search(s) => (s, results),
        };
        match action {
            Action::Up => scroll.move_by(-1, len),
            Action::Down => scroll.move_by(1, len),
            Action::PageUp => scroll.move_by(-page, len),
            Action::PageDown => scroll.move_by(page, len),
            Action::Close => self.popup = None,
            Action::TogglePart => {
                let i = scroll.selected;
                self.toggle_part(Some(i));
            }
            Action::AllParts => self.toggle_part(None),
            Action::SearchInput(c) => {
                let mut q = self.search.query().to_string();
                q.push(c);
                self.search.set_query(&q);
                self.popup = Some(Popup::Search(Scroll::default()));
            }
            Action::SearchDelete => {
                let mut q = self.search.query().to_string();
                q.pop();
                self.search.set_query(&q);
                self.popup = Some(Popup::Search(Scroll::default()));
            }
            Action::SearchAccept => {
                let i = scroll.selected;
                self.popup = None;
                match self.search.results().get(i) {
                    Some(&r) => {
                        self.match_index = i;
                        self.go_to(FnId(r));
                    }
                    None => self.message = Some("no match".into()),
                }
            }
            _ => {}
        }
        if let Some(Popup::Help(s)) = self.popup.as_mut() {
            s.offset = s.selected;
        }
    }

    fn open_search(&mut self) {
        // Start with a fresh query; `n`/`N` keep the last results until then.
        self.search.set_query("");
        if self.search_order_stale {
            self.search.set_order(self.orders.search_order(self.event));
            self.search_order_stale = false;
        }
        self.popup = Some(Popup::Search(Scroll::default()));
    }

    fn step_match(&mut self, forward: bool) {
        let n = self.search.results().len();
        if n == 0 {
            self.message = Some("no search results: / searches".into());
            return;
        }
        self.match_index = if forward {
            (self.match_index + 1) % n
        } else {
            (self.match_index + n - 1) % n
        };
        if let Some(&r) = self.search.results().get(self.match_index) {
            self.message = Some(format!("match {} of {n}", self.match_index + 1));
            let msg = self.message.clone();
            self.go_to(FnId(r));
            self.message = msg;
        }
    }

    fn toggle_part(&mut self, which: Option<usize>) {
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
    fn costs_changed(&mut self) {
        self.search_order_stale = true;
        self.resort();
        self.refresh_calls();
    }

    fn set_sort(&mut self, sort: SortKey) {
        self.sort = sort;
        self.resort();
    }

    fn resort(&mut self) {
        let keep = self.order.get(self.list.selected).copied();
        self.order = self.orders.get(self.sort, self.event);
        self.list.selected = keep
            .and_then(|f| self.order.iter().position(|&g| g == f))
            .unwrap_or(0);
        let h = self.heights().0;
        self.list.center(h, self.order.len());
    }

    fn refresh_calls(&mut self) {
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

    fn browse_action(&mut self, action: Action) {
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

    /// Visible rows of: the list, callers, callees, source view, popup.
    pub fn heights(&self) -> (usize, usize, usize, usize, usize) {
        let l = view::layout(
            self,
            ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1),
        );
        (
            l.list.body.height as usize,
            l.callers.body.height as usize,
            l.callees.body.height as usize,
            l.source.body.height as usize,
            l.popup_rows as usize,
        )
    }

    /// Keeps every selection visible after a change.
    fn fit(&mut self) {
        let (a, b, c, d, e) = self.heights();
        self.list.fit(a, self.order.len());
        self.caller_scroll.fit(b, self.callers.len());
        self.callee_scroll.fit(c, self.callees.len());
        if let Some(v) = self.source.as_mut() {
            v.scroll.fit(d, v.rows.len());
        }
        let parts = self.profile.parts.len();
        let results = self.search.results().len();
        match self.popup.as_mut() {
            Some(Popup::Help(s)) => {
                s.select(s.selected, keymap::help_lines().len().saturating_sub(e) + 1);
                s.offset = s.selected;
            }
            Some(Popup::Parts(s)) => s.fit(e, parts),
            Some(Popup::Search(s)) => s.fit(e, results),
            None => {}
        }
    }
}
