//! The callers and callees panes of the current function: per edge the call
//! count, the inclusive cost of those calls and its share of the current
//! function's inclusive cost; recursive calls and cycles are marked.

use super::apart::Apart;
use super::{cost_format, costs, cycle_mark, name_spans, name_spans_apart};
use crate::profile::FnId;
use crate::tui::app::{App, Pane as Focus, rows};
use crate::tui::layout::Pane;
use crate::tui::widgets::{Column, Table, Width, cells, name_cell, put_line};
use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Span;

/// A row of a pane: a member of the current cycle (listed first in its
/// callees pane), or a call (an edge's index).
#[derive(Clone, Copy)]
pub enum Row {
    Member(FnId),
    Edge(usize),
}

pub fn draw(app: &App, buf: &mut Buffer, pane: Pane, callers: bool) {
    if !pane.shown() {
        return;
    }
    let t = app.theme;
    let g = t.glyphs();
    let a = &app.analysis;
    let (edges, scroll, focus) = if callers {
        (&app.panes.callers, &app.panes.caller_scroll, Focus::Callers)
    } else {
        (&app.panes.callees, &app.panes.callee_scroll, Focus::Callees)
    };
    let focused = app.browse.focus == focus;
    let Some(cur) = app.current else {
        put_line(buf, pane.title, 0, vec![], t.title(focused));
        return;
    };
    let format = cost_format(app);
    let cur_incl = format.at(rows::inclusive(a, cur));
    // A cycle's callees pane lists its members first.
    let members: &[FnId] = if callers { &[] } else { &app.panes.members };
    let what = if callers { "Callers of" } else { "Callees of" };
    let (mark, count) = (cycle_mark(app, cur), members.len() + edges.len());
    let tail = format!("{mark}: {count}");
    let title = move |width: usize| {
        let room = width.saturating_sub(what.len() + 1 + cells(&tail));
        if room < 4 {
            // No room for a name (the status line names it): "Callees: 35",
            // shorter where it must be, but never a count cut to other digits.
            let short = what.trim_end_matches(" of");
            let forms = [
                format!("{short}{tail}"),
                format!("{short}:{count}"),
                count.to_string(),
            ];
            let fits = forms.into_iter().find(|f| cells(f) <= width);
            return vec![Span::raw(fits.unwrap_or_default())];
        }
        let mut spans = vec![Span::raw(format!("{what} "))];
        spans.extend(name_spans(app, cur, room, t.title(focused)));
        spans.push(Span::raw(tail.clone()));
        spans
    };
    let len = members.len() + edges.len();
    let row = |i: usize| match i.checked_sub(members.len()) {
        None => Row::Member(members[i]),
        Some(i) => Row::Edge(edges[i] as usize),
    };
    let (_, window) = scroll.window(pane.body.height as usize, len);
    let on_screen = window.map(|i| match row(i) {
        Row::Member(m) => m,
        Row::Edge(e) if callers => a.edges[e].caller,
        Row::Edge(e) => a.edges[e].callee,
    });
    let apart = Apart::new(app, on_screen.collect());
    let mut columns = costs::call_columns(app, cur_incl);
    columns.push(
        Column::new(Width::Fill { min: 0 }, |r, cx| match *r {
            Row::Member(m) => name_spans_apart(app, m, cx.width, cx.style, Some(&apart)),
            Row::Edge(e) => {
                let edge = a.edges[e];
                let other = if callers { edge.caller } else { edge.callee };
                let mut marks = cycle_mark(app, other);
                if a.is_recursive(e) {
                    marks.push_str(&format!(" {} recursive", g.recursive));
                }
                let marks = vec![Span::styled(marks, t.marker())];
                name_cell(cx.width, vec![], marks, |room| {
                    name_spans_apart(app, other, room, cx.style, Some(&apart))
                })
            }
        })
        .header_with(title),
    );
    let none = if callers {
        "(no callers: a root of the call graph)"
    } else {
        "(calls nothing)"
    };
    Table::new(format, columns)
        .header_style(Style::new(), t.title(focused))
        .selected_style(t.selected(focused))
        .margin(1)
        .empty(Span::styled(none, t.dim()))
        .draw(buf, pane, scroll, len, row);
}

/// A call count; `?` where the profile does not know it (`calls=0`, as
/// pprof and xtree write).
pub fn count_text(n: u64) -> String {
    if n == 0 {
        "?".into()
    } else {
        crate::format::wide_thousands(n.into())
    }
}
