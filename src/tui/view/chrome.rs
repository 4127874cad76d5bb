//! The lines around the panes: the title (command, functions, parts), the
//! event totals, the details of the selected function, the status line
//! (breadcrumb, messages, warnings) and the key hints.

use crate::format::printable;
use crate::profile::FnId;
use crate::tui::app::App;
use crate::tui::keymap;
use crate::tui::layout::Areas;
use crate::tui::widgets::{cells, fit, fit_middle, put_line};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;

/// The title line and the event totals, the current event marked.
pub fn header(app: &App, buf: &mut Buffer, areas: &Areas) {
    let t = app.theme;
    let g = t.glyphs();
    let p = &app.profile;
    let cmd = p.meta.cmd.as_deref().unwrap_or("(no command recorded)");
    // A comparison names both runs.
    let cmd = match &app.diff {
        Some(j) => {
            let base = j
                .base
                .meta
                .cmd
                .as_deref()
                .unwrap_or("(no command recorded)");
            format!("{} {} {}", base.trim(), g.arrow, cmd.trim())
        }
        None => cmd.to_string(),
    };
    let active = app.analysis.parts.iter().filter(|&&s| s).count();
    let sep = g.separator;
    let functions = app
        .browse
        .order
        .len()
        .saturating_sub(app.analysis.cycles.len());
    let mut tail = format!("  {sep} {functions} functions");
    // A set of files (threads, dumps) says how many were loaded; the
    // parts popup (`p`) names them.
    let files = p.loaded_sources().count();
    if files > 1 {
        tail.push_str(&format!("  {sep} {files} files"));
    }
    if p.parts.len() > 1 {
        tail.push_str(&format!("  {sep} parts {active}/{}", p.parts.len()));
    }
    if let Some(filter) = &app.filter {
        let label = printable(&filter.label);
        tail.push_str(&format!("  {sep} only those {label} (Esc: all)"));
    }
    let room = (areas.title.width as usize).saturating_sub(7 + 1 + cells(&tail));
    let first = vec![
        Span::styled(" cgtui ", t.header().add_modifier(Modifier::BOLD)),
        Span::styled(format!(" {}", fit(cmd.trim(), room.min(60), g)), t.header()),
        Span::styled(tail, t.header()),
    ];
    put_line(buf, areas.title, 0, first, t.header());
    // One group of spans per event; when they do not all fit, a window
    // of them that holds the current one, `…` where some are left out.
    let groups: Vec<Vec<Span<'_>>> = p
        .events
        .events
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let total = app.analysis.totals.get(i).copied().unwrap_or(0);
            let text = match &app.diff {
                None => format!(
                    " {} {} ",
                    printable(&e.name),
                    crate::format::thousands(total)
                ),
                // Both totals and the change.
                Some(j) => match j.comparison.events.iter().find(|c| c.new == i) {
                    Some(c) => {
                        let base = j.base_analysis.totals[c.base];
                        let new = j.new_analysis.totals[i];
                        // The share from the exact change (65 bits).
                        let change = crate::format::change(base, new);
                        format!(
                            " {} {}{}{} ({}) ",
                            printable(&e.name),
                            crate::format::thousands(base),
                            g.arrow,
                            crate::format::thousands(new),
                            crate::format::wide_signed_percent(change, base),
                        )
                    }
                    None => format!(" {} (new profile only) ", printable(&e.name)),
                },
            };
            let style = if i == app.event {
                t.title(true)
            } else {
                Style::new()
            };
            let mut group = vec![Span::styled(text, style)];
            if i == app.event
                && let Some(long) = &e.long_name
            {
                group.push(Span::styled(format!("({}) ", printable(long)), t.dim()));
            }
            group
        })
        .collect();
    // A comparison names the events of the base only, which it leaves out.
    let mut groups = groups;
    if let Some(j) = &app.diff {
        for (name, side) in &j.comparison.left_out {
            if *side == crate::analysis::diff::Side::Base {
                let text = format!(" {} (base profile only) ", printable(name));
                groups.push(vec![Span::styled(text, t.dim())]);
            }
        }
    }
    let widths: Vec<usize> = groups
        .iter()
        .map(|g| g.iter().map(Span::width).sum())
        .collect();
    let mark = cells(g.ellipsis);
    let room = (areas.events.width as usize).saturating_sub(mark);
    let (from, to) = event_window(&widths, app.event, room, mark);
    let mut events = vec![Span::raw(if from > 0 { g.ellipsis } else { " " })];
    events.extend(groups.into_iter().take(to).skip(from).flatten());
    if to < widths.len() {
        events.push(Span::styled(g.ellipsis, t.dim()));
    }
    put_line(buf, areas.events, 0, events, Style::new());
}

/// Which events (`from..to`) the header shows in `room` cells: all when
/// they fit, else from the first on if `current` is among them, else
/// the ones up to `current`, and as many after it as fit (`mark` cells
/// kept for the `…` after them).
pub fn event_window(widths: &[usize], current: usize, room: usize, mark: usize) -> (usize, usize) {
    if widths.iter().sum::<usize>() <= room {
        return (0, widths.len());
    }
    let room = room.saturating_sub(mark);
    let mut from = 0;
    while from < current
        && widths[from..=current.min(widths.len() - 1)]
            .iter()
            .sum::<usize>()
            > room
    {
        from += 1;
    }
    let mut to = from;
    let mut used = 0;
    while to < widths.len() && used + widths[to] <= room {
        used += widths[to];
        to += 1;
    }
    (from, to.max((current + 1).min(widths.len())))
}

/// The selected function's whole name, its file and its object: what the
/// list's cut names and shared names leave out.
pub fn details(app: &App, buf: &mut Buffer, area: Rect) {
    if area.height == 0 {
        return;
    }
    let t = app.theme;
    let g = t.glyphs();
    let Some(f) = app.selected() else {
        return;
    };
    if let Some(c) = app.cycle_row(f) {
        let members: Vec<String> = c
            .members
            .iter()
            .map(|&m| app.name(m).into_owned())
            .collect();
        let text = format!("{}  members: {}", app.name(f), members.join(", "));
        let text = fit(&text, area.width as usize, g);
        put_line(
            buf,
            area,
            0,
            vec![Span::styled(text, t.current())],
            Style::new(),
        );
        return;
    }
    let p = &app.profile;
    let mut place = format!("  {}", printable(p.fn_file(f)));
    let obj = p.fn_object(f);
    if !obj.is_empty() {
        place.push_str(&format!("  [{}]", printable(obj)));
    }
    if let Some(c) = app.analysis.cycle_of(f) {
        place.push_str(&format!("  <cycle {}>", c.number));
    }
    let width = area.width as usize;
    // The name gets what the place leaves, but at least half the line.
    let name_room = width.saturating_sub(cells(&place)).max(width / 2);
    let name = fit_middle(p.fn_name(f), name_room, g);
    let place = fit(&place, width.saturating_sub(cells(&name)), g);
    let spans = vec![
        Span::styled(name, t.current()),
        Span::styled(place, t.dim()),
    ];
    put_line(buf, area, 0, spans, Style::new());
}

/// The breadcrumb of the places walked, messages and the warnings count;
/// then the key hints.
pub fn status(app: &App, buf: &mut Buffer, areas: &Areas) {
    let t = app.theme;
    let g = t.glyphs();
    let mut right: Vec<Span<'_>> = Vec::new();
    if let Some(m) = &app.message {
        right.push(Span::styled(format!(" {} ", printable(m)), t.warn()));
    }
    if app.diagnostics > 0 {
        right.push(Span::styled(
            format!(" {} load warnings (w) ", app.diagnostics),
            t.warn(),
        ));
    }
    // A terminal too short for the hints line: the status line points
    // to the help.
    if areas.hints.height == 0 {
        right.push(Span::styled("?", t.key()));
        right.push(Span::raw(" help"));
    }
    let right_w: usize = right.iter().map(Span::width).sum();
    let room = (areas.status.width as usize).saturating_sub(right_w + 1);
    // In a tree view: the path from the tree's root to the selected node.
    let walked: Vec<FnId> = match app.views.shown_tree() {
        Some(view) => view.tree.path(view.node()),
        None => app.back.iter().map(|p| p.func).chain(app.current).collect(),
    };
    // Only the end of the path can show: names from the end while they
    // fit (a path may be a thousand calls deep).
    let mut crumbs: Vec<String> = Vec::new();
    let mut used = 0;
    for f in walked.into_iter().rev() {
        if used > room + cells(g.crumb) {
            break;
        }
        let name = printable(&super::shown_name(app, f)).into_owned();
        used += cells(&name) + cells(g.crumb);
        crumbs.push(name);
    }
    crumbs.reverse();
    let path = crumbs.join(g.crumb);
    let path = if cells(&path) > room {
        // The end of the path matters: cut its start.
        let mark = cells(g.ellipsis);
        let keep: String = {
            let mut used = 0;
            let mut tail: Vec<char> = Vec::new();
            for c in path.chars().rev() {
                used += cells(c.encode_utf8(&mut [0; 4]));
                if used + mark > room {
                    break;
                }
                tail.push(c);
            }
            tail.into_iter().rev().collect()
        };
        format!("{}{keep}", g.ellipsis)
    } else {
        path
    };
    let pad = room.saturating_sub(cells(&path));
    let mut line = vec![Span::styled(path, t.current())];
    line.push(Span::raw(" ".repeat(pad + 1)));
    line.extend(right);
    put_line(buf, areas.status, 0, line, Style::new());
    // The hints that fit whole, in order, and `? help` always (at 40
    // columns it was cut off, and nothing pointed to the help).
    let all = keymap::hints(app.context(), t.ascii);
    let is_help = |key: &str| key == "?";
    let width = |(key, hint): &(String, &str)| cells(key) + cells(hint) + 3;
    let help = all.iter().find(|h| is_help(&h.0));
    // The last hint's two trailing spaces may fall off the edge.
    let mut room = areas.hints.width as usize + 2;
    let mut reserved = help.map_or(0, width);
    let mut shown: Vec<&(String, &str)> = Vec::new();
    for h in &all {
        let need = width(h) + if is_help(&h.0) { 0 } else { reserved };
        if need > room {
            break;
        }
        room -= width(h);
        if is_help(&h.0) {
            reserved = 0;
        }
        shown.push(h);
    }
    if reserved > 0 {
        shown.extend(help);
    }
    let mut hints = Vec::new();
    for (key, hint) in shown {
        hints.push(Span::styled(key.clone(), t.key()));
        hints.push(Span::raw(format!(" {hint}  ")));
    }
    put_line(buf, areas.hints, 0, hints, Style::new());
}

#[cfg(test)]
mod tests {
    use super::event_window;

    #[test]
    fn the_event_window_keeps_the_current_event() {
        let w = [10, 10, 10, 10, 10];
        assert_eq!(event_window(&w, 4, 60, 1), (0, 5));
        assert_eq!(event_window(&w, 1, 31, 1), (0, 3));
        assert_eq!(event_window(&w, 4, 31, 1), (2, 5));
        assert_eq!(event_window(&w, 3, 21, 1), (2, 4));
        // Not even the current one fits: it is shown, cut by the line.
        assert_eq!(event_window(&w, 2, 5, 1), (2, 3));
        assert_eq!(event_window(&[], 0, 5, 1), (0, 0));
    }
}
