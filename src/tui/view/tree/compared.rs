//! The call tree and the caller tree of a comparison: per node its
//! inclusive cost in the base and in the new profile and the change (the
//! order of the rows, `Change▼`), then where room allows the self costs
//! and their change, as the flat list's comparison columns; a path of one
//! profile only is marked `new` or `gone`; and the chosen metric columns
//! on each side and their change. Each side's numbers are that side's
//! own tree's (`analysis::tree::compare`).

use super::{approx_column, name_column};
use crate::analysis::tree::{NodeCosts, SideCosts};
use crate::profile::Cost;
use crate::tui::app::{App, TreeView};
use crate::tui::columns::{Columns, MetricColumn, Scope};
use crate::tui::layout::Pane;
use crate::tui::view::cost_format;
use crate::tui::widgets::{Column, CostFormat, Table, Width};
use ratatui::text::Span;

pub fn draw(app: &App, buf: &mut ratatui::buffer::Buffer, pane: Pane, view: &TreeView) {
    let t = app.theme;
    let g = t.glyphs();
    let format = cost_format(app);
    let plain = CostFormat {
        signed: false,
        ..format
    };
    let tree = &view.tree;
    // A recursive leaf and a node not yet known show nothing.
    let sides = move |n: usize| -> Option<SideCosts> {
        if tree.node(n).recursive {
            None
        } else {
            tree.sides(n)
        }
    };
    let cost = move |header: &'static str, pick: fn(&SideCosts) -> Option<i64>, signed: bool| {
        Column::new(Width::Cost, move |&n: &usize, cx| {
            let value = sides(n).as_ref().and_then(pick);
            let (text, style) = match value {
                Some(v) if signed => (cx.format.text(v), t.change(v)),
                Some(v) => (plain.text(v), ratatui::style::Style::new()),
                None => (String::new(), ratatui::style::Style::new()),
            };
            vec![Span::styled(text, style)]
        })
        .right()
        .header(header)
    };
    let change = format!("Change{}", g.sort_down);
    let k = app.columns.chosen.len().min(60) as u8;
    let mut columns = vec![
        approx_column(app, view),
        cost("Base", |s| Some(s.base), false).gives_way(4 + 2 * k),
        cost("New", |s| Some(s.new), false).gives_way(5 + 2 * k),
        Column::new(Width::Cost, move |&n: &usize, cx| {
            let (text, style) = match sides(n) {
                Some(s) => (cx.format.text(s.change()), t.change(s.change())),
                None => (String::new(), ratatui::style::Style::new()),
            };
            vec![Span::styled(text, style)]
        })
        .right()
        .header(change),
        cost(
            "Self base",
            |s| if s.in_base { s.base_self } else { Some(0) },
            false,
        )
        .gives_way(1 + 2 * k),
        cost(
            "Self new",
            |s| if s.in_new { s.new_self } else { Some(0) },
            false,
        )
        .gives_way(2 + 2 * k),
        cost("Self chg", SideCosts::self_change, true).gives_way(3 + 2 * k),
    ];
    columns.extend(metric_columns(app, view, k));
    columns.push(name_column(app, view, ", compared", move |n| {
        sides(n).and_then(|s| s.status())
    }));
    Table::new(format, columns)
        .header_style(t.title(true), t.title(true))
        .selected_style(t.selected(true))
        .draw(buf, pane, &view.scroll, view.rows.len(), |i| view.rows[i]);
}

/// The chosen metric columns (`m`) of each node on each side
/// (`Tree::compared_costs`): the base's and the new profile's values,
/// which give way first (the last chosen first), and the change, which
/// stays after the costs' columns (as the list of a comparison).
fn metric_columns<'a>(app: &'a App, view: &'a TreeView, k: u8) -> Vec<Column<'a, usize>> {
    let (tree, columns) = (&view.tree, &app.columns);
    let rows = move |n: usize, c: MetricColumn| -> Option<[(Vec<Cost>, Vec<Cost>); 2]> {
        if tree.node(n).recursive {
            return None;
        }
        let [b, w] = tree.compared_costs(n)?;
        let pick = |x: NodeCosts| match (c.scope, x.own) {
            (Scope::Own, None) => None,
            (_, own) => Some((own.unwrap_or_default(), x.inclusive)),
        };
        Some([pick(b)?, pick(w)?])
    };
    let mut values = Vec::new();
    let mut changes = Vec::new();
    for (i, &c) in columns.chosen.iter().enumerate().take(k as usize) {
        let name = columns.header(c);
        let later = k - i as u8;
        for (side, label) in [(0, "base"), (1, "new")] {
            let header = format!("{name} {label}");
            let width = Columns::width(&header);
            values.push(
                Column::text(Width::Fixed(width), move |&n: &usize| {
                    rows(n, c).map_or(String::new(), |r| {
                        let (own, incl) = &r[side];
                        columns.text(c, own, incl)
                    })
                })
                .right()
                .header(header)
                .gives_way(2 * later - 1 + side as u8),
            );
        }
        let header = format!("{name} chg");
        let width = Columns::width(&header);
        changes.push(
            Column::new(Width::Fixed(width), move |&n: &usize, _| {
                let Some([b, w]) = rows(n, c) else {
                    return vec![];
                };
                crate::tui::view::metric_change(app, c, (&b.0, &b.1), (&w.0, &w.1))
            })
            .right()
            .header(header)
            .gives_way(5 + 2 * k + later),
        );
    }
    changes.extend(values);
    changes
}
