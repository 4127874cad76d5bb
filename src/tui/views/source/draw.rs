//! The source view: every line with its self cost, call lines annotated
//! `=> callee (N×) cost`, jumps, or per-address costs; only visible rows.
//! The text right of the line numbers scrolls sideways (`<`, `>`), marked
//! where a line is cut.

use super::{Body, Row, SourceView};
use crate::format::printable;
use crate::tui::app::App;
use crate::tui::layout::Pane;
use crate::tui::view::calls::count_text;
use crate::tui::widgets::{CostFormat, fit, fit_middle, put_line, right, window_spans};
use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Span;

pub fn draw(app: &App, view: &SourceView, buf: &mut Buffer, pane: Pane) {
    let t = app.theme;
    let g = t.glyphs();
    let p = &app.profile;
    let event = p
        .events
        .events
        .get(app.event)
        .map_or(String::new(), |e| printable(&e.name).into_owned());
    let file = p.file_name(view.file_id());
    let where_ = match &view.body {
        Body::Text(path) => path.display().to_string(),
        Body::Missing(_) => format!("{file} (not found)"),
        Body::Addresses => "instruction addresses".into(),
    };
    let files = if view.files.len() > 1 {
        format!(" [file {}/{}, Tab: next]", view.file + 1, view.files.len())
    } else {
        String::new()
    };
    let d = g.dash;
    let title = format!(
        "Source of {} {d} {}{files} {d} {event} self cost per line{}",
        fit_middle(&crate::tui::view::shown_name(app, view.func), 50, g),
        printable(&where_),
        metric_names(app),
    );
    let title = fit(&title, pane.title.width as usize, g);
    put_line(buf, pane.title, 0, vec![Span::raw(title)], t.title(true));
    let format = crate::tui::view::cost_format(app);
    let num_w = view
        .rows
        .iter()
        .rev()
        .find_map(|r| match r {
            Row::Line { line, .. } => Some(line.to_string().len()),
            _ => None,
        })
        .unwrap_or(1)
        .max(4);
    let (selected, range) = view
        .scroll
        .window(pane.body.height as usize, view.rows.len());
    for (y, i) in range.enumerate() {
        let row = &view.rows[i];
        let sel = if i == selected {
            t.selected(true)
        } else {
            Style::new()
        };
        let mut spans = row_spans(app, view, row, &format, num_w, sel);
        // The text after the cost and line number scrolls sideways.
        if matches!(row, Row::Line { .. } | Row::Call(_) | Row::Jump(_)) && spans.len() > 2 {
            let text = spans.split_off(2);
            let room = (pane.body.width as usize)
                .saturating_sub(spans.iter().map(Span::width).sum::<usize>());
            let marks = (g.cut_left, g.cut_right);
            let mark_style = sel.patch(t.marker());
            spans.extend(window_spans(
                text,
                app.source_shift,
                room,
                marks,
                mark_style,
            ));
        }
        put_line(buf, pane.body, y as u16, spans, sel);
    }
}

/// The metric columns of a source row: each metric (whatever its scope:
/// a line's costs are its own) right-aligned under its name in the title.
fn metric_cells(app: &App, costs: Option<&[crate::profile::Cost]>) -> String {
    let columns = &app.columns;
    let mut out = String::new();
    for &c in &columns.chosen {
        if c.scope == crate::tui::columns::Scope::Inclusive && columns.is_chosen(own(c)) {
            continue; // one column per metric
        }
        let text = costs.map_or(String::new(), |costs| columns.text(c, costs, costs));
        let width = metric_width(app, c);
        out.push_str(&format!("{text:>width$} "));
    }
    out
}

/// The self column of `c`'s metric.
fn own(c: crate::tui::columns::MetricColumn) -> crate::tui::columns::MetricColumn {
    crate::tui::columns::MetricColumn {
        scope: crate::tui::columns::Scope::Own,
        ..c
    }
}

fn metric_width(app: &App, c: crate::tui::columns::MetricColumn) -> usize {
    app.columns
        .metrics
        .get(c.metric)
        .name
        .chars()
        .count()
        .max(8)
}

/// The metrics of the columns, as the title names them.
fn metric_names(app: &App) -> String {
    let columns = &app.columns;
    let names: Vec<&str> = (columns.chosen.iter())
        .filter(|&&c| {
            !(c.scope == crate::tui::columns::Scope::Inclusive && columns.is_chosen(own(c)))
        })
        .map(|c| columns.metrics.get(c.metric).name.as_str())
        .collect();
    if names.is_empty() {
        String::new()
    } else {
        format!(", then {}", names.join(" "))
    }
}

fn row_spans(
    app: &App,
    view: &SourceView,
    row: &Row,
    format: &CostFormat,
    num_w: usize,
    sel: Style,
) -> Vec<Span<'static>> {
    let t = app.theme;
    let p = &app.profile;
    let cost = view.row_cost(row, app.event);
    // The chosen metric columns (`m`) of the line's (or address's) own
    // costs, after its cost: a line has no inclusive cost.
    let metrics = metric_cells(app, view.row_costs(row));
    let gutter = |cost: Option<i64>| match cost {
        Some(c) if c != 0 => Span::styled(
            format!("{} {metrics}", right(&format.text(c), format.width)),
            sel.patch(t.hot()),
        ),
        _ => Span::raw(format!(
            "{} {}",
            " ".repeat(format.width),
            " ".repeat(metrics.len())
        )),
    };
    let g = t.glyphs();
    let bar = g.vertical;
    let blank_num = format!("{} {bar} ", " ".repeat(num_w));
    match row {
        Row::Note(text) => {
            let style = if matches!(view.body, Body::Missing(_)) && text.contains("not found") {
                t.warn()
            } else {
                t.dim()
            };
            vec![Span::styled(printable(text).into_owned(), sel.patch(style))]
        }
        Row::Line { line, text, .. } => {
            let num = if *line == 0 {
                "?".to_string()
            } else {
                line.to_string()
            };
            let mut spans = vec![
                gutter(cost),
                Span::styled(format!("{} {bar} ", right(&num, num_w)), sel.patch(t.dim())),
            ];
            if let Some(text) = text {
                spans.push(Span::raw(printable(text).into_owned()));
            }
            spans
        }
        Row::Call(i) => {
            let Some(c) = view.data.calls.get(*i) else {
                return vec![];
            };
            let count = count_text(c.count);
            let x = g.times;
            let callee = printable(&crate::tui::view::shown_name(app, c.callee)).into_owned();
            let cost = cost.unwrap_or(0);
            let mut spans = vec![gutter(None), Span::styled(blank_num, sel.patch(t.dim()))];
            if app.analysis.calls_within_cycle(view.func, c.callee) {
                // Its cost includes the nested calls, which the function's
                // own cost includes already: a share would say over 100%.
                let cost = crate::format::thousands(cost);
                spans.push(Span::styled(
                    format!("=> {callee} ({count}{x}) {cost} incl. nested calls "),
                    sel.patch(t.call()),
                ));
                spans.push(Span::styled(
                    format!("{} recursive", g.recursive),
                    sel.patch(t.marker()),
                ));
            } else {
                spans.push(Span::styled(
                    format!("=> {callee} ({count}{x}) {}", format.text(cost)),
                    sel.patch(t.call()),
                ));
            }
            spans
        }
        Row::Jump(i) => {
            let Some(j) = view.data.jumps.get(*i) else {
                return vec![];
            };
            let target = if j.target_func == view.func {
                format!("line {}", j.target_line)
            } else {
                let name = crate::tui::view::shown_name(app, j.target_func);
                format!("{}:{}", printable(&name), j.target_line)
            };
            let text = match j.executed {
                Some(x) => format!("jcnd to {target}: taken {} of {x}", j.taken),
                None => format!("jump to {target} ({}{})", j.taken, g.times),
            };
            vec![
                gutter(None),
                Span::styled(blank_num, sel.patch(t.dim())),
                Span::styled(text, sel.patch(t.dim())),
            ]
        }
        Row::Addr(i) => {
            let Some(x) = view.data.instrs.get(*i) else {
                return vec![];
            };
            let place = if x.line > 0 {
                format!("  {}:{}", printable(p.file_name(x.file)), x.line)
            } else {
                String::new()
            };
            vec![
                gutter(cost),
                Span::styled(format!("{:#010x}", x.addr), sel),
                Span::styled(place, sel.patch(t.dim())),
            ]
        }
    }
}
