//! Popups drawn over the screen: help (generated from the keymap), parts
//! with their totals, groups, and the search prompt with ranked results.

use super::{cost_format, name_spans};
use crate::format::{percent_text, printable, thousands};
use crate::profile::FnId;
use crate::tui::app::{App, SortKey, rows};
use crate::tui::keymap;
use crate::tui::layout::Pane;
use crate::tui::scroll::Scroll;
use crate::tui::widgets::{
    Column, CostFormat, Table, Width, cells, fit, fit_middle, highlighted, put_line, window_spans,
};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear, Widget};

/// A popup's table inside its border: the header on the first line, the
/// rows below, `footer` lines left under them.
pub(super) fn table_pane(inner: Rect, footer: u16) -> Pane {
    Pane {
        title: Rect {
            height: inner.height.min(1),
            ..inner
        },
        body: Rect {
            y: inner.y + 1,
            height: inner.height.saturating_sub(1 + footer),
            ..inner
        },
    }
}

pub(super) fn frame(app: &App, buf: &mut Buffer, rect: Rect, title: String, style: Style) -> Rect {
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
    let g = t.glyphs();
    let inner = frame(app, buf, rect, " Keys (Esc or q closes) ".into(), t.key());
    let width = inner.width as usize;
    let rows = keymap::help_rows(t.ascii, width);
    for (y, row) in rows
        .iter()
        .skip(scroll.offset)
        .take(inner.height as usize)
        .enumerate()
    {
        // Texts wrap (`help_rows`); a key wider than the popup is cut
        // with a mark, not silently.
        let spans = match row {
            keymap::HelpRow::Title(title) => vec![Span::styled(
                fit(title, width, g),
                Style::new().add_modifier(Modifier::BOLD),
            )],
            keymap::HelpRow::Entry { keys, text, column } => {
                let keys = fit(&format!("  {keys:<column$}"), width, g);
                let room = width.saturating_sub(cells(&keys));
                vec![Span::styled(keys, t.key()), Span::raw(fit(text, room, g))]
            }
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
    let p = &app.profile;
    let format = cost_format(app);
    let total = |i: usize| app.part_totals.get(i).map_or(0, |r| format.at(r));
    let grand: i64 = (0..app.part_totals.len()).map(total).sum();
    let event = p
        .events
        .events
        .get(app.event)
        .map_or(String::new(), |e| printable(&e.name).into_owned());
    let columns = vec![
        Column::text(Width::Fixed(4), |&i| {
            let on = app.analysis.parts.get(i).copied().unwrap_or(true);
            format!(" [{}]", if on { "x" } else { " " })
        })
        // One cell wider than its column: the header has always stood
        // one cell right of the numbers.
        .header(" ".repeat(5)),
        Column::text(Width::Fixed(14), |&i| thousands(total(i)))
            .right()
            .header(event),
        Column::text(Width::Fixed(8), |&i| percent_text(total(i), grand))
            .right()
            .header("%"),
        Column::new(Width::Fill { min: 0 }, |&i: &usize, cx| {
            // The label ends at the edge even when a total took more room.
            let room = cx.width.saturating_sub(cx.overflow + 1);
            let label = fit(&p.parts[i].label(&p.sources), room, t.glyphs());
            vec![Span::raw(format!(" {label}"))]
        })
        .header(" Part"),
    ];
    let pane = table_pane(inner, 1);
    Table::new(format, columns)
        .header_style(t.dim(), Style::new())
        .selected_style(t.selected(true))
        .draw(buf, pane, scroll, p.parts.len(), |i| i);
    let active = app.analysis.parts.iter().filter(|&&s| s).count();
    put_line(
        buf,
        inner,
        inner.height.saturating_sub(1),
        vec![Span::styled(
            format!(
                " {active} of {} parts on; costs everywhere follow.",
                p.parts.len()
            ),
            t.dim(),
        )],
        Style::new(),
    );
}

/// The groups of the current grouping: self cost, its share of the
/// total, inclusive cost, functions, short name (`o`; Tab: the next
/// grouping; Enter: list the group's functions; `S`, `i`, `c`, `a`: the
/// groups' sort), and the selected group's full name on a details line;
/// in a comparison, each side's cost and the change instead of the costs.
pub fn groups(app: &App, buf: &mut Buffer, rect: Rect, scroll: &Scroll) {
    let t = app.theme;
    let g = t.glyphs();
    let title = format!(
        " Groups by {} (Tab: by {}, Enter: list its functions, Esc: close) ",
        app.groups.by.label(),
        app.groups.by.next().label()
    );
    let inner = frame(app, buf, rect, title, t.key());
    let format = cost_format(app);
    let sort = app.groups.sort;
    let mark = |k, s: &str| sort_mark(app, k, s);
    let mut columns = if app.diff.is_some() {
        group_change_columns(app, format)
    } else {
        group_cost_columns(app, format)
    };
    columns.push(
        Column::text(Width::Fixed(9), |&i: &usize| {
            thousands(app.groups.list[i].functions.len() as i64)
        })
        .right()
        .header(mark(SortKey::Calls, "Functions"))
        .gives_way(2),
    );
    let label = mark(SortKey::Name, app.groups.by.label());
    columns.push(
        Column::new(Width::Fill { min: 10 }, |&i: &usize, cx| {
            vec![Span::raw(fit_middle(
                &app.groups.list[i].short,
                cx.width,
                g,
            ))]
        })
        .header_with(move |width| vec![Span::raw(fit(&label, width, g))]),
    );
    let pane = table_pane(inner, 2);
    Table::new(format, columns)
        .header_style(t.dim(), Style::new())
        .selected_style(t.selected(true))
        .empty(Span::styled("(no group has a cost)", t.dim()))
        .draw(buf, pane, scroll, app.groups.list.len(), |i| i);
    // The selected group's name whole (cut in the middle only where the
    // popup is narrower than it).
    if let Some(group) = app.groups.list.get(scroll.selected) {
        let room = (inner.width as usize).saturating_sub(1);
        put_line(
            buf,
            inner,
            inner.height.saturating_sub(2),
            vec![Span::raw(format!(" {}", fit_middle(&group.name, room, g)))],
            Style::new(),
        );
    }
    let what = match (app.diff.is_some(), sort.inclusive()) {
        (false, _) => "inclusive: self cost and calls out, or the calls into it",
        (true, false) => "self cost: base, new, change (i: inclusive)",
        (true, true) => "inclusive cost: base, new, change (S: self)",
    };
    put_line(
        buf,
        inner,
        inner.height.saturating_sub(1),
        vec![Span::styled(
            format!(" {} groups; {what}", app.groups.list.len()),
            t.dim(),
        )],
        Style::new(),
    );
}

/// A groups' column header, with the sort's mark where the groups are
/// sorted by it (`▼`, `▲` reversed; `v`, `^` in ASCII), as the list's.
fn sort_mark(app: &App, key: SortKey, header: &str) -> String {
    let g = app.theme.glyphs();
    match (app.groups.sort.key == key, app.groups.sort.reversed) {
        (true, false) => format!("{header}{}", g.sort_down),
        (true, true) => format!("{header}{}", g.sort_up),
        _ => header.to_string(),
    }
}

/// The groups' costs of one profile: self, its share, inclusive.
fn group_cost_columns<'a>(app: &'a App, format: CostFormat) -> Vec<Column<'a, usize>> {
    let mark = |k, s: &str| sort_mark(app, k, s);
    vec![
        Column::cost(|&i: &usize| &app.groups.list[i].self_cost[..])
            .header(mark(SortKey::SelfCost, "Self")),
        Column::text(Width::Fixed(8), move |&i: &usize| {
            percent_text(format.at(&app.groups.list[i].self_cost), format.total)
        })
        .right()
        .header("%")
        .gives_way(1),
        Column::cost(|&i: &usize| &app.groups.list[i].inclusive[..])
            .header(mark(SortKey::Inclusive, "Incl"))
            .gives_way(3),
    ]
}

/// The groups of a comparison: each side's cost (self, or inclusive when
/// sorted by it), the change and its share of the base's total.
fn group_change_columns<'a>(app: &'a App, format: CostFormat) -> Vec<Column<'a, usize>> {
    let t = app.theme;
    let sort = app.groups.sort;
    let inclusive = sort.inclusive();
    let plain = CostFormat {
        signed: false,
        ..format
    };
    let sides = move |i: usize| app.group_sides(i, inclusive).unwrap_or((0, 0));
    let base_total = super::diff::base_total(app).unwrap_or(0);
    // The change is what the costs sort by.
    let change = sort_mark(app, sort.key, "Change");
    let change = if inclusive || sort.key == SortKey::SelfCost {
        change
    } else {
        "Change".to_string()
    };
    vec![
        Column::new(Width::Cost, move |&i: &usize, _| {
            vec![Span::raw(plain.text(sides(i).0))]
        })
        .right()
        .header("Base")
        .gives_way(3),
        Column::new(Width::Cost, move |&i: &usize, _| {
            vec![Span::raw(plain.text(sides(i).1))]
        })
        .right()
        .header("New")
        .gives_way(4),
        // The change exact from both sides (it may need 65 bits).
        Column::new(Width::Cost, move |&i: &usize, cx| {
            let (b, n) = sides(i);
            let change = crate::format::change(b, n);
            let style = t.change(change.signum() as i64);
            vec![Span::styled(cx.format.wide_text(change), style)]
        })
        .right()
        .header(change),
        Column::text(Width::Fixed(8), move |&i: &usize| {
            let (b, n) = sides(i);
            crate::format::wide_signed_percent(crate::format::change(b, n), base_total)
        })
        .right()
        .header("%base")
        .gives_way(1),
    ]
}

pub fn search(app: &App, buf: &mut Buffer, rect: Rect, scroll: &Scroll) {
    let t = app.theme;
    let results = app.search.shown();
    let weaker = app.search.weaker_hidden();
    let title = if app.filtering {
        " Filter: names containing it (Enter: list them; re:REGEX, !TEXT without, >N% of the total) "
            .to_string()
    } else {
        format!(
            " Search: {} matches (Enter: go, Esc: cancel) ",
            results.len() + weaker
        )
    };
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
    // A row past the matches listed: the line of the weaker ones.
    let columns = vec![
        Column::new(Width::Cost, |&i: &usize, cx| {
            let cost = match results.get(i) {
                Some(&r) => cx
                    .format
                    .text(cx.format.at(rows::inclusive(&app.analysis, FnId(r)))),
                None => String::new(),
            };
            vec![Span::raw(cost)]
        })
        .right(),
        Column::new(Width::Fill { min: 0 }, |&i: &usize, cx| {
            let Some(&f) = results.get(i) else {
                let n = thousands(weaker as i64);
                let forms = [
                    format!("{n} weaker matches, letters far apart (Enter: list them)"),
                    format!("{n} weaker matches (Enter: list)"),
                    format!("{n} weaker matches"),
                ];
                let fits = forms.iter().find(|l| cells(l) <= cx.width);
                let line = fits.unwrap_or(&forms[2]).clone();
                return vec![Span::styled(line, cx.style.patch(t.dim()))];
            };
            let f = FnId(f);
            // The name as the list shows it (start and end kept, what
            // tells it apart from others of its name after it), matches
            // highlighted.
            let mut name = name_spans(app, f, cx.width, cx.style);
            let shown = name.remove(0).content.into_owned();
            let marks = app.search.highlight(&shown);
            let mut spans = highlighted(&shown, &marks, cx.style, t.matched());
            spans.extend(name);
            spans
        }),
    ];
    // Before anything is typed the prompt says what to do.
    let empty = if app.search.query().is_empty() {
        Span::raw("")
    } else {
        Span::styled("no match", t.warn())
    };
    let pane = Pane {
        title: Rect { height: 0, ..inner },
        body: Rect {
            y: inner.y + 1,
            height: inner.height.saturating_sub(1),
            ..inner
        },
    };
    Table::new(cost_format(app), columns)
        .selected_style(t.selected(true))
        .margin(1)
        .empty(empty)
        .draw(
            buf,
            pane,
            scroll,
            results.len() + usize::from(weaker > 0),
            |i| i,
        );
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
pub fn warnings(app: &App, buf: &mut Buffer, rect: Rect, scroll: &Scroll, shift: usize) {
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
    let g = t.glyphs();
    let width = body.width as usize;
    let mut cut = false;
    for (y, d) in p
        .diagnostics
        .iter()
        .skip(scroll.offset)
        .take(body.height as usize)
        .enumerate()
    {
        // Scrolled right by `shift` cells (`>`): a mark says so.
        let whole = d.to_string();
        cut |= cells(&whole) > width;
        let text = match shift {
            0 => fit(&whole, width, g),
            _ => {
                let rest: String = skip_cells(&whole, shift + cells(g.cut_left));
                fit(&format!("{}{rest}", g.cut_left), width, g)
            }
        };
        put_line(buf, body, y as u16, vec![Span::raw(text)], Style::new());
    }
    let mut foot = match shown {
        0 => " None: every line of the profile was read as written.".to_string(),
        _ => format!(
            " {}-{} of {shown}",
            (scroll.offset + 1).min(shown),
            (scroll.offset + body.height as usize).min(shown)
        ),
    };
    if more > 0 {
        foot.push_str(&format!("; {more} more were counted, not kept"));
    }
    if cut || shift > 0 {
        foot.push_str("; > < scroll sideways");
    }
    put_line(
        buf,
        inner,
        inner.height.saturating_sub(1),
        vec![Span::styled(foot, t.dim())],
        Style::new(),
    );
}

/// `s` without its first `n` cells (a wide character cut in two is left
/// out whole).
fn skip_cells(s: &str, n: usize) -> String {
    let mut used = 0;
    s.chars()
        .skip_while(|&c| {
            let skip = used < n;
            used += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            skip
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::Theme;

    #[test]
    fn the_parts_header_stands_over_its_column_whatever_the_event_name() {
        let text = "events: 数据 Ir\nfn=main\n0 5 1\n";
        let profile = crate::parse::load_reader("t.callgrind", text.as_bytes()).unwrap();
        let mut app = App::new(profile, Theme::plain_colors(), Default::default());
        for (event, last, total) in [(0, "据", "5"), (1, "r", "1")] {
            app.event = event;
            let rect = Rect::new(0, 0, 60, 6);
            let mut buf = Buffer::empty(rect);
            parts(&app, &mut buf, rect, &Scroll::default());
            let at = |y, s: &str| (0..60).find(|&x| buf[(x, y)].symbol() == s).unwrap();
            // The name's last cell is one right of the total's, as the
            // header has always stood.
            let end = at(1, last) + u16::from(last == "据");
            assert_eq!(end, at(2, total) + 1, "event {event}");
        }
    }
}
