//! The UI state (current function, history, selections, query, sort,
//! event, popups) and `App::update`, the only place it changes: here the
//! state, keys to actions and the dispatch; the actions themselves in
//! `navigate` (current function, panes, sorted lists) and `popups`, the
//! open views' in `views` (each view its own module); the flat list's
//! orders in `orders`; making it in `build`.
//! Holds the immutable
//! `Profile` and the `Analysis` of the selected parts. Draws nothing.

mod browse;
mod build;
mod columns;
mod copy;
pub mod filter;
pub mod groups;
mod lists;
mod mouse;
mod navigate;
pub mod orders;
pub mod panes;
mod popups;
mod query;
pub mod rows;
pub mod start;

use super::action::Action;
use super::keymap::{self, Context, Key};
use super::layout::{self, Areas, PopupSize};
use super::scroll::Scroll;
use super::theme::Theme;
use super::views::source::SourceView;
pub use super::views::tree::TreeKind;
use super::views::tree::TreeView;
use super::views::{View, Views};
use crate::analysis::Analysis;
use crate::analysis::diff::Joined;
use crate::locate::Locator;
use crate::profile::{Cost, FileId, FnId, Profile};
use crate::search::Search;
use std::sync::Arc;
use std::time::Instant;

/// The panes of the browse screen, in Tab order.
pub use super::layout::Focus as Pane;

/// Where the user was: the function, the source view's file and
/// position if it was open, and the assembly view's instruction if shown. History holds these, so Back returns to the
/// same line of the same file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub func: FnId,
    pub source: Option<(FileId, Scroll)>,
    /// The instruction selected in the assembly view, if it was shown.
    pub asm: Option<u64>,
}

/// What the flat list is sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    Inclusive,
    SelfCost,
    Calls,
    Name,
    /// A metric column (`m`, Enter): largest first, blanks last.
    Column(super::columns::MetricColumn),
}

/// Popups, drawn over the screen; the innermost gets the keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Popup {
    Help(Scroll),
    Parts(Scroll),
    /// The search prompt with its result selection.
    Search(Scroll),
    /// The load warnings, `FILE:LINE: message`, and the cells their text
    /// is scrolled right by (`>`, `<`: a message wider than the popup).
    Warnings(Scroll, usize),
    /// The groups of `App::groups`.
    Groups(Scroll),
    /// The column chooser: a row per metric.
    Columns(Scroll),
}

pub struct App {
    /// Shared with the thread that indexes its names for search.
    pub profile: Arc<Profile>,
    pub analysis: Arc<Analysis>,
    pub theme: Theme,
    pub locator: Locator,
    /// Event column shown and sorted by.
    pub event: usize,
    /// Costs as percent of the total instead of absolute numbers.
    pub percent: bool,
    /// The flat list and which pane of the browse screen has the keys.
    pub browse: browse::Browse,
    pub current: Option<FnId>,
    /// The callers and callees panes of the current function.
    pub panes: panes::CallPanes,
    /// Places the user went to before (`Back` pops), and after.
    pub back: Vec<Place>,
    pub forward: Vec<Place>,
    pub search: Search,
    search_order_stale: bool,
    /// Position in the last search's results that `n`/`N` went to.
    pub match_index: usize,
    pub popup: Option<Popup>,
    /// The views open over the browse screen (source, trees, flame graph).
    pub views: Views,
    /// Makes and keeps the assembly view's listings.
    pub disasm: super::views::asm::Disassembler,
    /// A comparison's base side (`--base`): `analysis` is then the change,
    /// new minus base, over the functions of both.
    pub diff: Option<Arc<Joined>>,
    /// The groups popup's grouping, groups and order (`o`).
    pub groups: groups::Groups,
    /// The list and search keep only these functions (`o`, `F`; Esc clears).
    pub filter: Option<filter::Filter>,
    /// Enter in the search prompt filters (`F`) rather than goes to a result.
    pub(crate) filtering: bool,
    /// Terminal size, for page sizes.
    pub size: (u16, u16),
    pub quit: bool,
    /// Ctrl-Z: the terminal layer suspends the process, then clears this.
    pub suspend: bool,
    /// Ctrl-L: the terminal layer clears and redraws, then clears this.
    pub redraw: bool,
    /// The process's exit status when it quits (see `exit`).
    pub exit_status: u8,
    /// The metrics and the columns chosen of them (`m`).
    pub columns: super::columns::Columns,
    /// Each part's self-cost sum in the profile's columns (derived included).
    pub part_totals: Vec<Vec<Cost>>,
    /// What tells apart functions that share a name (see `lists::qualifiers`).
    pub qualifiers: std::collections::HashMap<FnId, String>,
    /// Number of load diagnostics, for the status line.
    pub diagnostics: usize,
    /// A one-shot message for the status line.
    pub message: Option<String>,
    /// The search query's cursor, in characters from its start.
    pub search_cursor: usize,
    /// C++ template argument lists drawn folded to `<…>` (`T`).
    pub fold_templates: bool,
    /// The readable form of each mangled function name (by function id).
    pub demangled: Arc<rustc_hash::FxHashMap<u32, Box<str>>>,
    /// Names as the profile writes them, not demangled (`D`).
    pub raw_names: bool,
    /// Cells the source view's text is scrolled right by (`<`, `>`).
    pub source_shift: usize,
    /// Mouse capture wanted (`M`; off with `--no-mouse`): the terminal
    /// layer reads it after each update and switches reporting to match.
    pub mouse: bool,
    /// Text to put on the user's clipboard (`y`, `Y`), already cleaned:
    /// the terminal layer takes it and writes `clipboard::osc52` of it.
    pub clipboard: Option<String>,
    /// Where the last mouse report was, and the last click (double-click).
    pointer: (u16, u16),
    last_click: Option<(Instant, mouse::Target)>,
    /// When the keys being handled arrived (the caller's clock).
    now: Instant,
}

impl App {
    /// The keymap context of the innermost popup or view.
    pub fn context(&self) -> Context {
        match &self.popup {
            Some(Popup::Help(_)) => Context::Help,
            Some(Popup::Parts(_)) => Context::Parts,
            Some(Popup::Warnings(..)) => Context::Warnings,
            Some(Popup::Groups(_)) => Context::Groups,
            Some(Popup::Columns(_)) => Context::Columns,
            Some(Popup::Search(_)) => Context::Search,
            None => self.views.top().map_or(Context::Browse, View::context),
        }
    }

    /// The source view, if open (shown or under a tree view).
    pub fn source(&self) -> Option<&SourceView> {
        self.views.source()
    }

    /// The call tree, caller tree or flame graph, if open.
    pub fn tree(&self) -> Option<&TreeView> {
        self.views.tree()
    }

    /// Handles one key press.
    pub fn key(&mut self, key: Key) {
        self.keys(&[key]);
    }

    /// Handles keys that arrived together (a paste, key repeat): the
    /// characters typed into the search prompt run one query, not one each.
    pub fn keys(&mut self, keys: &[Key]) {
        self.keys_at(keys, Instant::now());
    }

    /// `keys`, arrived at `now` (what tells a double-click from two
    /// clicks; tests give their own clock).
    pub fn keys_at(&mut self, keys: &[Key], now: Instant) {
        self.now = now;
        let mut typed = String::new();
        for &key in keys {
            if self.quit {
                return;
            }
            if let Key::Mouse(m) = key {
                // A report still on its way after capture was switched off.
                if !self.mouse {
                    continue;
                }
                self.pointer = (m.column, m.row);
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

    /// Whether `keys` do nothing but move the list's selection on the
    /// browse screen (a step, a page, the top, the bottom): the terminal
    /// layer then lets the call panes and the details line follow once
    /// the keys rest (`term`), so a key held down writes the list's rows.
    pub fn only_moves_list(&self, keys: &[Key]) -> bool {
        self.context() == Context::Browse
            && self.browse.focus == Pane::List
            && !keys.is_empty()
            && keys.iter().all(|&k| {
                matches!(
                    keymap::lookup(Context::Browse, k),
                    Some(
                        Action::Up
                            | Action::Down
                            | Action::PageUp
                            | Action::PageDown
                            | Action::Top
                            | Action::Bottom
                    )
                )
            })
    }

    /// For the tests of the panic path (`CGTUI_TEST_BREAK_VIEW`): a list
    /// naming a function that does not exist, so drawing it panics.
    #[doc(hidden)]
    pub fn break_for_tests(&mut self) {
        self.browse.order = Arc::new([FnId(u32::MAX)]);
    }

    /// Waits until every order of the flat list is computed (benchmarks).
    pub fn complete_background(&self) {
        self.browse.orders.complete();
    }

    /// A new terminal size: the list shows its top if the selection is on
    /// the first page, else the list and the source view keep their
    /// selection in the middle, so a screen depends on the size only, not
    /// on the sizes before it.
    pub fn resize(&mut self, width: u16, height: u16) {
        if self.size == (width, height) {
            return;
        }
        self.size = (width, height);
        let a = self.areas();
        self.browse
            .list
            .top_or_center(a.list.body.height as usize, self.browse.order.len());
        if let Some(v) = self.views.source_mut() {
            v.scroll.center(a.source.body.height as usize, v.rows.len());
        }
        self.fit();
    }

    pub fn update(&mut self, action: Action) {
        // A message lasts until the next key; Ctrl-L repaints what is
        // shown, the message with it.
        if action != Action::Redraw {
            self.message = None;
        }
        let disk = self.check_source_on_disk();
        match action {
            Action::Quit => self.quit = true,
            Action::Suspend => self.suspend = true,
            Action::Redraw => self.redraw = true,
            Action::Interrupt => {
                self.quit = true;
                self.exit_status = super::exit::INTERRUPTED;
            }
            Action::Help => self.popup = Some(Popup::Help(Scroll::default())),
            Action::Parts => self.popup = Some(Popup::Parts(Scroll::default())),
            Action::Columns => self.popup = Some(Popup::Columns(Scroll::default())),
            Action::Warnings => self.popup = Some(Popup::Warnings(Scroll::default(), 0)),
            Action::Groups => self.open_groups(),
            Action::Filter => self.open_filter(),
            Action::Search => self.open_search(),
            Action::NextEvent | Action::PrevEvent => {
                let n = self.analysis.width.max(1);
                // A comparison goes over the events of both profiles only.
                let shown = |e: usize| {
                    self.diff
                        .as_ref()
                        .is_none_or(|j| j.comparison.events.iter().any(|c| c.new == e))
                };
                let mut event = self.event;
                for _ in 0..n {
                    event = if action == Action::NextEvent {
                        (event + 1) % n
                    } else {
                        (event + n - 1) % n
                    };
                    if shown(event) {
                        break;
                    }
                }
                self.event = event;
                self.costs_changed();
            }
            Action::TogglePercent => self.percent = !self.percent,
            // In the groups popup the sort keys sort the groups.
            Action::SortInclusive | Action::SortSelf | Action::SortCalls | Action::SortName
                if self.context() == Context::Groups =>
            {
                self.popup_action(action);
            }
            Action::SortInclusive => self.set_sort(SortKey::Inclusive),
            Action::SortSelf => self.set_sort(SortKey::SelfCost),
            Action::SortCalls => self.set_sort(SortKey::Calls),
            Action::SortName => self.set_sort(SortKey::Name),
            // In a tree view Back zooms out or closes it, not the history.
            Action::Back if self.context() == Context::Tree => self.tree_action(action),
            Action::Back if self.context() == Context::Flame => self.flame_action(action),
            Action::Back => self.go_back(),
            Action::Forward => self.go_forward(),
            Action::NextMatch | Action::PrevMatch if self.context() == Context::Flame => {
                self.step_box(action == Action::NextMatch);
            }
            Action::NextMatch => self.step_match(true),
            Action::PrevMatch => self.step_match(false),
            Action::Source => self.toggle_source(),
            Action::FoldTemplates => self.toggle_fold(),
            Action::ToggleDemangle => self.toggle_demangle(),
            Action::CopyName => self.copy_name(),
            Action::CopyPlace => self.copy_place(),
            Action::ToggleMouse => {
                self.set_mouse(!self.mouse);
                self.message = Some(if self.mouse {
                    "mouse on: wheel scrolls, click selects (Shift-drag selects text)".into()
                } else {
                    "mouse off: the terminal selects text (M: on again)".into()
                });
            }
            Action::WheelUp | Action::WheelDown | Action::Click => self.mouse_action(action),
            Action::CallTree => self.open_tree(TreeKind::Calls),
            Action::CallerTree => self.open_tree(TreeKind::Callers),
            Action::FlameGraph => self.open_tree(TreeKind::Flame),
            Action::Assembly => self.toggle_asm(),
            _ => match self.context() {
                Context::Help
                | Context::Parts
                | Context::Search
                | Context::Warnings
                | Context::Columns
                | Context::Groups => {
                    self.popup_action(action);
                }
                Context::Source => self.source_action(action),
                Context::Tree => self.tree_action(action),
                Context::Flame => self.flame_action(action),
                Context::Asm => self.asm_action(action),
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

    /// Switches mouse capture on or off (`--no-mouse` starts with it off).
    pub fn set_mouse(&mut self, on: bool) {
        self.mouse = on;
        self.last_click = None;
    }

    /// What is open, for the layout.
    pub fn open_views(&self) -> layout::Open {
        let size = |width, height, chrome| PopupSize {
            width,
            height,
            chrome,
        };
        let popup = self.popup.as_ref().map(|p| match p {
            Popup::Help(_) => {
                let width = keymap::help_width() as u16 + 2;
                let inner = layout::popup_width(width, self.size.0).saturating_sub(2);
                let rows = keymap::help_row_count(self.theme.ascii, inner as usize);
                size(width, rows.min(u16::MAX as usize - 2) as u16 + 2, 2)
            }
            Popup::Parts(_) => size(90, self.profile.parts.len() as u16 + 4, 4),
            // Full width: results that narrow move with the terminal's
            // scroll, which would drag what stands beside them along.
            Popup::Search(_) => size(layout::FULL, u16::MAX, 3),
            Popup::Warnings(..) => size(120, self.profile.diagnostics.len() as u16 + 3, 3),
            Popup::Groups(_) => size(110, self.groups.list.len() as u16 + 5, 5),
            Popup::Columns(_) => size(90, self.columns.metrics.list.len() as u16 + 4, 4),
        });
        layout::Open {
            source: !self.views.is_empty(),
            focus: self.browse.focus,
            popup,
        }
    }

    /// How many rows the help has in a popup `width` cells wide.
    pub(crate) fn help_rows(&self, width: u16) -> usize {
        let inner = width.saturating_sub(2) as usize;
        keymap::help_row_count(self.theme.ascii, inner)
    }

    /// Where everything is on the current terminal.
    pub fn areas(&self) -> Areas {
        let screen = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
        layout::areas(screen, &self.open_views())
    }

    /// Keeps every selection visible after a change.
    fn fit(&mut self) {
        let a = self.areas();
        let rows = |p: layout::Pane| p.body.height as usize;
        self.browse.list.fit(rows(a.list), self.browse.order.len());
        self.panes
            .caller_scroll
            .fit(rows(a.callers), self.panes.callers.len());
        self.panes
            .callee_scroll
            .fit(rows(a.callees), self.callee_rows());
        for view in self.views.iter_mut() {
            view.fit(&self.analysis, a.source.body);
        }
        let e = a.popup_rows as usize;
        let help_rows = match self.popup {
            Some(Popup::Help(_)) => self.help_rows(a.popup.width),
            _ => 0,
        };
        let parts = self.profile.parts.len();
        let results = self.search_rows();
        let warnings = self.profile.diagnostics.len();
        let groups = self.groups.list.len();
        let metrics = self.columns.metrics.list.len();
        match self.popup.as_mut() {
            Some(Popup::Help(s)) => {
                s.select(s.selected, help_rows.saturating_sub(e) + 1);
                s.offset = s.selected;
            }
            Some(Popup::Parts(s)) => s.fit(e, parts),
            Some(Popup::Groups(s)) => s.fit(e, groups),
            Some(Popup::Columns(s)) => s.fit(e, metrics),
            Some(Popup::Search(s)) => s.fit(e, results),
            Some(Popup::Warnings(s, _)) => {
                s.select(s.selected, warnings.saturating_sub(e) + 1);
                s.offset = s.selected;
            }
            None => {}
        }
    }
}
