//! The table's layout rules and what `draw` writes, on small tables of
//! made-up rows.

use super::*;
use crate::tui::theme::Theme;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use std::cell::Cell;

/// Costs as percentages: seven cells wide.
fn percent() -> CostFormat {
    CostFormat::new(0, 1000, true, Theme::plain_colors())
}

/// The flat list's shape: incl, self, bar, called, name, object.
fn list_shape(format: CostFormat) -> Table<'static, ()> {
    let none = |_: &(), _: &CellContext<'_>| Vec::new();
    Table::new(
        format,
        vec![
            Column::new(Width::Cost, none),
            Column::new(Width::Cost, none).gives_way(3),
            Column::new(Width::Fixed(6), none).gives_way(1),
            Column::new(Width::Fixed(10), none).gives_way(2),
            Column::new(Width::Fill { min: 20 }, none),
            Column::new(Width::Fixed(24), none).from_width(110),
        ],
    )
}

#[test]
fn narrow_tables_drop_columns_in_rank_order() {
    let t = list_shape(percent());
    // 7+7+6+10 and four spaces leave 46 of 80.
    let all = vec![Some(7), Some(7), Some(6), Some(10), Some(46), None];
    assert_eq!(t.widths(80), all);
    // 6 left of 40: the bar goes (13 left), then the count (24 left).
    assert_eq!(
        t.widths(40),
        vec![Some(7), Some(7), None, None, Some(24), None]
    );
    // The object shows from 110 cells, and does not give way.
    assert_eq!(t.widths(109)[4..], [Some(75), None]);
    assert_eq!(t.widths(110)[4..], [Some(51), Some(24)]);
    let wide_costs = CostFormat {
        width: 25,
        ..percent()
    };
    assert_eq!(
        list_shape(wide_costs).widths(110),
        vec![Some(25), Some(25), None, Some(10), Some(22), Some(24)]
    );
    // Nothing left: every column that can go has gone.
    assert_eq!(t.widths(0), vec![Some(7), None, None, None, Some(0), None]);
}

/// A row: a name and its costs by event.
type Named = (&'static str, &'static [Cost]);

/// A table of named rows: costs (five cells wide, as 1,000), and a name
/// column that writes the width and overflow it was given.
fn named(margin: usize, seen_header: &Cell<usize>) -> Table<'_, Named> {
    let format = CostFormat::new(0, 1000, false, Theme::plain_colors());
    Table::new(
        format,
        vec![
            Column::cost(|r: &Named| r.1).header("Cost"),
            Column::new(Width::Fill { min: 0 }, |r: &Named, cx| {
                vec![Span::raw(format!("{} w{} o{}", r.0, cx.width, cx.overflow))]
            })
            .header_with(|w| {
                seen_header.set(w);
                vec![Span::raw("Name")]
            }),
        ],
    )
    .margin(margin)
}

/// The text of row `y` of `buf`, trailing spaces cut.
fn line(buf: &Buffer, y: u16) -> String {
    let row: String = (0..buf.area.width)
        .map(|x| buf[(x, y)].symbol().to_string())
        .collect();
    row.trim_end().to_string()
}

fn pane(width: u16, rows: u16) -> Pane {
    Pane {
        title: Rect::new(0, 0, width, 1),
        body: Rect::new(0, 1, width, rows),
    }
}

#[test]
fn cells_are_aligned_and_pushed_not_cut() {
    let rows: [Named; 3] = [("alpha", &[100]), ("beta", &[123_456]), ("c", &[])];
    let seen = Cell::new(0);
    let mut buf = Buffer::empty(Rect::new(0, 0, 20, 4));
    let t = named(0, &seen);
    t.draw(&mut buf, pane(20, 3), &Scroll::default(), 3, |i| rows[i]);
    // Costs are five cells wide (as 1,000): 14 cells are left of 20.
    assert_eq!(line(&buf, 0), " Cost Name");
    assert_eq!(line(&buf, 1), "  100 alpha w14 o0");
    // Wider than its column: pushes the name right, which is told so.
    assert_eq!(line(&buf, 2), "123,456 beta w14 o2");
    // No cost for the event: 0.
    assert_eq!(line(&buf, 3), "    0 c w14 o0");
    assert_eq!(seen.get(), 14);
}

#[test]
fn the_margin_is_kept_by_rows_not_by_the_header() {
    let seen = Cell::new(0);
    let t = named(1, &seen);
    let mut buf = Buffer::empty(Rect::new(0, 0, 20, 2));
    t.draw(&mut buf, pane(20, 1), &Scroll::default(), 1, |_| ("a", &[]));
    assert_eq!(line(&buf, 1), "    0 a w13 o0");
    assert_eq!(seen.get(), 14);
}

#[test]
fn only_the_window_is_drawn_and_the_selection_is_highlighted() {
    let names = ["r0", "r1", "r2", "r3", "r4", "r5", "r6"];
    let built = Cell::new(0);
    let selected = Style::new().bg(Color::Cyan);
    let t = Table::new(
        percent(),
        vec![
            Column::text(Width::Fixed(3), |r: &&str| r.to_string())
                .right()
                .style(Style::new().fg(Color::Red)),
            Column::text(Width::Fill { min: 0 }, |r: &&str| format!("n{r}")),
        ],
    )
    .header_style(
        Style::new().add_modifier(Modifier::DIM),
        Style::new().bg(Color::Yellow),
    )
    .selected_style(selected);
    let scroll = Scroll {
        selected: 5,
        offset: 0,
    };
    let mut buf = Buffer::empty(Rect::new(0, 0, 12, 4));
    t.draw(&mut buf, pane(12, 3), &scroll, names.len(), |i| {
        built.set(built.get() + 1);
        names[i]
    });
    assert_eq!(built.get(), 3, "only the visible rows are built");
    assert_eq!(line(&buf, 1), " r3 nr3");
    assert_eq!(line(&buf, 3), " r5 nr5");
    // The selected row, to its end; the others not.
    assert_eq!(buf[(11, 3)].bg, Color::Cyan);
    assert_eq!(buf[(11, 2)].bg, Color::Reset);
    // The column's style is on its text, not on the space aligning it.
    assert_eq!(buf[(1, 2)].fg, Color::Red);
    assert_eq!(buf[(0, 2)].fg, Color::Reset);
    assert_eq!(buf[(1, 3)].fg, Color::Red);
    assert_eq!(buf[(1, 3)].bg, Color::Cyan);
    // No headers given: the header row is its spaces, in the header's
    // text style up to the last column, the line's style to the end.
    assert_eq!(line(&buf, 0), "");
    assert!(buf[(3, 0)].modifier.contains(Modifier::DIM));
    assert!(!buf[(4, 0)].modifier.contains(Modifier::DIM));
    assert_eq!(buf[(11, 0)].bg, Color::Yellow);
}

#[test]
fn an_empty_table_says_so() {
    let t = Table::new(
        percent(),
        vec![Column::text(Width::Fill { min: 0 }, |r: &usize| r.to_string()).header("N")],
    )
    .empty(Span::raw("(nothing)"));
    let mut buf = Buffer::empty(Rect::new(0, 0, 12, 3));
    t.draw(&mut buf, pane(12, 2), &Scroll::default(), 0, |i| i);
    assert_eq!(line(&buf, 0), "N");
    assert_eq!(line(&buf, 1), "(nothing)");
    assert_eq!(line(&buf, 2), "");
}

#[test]
fn name_cells_take_a_prefix_and_a_suffix() {
    let text = |spans: Vec<Span<'static>>| -> String {
        spans.iter().map(|s| s.content.as_ref()).collect()
    };
    let prefix = || vec![Span::raw("  "), Span::raw("▸ ")];
    let suffix = || vec![Span::raw(" <c>")];
    let room = |width| {
        text(name_cell(width, prefix(), suffix(), |room| {
            vec![Span::raw(format!("name{room}"))]
        }))
    };
    // 4 cells of prefix and 4 of suffix leave 12 of 20.
    assert_eq!(room(20), "  ▸ name12 <c>");
    assert_eq!(room(16), "  ▸ name8 <c>");
    // Under 8 cells for the name, the suffix gives way to it.
    assert_eq!(room(15), "  ▸ name11");
    assert_eq!(room(5), "  ▸ name1");
}
