//! The call tree and the caller tree: one row per node, indented, with its
//! cost, share of the total, calls and name; estimated costs marked, a
//! recursive call marked and never opened.

use super::calls::count_text;
use super::name_spans;
use crate::format::percent_text;
use crate::tui::app::{App, TreeKind, TreeView};
use crate::tui::layout::Pane;
use crate::tui::widgets::{cells, fit, put_line, right};
use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Span;

/// Width of the calls column.
const CALLS: usize = 10;
/// Indent per level, in cells (capped so deep trees keep room for names).
const INDENT: usize = 2;
const MAX_INDENT: usize = 40;

pub fn draw(app: &App, buf: &mut Buffer, pane: Pane, view: &TreeView) {
    let t = app.theme;
    let g = t.glyphs();
    let cf = super::cost_format(app);
    let w = cf.width;
    let root = view.tree.node(0);
    let what = match view.kind {
        TreeKind::Callers => "Caller tree of",
        _ => "Call tree of",
    };
    let event = app
        .profile
        .events
        .events
        .get(app.event)
        .map_or(String::new(), |e| {
            crate::format::printable(&e.name).into_owned()
        });
    let head = format!(
        " {} {} {} {what} ",
        right("Cost", w),
        right("%", 7),
        right("Calls", CALLS),
    );
    let tail = format!(
        " {} {event} inclusive; {} estimated, {} recursion",
        g.dash, g.approx, g.recursive
    );
    let style = t.title(true);
    let room = (pane.title.width as usize).saturating_sub(head.len() + tail.chars().count());
    let mut title = vec![Span::styled(head, style)];
    match root.func {
        Some(f) => title.extend(name_spans(app, f, room.max(8), style)),
        None => title.push(Span::styled("the whole program", style)),
    }
    title.push(Span::styled(tail, style));
    put_line(buf, pane.title, 0, title, style);

    let body = pane.body;
    let grand = cf.total;
    let (selected, range) = view.scroll.window(body.height as usize, view.rows.len());
    for (y, i) in range.enumerate() {
        let n = view.rows[i];
        let node = view.tree.node(n);
        let style = if i == selected {
            t.selected(true)
        } else {
            Style::new()
        };
        let mark = if node.exact { " " } else { g.approx };
        let (cost, pct) = if node.recursive {
            (String::new(), String::new())
        } else {
            (cf.text(node.value), percent_text(node.value, grand))
        };
        let calls = if n == 0 {
            String::new()
        } else {
            count_text(node.calls)
        };
        let indent = (node.depth as usize * INDENT).min(MAX_INDENT);
        let opener = if node.recursive {
            g.recursive
        } else if view.is_open(n) {
            g.open
        } else if view.tree.may_expand(n) {
            g.closed
        } else {
            " "
        };
        let lead = format!(
            "{mark}{} {} {} {}{opener} ",
            right(&cost, w),
            right(&pct, 7),
            right(&calls, CALLS),
            " ".repeat(indent),
        );
        let room = (body.width as usize).saturating_sub(cells(&lead));
        let mut spans = vec![Span::styled(lead, style)];
        match node.func {
            Some(f) => {
                let name_style = if node.recursive {
                    style.patch(t.dim())
                } else {
                    style
                };
                spans.extend(name_spans(app, f, room, name_style));
            }
            None => spans.push(Span::styled(fit("(all roots)", room, g), style)),
        }
        put_line(buf, body, y as u16, spans, style);
    }
}
