//! The mouse: the wheel scrolls the pane under the pointer (the call and
//! caller trees as lists; in the flame graph, where nothing scrolls, a
//! notch selects the box a level up or down), a click selects the row
//! under it and focuses its pane (in the list that makes the row's
//! function current, as cursor moves do), and a second click on the same
//! row within `DOUBLE_CLICK` acts as Enter. Where things are comes
//! from the layout, as for drawing. Reports arrive as keys
//! (`Key::Mouse`); `App::keys_at` keeps the pointer's place and the time.

use super::{App, Pane, Popup, TreeKind};
use crate::tui::action::Action;
use crate::tui::keymap::{self, Key};
use crate::tui::layout::Pane as Area;
use crate::tui::scroll::Scroll;
use crate::tui::views::View;
use ratatui::layout::{Position, Rect};
use std::time::Duration;

/// Two clicks on the same row within this time are a double-click.
pub const DOUBLE_CLICK: Duration = Duration::from_millis(400);
/// Rows one notch of the wheel scrolls.
pub const WHEEL_ROWS: isize = 3;

/// What is under the pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Pane(Pane),
    Source,
    /// The call tree, caller tree or flame graph (drawn where the source
    /// view is).
    Tree,
    Popup,
}

/// A region and the row of its list under the pointer, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub region: Region,
    pub row: Option<usize>,
}

/// The row of a list `scroll` of `len` rows drawn in `body` at screen row
/// `y`, if there is one.
fn row_at(body: Rect, y: u16, scroll: &Scroll, len: usize) -> Option<usize> {
    let (_, range) = scroll.window(body.height as usize, len);
    let i = range.start + usize::from(y.checked_sub(body.y)?);
    range.contains(&i).then_some(i)
}

/// `scroll` moved `delta` rows with its view, as a wheel scrolls: the
/// selected row keeps its place on screen until an end is reached.
fn scroll_view(scroll: &mut Scroll, delta: isize, height: usize, len: usize) {
    let last = len.saturating_sub(height);
    scroll.offset = scroll.offset.saturating_add_signed(delta).min(last);
    scroll.move_by(delta, len);
}

impl App {
    /// What is at the pointer; `None` outside any list or pane (and
    /// outside an open popup).
    fn target(&self) -> Option<Target> {
        let (x, y) = self.pointer;
        let at = Position::new(x, y);
        let a = self.areas();
        let in_pane = |p: Area| p.title.contains(at) || p.body.contains(at);
        if let Some(popup) = &self.popup {
            if !a.popup.contains(at) {
                return None;
            }
            // Inside the border: the prompt or header line, then the rows.
            let inner = Rect {
                x: a.popup.x + 1,
                y: a.popup.y + 2,
                width: a.popup.width.saturating_sub(2),
                height: a.popup_rows,
            };
            let row = match popup {
                Popup::Search(s) => row_at(inner, y, s, self.search_rows()),
                Popup::Parts(s) => row_at(inner, y, s, self.profile.parts.len()),
                Popup::Groups(s) => row_at(inner, y, s, self.groups.list.len()),
                Popup::Columns(s) => row_at(inner, y, s, self.columns.metrics.list.len()),
                Popup::Help(_) | Popup::Warnings(..) => None,
            };
            return Some(Target {
                region: Region::Popup,
                row: row.filter(|_| inner.contains(at)),
            });
        }
        match self.views.top() {
            Some(View::Tree(view)) => {
                let rows = view.kind != TreeKind::Flame;
                return in_pane(a.source).then(|| Target {
                    region: Region::Tree,
                    row: row_at(a.source.body, y, &view.scroll, view.rows.len()).filter(|_| rows),
                });
            }
            Some(View::Source(view)) => {
                return in_pane(a.source).then(|| Target {
                    region: Region::Source,
                    row: row_at(a.source.body, y, &view.scroll, view.rows.len()),
                });
            }
            // The assembly view takes keys only.
            Some(View::Asm(_)) => return None,
            None => {}
        }
        let panes = [
            (
                Pane::List,
                a.list,
                &self.browse.list,
                self.browse.order.len(),
            ),
            (
                Pane::Callers,
                a.callers,
                &self.panes.caller_scroll,
                self.panes.callers.len(),
            ),
            (
                Pane::Callees,
                a.callees,
                &self.panes.callee_scroll,
                self.panes.callees.len(),
            ),
        ];
        panes
            .into_iter()
            .find(|(_, area, _, _)| area.shown() && in_pane(*area))
            .map(|(pane, area, scroll, len)| Target {
                region: Region::Pane(pane),
                row: if area.body.contains(at) {
                    row_at(area.body, y, scroll, len)
                } else {
                    None
                },
            })
    }

    pub(super) fn mouse_action(&mut self, action: Action) {
        let Some(target) = self.target() else {
            self.last_click = None;
            return;
        };
        match action {
            Action::WheelUp => self.wheel(target.region, -WHEEL_ROWS),
            Action::WheelDown => self.wheel(target.region, WHEEL_ROWS),
            Action::Click => self.click(target),
            _ => {}
        }
    }

    fn wheel(&mut self, region: Region, delta: isize) {
        let a = self.areas();
        let h = |p: Area| p.body.height as usize;
        match region {
            Region::Pane(Pane::List) => {
                let before = self.browse.list.selected;
                scroll_view(
                    &mut self.browse.list,
                    delta,
                    h(a.list),
                    self.browse.order.len(),
                );
                if self.browse.list.selected != before {
                    self.follow_list();
                }
            }
            Region::Pane(Pane::Callers) => {
                scroll_view(
                    &mut self.panes.caller_scroll,
                    delta,
                    h(a.callers),
                    self.panes.callers.len(),
                );
            }
            Region::Pane(Pane::Callees) => {
                scroll_view(
                    &mut self.panes.callee_scroll,
                    delta,
                    h(a.callees),
                    self.panes.callees.len(),
                );
            }
            Region::Source => {
                if let Some(v) = self.views.source_mut() {
                    scroll_view(&mut v.scroll, delta, h(a.source), v.rows.len());
                }
            }
            Region::Tree => {
                let Some(v) = self.views.tree_mut() else {
                    return;
                };
                if v.kind == TreeKind::Flame {
                    let step = if delta < 0 { Action::Up } else { Action::Down };
                    self.flame_action(step);
                } else {
                    scroll_view(&mut v.scroll, delta, h(a.source), v.rows.len());
                }
            }
            Region::Popup => {
                let step = if delta < 0 { Action::Up } else { Action::Down };
                for _ in 0..delta.unsigned_abs() {
                    self.popup_action(step);
                }
            }
        }
    }

    fn click(&mut self, target: Target) {
        match (target.region, target.row) {
            (Region::Pane(pane), row) => {
                self.browse.focus = pane;
                if let Some(i) = row {
                    match pane {
                        Pane::List => {
                            let before = self.browse.list.selected;
                            self.browse.list.selected = i;
                            if i != before {
                                self.follow_list();
                            }
                        }
                        Pane::Callers => self.panes.caller_scroll.selected = i,
                        Pane::Callees => self.panes.callee_scroll.selected = i,
                    }
                }
            }
            (Region::Source, Some(i)) => {
                if let Some(v) = self.views.source_mut() {
                    v.scroll.selected = i;
                }
            }
            (Region::Tree, Some(i)) => {
                if let Some(v) = self.views.tree_mut() {
                    v.scroll.selected = i;
                }
            }
            (Region::Popup, Some(i)) => {
                if let Some(Popup::Search(s) | Popup::Parts(s) | Popup::Groups(s)) =
                    self.popup.as_mut()
                {
                    s.selected = i;
                }
            }
            _ => {}
        }
        let double = target.row.is_some()
            && self.last_click.is_some_and(|(at, was)| {
                was == target && self.now.saturating_duration_since(at) <= DOUBLE_CLICK
            });
        if double {
            self.last_click = None;
            if let Some(enter) = keymap::lookup(self.context(), Key::Enter) {
                self.update(enter);
            }
        } else {
            self.last_click = Some((self.now, target));
        }
    }
}
