//! The callers and callees panes of the current function: per edge the call
//! count, the inclusive cost of those calls and its share of the current
//! function's inclusive cost; recursive calls and cycles are marked.

use super::name_spans;
use crate::format::percent_text;
use crate::profile::FnId;
use crate::tui::app::{App, Pane as Focus, rows};
use crate::tui::layout::Pane;
use crate::tui::widgets::{cost_text, cost_width, put_line, right};
use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Span;

const COUNT: usize = 10;

pub fn draw(app: &App, buf: &mut Buffer, pane: Pane, callers: bool) {
    if !pane.shown() {
        return;
    }
    let t = app.theme;
    let (edges, scroll, focus) = if callers {
        (&app.callers, &app.caller_scroll, Focus::Callers)
    } else {
        (&app.callees, &app.callee_scroll, Focus::Callees)
    };
    let focused = app.focus == focus;
    let w = cost_width(app);
    let Some(cur) = app.current else {
        put_line(buf, pane.title, 0, vec![], t.title(focused));
        return;
    };
    let cur_incl = rows::inclusive(&app.analysis, cur)
        .get(app.event)
        .copied()
        .unwrap_or(0);
    let what = if callers { "Callers of" } else { "Callees of" };
    let head = format!(
        "{} {} {} {what} ",
        right("Calls", COUNT + 1),
        right("Cost", w),
        right("%fn", 7),
    );
    // A cycle's callees pane lists its members first.
    let members: &[FnId] = if callers { &[] } else { &app.members };
    let mut tail = String::new();
    if let Some(c) = Some(cur)
        .filter(|&f| app.is_function(f))
        .and_then(|f| app.analysis.cycle_of(f))
    {
        tail.push_str(&format!(" {}", rows::cycle_name(c.number)));
    }
    tail.push_str(&format!(": {}", members.len() + edges.len()));
    let room = (pane.title.width as usize).saturating_sub(head.len() + tail.len());
    let style = t.title(focused);
    let mut title = vec![Span::styled(head, style)];
    title.extend(name_spans(app, cur, room, style));
    title.push(Span::styled(tail, style));
    put_line(buf, pane.title, 0, title, t.title(focused));
    let width = pane.body.width as usize;
    let name_w = width.saturating_sub(COUNT + 2 + w + 1 + 8 + 1);
    let len = members.len() + edges.len();
    let (selected, range) = scroll.window(pane.body.height as usize, len);
    for (y, i) in range.enumerate() {
        let row_style = if i == selected {
            t.selected(focused)
        } else {
            Style::new()
        };
        let spans = match i.checked_sub(members.len()) {
            None => member_row(app, members[i], w, name_w, row_style),
            Some(i) => edge_row(
                app,
                edges[i] as usize,
                callers,
                cur_incl,
                w,
                name_w,
                row_style,
            ),
        };
        put_line(buf, pane.body, y as u16, spans, row_style);
    }
    if len == 0 {
        let none = if callers {
            "(no callers: a root of the call graph)"
        } else {
            "(calls nothing)"
        };
        put_line(
            buf,
            pane.body,
            0,
            vec![Span::styled(none, t.dim())],
            Style::new(),
        );
    }
}

/// A call count; `?` where the profile does not know it (`calls=0`, as
/// pprof and xtree write).
pub fn count_text(n: u64) -> String {
    if n == 0 {
        "?".into()
    } else {
        crate::format::thousands(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

/// A call from or to the current function: count, cost, share, name, marks.
fn edge_row(
    app: &App,
    e: usize,
    callers: bool,
    cur_incl: i64,
    w: usize,
    name_w: usize,
    row_style: Style,
) -> Vec<Span<'static>> {
    let t = app.theme;
    let g = t.glyphs();
    let edge = app.analysis.edges[e];
    let other = if callers { edge.caller } else { edge.callee };
    let cost = app
        .analysis
        .edge_cost(e)
        .get(app.event)
        .copied()
        .unwrap_or(0);
    // A recursive call's cost is inside the caller's already: no share.
    let share = if app.analysis.is_recursive(e) {
        "rec".to_string()
    } else {
        percent_text(cost, cur_incl)
    };
    let mut marks = String::new();
    if let Some(c) = app.analysis.cycle_of(other) {
        marks.push_str(&format!(" {}", rows::cycle_name(c.number)));
    }
    if app.analysis.is_recursive(e) {
        marks.push_str(&format!(" {} recursive", g.recursive));
    }
    let mut spans = vec![Span::raw(format!(
        "{}{} {} {} ",
        right(&count_text(edge.count), COUNT),
        g.times,
        right(&cost_text(app, cost), w),
        right(&share, 7),
    ))];
    spans.extend(name_spans(
        app,
        other,
        name_w.saturating_sub(marks.chars().count()),
        row_style,
    ));
    spans.push(Span::styled(marks, row_style.patch(t.marker())));
    spans
}

/// A member of the current cycle, with its inclusive cost.
fn member_row(app: &App, m: FnId, w: usize, name_w: usize, row_style: Style) -> Vec<Span<'static>> {
    let incl = rows::inclusive(&app.analysis, m)
        .get(app.event)
        .copied()
        .unwrap_or(0);
    let mut spans = vec![Span::raw(format!(
        "{} {} {} ",
        right("member", COUNT + 1),
        right(&cost_text(app, incl), w),
        right("", 7),
    ))];
    spans.extend(name_spans(app, m, name_w, row_style));
    spans
}
