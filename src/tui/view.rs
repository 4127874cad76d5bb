//! Drawing: `draw(&App, frame)` renders the whole screen from the state,
//! with no I/O and no mutation, into the areas `layout` gives (the same
//! ones `App` pages with). The chrome (header, details, status) is in
//! `chrome`, each pane in its own file.

pub mod apart;
pub(super) mod calls;
mod chrome;
mod columns;
mod costs;
mod diff;
mod list;
mod popup;
pub(super) mod sides;

use super::app::{App, Popup};
use super::layout;
use super::widgets::CostFormat;
use crate::profile::FnId;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;

/// Renders the whole screen into a frame (tests draw with `TestBackend`).
pub fn draw(app: &App, frame: &mut Frame<'_>) {
    let area = frame.area();
    render(app, area, frame.buffer_mut());
}

/// Renders the whole screen into `buf`, which covers `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let areas = layout::areas(area, &app.open_views());
    chrome::header(app, buf, &areas);
    if let Some(view) = app.views.top() {
        super::views::draw(app, view, buf, areas.source);
    } else {
        list::draw(app, buf, areas.list);
        let rule = areas.rule;
        for y in rule.y..rule.y + rule.height {
            if let Some(cell) = buf.cell_mut((rule.x, y)) {
                cell.set_symbol(app.theme.glyphs().vertical)
                    .set_style(app.theme.dim());
            }
        }
        calls::draw(app, buf, areas.callers, true);
        calls::draw(app, buf, areas.callees, false);
        chrome::details(app, buf, areas.details);
    }
    chrome::status(app, buf, &areas);
    match &app.popup {
        Some(Popup::Help(s)) => popup::help(app, buf, areas.popup, s),
        Some(Popup::Parts(s)) => popup::parts(app, buf, areas.popup, s),
        Some(Popup::Search(s)) => popup::search(app, buf, areas.popup, s),
        Some(Popup::Warnings(s, shift)) => popup::warnings(app, buf, areas.popup, s, *shift),
        Some(Popup::Groups(s)) => popup::groups(app, buf, areas.popup, s),
        Some(Popup::Columns(s)) => columns::draw(app, buf, areas.popup, s),
        None => {}
    }
}

/// How the tables write costs: the current event, absolute or percent of
/// its total over the selected parts.
pub fn cost_format(app: &App) -> CostFormat {
    let total = app.analysis.totals.get(app.event).copied().unwrap_or(0);
    let Some(base) = diff::base_total(app) else {
        return CostFormat::new(app.event, total, app.percent, app.theme);
    };
    // A comparison: changes signed, shares of the base's total, as wide as
    // either side's total needs.
    let new = base.saturating_add(total);
    let mut format = CostFormat::new(app.event, base, app.percent, app.theme);
    format.width = format
        .width
        .max(CostFormat::new(app.event, new, app.percent, app.theme).width);
    if app.analysis.is_cut(app.event) {
        // Room for the `>=` of a change held at a 64-bit limit.
        format.width += 2;
    }
    format.signed()
}

/// A function's name as drawn everywhere but the details line: template
/// argument lists folded to `<…>` when the user asked (`T`).
/// A comparison's cell of a metric's change (`Columns::change_text`), in
/// the colour of a gain or a loss.
pub fn metric_change(
    app: &App,
    c: crate::tui::columns::MetricColumn,
    base: crate::tui::columns::Rows<'_>,
    new: crate::tui::columns::Rows<'_>,
) -> Vec<Span<'static>> {
    let t = app.theme;
    let style = match app.columns.change(c, base, new) {
        Some(v) if v > 0.0 => t.change(1),
        Some(v) if v < 0.0 => t.change(-1),
        _ => Style::new(),
    };
    vec![Span::styled(app.columns.change_text(c, base, new), style)]
}

pub fn shown_name(app: &App, f: FnId) -> std::borrow::Cow<'_, str> {
    if !app.is_function(f) {
        return app.name(f);
    }
    let name = app.function_name(f);
    if app.fold_templates {
        super::widgets::fold_templates(name, app.theme.glyphs().ellipsis)
    } else {
        name.into()
    }
}

/// ` <cycle N>` after a function in a cycle; empty for others and for
/// the cycles' own rows.
pub fn cycle_mark(app: &App, f: FnId) -> String {
    Some(f)
        .filter(|&f| app.is_function(f))
        .and_then(|f| app.analysis.cycle_of(f))
        .map(|c| format!(" {}", super::app::rows::cycle_name(c.number)))
        .unwrap_or_default()
}

/// A function's name (as `shown_name`) cut to `width` cells keeping its start and end,
/// followed by what tells it apart from others of the same name (dim),
/// as spans in `style`.
pub fn name_spans(app: &App, f: FnId, width: usize, style: Style) -> Vec<Span<'static>> {
    name_spans_apart(app, f, width, style, None)
}

/// `name_spans` for a row of a view that tells apart the names on screen
/// (`apart`): cut around where it differs from another name that would
/// read the same.
pub fn name_spans_apart(
    app: &App,
    f: FnId,
    width: usize,
    style: Style,
    apart: Option<&apart::Apart<'_>>,
) -> Vec<Span<'static>> {
    use super::widgets::{NAME_FIRST, cells, fit, fit_apart, fit_middle};
    let g = app.theme.glyphs();
    if let Some(c) = app.cycle_row(f) {
        let name = crate::tui::app::rows::cycle_name(c.number);
        return vec![Span::styled(
            fit(&name, width, g),
            style.patch(app.theme.marker()),
        )];
    }
    let qualifier = app.qualifiers.get(&f).map(|q| format!(" ({q})"));
    let name = shown_name(app, f);
    let name = name.as_ref();
    let cut = |name: &str, width: usize| match apart.and_then(|a| a.at(f, width)) {
        Some(at) => fit_apart(name, width, g, at),
        None => fit_middle(name, width, g),
    };
    let Some(q) = qualifier else {
        return vec![Span::styled(cut(name, width), style)];
    };
    let q = crate::format::printable(&q).into_owned();
    // A name that fits is shown whole and the qualifier gets the rest; a
    // longer one keeps at least half the room, or all of it where that
    // half is too little to read: the qualifier only tells namesakes apart
    // ("(… …" told nothing).
    let name_room = match cells(name) {
        whole if whole <= width => whole,
        _ => width.saturating_sub(cells(&q)).max(width / 2),
    };
    if name_room < NAME_FIRST.min(cells(name)) {
        return vec![Span::styled(fit_middle(name, width, g), style)];
    }
    let name = cut(name, name_room);
    let q = fit(&q, width.saturating_sub(cells(&name)), g);
    vec![
        Span::styled(name, style),
        Span::styled(q, style.patch(app.theme.dim())),
    ]
}
