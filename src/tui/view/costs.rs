//! The cost columns of a function's row, for the flat list: one
//! profile's (inclusive, self, the chosen metrics, a bar of the self
//! cost, the call count) or a comparison's (base, new, change, the
//! change as a share of the base's total, then each chosen metric's
//! change, base and new value). Which set a row gets is decided here,
//! once: a comparison is a set of columns, not a mode of the view.

use super::calls::{Row as CallRow, count_text};
use super::{cost_format, diff, sides};
use crate::profile::{Cost, FnId};
use crate::tui::app::{App, SortKey, rows};
use crate::tui::columns::Columns;
use crate::tui::columns::Scope;
use crate::tui::widgets::{Column, CostFormat, Width, bar};
use ratatui::text::Span;

/// Width of the cost bar.
const BAR: usize = 6;
/// Width of the "called" column.
const CALLED: usize = 10;

/// The columns before the name, in order, each with its rank of giving
/// way on a narrow terminal.
pub fn function_columns(app: &App) -> Vec<Column<'_, FnId>> {
    match app.diff {
        None => one_profile(app),
        Some(_) => comparison(app),
    }
}

/// A header with the sort's arrow when the list is sorted by `key`.
fn marked(app: &App, sorted: bool, header: &str) -> String {
    let g = app.theme.glyphs();
    match (sorted, app.browse.reversed) {
        (true, false) => format!("{header}{}", g.sort_down),
        (true, true) => format!("{header}{}", g.sort_up),
        _ => header.to_string(),
    }
}

fn sort_column(app: &App) -> Option<crate::tui::columns::MetricColumn> {
    match app.browse.sort {
        SortKey::Column(c) => Some(c),
        _ => None,
    }
}

/// Inclusive, self, the metrics, the bar and the call count; the bar,
/// the count and the self cost give way in that order, after the
/// metrics (the last chosen first).
fn one_profile(app: &App) -> Vec<Column<'_, FnId>> {
    let t = app.theme;
    let g = t.glyphs();
    let a = &app.analysis;
    let mut columns = vec![
        Column::cost(|&f| rows::inclusive(a, f)).header(marked(
            app,
            app.browse.sort == SortKey::Inclusive,
            "Incl",
        )),
        Column::cost(|&f| rows::self_cost(a, f))
            .header(marked(app, app.browse.sort == SortKey::SelfCost, "Self"))
            .gives_way(3),
    ];
    columns.extend(metric_columns(app));
    columns.extend([
        Column::new(Width::Fixed(BAR), |&f, cx| {
            let own = cx.format.at(rows::self_cost(a, f));
            vec![Span::raw(bar(own, cx.format.total, BAR, g))]
        })
        .style(t.bar())
        .gives_way(1),
        Column::text(Width::Fixed(CALLED), |&f| {
            super::list::called_text(rows::called(a, f))
        })
        .right()
        .header(marked(app, app.browse.sort == SortKey::Calls, "Called"))
        .gives_way(2),
    ]);
    columns
}

/// The chosen metric columns (`m`), each as wide as its header or its
/// widest likely value, right-aligned; they give way after the bar, the
/// call count and the self cost, the last chosen first.
fn metric_columns(app: &App) -> Vec<Column<'_, FnId>> {
    let (a, columns) = (&app.analysis, &app.columns);
    (columns.chosen.iter().enumerate())
        .map(|(i, &c)| {
            let header = marked(
                app,
                app.browse.sort == SortKey::Column(c),
                &columns.header(c),
            );
            let width = Columns::width(&header);
            Column::text(Width::Fixed(width), move |&f| {
                columns.text(c, rows::self_cost(a, f), rows::inclusive(a, f))
            })
            .right()
            .header(header)
            .gives_way(4 + (columns.chosen.len() - i).min(200) as u8)
        })
        .collect()
}

/// A comparison's: per function its cost (inclusive, or self when
/// sorted by self cost) in the base, in the new profile, the change and
/// the change in percent of the base's total. The metric columns' base
/// and new values give way first, then the share, the event's base and
/// new costs, and last the metrics' changes.
fn comparison(app: &App) -> Vec<Column<'_, FnId>> {
    let t = app.theme;
    let inclusive = app.browse.sort != SortKey::SelfCost;
    let plain = CostFormat {
        signed: false,
        ..cost_format(app)
    };
    let base_total = diff::base_total(app).unwrap_or(0);
    let sides_of = move |f: FnId| diff::costs(app, f, inclusive);
    let by_cost = matches!(app.browse.sort, SortKey::Inclusive | SortKey::SelfCost);
    let v = sides::value_ranks(app);
    let (changes, values) = sides::columns(app, 3, sort_column(app), |&f: &FnId, _| {
        rows::compared(app, f)
    });
    let side = move |new: bool| {
        Column::new(Width::Cost, move |&f, _| {
            let text =
                sides_of(f).map_or(String::new(), |(b, n)| plain.text(if new { n } else { b }));
            vec![Span::raw(text)]
        })
        .right()
    };
    let mut columns = vec![
        side(false).header("Base").gives_way(v + 2),
        side(true).header("New").gives_way(v + 3),
        // The change exact from both sides (it may need 65 bits), where
        // the row is a function; a cycle's from the analysis.
        Column::new(Width::Cost, move |&f, cx| {
            let change = diff::change(app, f, inclusive);
            let text = sides_of(f).map_or_else(
                || cx.format.text(change),
                |(b, n)| cx.format.wide_text(crate::format::change(b, n)),
            );
            vec![Span::styled(text, t.change(change))]
        })
        .right()
        .header(marked(app, by_cost, "Change")),
        Column::text(Width::Fixed(8), move |&f| {
            let change = sides_of(f).map_or_else(
                || diff::change(app, f, inclusive).into(),
                |(b, n)| crate::format::change(b, n),
            );
            crate::format::wide_signed_percent(change, base_total)
        })
        .right()
        .header("%base")
        .gives_way(v + 1),
    ];
    columns.extend(changes);
    columns.extend(values);
    columns
}

/// Width of a call count, without its `×`.
const COUNT: usize = 10;

/// The columns of a row of the callers or callees pane before the name:
/// the call count (`base→new` where a comparison's counts differ), then
/// one profile's cost of the calls, its share of the current function's
/// inclusive cost (`of`) and the chosen inclusive metrics; or a
/// comparison's base, new and change, and each inclusive metric's change
/// (a rate's change is not the rate of the changes).
pub fn call_columns(app: &App, of: Cost) -> Vec<Column<'_, CallRow>> {
    let g = app.theme.glyphs();
    let a = &app.analysis;
    let sides_of = |r: &CallRow| match *r {
        CallRow::Edge(e) => diff::call(app, e),
        CallRow::Member(_) => None,
    };
    let count = Column::text(Width::Fixed(COUNT + 1), move |r| match *r {
        CallRow::Member(_) => "member".into(),
        CallRow::Edge(e) => match sides_of(r) {
            Some(((b, _), (n, _))) if b != n => {
                format!("{}{}{}", count_text(b), g.arrow, count_text(n))
            }
            _ => format!("{}{}", count_text(a.edges[e].count), g.times),
        },
    })
    .right()
    .header("Calls");
    let mut columns = vec![count];
    match app.diff {
        None => columns.extend(one_profile_call(app, of)),
        Some(_) => columns.extend(comparison_call(app, sides_of)),
    }
    columns
}

/// The inclusive costs of a pane's row: a member's, or the calls'.
fn call_costs<'a>(a: &'a crate::analysis::Analysis, r: &CallRow) -> &'a [Cost] {
    match *r {
        CallRow::Member(m) => rows::inclusive(a, m),
        CallRow::Edge(e) => a.edge_cost(e),
    }
}

fn one_profile_call(app: &App, of: Cost) -> Vec<Column<'_, CallRow>> {
    let a = &app.analysis;
    let format = cost_format(app);
    let mut columns = vec![
        Column::cost(move |r: &CallRow| call_costs(a, r)).header("Cost"),
        Column::text(Width::Fixed(7), move |r| match *r {
            CallRow::Member(_) => String::new(),
            // A recursive call's cost is inside the caller's already.
            CallRow::Edge(e) if a.is_recursive(e) => "rec".into(),
            CallRow::Edge(e) => crate::format::percent_text(format.at(a.edge_cost(e)), of),
        })
        .right()
        .header("%fn")
        .gives_way(0),
    ];
    // A call has no self cost: the metrics of its inclusive cost.
    let chosen = &app.columns;
    for (i, &c) in chosen.chosen.iter().enumerate() {
        if c.scope != Scope::Inclusive {
            continue;
        }
        let header = chosen.header(c);
        columns.push(
            Column::text(Width::Fixed(Columns::width(&header)), move |r: &CallRow| {
                let costs = call_costs(a, r);
                chosen.text(c, costs, costs)
            })
            .right()
            .header(header)
            .gives_way(1 + (chosen.chosen.len() - i).min(200) as u8),
        );
    }
    columns
}

/// A comparison's: base, new and change of the calls' cost (the share of
/// the current function's change says little), then the inclusive
/// metrics' changes.
fn comparison_call<'a>(
    app: &'a App,
    sides_of: impl Fn(&CallRow) -> Option<((u64, Cost), (u64, Cost))> + Copy + 'a,
) -> Vec<Column<'a, CallRow>> {
    let t = app.theme;
    let a = &app.analysis;
    let plain = CostFormat {
        signed: false,
        ..cost_format(app)
    };
    let side = move |new: bool, title: &'static str| {
        Column::new(Width::Cost, move |r: &CallRow, _| {
            let text = sides_of(r).map_or(String::new(), |(b, n)| {
                plain.text(if new { n.1 } else { b.1 })
            });
            vec![Span::raw(text)]
        })
        .right()
        .header(title)
        .gives_way(if new { 2 } else { 1 })
    };
    let mut columns = vec![
        side(false, "Base"),
        side(true, "New"),
        Column::new(Width::Cost, move |r: &CallRow, cx| {
            let cost = cx.format.at(call_costs(a, r));
            vec![Span::styled(cx.format.text(cost), t.change(cost))]
        })
        .right()
        .header("Change"),
    ];
    let chosen = &app.columns;
    for (i, &c) in chosen.chosen.iter().enumerate() {
        if c.scope != Scope::Inclusive {
            continue;
        }
        let header = format!("{} chg", chosen.header(c));
        columns.push(
            Column::text(Width::Fixed(Columns::width(&header)), move |r: &CallRow| {
                let sides = match *r {
                    CallRow::Member(m) => rows::compared(app, m).map(|[b, n]| [b.1, n.1]),
                    CallRow::Edge(e) => rows::compared_call(app, e),
                };
                sides.map_or(String::new(), |[b, n]| {
                    chosen.change_text(c, (&b, &b), (&n, &n))
                })
            })
            .right()
            .header(header)
            .gives_way(1 + (chosen.chosen.len() - i).min(200) as u8),
        );
    }
    columns
}
