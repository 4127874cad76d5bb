//! The call tree and the caller tree: one row per node, indented, with its
//! inclusive cost, self cost, share of the total, calls, the chosen metric
//! columns and name;
//! estimated costs marked, a recursive call marked and never opened. The
//! self cost is `Node::self_cost`: in a call tree what the node's function
//! spends itself on that path, in a caller tree the part of the root
//! function's self cost that comes by that path.

use crate::analysis::tree::{Cut, Tree};
use crate::format::{percent_text, thousands};
use crate::tui::app::App;
use crate::tui::columns::{Columns, Scope};
use crate::tui::layout::Pane;
use crate::tui::view::apart::Apart;
use crate::tui::view::calls::count_text;
use crate::tui::view::{cost_format, name_spans, name_spans_apart, shown_name};
use crate::tui::views::tree::{TreeKind, TreeView};
use crate::tui::widgets::{Column, Table, Width, cells, fit, name_cell};
use ratatui::text::Span;

mod compared;

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
    let compared = view.tree.is_compared();
    let (_, window) = view
        .scroll
        .window(pane.body.height as usize, view.rows.len());
    let on_screen = window.filter_map(|i| view.tree.node(view.rows[i]).func);
    let apart = Apart::new(app, on_screen.collect());
    let mut columns = vec![approx_column(app, view)];
    columns.extend(match compared {
        false => cost_columns(app, view),
        true => compared::cost_columns(app, view),
    });
    let tree = &view.tree;
    // A path of one profile only is marked `new` or `gone`.
    let marks = move |n: usize| match tree.node(n).recursive {
        false => tree.sides(n).and_then(|s| s.status()),
        true => None,
    };
    let title = if compared { ", compared" } else { "" };
    columns.push(name_column(app, view, title, marks, &apart));
    Table::new(cost_format(app), columns)
        .header_style(t.title(true), t.title(true))
        .selected_style(t.selected(true))
        .draw(buf, pane, &view.scroll, view.rows.len(), |i| view.rows[i]);
}

/// One profile's tree: inclusive, self, share of the total, calls, then
/// the chosen metric columns.
fn cost_columns<'a>(app: &'a App, view: &'a TreeView) -> Vec<Column<'a, usize>> {
    let grand = cost_format(app).total;
    let tree = &view.tree;
    let shown = |n: usize| !tree.node(n).recursive;
    let mut columns = vec![
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
        // After the chosen columns: the self cost says where time goes.
        .gives_way(3 + app.columns.chosen.len().min(200) as u8),
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
    ];
    columns.extend(metric_columns(app, view));
    columns
}

/// The chosen metric columns (`m`) of each node's costs on its path,
/// inclusive or self (see `Tree::costs`); blank on a recursive leaf and
/// where a self cost is not known yet. They give way after the calls and
/// the share, the last chosen first, and before the self cost.
fn metric_columns<'a>(app: &'a App, view: &'a TreeView) -> Vec<Column<'a, usize>> {
    let (tree, columns) = (&view.tree, &app.columns);
    let width = app.analysis.width;
    (columns.chosen.iter().enumerate())
        .map(|(i, &c)| {
            let header = columns.header(c);
            let cells = Columns::width(&header);
            Column::text(Width::Fixed(cells), move |&n: &usize| {
                match tree.costs(n, width) {
                    Some(costs) if !tree.node(n).recursive => {
                        let own = match (c.scope, costs.own) {
                            (Scope::Own, None) => return String::new(),
                            (_, own) => own.unwrap_or_default(),
                        };
                        columns.text(c, &own, &costs.inclusive)
                    }
                    _ => String::new(),
                }
            })
            .right()
            .header(header)
            .gives_way(2 + (columns.chosen.len() - i).min(200) as u8)
        })
        .collect()
}

/// The first column: `≈` on a node whose value is estimated.
fn approx_column<'a>(app: &'a App, view: &'a TreeView) -> Column<'a, usize> {
    let g = app.theme.glyphs();
    Column::text(Width::Fixed(1), |&n: &usize| {
        let mark = if view.tree.node(n).exact {
            " "
        } else {
            g.approx
        };
        mark.to_string()
    })
}

/// The name column: each node's opener and function, indented by depth,
/// with `marks` after the name (a comparison's `new`/`gone`), and the
/// title in its header (`compared` after the event in a comparison).
fn name_column<'a>(
    app: &'a App,
    view: &'a TreeView,
    compared: &'a str,
    marks: impl Fn(usize) -> Option<&'static str> + 'a,
    apart: &'a Apart<'a>,
) -> Column<'a, usize> {
    let t = app.theme;
    let g = t.glyphs();
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
            " {} {event}{compared}; {} estimated, {} recursion",
            g.dash, g.approx, g.recursive
        ),
        format!(" {} {event}{compared}; {} estimated", g.dash, g.approx),
        format!(" {} {event}{compared}", g.dash),
        format!(" {} {event}", g.dash),
        String::new(),
    ];
    let title = move |width: usize| {
        let name = tree.node(0).func.map_or(17, |f| cells(&shown_name(app, f)));
        let tail = tails
            .iter()
            .find(|t| what.len() + name.min(NAME_MIN) + cells(t) <= width)
            .unwrap_or(&tails[tails.len() - 1]);
        let room = width.saturating_sub(what.len() + cells(tail));
        let mut spans = vec![Span::raw(what)];
        match tree.node(0).func {
            Some(f) => spans.extend(name_spans(app, f, room, t.title(true))),
            None => spans.push(Span::raw("the whole program")),
        }
        spans.push(Span::raw(tail.clone()));
        spans
    };
    let selected_depth = tree.node(view.node()).depth as usize;
    Column::new(Width::Fill { min: NAME_CELLS }, move |&n: &usize, cx| {
        let node = tree.node(n);
        // One step per level, in a window of the levels that fit in half
        // the column: deep below the root the window follows the
        // selection (at most two thirds into it), and a row outside it
        // says its depth (`⋯12`) where its level would not show.
        let levels = (cx.width / 2 / INDENT).max(1);
        let first = selected_depth.saturating_sub(levels * 2 / 3);
        let depth = node.depth as usize;
        let (indent, depth_mark) = match depth.checked_sub(first) {
            Some(level) if level <= levels => (level * INDENT, String::new()),
            Some(_) => (levels * INDENT, format!("{}{depth} ", g.ellipsis)),
            None => (0, format!("{}{depth} ", g.ellipsis)),
        };
        let opener = if node.recursive {
            g.recursive
        } else if view.is_open(n) {
            g.open
        } else if tree.may_expand(n) {
            g.closed
        } else {
            " "
        };
        let mut prefix = vec![Span::raw(" ".repeat(indent))];
        if !depth_mark.is_empty() {
            prefix.push(Span::styled(depth_mark, t.dim()));
        }
        prefix.push(Span::raw(format!("{opener} ")));
        let marks = match marks(n) {
            Some(m) if node.func.is_some() => vec![Span::styled(format!(" {m}"), t.marker())],
            _ => vec![],
        };
        name_cell(cx.width, prefix, marks, |room| match node.func {
            Some(f) => {
                let style = if node.recursive {
                    cx.style.patch(t.dim())
                } else {
                    cx.style
                };
                name_spans_apart(app, f, room, style, Some(apart))
            }
            None => {
                let text = node
                    .cut
                    .map_or("(all roots)".into(), |c| cut_label(c, tree));
                vec![Span::styled(fit(&text, room, g), cx.style.patch(t.dim()))]
            }
        })
    })
    .header_with(title)
}
