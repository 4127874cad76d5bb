//! Popups drawn over the screen: help (generated from the keymap), parts
//! with their totals, and the search prompt with ranked results.

use crate::format::{percent_text, printable, thousands};
use crate::profile::FnId;
use crate::tui::app::App;
use crate::tui::keymap;
use crate::tui::scroll::Scroll;
use crate::tui::widgets::{
    cells, cost_text, cost_width, fit, highlighted, put_line, right, window_spans,
};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear, Widget};

fn frame(app: &App, buf: &mut Buffer, rect: Rect, title: String, style: Style) -> Rect {
    Clear.render(rect, buf);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_set(app.theme.glyphs().border)
        .title(title)
        .border_style(style);
    let inner = block.inner(rect);
    block.render(rect, buf);
    inner
}

pub fn help(app: &App, buf: &mut Buffer, rect: Rect, scroll: &Scroll) {
    let t = app.theme;
    let inner = frame(app, buf, rect, " Keys (Esc or q closes) ".into(), t.key());
    let lines = keymap::help_lines(t.ascii);
    for (y, (title, keys, help)) in lines
        .iter()
        .skip(scroll.offset)
        .take(inner.height as usize)
        .enumerate()
    {
        let spans = match title {
            Some(title) => vec![Span::styled(
                title.to_string(),
                Style::new().add_modifier(Modifier::BOLD),
            )],
            None => vec![
                Span::styled(format!("  {keys:<20}"), t.key()),
                Span::raw(help.to_string()),
            ],
        };
        put_line(buf, inner, y as u16, spans, Style::new());
    }
}

pub fn parts(app: &App, buf: &mut Buffer, rect: Rect, scroll: &Scroll) {
    let t = app.theme;
    let inner = frame(
        app,
        buf,
        rect,
        " Parts (Space: on/off, a: all, Esc: close) ".into(),
        t.key(),
    );
    let event = app.event;
    let grand: i64 = app
        .part_totals
        .iter()
        .map(|r| r.get(event).copied().unwrap_or(0))
        .sum();
    let name = app
        .profile
        .events
        .events
        .get(event)
        .map_or(String::new(), |e| printable(&e.name).into_owned());
    put_line(
        buf,
        inner,
        0,
        vec![Span::styled(
            format!("      {:>14} {:>8}  Part", name, "%"),
            t.dim(),
        )],
        Style::new(),
    );
    let body = Rect {
        y: inner.y + 1,
        height: inner.height.saturating_sub(2),
        ..inner
    };
    let (selected, range) = scroll.window(body.height as usize, app.profile.parts.len());
    for (y, i) in range.enumerate() {
        let part = &app.profile.parts[i];
        let on = app.analysis.parts.get(i).copied().unwrap_or(true);
        let total = app
            .part_totals
            .get(i)
            .and_then(|r| r.get(event))
            .copied()
            .unwrap_or(0);
        let style = if i == selected {
            t.selected(true)
        } else {
            Style::new()
        };
        let text = format!(
            " [{}] {:>14} {:>8}  ",
            if on { "x" } else { " " },
            thousands(total),
            percent_text(total, grand),
        );
        let room = (body.width as usize).saturating_sub(text.chars().count());
        let text = text + &fit(&part.label(&app.profile.sources), room, t.glyphs());
        put_line(buf, body, y as u16, vec![Span::styled(text, style)], style);
    }
    let active = app.analysis.parts.iter().filter(|&&s| s).count();
    put_line(
        buf,
        inner,
        inner.height.saturating_sub(1),
        vec![Span::styled(
            format!(
                " {active} of {} parts on; costs everywhere follow.",
                app.profile.parts.len()
            ),
            t.dim(),
        )],
        Style::new(),
    );
}

pub fn search(app: &App, buf: &mut Buffer, rect: Rect, scroll: &Scroll) {
    let t = app.theme;
    let results = app.search.results();
    let title = format!(
        " Search: {} matches (Enter: go, Esc: cancel) ",
        results.len()
    );
    let inner = frame(app, buf, rect, title, t.key());
    let mut prompt = vec![Span::styled("/ ", t.key())];
    prompt.extend(query_spans(app, (inner.width as usize).saturating_sub(2)));
    if app.search.query().is_empty() {
        prompt.push(Span::styled(
            "  type part of a function name (lower case matches either case)",
            t.dim(),
        ));
    }
    put_line(buf, inner, 0, prompt, Style::new());
    let body = Rect {
        y: inner.y + 1,
        height: inner.height.saturating_sub(1),
        ..inner
    };
    let w = cost_width(app);
    let name_w = (body.width as usize).saturating_sub(w + 2);
    let (selected, range) = scroll.window(body.height as usize, results.len());
    for (y, i) in range.enumerate() {
        let f = FnId(results[i]);
        let incl = crate::tui::app::rows::inclusive(&app.analysis, f)
            .get(app.event)
            .copied()
            .unwrap_or(0);
        let style = if i == selected {
            t.selected(true)
        } else {
            Style::new()
        };
        // The name as the list shows it (start and end kept, what tells
        // it apart from others of its name after it), matches highlighted.
        let mut name = super::name_spans(app, f, name_w, style);
        let shown = name.remove(0).content.into_owned();
        let marks = app.search.highlight(&shown);
        let mut spans = vec![Span::styled(
            format!("{} ", right(&cost_text(app, incl), w)),
            style,
        )];
        spans.extend(highlighted(&shown, &marks, style, t.matched()));
        spans.extend(name);
        put_line(buf, body, y as u16, spans, style);
    }
    if results.is_empty() && !app.search.query().is_empty() {
        put_line(
            buf,
            body,
            0,
            vec![Span::styled("no match", t.warn())],
            Style::new(),
        );
    }
}

/// The search query in `room` cells with its cursor (the character under
/// it reversed, or the cursor glyph at the end), scrolled so that the
/// cursor and what was typed just before it show; `cut_left` and
/// `cut_right` mark the parts out of view.
fn query_spans(app: &App, room: usize) -> Vec<Span<'static>> {
    let t = app.theme;
    let g = t.glyphs();
    // Each character made printable on its own: the cursor counts them.
    let shown: Vec<String> = app
        .search
        .query()
        .chars()
        .map(|c| printable(c.encode_utf8(&mut [0; 4])).into_owned())
        .collect();
    let at = app.search_cursor.min(shown.len());
    let before = shown[..at].concat();
    let (cursor, style, after) = match shown.get(at) {
        Some(c) => (c.clone(), t.selected(true), shown[at + 1..].concat()),
        None => (g.cursor.to_string(), t.key(), String::new()),
    };
    // The cursor at the right edge when it would be beyond it, one cell
    // before it when text follows (the edge shows the mark).
    let need = cells(&before) + cells(&cursor) + usize::from(!after.is_empty());
    let skip = need.saturating_sub(room);
    let spans = vec![
        Span::raw(before),
        Span::styled(cursor, style),
        Span::raw(after),
    ];
    window_spans(spans, skip, room, (g.cut_left, g.cut_right), t.dim())
}

/// The load warnings, one `FILE:LINE: message` per line, scrolled.
pub fn warnings(app: &App, buf: &mut Buffer, rect: Rect, scroll: &Scroll) {
    let t = app.theme;
    let p = &app.profile;
    let shown = p.diagnostics.len();
    let more = p.diagnostic_count().saturating_sub(shown);
    let title = format!(" Load warnings: {} (Esc closes) ", p.diagnostic_count());
    let inner = frame(app, buf, rect, title, t.warn());
    let body = Rect {
        height: inner.height.saturating_sub(1),
        ..inner
    };
    for (y, d) in p
        .diagnostics
        .iter()
        .skip(scroll.offset)
        .take(body.height as usize)
        .enumerate()
    {
        let text = fit(&d.to_string(), body.width as usize, t.glyphs());
        put_line(buf, body, y as u16, vec![Span::raw(text)], Style::new());
    }
    let mut foot = format!(
        " {}-{} of {shown}",
        (scroll.offset + 1).min(shown),
        (scroll.offset + body.height as usize).min(shown)
    );
    if more > 0 {
        foot.push_str(&format!("; {more} more were counted, not kept"));
    }
    put_line(
        buf,
        inner,
        inner.height.saturating_sub(1),
        vec![Span::styled(foot, t.dim())],
        Style::new(),
    );
}
