//! The flat profile: one row per active function, only the visible rows
//! built. Columns: inclusive, self (with a bar), called, name, object.

use super::Pane;
use crate::tui::app::{App, Pane as Focus, SortKey};
use crate::tui::widgets::{bar, cost_text, cost_width, fit, put_line, right, total};
use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Span;

/// Width of the cost bar.
const BAR: usize = 6;
/// Width of the "called" column.
const CALLED: usize = 10;
/// Terminal widths from which the object column is shown.
const OBJECT_FROM: usize = 110;

pub fn draw(app: &App, buf: &mut Buffer, pane: Pane) {
    let t = app.theme;
    let w = cost_width(app);
    let width = pane.title.width as usize;
    let focused = app.focus == Focus::List;
    let mark = |k: SortKey, s: &str| {
        if app.sort == k {
            format!("{s}▼")
        } else {
            s.to_string()
        }
    };
    let obj_w = if width >= OBJECT_FROM { 24 } else { 0 };
    let fixed = 2 * (w + 1) + BAR + 1 + CALLED + 1;
    let name_w = width.saturating_sub(fixed + obj_w + 1);
    let mut title = format!(
        "{} {} {} {} {}",
        right(&mark(SortKey::Inclusive, "Incl"), w),
        right(&mark(SortKey::SelfCost, "Self"), w),
        " ".repeat(BAR),
        right(&mark(SortKey::Calls, "Called"), CALLED),
        fit_pad(&mark(SortKey::Name, "Function"), name_w),
    );
    if obj_w > 0 {
        title.push_str(&format!(" {}", fit_pad("Object", obj_w)));
    }
    put_line(buf, pane.title, 0, vec![Span::raw(title)], t.title(focused));
    let height = pane.body.height as usize;
    let (selected, range) = app.list.window(height, app.order.len());
    let total = total(app);
    for (y, i) in range.enumerate() {
        let f = app.order[i];
        let incl = app
            .analysis
            .inclusive(f)
            .get(app.event)
            .copied()
            .unwrap_or(0);
        let own = app
            .analysis
            .self_cost(f)
            .get(app.event)
            .copied()
            .unwrap_or(0);
        let called = app.analysis.called[f.index()];
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
        let cycle = app
            .analysis
            .cycle_of(f)
            .map(|c| format!(" <cycle {}>", c.number))
            .unwrap_or_default();
        let name = fit(app.profile.fn_name(f), name_w.saturating_sub(cycle.len()));
        let name_len = name.chars().count() + cycle.chars().count();
        let mut spans = vec![
            Span::raw(format!(
                "{} {} ",
                right(&cost_text(app, incl), w),
                right(&cost_text(app, own), w)
            )),
            Span::styled(bar(own, total, BAR), row_style.patch(t.bar())),
            Span::raw(format!(" {} ", right(&called_text(called), CALLED))),
            Span::styled(name, name_style),
            Span::styled(cycle, row_style.patch(t.marker())),
        ];
        if obj_w > 0 {
            let pad = name_w.saturating_sub(name_len);
            spans.push(Span::raw(" ".repeat(pad + 1)));
            let obj = app.profile.fn_object(f);
            let base = std::path::Path::new(obj)
                .file_name()
                .map_or(obj.into(), |n| n.to_string_lossy());
            spans.push(Span::styled(fit(&base, obj_w), row_style.patch(t.dim())));
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

/// `s` cut or padded to exactly `width` characters.
fn fit_pad(s: &str, width: usize) -> String {
    let s = fit(s, width);
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(n)))
}
