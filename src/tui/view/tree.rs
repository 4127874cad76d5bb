//! The call tree and the caller tree: one row per node, indented, with its
//! inclusive cost, self cost, share of the total, calls and name;
//! estimated costs marked, a recursive call marked and never opened. The
//! self cost is `Node::self_cost`: in a call tree what the node's function
//! spends itself on that path, in a caller tree the part of the root
//! function's self cost that comes by that path.

use super::calls::count_text;
use super::{cost_format, name_spans, shown_name};
use crate::analysis::tree::{Cut, Tree};
use crate::format::{percent_text, thousands};
use crate::tui::app::{App, TreeKind, TreeView};
use crate::tui::layout::Pane;
use crate::tui::widgets::{Column, Table, Width, cells, fit, name_cell};
use ratatui::text::Span;

/// What a marker node stands for, with the bound that cut it.
pub fn cut_label(cut: Cut, tree: &Tree) -> String {
    match cut {
        Cut::Depth => format!(
            "[deeper calls cut: depth bound {}]",
            thousands(i64::from(tree.limits().depth))
        ),
        Cut::Calls(n) => format!(
            "[{} more call{} cut]",
            thousands(i64::try_from(n).unwrap_or(i64::MAX)),
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// Width of the calls column.
const CALLS: usize = 10;
/// Indent per level, in cells.
const INDENT: usize = 2;
/// The name column's least width: narrower, the self, % and calls columns
/// give way (at 40 columns with large costs, only the inclusive cost).
const NAME_CELLS: usize = 16;
/// Cells of the root's name that the title keeps before its legend.
const NAME_MIN: usize = 20;

pub fn draw(app: &App, buf: &mut ratatui::buffer::Buffer, pane: Pane, view: &TreeView) {
    let t = app.theme;
    let g = t.glyphs();
    let format = cost_format(app);
    let grand = format.total;
    let tree = &view.tree;
    let what = match view.kind {
        TreeKind::Callers => "Caller tree of ",
        _ => "Call tree of ",
    };
    let event = app
        .profile
        .events
        .events
        .get(app.event)
        .map_or(String::new(), |e| {
            crate::format::printable(&e.name).into_owned()
        });
    // The legend gives way first, then the event, so the name stays legible.
    let tails = [
        format!(
            " {} {event}; {} estimated, {} recursion",
            g.dash, g.approx, g.recursive
        ),
        format!(" {} {event}; {} estimated", g.dash, g.approx),
        format!(" {} {event}", g.dash),
        String::new(),
    ];
    let title = move |width: usize| {
        let name = tree.node(0).func.map_or(17, |f| cells(&shown_name(app, f)));
        let tail = tails
            .iter()
            .find(|t| what.len() + name.min(NAME_MIN) + cells(t) <= width)
            .unwrap_or(&tails[3]);
        let room = width.saturating_sub(what.len() + cells(tail));
        let mut spans = vec![Span::raw(what)];
        match tree.node(0).func {
            Some(f) => spans.extend(name_spans(app, f, room, t.title(true))),
            None => spans.push(Span::raw("the whole program")),
        }
        spans.push(Span::raw(tail.clone()));
        spans
    };
    let shown = |n: usize| !tree.node(n).recursive;
    let selected_depth = tree.node(view.node()).depth as usize;
    let columns = vec![
        Column::text(Width::Fixed(1), |&n: &usize| {
            let mark = if tree.node(n).exact { " " } else { g.approx };
            mark.to_string()
        }),
        Column::new(Width::Cost, move |&n: &usize, cx| {
            let text = if shown(n) {
                cx.format.text(tree.node(n).value)
            } else {
                String::new()
            };
            vec![Span::raw(text)]
        })
        .right()
        .header("Incl"),
        Column::new(Width::Cost, move |&n: &usize, cx| {
            let text = match tree.node(n).self_cost(tree.direction) {
                Some(own) if shown(n) => cx.format.text(own),
                _ => String::new(),
            };
            vec![Span::raw(text)]
        })
        .right()
        .header("Self")
        .gives_way(3),
        Column::text(Width::Fixed(7), move |&n: &usize| {
            if shown(n) {
                percent_text(tree.node(n).value, grand)
            } else {
                String::new()
            }
        })
        .right()
        .header("%")
        .gives_way(2),
        Column::text(Width::Fixed(CALLS), |&n: &usize| {
            if n == 0 {
                String::new()
            } else {
                count_text(tree.node(n).calls)
            }
        })
        .right()
        .header("Calls")
        .gives_way(1),
        Column::new(Width::Fill { min: NAME_CELLS }, |&n: &usize, cx| {
            let node = tree.node(n);
            // Deep below the root the indents scroll with the selection:
            // it keeps its place a third into the column, and the rows
            // around it keep their depths relative to it.
            let shift = (selected_depth * INDENT).saturating_sub(cx.width / 3);
            let indent = (node.depth as usize * INDENT)
                .saturating_sub(shift)
                .min(cx.width / 2);
            let opener = if node.recursive {
                g.recursive
            } else if view.is_open(n) {
                g.open
            } else if tree.may_expand(n) {
                g.closed
            } else {
                " "
            };
            let prefix = vec![Span::raw(format!("{}{opener} ", " ".repeat(indent)))];
            name_cell(cx.width, prefix, vec![], |room| match node.func {
                Some(f) => {
                    let style = if node.recursive {
                        cx.style.patch(t.dim())
                    } else {
                        cx.style
                    };
                    name_spans(app, f, room, style)
                }
                None => {
                    let text = node
                        .cut
                        .map_or("(all roots)".into(), |c| cut_label(c, tree));
                    vec![Span::styled(fit(&text, room, g), cx.style.patch(t.dim()))]
                }
            })
        })
        .header_with(title),
    ];
    Table::new(format, columns)
        .header_style(t.title(true), t.title(true))
        .selected_style(t.selected(true))
        .draw(buf, pane, &view.scroll, view.rows.len(), |i| view.rows[i]);
}
