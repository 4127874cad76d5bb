//! The callers and callees panes of the current function: per edge the call
//! count, the inclusive cost of those calls and its share of the current
//! function's inclusive cost; recursive calls and cycles are marked.

use super::{cost_format, cycle_mark, diff, name_spans};
use crate::format::percent_text;
use crate::profile::FnId;
use crate::tui::app::{App, Pane as Focus, rows};
use crate::tui::columns::Scope;
use crate::tui::layout::Pane;
use crate::tui::widgets::{Column, Table, Width, cells, name_cell, put_line};
use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Span;

/// Width of the call count, without its `×`.
const COUNT: usize = 10;

/// A row of a pane: a member of the current cycle (listed first in its
/// callees pane), or a call (an edge's index).
#[derive(Clone, Copy)]
enum Row {
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
        (&app.callers, &app.caller_scroll, Focus::Callers)
    } else {
        (&app.callees, &app.callee_scroll, Focus::Callees)
    };
    let focused = app.focus == focus;
    let Some(cur) = app.current else {
        put_line(buf, pane.title, 0, vec![], t.title(focused));
        return;
    };
    let format = cost_format(app);
    let cur_incl = format.at(rows::inclusive(a, cur));
    // A cycle's callees pane lists its members first.
    let members: &[FnId] = if callers { &[] } else { &app.members };
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
    // A comparison: each call's count and cost in both profiles.
    let sides = |r: &Row| match *r {
        Row::Edge(e) => diff::call(app, e),
        Row::Member(_) => None,
    };
    let plain = crate::tui::widgets::CostFormat {
        signed: false,
        ..format
    };
    let side_column = |new: bool, title: &'static str| {
        Column::new(Width::Cost, move |r: &Row, _| {
            let text = sides(r).map_or(String::new(), |(b, n)| {
                plain.text(if new { n.1 } else { b.1 })
            });
            vec![Span::raw(text)]
        })
        .right()
        .header(title)
        .gives_way(if new { 2 } else { 1 })
    };
    let mut columns = vec![
        Column::text(Width::Fixed(COUNT + 1), move |r| match *r {
            Row::Member(_) => "member".into(),
            Row::Edge(e) => match sides(r) {
                Some(((b, _), (n, _))) if b != n => {
                    format!("{}{}{}", count_text(b), g.arrow, count_text(n))
                }
                _ => format!("{}{}", count_text(a.edges[e].count), g.times),
            },
        })
        .right()
        .header("Calls"),
        Column::new(Width::Cost, |r: &Row, cx| {
            let cost = cx.format.at(match *r {
                Row::Member(m) => rows::inclusive(a, m),
                Row::Edge(e) => a.edge_cost(e),
            });
            // A comparison's changes in the colours of gains and losses.
            let style = if app.diff.is_some() {
                t.change(cost)
            } else {
                Style::new()
            };
            vec![Span::styled(cx.format.text(cost), style)]
        })
        .right()
        .header(if app.diff.is_some() { "Change" } else { "Cost" }),
        Column::text(Width::Fixed(7), |r| match *r {
            Row::Member(_) => String::new(),
            // A recursive call's cost is inside the caller's already.
            Row::Edge(e) if a.is_recursive(e) => "rec".into(),
            Row::Edge(e) => percent_text(format.at(a.edge_cost(e)), cur_incl),
        })
        .right()
        .header("%fn")
        .gives_way(0),
        Column::new(Width::Fill { min: 0 }, |r, cx| match *r {
            Row::Member(m) => name_spans(app, m, cx.width, cx.style),
            Row::Edge(e) => {
                let edge = a.edges[e];
                let other = if callers { edge.caller } else { edge.callee };
                let mut marks = cycle_mark(app, other);
                if a.is_recursive(e) {
                    marks.push_str(&format!(" {} recursive", g.recursive));
                }
                let marks = vec![Span::styled(marks, t.marker())];
                name_cell(cx.width, vec![], marks, |room| {
                    name_spans(app, other, room, cx.style)
                })
            }
        })
        .header_with(title),
    ];
    // The chosen metric columns of inclusive costs (a call has no self
    // cost): a metric of the calls' cost, after the share.
    let chosen = &app.columns;
    for (i, &c) in chosen.chosen.iter().enumerate() {
        if c.scope != Scope::Inclusive {
            continue;
        }
        let mut header = chosen.header(c);
        if app.diff.is_some() {
            header.push_str(" chg");
        }
        let width = crate::tui::columns::Columns::width(&header);
        let column = Column::text(Width::Fixed(width), move |r: &Row| {
            // A comparison: the change of the metric from the base's cost
            // to the new profile's (a rate's change is not the rate of the
            // changes).
            if app.diff.is_some() {
                let sides = match *r {
                    Row::Member(m) => rows::compared(app, m).map(|[b, n]| [b.1, n.1]),
                    Row::Edge(e) => rows::compared_call(app, e),
                };
                return sides.map_or(String::new(), |[b, n]| {
                    chosen.change_text(c, (&b, &b), (&n, &n))
                });
            }
            let costs = match *r {
                Row::Member(m) => rows::inclusive(a, m),
                Row::Edge(e) => a.edge_cost(e),
            };
            chosen.text(c, costs, costs)
        })
        .right()
        .header(header)
        .gives_way(1 + (chosen.chosen.len() - i).min(200) as u8);
        columns.insert(columns.len() - 1, column);
    }
    if app.diff.is_some() {
        // The share of the current function's change says little.
        columns.remove(2);
        columns.insert(1, side_column(false, "Base"));
        columns.insert(2, side_column(true, "New"));
    }
    let none = if callers {
        "(no callers: a root of the call graph)"
    } else {
        "(calls nothing)"
    };
    let len = members.len() + edges.len();
    let row = |i: usize| match i.checked_sub(members.len()) {
        None => Row::Member(members[i]),
        Some(i) => Row::Edge(edges[i] as usize),
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
