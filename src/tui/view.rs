//! Drawing: `draw(&App, frame)` renders the whole screen from the state,
//! with no I/O and no mutation. `layout` is shared with `App` so page sizes
//! match what is drawn. Wide terminals get the callers/callees beside the
//! list, others below it.

mod calls;
mod list;
mod popup;
mod source;

use super::app::{App, Popup};
use super::keymap;
use super::widgets::{fit, put_line};
use crate::format::printable;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;

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
}

/// Where everything goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Areas {
    pub header: Rect,
    pub status: Rect,
    pub list: Pane,
    pub callers: Pane,
    pub callees: Pane,
    /// Zero-sized unless the source view is open.
    pub source: Pane,
    /// The open popup's frame, and how many rows of content it shows.
    pub popup: Rect,
    pub popup_rows: u16,
}

/// Terminal widths from which the callers/callees go beside the list.
pub const SIDE_BY_SIDE: u16 = 160;

pub fn layout(app: &App, area: Rect) -> Areas {
    let header_h = area.height.min(2);
    let status_h = area.height.saturating_sub(header_h).min(2);
    let main_h = area.height - header_h - status_h;
    let header = Rect {
        height: header_h,
        ..area
    };
    let main = Rect {
        y: area.y + header_h,
        height: main_h,
        ..area
    };
    let status = Rect {
        y: main.y + main_h,
        height: status_h,
        ..area
    };
    let mut areas = Areas {
        header,
        status,
        ..Areas::default()
    };
    if app.source.is_some() {
        areas.source = Pane::new(main);
    } else if area.width >= SIDE_BY_SIDE {
        let list_w = main.width * 55 / 100;
        let right = Rect {
            x: main.x + list_w + 1,
            width: main.width - list_w - 1,
            ..main
        };
        areas.list = Pane::new(Rect {
            width: list_w,
            ..main
        });
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
        let calls_h = (main_h / 4).max(3).min(main_h / 2);
        let list_h = main_h - 2 * calls_h;
        areas.list = Pane::new(Rect {
            height: list_h,
            ..main
        });
        areas.callers = Pane::new(Rect {
            y: main.y + list_h,
            height: calls_h,
            ..main
        });
        areas.callees = Pane::new(Rect {
            y: main.y + list_h + calls_h,
            height: calls_h,
            ..main
        });
    }
    let (popup, rows) = popup::area(app, area);
    areas.popup = popup;
    areas.popup_rows = rows;
    areas
}

/// Renders the whole screen.
pub fn draw(app: &App, frame: &mut Frame<'_>) {
    let area = frame.area();
    let areas = layout(app, area);
    let buf = frame.buffer_mut();
    header(app, buf, areas.header);
    if app.source.is_some() {
        source::draw(app, buf, areas.source);
    } else {
        list::draw(app, buf, areas.list);
        if area.width >= SIDE_BY_SIDE {
            // A vertical rule between the list and the call panes.
            let x = areas.list.title.x + areas.list.title.width;
            for y in areas.list.title.y..areas.list.body.y + areas.list.body.height {
                if let Some(cell) = buf.cell_mut((x, y)) {
                    cell.set_symbol("│").set_style(app.theme.dim());
                }
            }
        }
        calls::draw(app, buf, areas.callers, true);
        calls::draw(app, buf, areas.callees, false);
    }
    status(app, buf, areas.status);
    match &app.popup {
        Some(Popup::Help(s)) => popup::help(app, buf, areas.popup, s),
        Some(Popup::Parts(s)) => popup::parts(app, buf, areas.popup, s),
        Some(Popup::Search(s)) => popup::search(app, buf, areas.popup, s),
        None => {}
    }
}

/// Two lines: the command and parts; the event totals, current one marked.
fn header(app: &App, buf: &mut Buffer, area: Rect) {
    let t = app.theme;
    let p = &app.profile;
    let cmd = p.meta.cmd.as_deref().unwrap_or("(no command recorded)");
    let active = app.analysis.parts.iter().filter(|&&s| s).count();
    let mut first = vec![
        Span::styled(" cgtui ", t.header().add_modifier(Modifier::BOLD)),
        Span::styled(format!(" {}", fit(cmd.trim(), 60)), t.header()),
        Span::styled(format!("  │ {} functions", app.order.len()), t.header()),
    ];
    if p.parts.len() > 1 {
        first.push(Span::styled(
            format!("  │ parts {active}/{}", p.parts.len()),
            t.header(),
        ));
    }
    put_line(buf, area, 0, first, t.header());
    // One group of spans per event; when they do not all fit, a window
    // of them that holds the current one, `…` where some are left out.
    let groups: Vec<Vec<Span<'_>>> = p
        .events
        .events
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let total = app.analysis.totals.get(i).copied().unwrap_or(0);
            let text = format!(
                " {} {} ",
                printable(&e.name),
                crate::format::thousands(total)
            );
            let style = if i == app.event {
                t.title(true)
            } else {
                Style::new()
            };
            let mut group = vec![Span::styled(text, style)];
            if i == app.event
                && let Some(long) = &e.long_name
            {
                group.push(Span::styled(format!("({}) ", printable(long)), t.dim()));
            }
            group
        })
        .collect();
    let widths: Vec<usize> = groups
        .iter()
        .map(|g| g.iter().map(Span::width).sum())
        .collect();
    let (from, to) = event_window(&widths, app.event, (area.width as usize).saturating_sub(1));
    let mut events = vec![Span::raw(if from > 0 { "…" } else { " " })];
    events.extend(groups.into_iter().take(to).skip(from).flatten());
    if to < widths.len() {
        events.push(Span::styled("…", t.dim()));
    }
    put_line(buf, area, 1, events, Style::new());
}

/// Which events (`from..to`) the header shows in `room` cells: all when
/// they fit, else from the first on if `current` is among them, else
/// the ones up to `current`, and as many after it as fit (a cell each side
/// kept for `…`).
pub fn event_window(widths: &[usize], current: usize, room: usize) -> (usize, usize) {
    if widths.iter().sum::<usize>() <= room {
        return (0, widths.len());
    }
    let room = room.saturating_sub(1);
    let mut from = 0;
    while from < current
        && widths[from..=current.min(widths.len() - 1)]
            .iter()
            .sum::<usize>()
            > room
    {
        from += 1;
    }
    let mut to = from;
    let mut used = 0;
    while to < widths.len() && used + widths[to] <= room {
        used += widths[to];
        to += 1;
    }
    (from, to.max((current + 1).min(widths.len())))
}

/// The breadcrumb of the call chain walked, diagnostics, and key hints.
fn status(app: &App, buf: &mut Buffer, area: Rect) {
    let t = app.theme;
    let mut right: Vec<Span<'_>> = Vec::new();
    if let Some(m) = &app.message {
        right.push(Span::styled(format!(" {m} "), t.warn()));
    }
    if app.diagnostics > 0 {
        right.push(Span::styled(
            format!(" {} load warnings ", app.diagnostics),
            t.warn(),
        ));
    }
    let right_w: usize = right.iter().map(Span::width).sum();
    let room = (area.width as usize).saturating_sub(right_w + 1);
    let crumbs: Vec<String> = app
        .back
        .iter()
        .chain(app.current.as_ref())
        .map(|&f| printable(app.profile.fn_name(f)).into_owned())
        .collect();
    let mut path = crumbs.join(" › ");
    if path.chars().count() > room {
        let keep: String = path
            .chars()
            .rev()
            .take(room.saturating_sub(1))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        path = format!("…{keep}");
    }
    let mut line = vec![Span::styled(path, t.current())];
    let pad = room.saturating_sub(line[0].width());
    line.push(Span::raw(" ".repeat(pad + 1)));
    line.extend(right);
    put_line(buf, area, 0, line, Style::new());
    let mut hints = Vec::new();
    for (key, hint) in keymap::hints(app.context()) {
        hints.push(Span::styled(key, t.key()));
        hints.push(Span::raw(format!(" {hint}  ")));
    }
    put_line(buf, area, 1, hints, Style::new());
}

#[cfg(test)]
mod tests {
    use super::event_window;

    #[test]
    fn the_event_window_keeps_the_current_event() {
        let w = [10, 10, 10, 10, 10];
        assert_eq!(event_window(&w, 4, 60), (0, 5));
        assert_eq!(event_window(&w, 1, 31), (0, 3));
        assert_eq!(event_window(&w, 4, 31), (2, 5));
        assert_eq!(event_window(&w, 3, 21), (2, 4));
        // Not even the current one fits: it is shown, cut by the line.
        assert_eq!(event_window(&w, 2, 5), (2, 3));
        assert_eq!(event_window(&[], 0, 5), (0, 0));
    }
}
