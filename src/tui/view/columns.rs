//! The column chooser (`m`): a row per metric (the events, the built-in
//! metrics the events allow, the user's formulas) with whether its
//! inclusive and self columns are shown, its name and what it is.

use super::popup::frame;
use crate::metric::Origin;
use crate::tui::app::App;
use crate::tui::columns::{MetricColumn, Scope};
use crate::tui::scroll::Scroll;
use crate::tui::widgets::{Column, Table, Width, fit};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;

pub fn draw(app: &App, buf: &mut Buffer, rect: Rect, scroll: &Scroll) {
    let t = app.theme;
    let g = t.glyphs();
    let inner = frame(
        app,
        buf,
        rect,
        " Metric columns (Space: inclusive, s: self, Enter: sort by it, Esc: close) ".into(),
        t.key(),
    );
    let columns = &app.columns;
    let metrics = &columns.metrics;
    let mark = |m: usize, scope| {
        let on = columns.is_chosen(MetricColumn { metric: m, scope });
        if on { "[x]" } else { "[ ]" }
    };
    let table = vec![
        Column::text(Width::Fixed(6), move |&m| {
            format!(" {}", mark(m, Scope::Inclusive))
        })
        .header(" Incl"),
        Column::text(Width::Fixed(5), move |&m| {
            format!(" {}", mark(m, Scope::Own))
        })
        .header(" Self"),
        Column::text(Width::Fixed(13), |&m| {
            format!(" {}", fit(&metrics.get(m).name, 12, g))
        })
        .header(" Metric"),
        Column::new(Width::Fill { min: 0 }, |&m: &usize, cx| {
            let metric = metrics.get(m);
            let what = match metric.origin {
                Origin::Event(_) if metric.description.is_empty() => "event".to_string(),
                Origin::Event(_) => format!("event: {}", metric.description),
                Origin::Builtin => format!("{} = {}", metric.description, metric.formula),
                Origin::User => format!("= {}", metric.formula),
            };
            let what = crate::format::printable(&what).into_owned();
            vec![Span::raw(format!(
                " {}",
                fit(&what, cx.width.saturating_sub(1), g)
            ))]
        })
        .header(" What"),
    ];
    let pane = super::popup::table_pane(inner, 1);
    Table::new(super::cost_format(app), table)
        .header_style(t.dim(), Style::new())
        .selected_style(t.selected(true))
        .draw(buf, pane, scroll, metrics.list.len(), |i| i);
    let shown = columns.chosen.len();
    let line = format!(
        " {shown} of at most {} columns shown beside the list's costs; e picks the event.",
        crate::tui::columns::MAX_CHOSEN
    );
    crate::tui::widgets::put_line(
        buf,
        inner,
        inner.height.saturating_sub(1),
        vec![Span::styled(fit(&line, inner.width as usize, g), t.dim())],
        Style::new(),
    );
}
