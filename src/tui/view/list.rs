//! The flat profile: one row per active function, only the visible rows
//! built. Columns: the costs (`costs`: one profile's or a comparison's),
//! the name, the object; on narrow terminals the object and then the
//! cost columns give way (in their ranks), so the name keeps room to be
//! read.

use super::apart::Apart;
use super::{cost_format, costs, cycle_mark, diff, name_spans_apart};
use crate::profile::FnId;
use crate::tui::app::{App, Pane as Focus, SortKey};
use crate::tui::layout::Pane;
use crate::tui::widgets::{Column, Table, Width, fit, name_cell, pad};
use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Span;

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
    let t = app.theme;
    let g = t.glyphs();
    let focused = app.browse.focus == Focus::List;
    let function = match (app.browse.sort == SortKey::Name, app.browse.reversed) {
        (true, false) => format!("Function{}", g.sort_down),
        (true, true) => format!("Function{}", g.sort_up),
        _ => "Function".to_string(),
    } + &above(app, pane);
    let (_, window) = app
        .browse
        .list
        .window(pane.body.height as usize, app.browse.order.len());
    let apart = Apart::new(app, app.browse.order[window].to_vec());
    let mut columns = costs::function_columns(app);
    columns.extend([
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
                name_spans_apart(app, f, room, style, Some(&apart))
            })
        })
        .header_with(move |width| vec![Span::raw(pad(&fit(&function, width, g), width))]),
        Column::text(Width::Fixed(OBJECT), |&f| fit(&object(app, f), OBJECT, g))
            .header(pad("Object", OBJECT))
            .style(t.dim())
            .from_width(OBJECT_FROM)
            // The first to go: the costs and the name say more.
            .gives_way(0),
    ]);
    Table::new(cost_format(app), columns)
        .header_style(Style::new(), t.title(focused))
        .selected_style(t.selected(focused))
        .empty(Span::styled(
            "No function has a cost in the selected parts (p: parts).",
            t.warn(),
        ))
        .draw(buf, pane, &app.browse.list, app.browse.order.len(), |i| {
            app.browse.order[i]
        });
}

/// What the name column's header adds when the list is scrolled: how
/// many rows are above the first shown (as less and htop show where
/// they are), so the top of the list is never taken for the hottest.
fn above(app: &App, pane: Pane) -> String {
    let height = pane.body.height as usize;
    match app
        .browse
        .list
        .window(height, app.browse.order.len())
        .1
        .start
    {
        0 => String::new(),
        n => format!(" ({} above)", crate::format::thousands(n as i64)),
    }
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
