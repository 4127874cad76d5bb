//! Where everything goes: the terminal size and what is open become named
//! areas and page heights. `App` reads them for page sizes and scrolling,
//! the views for drawing, so both always agree; this module knows nothing
//! of either. On small terminals the panes give way first: the list (with
//! its names) stays usable down to 40x10.

use ratatui::layout::Rect;

/// A pane: its title line and the rows below it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pane {
    pub title: Rect,
    pub body: Rect,
}

impl Pane {
    fn new(area: Rect) -> Self {
        let title = Rect {
            height: area.height.min(1),
            ..area
        };
        let body = Rect {
            y: area.y + title.height,
            height: area.height - title.height,
            ..area
        };
        Pane { title, body }
    }

    /// Whether the pane is on screen.
    pub fn shown(&self) -> bool {
        self.title.height > 0
    }
}

/// Which of the browse screen's panes has the keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    List,
    Callers,
    Callees,
}

/// What is open, as far as the layout cares.
#[derive(Clone, Copy, Debug)]
pub struct Open {
    pub source: bool,
    pub focus: Focus,
    /// The popup's wanted size (columns, rows) and the rows of its frame
    /// that are not content (borders, prompt, footer).
    pub popup: Option<PopupSize>,
}

/// A popup width: the whole width of the screen.
pub const FULL: u16 = u16::MAX;

#[derive(Clone, Copy, Debug)]
pub struct PopupSize {
    pub width: u16,
    pub height: u16,
    pub chrome: u16,
}

/// Where everything goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Areas {
    /// The command and parts (empty on short terminals).
    pub title: Rect,
    /// The event totals.
    pub events: Rect,
    pub list: Pane,
    pub callers: Pane,
    pub callees: Pane,
    /// Zero-sized unless the source view is open.
    pub source: Pane,
    /// The selected function's full name, file and object (empty on short
    /// terminals).
    pub details: Rect,
    /// The breadcrumb and messages.
    pub status: Rect,
    /// Key hints (empty on short terminals).
    pub hints: Rect,
    /// A vertical rule between the list and the call panes, if any.
    pub rule: Rect,
    /// The open popup's frame, and how many rows of content it shows.
    pub popup: Rect,
    pub popup_rows: u16,
}

/// Terminal widths from which the callers/callees go beside the list.
pub const SIDE_BY_SIDE: u16 = 160;
/// Terminal heights from which the title, details and hint lines show.
const FULL_CHROME: u16 = 14;
/// Rows the main area needs to show the list and both call panes; below
/// it only the focused pane is shown.
const ALL_PANES: u16 = 14;

/// Takes `h` rows off the top of `area`.
fn take_top(area: &mut Rect, h: u16) -> Rect {
    let h = h.min(area.height);
    let top = Rect { height: h, ..*area };
    area.y += h;
    area.height -= h;
    top
}

/// Takes `h` rows off the bottom of `area`.
fn take_bottom(area: &mut Rect, h: u16) -> Rect {
    let h = h.min(area.height);
    area.height -= h;
    Rect {
        y: area.y + area.height,
        height: h,
        ..*area
    }
}

pub fn areas(screen: Rect, open: &Open) -> Areas {
    let mut rest = screen;
    let full = screen.height >= FULL_CHROME;
    let mut areas = Areas {
        title: take_top(&mut rest, u16::from(full)),
        events: take_top(&mut rest, 1),
        ..Areas::default()
    };
    areas.hints = take_bottom(&mut rest, u16::from(full));
    areas.status = take_bottom(&mut rest, 1);
    areas.details = take_bottom(&mut rest, u16::from(full && !open.source));
    let main = rest;
    if open.source {
        areas.source = Pane::new(main);
    } else if main.height < ALL_PANES && screen.width < SIDE_BY_SIDE {
        let pane = Pane::new(main);
        match open.focus {
            Focus::List => areas.list = pane,
            Focus::Callers => areas.callers = pane,
            Focus::Callees => areas.callees = pane,
        }
    } else if screen.width >= SIDE_BY_SIDE {
        let list_w = main.width * 55 / 100;
        areas.list = Pane::new(Rect {
            width: list_w,
            ..main
        });
        areas.rule = Rect {
            x: main.x + list_w,
            width: 1,
            ..main
        };
        let right = Rect {
            x: main.x + list_w + 1,
            width: main.width - list_w - 1,
            ..main
        };
        let top = right.height / 2;
        areas.callers = Pane::new(Rect {
            height: top,
            ..right
        });
        areas.callees = Pane::new(Rect {
            y: right.y + top,
            height: right.height - top,
            ..right
        });
    } else {
        let calls_h = (main.height / 4).max(3);
        let mut list = main;
        areas.callees = Pane::new(take_bottom(&mut list, calls_h));
        areas.callers = Pane::new(take_bottom(&mut list, calls_h));
        areas.list = Pane::new(list);
    }
    if let Some(want) = open.popup {
        let w = popup_width(want.width, screen.width);
        let h = want.height.min(screen.height.saturating_sub(2));
        let x = screen.x + (screen.width - w) / 2;
        let y = screen.y + (screen.height - h) / 2;
        areas.popup = Rect::new(x, y, w, h);
        areas.popup_rows = h.saturating_sub(want.chrome);
    }
    areas
}

/// The width of a popup that wants `want` columns on a screen `screen`
/// wide (`FULL`: the whole width).
pub fn popup_width(want: u16, screen: u16) -> u16 {
    if want == FULL {
        screen
    } else {
        want.min(screen.saturating_sub(4)).max(screen.min(20))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(focus: Focus) -> Open {
        Open {
            source: false,
            focus,
            popup: None,
        }
    }

    #[test]
    fn small_terminals_keep_the_list_and_drop_the_panes() {
        let a = areas(Rect::new(0, 0, 40, 10), &open(Focus::List));
        assert!(a.list.body.height >= 6, "{a:?}");
        assert!(!a.callers.shown() && !a.callees.shown());
        // The focused pane takes the place of the list.
        let a = areas(Rect::new(0, 0, 40, 10), &open(Focus::Callees));
        assert!(!a.list.shown());
        assert_eq!(a.callees.body.height, a.callees.body.height.max(6));
    }

    #[test]
    fn every_row_is_used_once() {
        for (w, h) in [(80, 24), (40, 10), (250, 70), (1, 1), (0, 0), (120, 40)] {
            let a = areas(Rect::new(0, 0, w, h), &open(Focus::List));
            let rows = a.title.height
                + a.events.height
                + a.details.height
                + a.status.height
                + a.hints.height
                + a.list.title.height
                + a.list.body.height
                + if w >= SIDE_BY_SIDE {
                    0
                } else {
                    a.callers.title.height
                        + a.callers.body.height
                        + a.callees.title.height
                        + a.callees.body.height
                };
            assert_eq!(rows, h, "{w}x{h}: {a:?}");
        }
    }
}
