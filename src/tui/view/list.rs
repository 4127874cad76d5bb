//! The flat profile: one row per active function, only the visible rows
//! built. Columns: inclusive, self, a cost bar, called, name, object; on
//! narrow terminals the object, the bar, the call count and the self cost
//! give way, in that order, so the name keeps room to be read.

use super::{cost_format, cycle_mark, diff, name_spans};
use crate::profile::FnId;
use crate::tui::app::{App, Pane as Focus, SortKey, rows};
use crate::tui::columns::Columns;
use crate::tui::layout::Pane;
use crate::tui::widgets::{Column, Table, Width, bar, fit, name_cell, pad};
use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Span;

/// Width of the cost bar.
const BAR: usize = 6;
/// Width of the "called" column.
const CALLED: usize = 10;
/// Width of the object column.
const OBJECT: usize = 24;
/// The name column's share that the optional columns must leave.
const NAME_MIN: usize = 20;
/// Terminal widths from which the object column shows.
const OBJECT_FROM: usize = 110;

pub fn draw(app: &App, buf: &mut Buffer, pane: Pane) {
    if !pane.shown() {
        return;
    }
    if app.diff.is_some() {
        return draw_comparison(app, buf, pane);
    }
    let t = app.theme;
    let g = t.glyphs();
    let a = &app.analysis;
    let focused = app.focus == Focus::List;
    let mark = |k: SortKey, s: &str| match (app.sort == k, app.reversed) {
        (true, false) => format!("{s}{}", g.sort_down),
        (true, true) => format!("{s}{}", g.sort_up),
        _ => s.to_string(),
    };
    let function = mark(SortKey::Name, "Function") + &above(app, pane);
    let mut columns = vec![
        Column::cost(|&f| rows::inclusive(a, f)).header(mark(SortKey::Inclusive, "Incl")),
        Column::cost(|&f| rows::self_cost(a, f))
            .header(mark(SortKey::SelfCost, "Self"))
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
        Column::text(Width::Fixed(CALLED), |&f| called_text(rows::called(a, f)))
            .right()
            .header(mark(SortKey::Calls, "Called"))
            .gives_way(2),
        Column::new(Width::Fill { min: NAME_MIN }, |&f, cx| {
            let style = if Some(f) == app.current {
                cx.style.patch(t.current())
            } else {
                cx.style
            };
            let cycle = vec![Span::styled(cycle_mark(app, f), t.marker())];
            name_cell(cx.width, vec![], cycle, |room| {
                name_spans(app, f, room, style)
            })
        })
        .header_with(move |width| vec![Span::raw(pad(&fit(&function, width, g), width))]),
        Column::text(Width::Fixed(OBJECT), |&f| fit(&object(app, f), OBJECT, g))
            .header(pad("Object", OBJECT))
            .style(t.dim())
            .from_width(OBJECT_FROM),
    ]);
    Table::new(cost_format(app), columns)
        .header_style(Style::new(), t.title(focused))
        .selected_style(t.selected(focused))
        .empty(Span::styled(
            "No function has a cost in the selected parts (p: parts).",
            t.warn(),
        ))
        .draw(buf, pane, &app.list, app.order.len(), |i| app.order[i]);
}

/// What the name column's header adds when the list is scrolled: how
/// many rows are above the first shown (as less and htop show where
/// they are), so the top of the list is never taken for the hottest.
fn above(app: &App, pane: Pane) -> String {
    let height = pane.body.height as usize;
    match app.list.window(height, app.order.len()).1.start {
        0 => String::new(),
        n => format!(" ({} above)", crate::format::thousands(n as i64)),
    }
}

/// The chosen metric columns (`m`), each as wide as its header or its
/// widest likely value, right-aligned; they give way after the bar, the
/// call count and the self cost, the last chosen first.
fn metric_columns(app: &App) -> Vec<Column<'_, FnId>> {
    let (a, columns) = (&app.analysis, &app.columns);
    let g = app.theme.glyphs();
    (columns.chosen.iter().enumerate())
        .map(|(i, &c)| {
            let mut header = columns.header(c);
            if app.sort == SortKey::Column(c) {
                header.push_str(if app.reversed { g.sort_up } else { g.sort_down });
            }
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

/// The list of a comparison: per function its cost (inclusive, or self
/// when sorted by self cost) in the base, in the new profile, the change
/// and the change in percent of the base's total; functions of one
/// profile only marked. Sorted by the size of the change.
fn draw_comparison(app: &App, buf: &mut Buffer, pane: Pane) {
    let t = app.theme;
    let g = t.glyphs();
    let focused = app.focus == Focus::List;
    let inclusive = app.sort != SortKey::SelfCost;
    let format = cost_format(app);
    let plain = crate::tui::widgets::CostFormat {
        signed: false,
        ..format
    };
    let base_total = diff::base_total(app).unwrap_or(0);
    let sides = |f: FnId| diff::costs(app, f, inclusive);
    let sorted = |s: &str| match (
        app.sort == SortKey::Inclusive || app.sort == SortKey::SelfCost,
        app.reversed,
    ) {
        (true, false) => format!("{s}{}", g.sort_down),
        (true, true) => format!("{s}{}", g.sort_up),
        _ => s.to_string(),
    };
    let function = if app.sort == SortKey::Name {
        format!(
            "Function{}",
            if app.reversed { g.sort_up } else { g.sort_down }
        )
    } else {
        "Function".to_string()
    } + &above(app, pane);
    // The metric columns' base and new values give way first, then the
    // share, the event's base and new costs, and last the metrics' changes.
    let v = super::sides::value_ranks(app);
    let sort_column = match app.sort {
        SortKey::Column(c) => Some(c),
        _ => None,
    };
    let (changes, values) =
        super::sides::columns(app, 3, sort_column, |&f: &FnId, _| rows::compared(app, f));
    let mut columns = vec![
        Column::new(Width::Cost, move |&f, _| {
            vec![Span::raw(
                sides(f).map_or(String::new(), |(b, _)| plain.text(b)),
            )]
        })
        .right()
        .header("Base")
        .gives_way(v + 2),
        Column::new(Width::Cost, move |&f, _| {
            vec![Span::raw(
                sides(f).map_or(String::new(), |(_, n)| plain.text(n)),
            )]
        })
        .right()
        .header("New")
        .gives_way(v + 3),
        // The change exact from both sides (it may need 65 bits), where
        // the row is a function; a cycle's from the analysis.
        Column::new(Width::Cost, move |&f, cx| {
            let change = diff::change(app, f, inclusive);
            let text = sides(f).map_or_else(
                || cx.format.text(change),
                |(b, n)| cx.format.wide_text(crate::format::change(b, n)),
            );
            vec![Span::styled(text, t.change(change))]
        })
        .right()
        .header(sorted("Change")),
        Column::text(Width::Fixed(8), move |&f| {
            let change = sides(f).map_or_else(
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
    columns.push(
        Column::new(Width::Fill { min: NAME_MIN }, |&f, cx| {
            let style = if Some(f) == app.current {
                cx.style.patch(t.current())
            } else {
                cx.style
            };
            let mut marks = cycle_mark(app, f);
            if let Some(s) = diff::status(app, f) {
                marks.push_str(&format!(" {s}"));
            }
            let marks = vec![Span::styled(marks, t.marker())];
            name_cell(cx.width, vec![], marks, |room| {
                name_spans(app, f, room, style)
            })
        })
        .header_with(move |width| vec![Span::raw(pad(&fit(&function, width, g), width))]),
    );
    Table::new(format, columns)
        .header_style(Style::new(), t.title(focused))
        .selected_style(t.selected(focused))
        .draw(buf, pane, &app.list, app.order.len(), |i| app.order[i]);
}

/// The file name of a function's object (none for a cycle's row).
fn object(app: &App, f: FnId) -> String {
    let obj = if app.is_function(f) {
        app.profile.fn_object(f)
    } else {
        ""
    };
    std::path::Path::new(obj)
        .file_name()
        .map_or(obj.into(), |n| n.to_string_lossy().into_owned())
}

/// A call count; blank for never-called roots.
pub fn called_text(n: u64) -> String {
    if n == 0 {
        String::new()
    } else {
        crate::format::wide_thousands(n.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::Theme;
    use ratatui::layout::Rect;

    /// The list's header and first row on a pane `width` cells wide, for
    /// a profile of one function whose costs (1,000) are five cells wide.
    fn list(width: u16) -> (String, String) {
        let text = "events: Ir\nob=/lib/libdemo.so\nfn=main\n1 1000\n";
        let profile = crate::parse::load_reader("t.callgrind", text.as_bytes()).unwrap();
        let app = App::new(profile, Theme::plain_colors(), Default::default());
        let mut buf = Buffer::empty(Rect::new(0, 0, width, 2));
        let pane = Pane {
            title: Rect::new(0, 0, width, 1),
            body: Rect::new(0, 1, width, 1),
        };
        draw(&app, &mut buf, pane);
        let line = |y| {
            let s: String = (0..width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect();
            s.trim_end().to_string()
        };
        (line(0), line(1))
    }

    #[test]
    fn narrow_lists_keep_the_name() {
        // 5+5+6+10 and four spaces leave 50 for the name.
        let (head, row) = list(80);
        assert_eq!(head, "Incl▼  Self            Called Function");
        assert_eq!(row, "1,000 1,000 ██████            main");
        // 40: the bar and the count give way; the self cost stays.
        assert_eq!(list(40).0, "Incl▼  Self Function");
        // The object from 110 cells: 5+5+6+10+24 and five spaces leave 55.
        assert!(!list(109).0.contains("Object"));
        let (head, row) = list(110);
        assert_eq!(head, format!("{}{:48}Object", &list(80).0, ""));
        assert_eq!(
            row,
            format!("1,000 1,000 ██████            main{:52}libdemo.so", "")
        );
    }
}
