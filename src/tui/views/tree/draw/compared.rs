//! The cost columns of a comparison's call tree and caller tree: per node its
//! inclusive cost in the base and in the new profile and the change (the
//! order of the rows, `Change▼`), then where room allows the self costs
//! and their change, as the flat list's comparison columns; a path of one
//! profile only is marked `new` or `gone`; and the chosen metric columns
//! on each side and their change. Each side's numbers are that side's
//! own tree's (`analysis::tree::compare`).

use crate::analysis::tree::{NodeCosts, SideCosts};
use crate::tui::app::App;
use crate::tui::columns::Scope;
use crate::tui::view::cost_format;
use crate::tui::views::tree::TreeView;
use crate::tui::widgets::{Column, CostFormat, Width};
use ratatui::text::Span;

/// The cost columns of a compared tree's rows.
pub fn cost_columns<'a>(app: &'a App, view: &'a TreeView) -> Vec<Column<'a, usize>> {
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
    let v = crate::tui::view::sides::value_ranks(app);
    let mut columns = vec![
        cost("Base", |s| Some(s.base), false).gives_way(4 + v),
        cost("New", |s| Some(s.new), false).gives_way(5 + v),
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
        .gives_way(1 + v),
        cost(
            "Self new",
            |s| if s.in_new { s.new_self } else { Some(0) },
            false,
        )
        .gives_way(2 + v),
        cost("Self chg", SideCosts::self_change, true).gives_way(3 + v),
    ];
    columns.extend(metric_columns(app, view));
    columns
}

/// The comparison's metric columns of each node (`view::sides`), from
/// each side's own tree (`Tree::compared_costs`); blank on a recursive
/// leaf and where a self cost is not known yet on either side.
fn metric_columns<'a>(app: &'a App, view: &'a TreeView) -> Vec<Column<'a, usize>> {
    let tree = &view.tree;
    let (changes, values) = crate::tui::view::sides::columns(app, 5, None, move |&n: &usize, c| {
        if tree.node(n).recursive {
            return None;
        }
        let [b, w] = tree.compared_costs(n)?;
        let pick = |x: NodeCosts| match (c.scope, x.own) {
            (Scope::Own, None) => None,
            (_, own) => Some((own.unwrap_or_default(), x.inclusive)),
        };
        Some([pick(b)?, pick(w)?])
    });
    changes.into_iter().chain(values).collect()
}
