//! Drawing the assembly view: per instruction its cost (the current
//! event and the chosen metric columns), its address, a gutter of jump
//! arrows, objdump's text, what the profile says of its jumps and calls,
//! and its inline chain; source lines between runs of instructions.

use super::{AsmView, Row};
use crate::asm::{Instruction, Listing};
use crate::format::{printable, thousands};
use crate::tui::app::App;
use crate::tui::columns::Scope;
use crate::tui::layout::Pane;
use crate::tui::view::cost_format;
use crate::tui::widgets::{Column, Table, Width, fit, put_line};
use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Span;

/// Lanes of the arrow gutter (two cells each).
const LANES: usize = 4;
/// Besides the selected instruction's, the arrows of this many of the
/// most executed jumps are drawn (hotspot users found arrows everywhere
/// clutter; `*` draws them all).
const HOT_ARROWS: usize = 3;

pub fn draw(app: &App, view: &AsmView, buf: &mut Buffer, pane: Pane) {
    let t = app.theme;
    let g = t.glyphs();
    let name = crate::tui::view::shown_name(app, view.func);
    let Some(listing) = &view.listing else {
        let title = format!(
            "Assembly of {} {} disassembling (Esc: cancel)",
            printable(&name),
            g.dash
        );
        put_line(
            buf,
            pane.title,
            0,
            vec![Span::raw(fit(&title, pane.title.width as usize, g))],
            t.title(true),
        );
        return;
    };
    let event = app
        .profile
        .events
        .events
        .get(app.event)
        .map_or(String::new(), |e| printable(&e.name).into_owned());
    let object = std::path::Path::new(&listing.object)
        .file_name()
        .map_or(listing.object.clone(), |n| n.to_string_lossy().into_owned());
    let title = format!(
        "Assembly of {} {d} {} {d} {event} self cost per instruction",
        printable(&name),
        printable(&object),
        d = g.dash
    );
    let arrows = Arrows::new(view, listing, app.event);
    let ascii = app.theme.ascii;
    let mut columns = vec![
        Column::new(Width::Cost, |&r: &Row, cx| match r {
            Row::Instr(i) => vec![Span::raw(cx.format.text(view.cost(i, app.event)))],
            _ => vec![],
        })
        .right(),
    ];
    // The chosen metric columns of each instruction's self cost.
    let chosen = &app.columns;
    for &c in &chosen.chosen {
        let header = chosen.header(crate::tui::columns::MetricColumn {
            scope: Scope::Own,
            ..c
        });
        let width = crate::tui::columns::Columns::width(&header);
        columns.push(
            Column::text(Width::Fixed(width), move |&r: &Row| match r {
                Row::Instr(i) => listing
                    .instructions
                    .get(i)
                    .map_or(String::new(), |ins| chosen.text(c, &ins.cost, &ins.cost)),
                _ => String::new(),
            })
            .right()
            .header(header)
            .gives_way(1),
        );
    }
    columns.push(
        Column::new(Width::Fill { min: 10 }, |&r: &Row, cx| {
            line(app, view, listing, &arrows, r, cx.width, cx.style, ascii)
        })
        .header_with(move |width| vec![Span::raw(fit(&title, width, g))]),
    );
    Table::new(cost_format(app), columns)
        .header_style(t.title(true), t.title(true))
        .selected_style(t.selected(true))
        .empty(Span::styled(
            "no instruction has a cost in this function",
            t.dim(),
        ))
        .draw(buf, pane, &view.scroll, view.rows.len(), |i| view.rows[i]);
}

/// A row's text: a note, a source line, or an instruction with its
/// address, arrows, text, jumps and calls, and inline chain.
#[allow(clippy::too_many_arguments)]
fn line(
    app: &App,
    view: &AsmView,
    l: &Listing,
    arrows: &Arrows,
    r: Row,
    width: usize,
    style: Style,
    ascii: bool,
) -> Vec<Span<'static>> {
    let t = app.theme;
    let g = t.glyphs();
    match r {
        Row::Note(n) => {
            let text = l
                .notes
                .get(n)
                .map_or(String::new(), |note| note.to_string());
            vec![Span::styled(fit(&text, width, g), style.patch(t.warn()))]
        }
        Row::Source { file: f, line } => {
            let file = l.files.get(f as usize).map_or("?", String::as_str);
            let name = std::path::Path::new(file)
                .file_name()
                .map_or(file.into(), |n| n.to_string_lossy());
            let place = printable(&format!("{name}:{line}")).into_owned();
            let mut spans = vec![Span::styled(place, style.patch(t.dim()))];
            if let Some(text) = view.text(f, line) {
                spans.push(Span::styled(
                    format!("  {}", printable(text.trim_end())),
                    style,
                ));
            }
            crate::tui::widgets::window_spans(spans, 0, width, ("", g.cut_right), t.marker())
        }
        Row::Instr(i) => {
            let Some(ins) = l.instructions.get(i) else {
                return vec![];
            };
            let mut spans = vec![Span::styled(
                format!("{:>8x} ", ins.addr),
                style.patch(t.dim()),
            )];
            spans.extend(arrows.gutter(i, ascii, t, style));
            let mut text = printable(&ins.text).into_owned();
            if text.is_empty() {
                text = "(not disassembled)".into();
            }
            spans.push(Span::styled(format!(" {text}"), style));
            let said = jumps_and_calls(app, ins);
            if !said.is_empty() {
                spans.push(Span::styled(format!("  {said}"), style.patch(t.marker())));
            }
            let chain = l.inline_of(ins);
            if !chain.is_empty() {
                let shown: Vec<String> = chain.iter().map(|n| printable(n).into_owned()).collect();
                spans.push(Span::styled(
                    format!("  [{}]", shown.join(&format!(" {} ", g.crumb.trim()))),
                    style.patch(t.dim()),
                ));
            }
            crate::tui::widgets::window_spans(spans, 0, width, ("", g.cut_right), t.marker())
        }
    }
}

/// `taken 5 of 1,075,126 (0.00%)`, `jump ×3`, `call f ×10`.
fn jumps_and_calls(app: &App, ins: &Instruction) -> String {
    let g = app.theme.glyphs();
    let mut out = Vec::new();
    for j in &ins.jumps {
        out.push(match j.taken {
            Some(taken) => {
                let share = if j.executed == 0 {
                    0.0
                } else {
                    100.0 * taken as f64 / j.executed as f64
                };
                format!(
                    "taken {} of {} ({share:.2}%)",
                    thousands(taken as i64),
                    thousands(j.executed as i64)
                )
            }
            None => format!("jump {}{}", g.times, thousands(j.executed as i64)),
        });
    }
    for c in &ins.calls {
        let name = crate::tui::view::shown_name(app, c.callee);
        out.push(format!(
            "call {} {}{}",
            printable(&name),
            g.times,
            thousands(c.count as i64)
        ));
    }
    out.join(", ")
}

/// The arrows drawn: jumps within the function, each from its row to its
/// target's, in a lane of the gutter no overlapping arrow uses.
struct Arrows {
    /// (from, to, lane, backward) in instruction indexes.
    list: Vec<(usize, usize, usize, bool)>,
}

impl Arrows {
    fn new(view: &AsmView, l: &Listing, _event: usize) -> Self {
        let mut jumps: Vec<(usize, usize, u64, bool)> = Vec::new();
        for (i, ins) in l.instructions.iter().enumerate() {
            for j in &ins.jumps {
                if let Some(to) = view.instruction_at(j.target) {
                    jumps.push((i, to, j.taken.unwrap_or(j.executed), j.backward(ins.addr)));
                }
            }
        }
        if !view.all_arrows {
            let selected = view.selected_instruction();
            let mut by_count: Vec<usize> = (0..jumps.len()).collect();
            by_count.sort_by_key(|&k| std::cmp::Reverse(jumps[k].2));
            let hot: Vec<usize> = by_count.into_iter().take(HOT_ARROWS).collect();
            let mut k = 0;
            jumps.retain(|j| {
                let keep = hot.contains(&k) || Some(j.0) == selected || Some(j.1) == selected;
                k += 1;
                keep
            });
        }
        // Shorter arrows inside, on the lanes nearest the text.
        jumps.sort_by_key(|&(a, b, ..)| a.abs_diff(b));
        let mut list: Vec<(usize, usize, usize, bool)> = Vec::new();
        for (from, to, _, backward) in jumps {
            let (lo, hi) = (from.min(to), from.max(to));
            let lane = (0..LANES).find(|&lane| {
                !list
                    .iter()
                    .any(|&(f, t, l, _)| l == lane && f.min(t) <= hi && lo <= f.max(t))
            });
            if let Some(lane) = lane {
                list.push((from, to, lane, backward));
            }
        }
        Arrows { list }
    }

    /// The gutter's cells on instruction `i`'s row: lane 0 nearest the
    /// text; a corner where an arrow starts or ends, `>` at its target.
    fn gutter(
        &self,
        i: usize,
        ascii: bool,
        t: crate::tui::Theme,
        style: Style,
    ) -> Vec<Span<'static>> {
        let (vertical, top, bottom, across, head) = if ascii {
            ("|", "+", "+", "-", ">")
        } else {
            ("│", "┌", "└", "─", "►")
        };
        let mut cells: Vec<(&'static str, Style)> = vec![(" ", style); 2 * LANES + 1];
        for &(from, to, lane, backward) in &self.list {
            let (lo, hi) = (from.min(to), from.max(to));
            if i < lo || i > hi {
                continue;
            }
            // Loops dim, forward jumps bright.
            let s = style.patch(if backward { t.dim() } else { t.marker() });
            let col = 2 * (LANES - 1 - lane);
            if i == lo || i == hi {
                cells[col] = (if i == lo { top } else { bottom }, s);
                for c in cells.iter_mut().skip(col + 1) {
                    if c.0 == " " {
                        *c = (across, s);
                    }
                }
                if i == to {
                    cells[2 * LANES] = (head, s);
                }
            } else if cells[col].0 == " " {
                cells[col] = (vertical, s);
            }
        }
        cells.into_iter().map(|(c, s)| Span::styled(c, s)).collect()
    }
}
