//! Small drawing helpers shared by the views: the cost table (`table`)
//! and how it writes costs (`cost`), the cost bar, truncation and
//! horizontal windows by screen cells, template folding of names
//! (`names`), and writing one styled line into the buffer.

mod cost;
mod table;

pub use crate::symbols::fold_templates;
pub use cost::CostFormat;
pub use table::{CellContext, Column, Table, Width, name_cell};

use super::theme::Glyphs;
use crate::format::printable;
use crate::profile::Cost;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// A bar of `width` cells for `value` of `total`, in eighths of a cell.
pub fn bar(value: Cost, total: Cost, width: usize, g: &Glyphs) -> String {
    if total <= 0 || value <= 0 {
        return " ".repeat(width);
    }
    let units = (value.min(total) as u128 * (width as u128 * 8) / total as u128) as usize;
    let mut s = g.bar_full.repeat(units / 8);
    let mut cells = units / 8;
    if cells < width {
        s.push_str(g.bar_eighths[units % 8]);
        cells += 1;
    }
    s.push_str(&" ".repeat(width.saturating_sub(cells)));
    s
}

/// The fewest cells a cut name keeps before what stands beside it (marks
/// after it, the object that tells namesakes apart) gives way: a name is
/// what a row is for.
pub const NAME_FIRST: usize = 8;

/// Screen cells `s` takes (wide characters two, combining ones none).
pub fn cells(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// The longest start of `s` that fits in `width` cells.
fn head(s: &str, width: usize) -> &str {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        used += UnicodeWidthChar::width(c).unwrap_or(0);
        if used > width {
            return &s[..i];
        }
    }
    s
}

/// The longest end of `s` that fits in `width` cells.
fn tail(s: &str, width: usize) -> &str {
    let mut used = 0;
    for (i, c) in s.char_indices().rev() {
        used += UnicodeWidthChar::width(c).unwrap_or(0);
        if used > width {
            return &s[i + c.len_utf8()..];
        }
    }
    s
}

/// `s` made printable and cut to `width` cells, `…` at the end when cut.
pub fn fit(s: &str, width: usize, g: &Glyphs) -> String {
    let s = printable(s);
    if cells(&s) <= width {
        return s.into_owned();
    }
    let mark = cells(g.ellipsis);
    if width < mark {
        return head(&s, width).to_string();
    }
    format!("{}{}", head(&s, width - mark), g.ellipsis)
}

/// A name made printable and cut to `width` cells keeping its start and
/// its end (`std::__introsort_loop<…>(…, long)` rather than a start that
/// many names share).
pub fn fit_middle(s: &str, width: usize, g: &Glyphs) -> String {
    let s = printable(s);
    if cells(&s) <= width {
        return s.into_owned();
    }
    let mark = cells(g.ellipsis);
    if width < mark + 8 {
        return fit(&s, width, g);
    }
    let room = width - mark;
    let end = room / 3;
    let start = head(&s, room - end);
    let end = tail(&s, room - cells(start));
    format!("{start}{}{end}", g.ellipsis)
}

/// `fit_middle`, but showing the printable name's bytes up to `at` and
/// a few after, where it differs from another name that would read the
/// same cut (`std::has_facet<std::num_put<c…ocale const&)`): the start
/// kept as far as `at`, or, where that leaves too little of the end, a
/// window on it between two marks (`…num_get<char…ocale const&)`).
pub fn fit_apart(s: &str, width: usize, g: &Glyphs, at: usize) -> String {
    /// Characters shown past where the name differs.
    const AFTER: usize = 6;
    let s = printable(s);
    let mark = cells(g.ellipsis);
    if cells(&s) <= width || width <= mark {
        return fit_middle(&s, width, g);
    }
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    let stop = s[at..]
        .char_indices()
        .nth(AFTER)
        .map_or(s.len(), |(i, _)| at + i);
    if width < 2 * mark + 12 {
        // Too narrow for two cuts: the start if it shows where the name
        // differs, else the cells up to just past it.
        return match cells(&s[..at]) < width - mark {
            true => fit_middle(&s, width, g),
            false => format!("{}{}", g.ellipsis, tail(&s[..stop], width - mark)),
        };
    }
    let room = width - mark;
    let end = (room / 4).max(4);
    if cells(&s[..stop]) + end <= room {
        let start = head(&s, room - end);
        let start = if start.len() >= stop {
            start
        } else {
            &s[..stop]
        };
        let end = tail(&s, room - cells(start));
        return format!("{start}{}{end}", g.ellipsis);
    }
    // The start is what the names share: a window ending past `at`.
    let end = tail(&s, end);
    let window = tail(&s[..stop], room - mark - cells(end));
    format!("{}{window}{}{end}", g.ellipsis, g.ellipsis)
}

/// The cells `skip..skip + width` of `spans`, styles kept: a window on a
/// line scrolled sideways. Where the line is cut, `marks` (left, right)
/// are drawn in `mark_style` over its first or last cell. A wide character
/// cut by an edge shows as spaces.
pub fn window_spans(
    spans: Vec<Span<'static>>,
    skip: usize,
    width: usize,
    marks: (&'static str, &'static str),
    mark_style: Style,
) -> Vec<Span<'static>> {
    let total: usize = spans.iter().map(Span::width).sum();
    if skip == 0 && total <= width {
        return spans;
    }
    let left = skip > 0 && total > 0;
    let right = total > skip + width;
    let from = skip + if left { cells(marks.0) } else { 0 };
    let to = (skip + width).saturating_sub(if right { cells(marks.1) } else { 0 });
    let mut out = Vec::new();
    if left {
        out.push(Span::styled(marks.0, mark_style));
    }
    let mut pos = 0;
    for span in spans {
        let mut text = String::new();
        for c in span.content.chars() {
            let w = UnicodeWidthChar::width(c).unwrap_or(0);
            if pos >= from && pos + w <= to {
                text.push(c);
            } else if pos < to && pos + w > from {
                text.extend(std::iter::repeat_n(' ', (pos + w).min(to) - pos.max(from)));
            }
            pos += w;
        }
        if !text.is_empty() {
            out.push(Span::styled(text, span.style));
        }
    }
    if right {
        out.push(Span::styled(marks.1, mark_style));
    }
    out
}

/// `s` padded with spaces to `width` cells (not cut).
pub fn pad(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(cells(s))))
}

/// `s` right-aligned in `width` cells.
pub fn right(s: &str, width: usize) -> String {
    format!("{}{s}", " ".repeat(width.saturating_sub(cells(s))))
}

/// Writes `spans` on row `y` of `area` (clipped), filling the rest of the
/// row with `fill`.
pub fn put_line(buf: &mut Buffer, area: Rect, y: u16, spans: Vec<Span<'_>>, fill: Style) {
    if y >= area.height {
        return;
    }
    let row = Rect::new(area.x, area.y + y, area.width, 1);
    buf.set_style(row, fill);
    buf.set_line(row.x, row.y, &Line::from(spans), row.width);
}

/// A name with the characters at `marks` (char indexes) in `hl` style.
pub fn highlighted(name: &str, marks: &[usize], base: Style, hl: Style) -> Vec<Span<'static>> {
    if marks.is_empty() {
        return vec![Span::styled(name.to_string(), base)];
    }
    let mut spans = Vec::new();
    let mut run = String::new();
    let mut run_hl = false;
    for (i, c) in name.chars().enumerate() {
        let is_hl = marks.contains(&i);
        if is_hl != run_hl && !run.is_empty() {
            let style = if run_hl { base.patch(hl) } else { base };
            spans.push(Span::styled(std::mem::take(&mut run), style));
        }
        run_hl = is_hl;
        run.push(c);
    }
    if !run.is_empty() {
        let style = if run_hl { base.patch(hl) } else { base };
        spans.push(Span::styled(run, style));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_apart_shows_where_names_differ() {
        let g = crate::tui::Theme::plain_colors().glyphs();
        let put = "bool std::has_facet<std::num_put<char> >(std::locale const&)";
        let get = "bool std::has_facet<std::num_get<char> >(std::locale const&)";
        // fit_middle cuts both alike; the byte where they differ is 29.
        assert_eq!(fit_middle(put, 30, g), fit_middle(get, 30, g));
        let (a, b) = (fit_apart(put, 30, g, 29), fit_apart(get, 30, g, 29));
        assert_ne!(a, b);
        assert!(a.contains("num_put") && b.contains("num_get"), "{a} {b}");
        assert!(cells(&a) <= 30 && cells(&b) <= 30);
        // Far from the start: a window between two marks, the end kept.
        let (a, b) = (fit_apart(put, 22, g, 29), fit_apart(get, 22, g, 29));
        assert!(
            a.starts_with("…") && a.contains("_put") && a.ends_with("&)"),
            "{a}"
        );
        assert!(b.contains("_get") && cells(&b) <= 22, "{b}");
        // Narrow: the cells just past the difference.
        assert_eq!(fit_apart("sqlite3_step_now", 8, g, 8), "…_step_n");
        // Whole where it fits.
        assert_eq!(fit_apart("short", 8, g, 2), "short");
    }

    #[test]
    fn bars_and_truncation() {
        let g = crate::tui::Theme::plain_colors().glyphs();
        assert_eq!(bar(1, 1, 3, g), "███");
        assert_eq!(bar(1, 2, 2, g), "█ ");
        assert_eq!(bar(0, 2, 2, g), "  ");
        assert_eq!(bar(1, 2, 1, g), "▌");
        assert_eq!(fit("abcdef", 4, g), "abc…");
        assert_eq!(fit("a\u{1b}b", 5, g), "a\\eb");
    }

    #[test]
    fn widths_are_screen_cells() {
        let g = crate::tui::Theme::plain_colors().glyphs();
        // Two cells each: four characters take eight cells.
        assert_eq!(fit("数据处理", 8, g), "数据处理");
        assert_eq!(fit("数据处理", 7, g), "数据处…");
        assert_eq!(cells(&fit("数据处理", 6, g)), 5);
        assert_eq!(right("数", 4), "  数");
        assert_eq!(pad("数", 4), "数  ");
        let ascii = crate::tui::Theme {
            color: false,
            ascii: true,
            ..crate::tui::Theme::plain_colors()
        }
        .glyphs();
        assert_eq!(fit("abcdefgh", 6, ascii), "abc...");
        assert_eq!(bar(1, 2, 2, ascii), "# ");
    }

    #[test]
    fn windows_on_a_line_mark_where_it_is_cut() {
        let text = |spans: Vec<Span<'static>>| -> String {
            spans.iter().map(|s| s.content.as_ref()).collect()
        };
        let line = || vec![Span::raw("0123"), Span::raw("456789")];
        let w = |skip, width| text(window_spans(line(), skip, width, ("<", ">"), Style::new()));
        assert_eq!(w(0, 10), "0123456789");
        assert_eq!(w(0, 6), "01234>");
        assert_eq!(w(3, 4), "<45>");
        assert_eq!(w(6, 4), "<789");
        assert_eq!(w(12, 4), "<");
        // Styles stay with their text.
        let spans = window_spans(line(), 2, 4, ("<", ">"), Style::new());
        assert_eq!(spans.len(), 4, "{spans:?}");
        // A wide character cut by the edge: a space.
        let wide = || vec![Span::raw("a数据b")];
        assert_eq!(
            text(window_spans(wide(), 0, 3, ("<", ">"), Style::new())),
            "a >"
        );
        assert_eq!(
            text(window_spans(wide(), 2, 4, ("<", ">"), Style::new())),
            "<据b"
        );
    }

    #[test]
    fn long_names_keep_their_start_and_end() {
        let g = crate::tui::Theme::plain_colors().glyphs();
        let name = "std::__introsort_loop<__gnu_cxx::__normal_iterator<int*, std::vector<int> >, long>(int*, int*, long)";
        let cut = fit_middle(name, 40, g);
        assert_eq!(cells(&cut), 40);
        assert!(cut.starts_with("std::__introsort_loop<"), "{cut}");
        assert!(cut.ends_with("int*, long)"), "{cut}");
        assert_eq!(fit_middle("short", 40, g), "short");
    }
}
