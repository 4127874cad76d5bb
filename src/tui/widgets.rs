//! Small drawing helpers shared by the views: cost cells, the cost bar,
//! truncation, and writing one styled line into the buffer.

use super::app::App;
use crate::format::{percent_text, printable, thousands};
use crate::profile::Cost;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// A cost as the user asked: absolute, or percent of the event's total.
pub fn cost_text(app: &App, value: Cost) -> String {
    if app.percent {
        percent_text(value, total(app))
    } else {
        thousands(value)
    }
}

/// The total of the current event over the selected parts.
pub fn total(app: &App) -> Cost {
    app.analysis.totals.get(app.event).copied().unwrap_or(0)
}

/// Width of a cost column: fits the total (or `100.00%`).
pub fn cost_width(app: &App) -> usize {
    if app.percent {
        7
    } else {
        thousands(total(app)).len().max(5)
    }
}

/// A bar of `width` cells for `value` of `total`, in eighths of a cell.
pub fn bar(value: Cost, total: Cost, width: usize) -> String {
    const EIGHTHS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    if total <= 0 || value <= 0 {
        return " ".repeat(width);
    }
    let units = (value.min(total) as u128 * (width as u128 * 8) / total as u128) as usize;
    let mut s = "█".repeat(units / 8);
    if units / 8 < width {
        s.push(EIGHTHS[units % 8]);
    }
    let pad = width.saturating_sub(s.chars().count());
    s.push_str(&" ".repeat(pad));
    s
}

/// `s` made printable and cut to `width` characters (with `…` when cut).
pub fn fit(s: &str, width: usize) -> String {
    let s = printable(s);
    if s.chars().count() <= width {
        return s.into_owned();
    }
    if width == 0 {
        return String::new();
    }
    let mut out: String = s.chars().take(width - 1).collect();
    out.push('…');
    out
}

/// `s` right-aligned in `width` cells.
pub fn right(s: &str, width: usize) -> String {
    format!("{s:>width$}")
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
    fn bars_and_truncation() {
        assert_eq!(bar(1, 1, 3), "███");
        assert_eq!(bar(1, 2, 2), "█ ");
        assert_eq!(bar(0, 2, 2), "  ");
        assert_eq!(bar(1, 2, 1), "▌");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("a\u{1b}b", 5), "a\\eb");
    }
}
