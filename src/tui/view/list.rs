//! The flat profile: one row per active function, only the visible rows
//! built. Columns: inclusive, self, a cost bar, called, name, object; on
//! narrow terminals the object, the bar, the call count and the self cost
//! give way, in that order, so the name keeps room to be read.

use super::name_spans;
use crate::tui::app::{App, Pane as Focus, SortKey, rows};
use crate::tui::layout::Pane;
use crate::tui::widgets::{bar, cost_text, cost_width, fit, pad, put_line, right, total};
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

/// Which columns fit in `width` with costs `w` wide, and the name's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Columns {
    self_cost: bool,
    bar: bool,
    called: bool,
    object: bool,
    name: usize,
}

fn columns(width: usize, w: usize) -> Columns {
    let mut c = Columns {
        self_cost: true,
        bar: true,
        called: true,
        object: width >= 110,
        name: 0,
    };
    let used = |c: &Columns| {
        (w + 1)
            + usize::from(c.self_cost) * (w + 1)
            + usize::from(c.bar) * (BAR + 1)
            + usize::from(c.called) * (CALLED + 1)
            + usize::from(c.object) * (OBJECT + 1)
    };
    // Drop the optional columns, least useful first, until the name fits.
    let drops: [fn(&mut Columns); 3] = [
        |c| c.bar = false,
        |c| c.called = false,
        |c| {
            c.self_cost = false;
        },
    ];
    for drop in drops {
        if width.saturating_sub(used(&c)) >= NAME_MIN {
            break;
        }
        drop(&mut c);
    }
    c.name = width.saturating_sub(used(&c));
    c
}

pub fn draw(app: &App, buf: &mut Buffer, pane: Pane) {
    if !pane.shown() {
        return;
    }
    let t = app.theme;
    let g = t.glyphs();
    let w = cost_width(app);
    let cols = columns(pane.title.width as usize, w);
    let focused = app.focus == Focus::List;
    let mark = |k: SortKey, s: &str| match (app.sort == k, app.reversed) {
        (true, false) => format!("{s}{}", g.sort_down),
        (true, true) => format!("{s}{}", g.sort_up),
        _ => s.to_string(),
    };
    let mut title = right(&mark(SortKey::Inclusive, "Incl"), w) + " ";
    if cols.self_cost {
        title += &(right(&mark(SortKey::SelfCost, "Self"), w) + " ");
    }
    if cols.bar {
        title += &(" ".repeat(BAR) + " ");
    }
    if cols.called {
        title += &(right(&mark(SortKey::Calls, "Called"), CALLED) + " ");
    }
    title += &pad(
        &fit(&mark(SortKey::Name, "Function"), cols.name, g),
        cols.name,
    );
    if cols.object {
        title += &format!(" {}", pad("Object", OBJECT));
    }
    put_line(buf, pane.title, 0, vec![Span::raw(title)], t.title(focused));
    let height = pane.body.height as usize;
    let (selected, range) = app.list.window(height, app.order.len());
    let total = total(app);
    for (y, i) in range.enumerate() {
        let f = app.order[i];
        let at = |row: &[i64]| row.get(app.event).copied().unwrap_or(0);
        let incl = at(rows::inclusive(&app.analysis, f));
        let own = at(rows::self_cost(&app.analysis, f));
        let row_style = if i == selected {
            t.selected(focused)
        } else {
            Style::new()
        };
        let name_style = if Some(f) == app.current {
            row_style.patch(t.current())
        } else {
            row_style
        };
        let cycle = Some(f)
            .filter(|&f| app.is_function(f))
            .and_then(|f| app.analysis.cycle_of(f))
            .map(|c| format!(" {}", rows::cycle_name(c.number)))
            .unwrap_or_default();
        let mut spans = vec![Span::raw(right(&cost_text(app, incl), w) + " ")];
        if cols.self_cost {
            spans.push(Span::raw(right(&cost_text(app, own), w) + " "));
        }
        if cols.bar {
            spans.push(Span::styled(
                bar(own, total, BAR, g),
                row_style.patch(t.bar()),
            ));
            spans.push(Span::raw(" "));
        }
        if cols.called {
            let called = rows::called(&app.analysis, f);
            spans.push(Span::raw(right(&called_text(called), CALLED) + " "));
        }
        let name = name_spans(app, f, cols.name.saturating_sub(cycle.len()), name_style);
        let name_w: usize = name.iter().map(Span::width).sum();
        spans.extend(name);
        spans.push(Span::styled(cycle.clone(), row_style.patch(t.marker())));
        if cols.object {
            let pad = cols.name.saturating_sub(name_w + cycle.len());
            spans.push(Span::raw(" ".repeat(pad + 1)));
            let obj = if app.is_function(f) {
                app.profile.fn_object(f)
            } else {
                ""
            };
            let base = std::path::Path::new(obj)
                .file_name()
                .map_or(obj.into(), |n| n.to_string_lossy());
            spans.push(Span::styled(
                fit(&base, OBJECT, g),
                row_style.patch(t.dim()),
            ));
        }
        put_line(buf, pane.body, y as u16, spans, row_style);
    }
    if app.order.is_empty() {
        put_line(
            buf,
            pane.body,
            0,
            vec![Span::styled(
                "No function has a cost in the selected parts (p: parts).",
                t.warn(),
            )],
            Style::new(),
        );
    }
}

/// A call count; blank for never-called roots.
pub fn called_text(n: u64) -> String {
    if n == 0 {
        String::new()
    } else {
        crate::format::thousands(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_lists_keep_the_name() {
        let c = columns(40, 7);
        assert!(c.name >= NAME_MIN, "{c:?}");
        assert!(!c.bar && !c.object);
        let c = columns(80, 7);
        assert!(c.self_cost && c.bar && c.called && !c.object);
        assert!(columns(120, 9).object);
        assert_eq!(columns(0, 7).name, 0);
    }
}
