//! The bytes for a frame's changed cells, as few as a terminal needs:
//! cursor moves only where the next cell is not where the cursor is (a
//! hop forward along the row as `CSI n C`, or the unchanged cells themselves where
//! they are fewer bytes, another row by the shorter of `CSI row ; col H`
//! and a relative move), one SGR per
//! change of style, and the 16 named colours as their classic codes
//! (`30`..`37`, `90`..`97`), which every terminal knows, rather than the
//! 256-colour form. A long run of blank cells is erased (`CSI n X`, which
//! xterm, the Linux console, tmux, GNU screen and mosh all have) rather
//! than written as spaces, and blanks to the end of a row by `CSI K` (every
//! VT100 has it): a short name in a wide row costs its text. Erasing is
//! done with the pen plain, so a terminal that erases in the current
//! background colour (tmux, xterm) and one that does not (GNU screen's
//! default) leave the same default blanks.

use ratatui::buffer::{Buffer, Cell};
use ratatui::style::{Color, Modifier};
use std::fmt::Write;
use unicode_width::UnicodeWidthStr;

/// The style of the terminal's pen.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Pen {
    fg: Color,
    bg: Color,
    modifier: Modifier,
}

const PLAIN: Pen = Pen {
    fg: Color::Reset,
    bg: Color::Reset,
    modifier: Modifier::empty(),
};

/// The cells of `next` to write over `shown`, in drawing order:
/// ratatui's difference, and the second half of each wide character a
/// write breaks (a narrow one over its first half, a wide one ending
/// there). The terminal blanks that half in the pen it writes with, where
/// ratatui's difference counts on a plain blank.
pub fn changes<'a>(shown: &Buffer, next: &'a Buffer) -> Vec<(u16, u16, &'a Cell)> {
    let mut cells = shown.diff(next);
    let halves: Vec<(u16, u16, &Cell)> = cells
        .iter()
        .filter_map(|&(x, y, cell)| {
            let last = x + cell.symbol().width().max(1) as u16 - 1;
            let wide = shown
                .cell((last, y))
                .is_some_and(|c| c.symbol().width() > 1);
            let half = last + 1;
            (wide && half < next.area.right()).then(|| (half, y, &next[(half, y)]))
        })
        .collect();
    if !halves.is_empty() {
        cells.extend(halves);
        cells.sort_by_key(|&(x, y, _)| (y, x));
        cells.dedup_by_key(|&mut (x, y, _)| (x, y));
    }
    cells
}

/// Appends to `out` what draws `cells` (positions in drawing order), and
/// leaves the pen plain. `frame`, where given, is the frame the cells are
/// of: short runs of its unchanged cells between changed ones are written
/// again where that is shorter than hopping over them.
pub fn cells<'a>(
    out: &mut String,
    cells: impl IntoIterator<Item = (u16, u16, &'a Cell)>,
    frame: Option<&Buffer>,
) {
    let cells: Vec<(u16, u16, &Cell)> = cells.into_iter().collect();
    // From the last column the cursor waits to wrap: no relative move.
    let width = frame.map_or(0, |f| f.area.width);
    let mut pen = PLAIN;
    let mut at: Option<(u16, u16)> = None;
    // Cells of this row before this column were erased already.
    let mut erased: Option<(u16, u16)> = None;
    for (k, &(x, y, cell)) in cells.iter().enumerate() {
        if erased.is_some_and(|(ey, end)| ey == y && x < end) {
            continue;
        }
        match at {
            Some((cx, cy)) if cy == y && cx == x => {}
            Some((cx, cy)) if cy == y && x > cx => {
                let again = (x - cx < 4).then_some(frame).flatten();
                match again.and_then(|f| unchanged_run(f, cx..x, y, pen)) {
                    Some(text) => out.push_str(&text),
                    None => {
                        let _ = write!(out, "\x1b[{}C", x - cx);
                    }
                }
            }
            _ => move_to(out, at.filter(|&(cx, _)| cx < width), x, y),
        }
        let want = Pen {
            fg: cell.fg,
            bg: cell.bg,
            modifier: cell.modifier,
        };
        let run = frame.map_or(0, |f| blank_run(f, x, y));
        // Erased up to the last cell to write among the blanks.
        let blanks = cells[k..]
            .iter()
            .take_while(|&&(bx, by, _)| by == y && bx < x + run)
            .last()
            .map_or(0, |&(bx, _, _)| bx + 1 - x);
        // Blank to the end of the row: erased to it (`CSI K`, 3 bytes).
        let to_end = run > 0 && x + run == width;
        if (to_end && blanks >= ERASE_LINE_FROM) || blanks >= ERASE_FROM {
            if pen != PLAIN {
                out.push_str("\x1b[0m");
                pen = PLAIN;
            }
            // The cursor stays where it is.
            if to_end {
                out.push_str("\x1b[K");
                erased = Some((y, width));
            } else {
                let _ = write!(out, "\x1b[{blanks}X");
                erased = Some((y, x + blanks));
            }
            at = Some((x, y));
            continue;
        }
        if want != pen {
            sgr(out, pen, want);
            pen = want;
        }
        let symbol = cell.symbol();
        out.push_str(symbol);
        let width = symbol.width().max(1) as u16;
        at = Some((x + width, y));
    }
    if pen != PLAIN {
        out.push_str("\x1b[0m");
    }
}

/// Takes the cursor from `from` (where known) to `(x, y)`: the shorter of
/// the absolute move and a relative one (down by line feeds, which do not
/// scroll here: no scroll region is set between frames and the target is
/// on the screen; up by `CSI n A`; then along the row by a carriage
/// return, backspaces, `CSI n D` or `CSI n C`). A search's highlighted
/// letter changes on every row: a line feed and a backspace reach the next
/// one, where `CSI row ; col H` takes eight bytes.
fn move_to(out: &mut String, from: Option<(u16, u16)>, x: u16, y: u16) {
    let absolute = if x == 0 {
        format!("\x1b[{}H", y + 1)
    } else {
        format!("\x1b[{};{}H", y + 1, x + 1)
    };
    let Some((cx, cy)) = from else {
        out.push_str(&absolute);
        return;
    };
    let mut relative = match y.cmp(&cy) {
        std::cmp::Ordering::Greater if y - cy <= 3 => "\n".repeat((y - cy) as usize),
        std::cmp::Ordering::Greater => format!("\x1b[{}B", y - cy),
        std::cmp::Ordering::Less => format!("\x1b[{}A", cy - y),
        std::cmp::Ordering::Equal => String::new(),
    };
    match x.cmp(&cx) {
        _ if x == 0 && cx != 0 => relative.push('\r'),
        std::cmp::Ordering::Less if cx - x <= 3 => {
            relative.push_str(&"\x08".repeat((cx - x) as usize))
        }
        std::cmp::Ordering::Less => {
            let _ = write!(relative, "\x1b[{}D", cx - x);
        }
        std::cmp::Ordering::Greater => {
            let _ = write!(relative, "\x1b[{}C", x - cx);
        }
        std::cmp::Ordering::Equal => {}
    }
    out.push_str(if relative.len() < absolute.len() {
        &relative
    } else {
        &absolute
    });
}

/// Blank cells from which erasing (`CSI n X` and a move after it, about
/// ten bytes) is shorter than writing spaces.
const ERASE_FROM: u16 = 12;
/// Blank cells from which erasing to the end of the row (`CSI K`, 3
/// bytes, the cursor left before the blanks) is shorter than spaces.
const ERASE_LINE_FROM: u16 = 4;

/// How many plain blank cells of `frame` row `y` start at column `x`.
/// Unchanged ones among them are blank on the terminal already, so erasing
/// them too is harmless.
fn blank_run(frame: &Buffer, x: u16, y: u16) -> u16 {
    (x..frame.area.right())
        .take_while(|&x| {
            frame.cell((x, y)).is_some_and(|c| {
                c.symbol() == " "
                    && c.fg == Color::Reset
                    && c.bg == Color::Reset
                    && c.modifier.is_empty()
            })
        })
        .count() as u16
}

/// The text of cells `xs` of row `y` if writing it again is shorter than
/// the hop over them (`CSI n C`, 4 bytes) and needs no change of pen: one
/// plain-width character each.
fn unchanged_run(frame: &Buffer, xs: std::ops::Range<u16>, y: u16, pen: Pen) -> Option<String> {
    let mut text = String::new();
    for x in xs {
        let cell = frame.cell((x, y))?;
        let symbol = cell.symbol();
        let same_pen = cell.fg == pen.fg && cell.bg == pen.bg && cell.modifier == pen.modifier;
        let plain = cell.diff_option == ratatui::buffer::CellDiffOption::None;
        if !same_pen || !plain || symbol.len() != 1 || symbol.width() != 1 {
            return None;
        }
        text.push_str(symbol);
    }
    (text.len() < 4).then_some(text)
}

/// One SGR sequence taking the pen from `from` to `to`.
fn sgr(out: &mut String, from: Pen, to: Pen) {
    let mut codes: Vec<String> = Vec::new();
    let mut from = from;
    // Attributes cannot be switched off one by one everywhere: reset.
    if !to.modifier.contains(from.modifier) {
        codes.push("0".into());
        from = PLAIN;
    }
    for (m, code) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::SLOW_BLINK, "5"),
        (Modifier::REVERSED, "7"),
        (Modifier::HIDDEN, "8"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if to.modifier.contains(m) && !from.modifier.contains(m) {
            codes.push(code.into());
        }
    }
    if to.fg != from.fg {
        codes.push(color(to.fg, false));
    }
    if to.bg != from.bg {
        codes.push(color(to.bg, true));
    }
    if !codes.is_empty() {
        let _ = write!(out, "\x1b[{}m", codes.join(";"));
    }
}

/// The SGR code of a colour, foreground or background.
fn color(c: Color, bg: bool) -> String {
    let base = |n: u8, bright: bool| -> String {
        let first = match (bg, bright) {
            (false, false) => 30,
            (false, true) => 90,
            (true, false) => 40,
            (true, true) => 100,
        };
        (first + n).to_string()
    };
    match c {
        Color::Reset => if bg { "49" } else { "39" }.into(),
        Color::Black => base(0, false),
        Color::Red => base(1, false),
        Color::Green => base(2, false),
        Color::Yellow => base(3, false),
        Color::Blue => base(4, false),
        Color::Magenta => base(5, false),
        Color::Cyan => base(6, false),
        Color::Gray => base(7, false),
        Color::DarkGray => base(0, true),
        Color::LightRed => base(1, true),
        Color::LightGreen => base(2, true),
        Color::LightYellow => base(3, true),
        Color::LightBlue => base(4, true),
        Color::LightMagenta => base(5, true),
        Color::LightCyan => base(6, true),
        Color::White => base(7, true),
        Color::Indexed(i) => format!("{};5;{i}", if bg { 48 } else { 38 }),
        Color::Rgb(r, g, b) => format!("{};2;{r};{g};{b}", if bg { 48 } else { 38 }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    #[test]
    fn few_bytes_for_a_changed_word() {
        let a = Buffer::empty(Rect::new(0, 0, 20, 2));
        let mut b = a.clone();
        b.set_string(2, 1, "ab", Style::new().fg(Color::Red));
        b.set_string(8, 1, "c", Style::new().fg(Color::Red));
        let mut out = String::new();
        cells(&mut out, a.diff(&b), Some(&b));
        assert_eq!(out, "\x1b[2;3H\x1b[31mab\x1b[4Cc\x1b[0m");
        // Blanked: the row is blank from the first cell on, erased to
        // its end.
        let mut out = String::new();
        cells(&mut out, b.diff(&a), Some(&a));
        assert_eq!(out, "\x1b[2;3H\x1b[K");
        // With text after them, a few cells are written (erasing is for
        // long runs).
        let mut c = b.clone();
        c.set_string(12, 1, "d", Style::new());
        let mut d = a.clone();
        d.set_string(12, 1, "d", Style::new());
        let mut out = String::new();
        cells(&mut out, c.diff(&d), Some(&d));
        assert_eq!(out, "\x1b[2;3H  \x1b[4C ");
    }

    /// A letter changed on every row, as a search character highlights:
    /// a line feed and a backspace to the next; a row far below, a first
    /// column, a row above and the last column each as they cost least.
    #[test]
    fn rows_below_are_reached_by_relative_moves_where_shorter() {
        let a = Buffer::empty(Rect::new(0, 0, 30, 20));
        let mut b = a.clone();
        for y in 2..5 {
            b.set_string(15, y, "l", Style::new());
        }
        b.set_string(15, 12, "m", Style::new());
        b.set_string(0, 13, "n", Style::new());
        let mut out = String::new();
        cells(&mut out, a.diff(&b), Some(&b));
        assert_eq!(out, "\x1b[3;16Hl\n\x08l\n\x08l\x1b[8B\x08m\n\rn");
        // Up and back along the row cost more than the absolute move.
        let mut out = String::new();
        let moves = [(20, 9, &b[(15, 2)]), (2, 1, &b[(15, 2)])];
        cells(&mut out, moves, Some(&b));
        assert_eq!(out, "\x1b[10;21Hl\x1b[2;3Hl");
        // From the last column the cursor waits to wrap: moved absolutely.
        let mut out = String::new();
        cells(
            &mut out,
            [(29, 0, &b[(15, 2)]), (29, 1, &b[(15, 2)])],
            Some(&b),
        );
        assert_eq!(out, "\x1b[1;30Hl\x1b[2;30Hl");
    }

    #[test]
    fn long_blank_runs_are_erased_short_ones_written() {
        let mut a = Buffer::empty(Rect::new(0, 0, 40, 1));
        a.set_string(0, 0, "x".repeat(40), Style::new());
        let mut b = Buffer::empty(a.area);
        b.set_string(0, 0, "short", Style::new());
        b.set_string(30, 0, "|", Style::new());
        b.set_string(36, 0, "|", Style::new());
        let mut out = String::new();
        cells(&mut out, a.diff(&b), Some(&b));
        // 25 blanks erased and hopped over; 5 and 3 written.
        assert_eq!(out, "\x1b[1Hshort\x1b[25X\x1b[25C|     |   ");
        // Two cells blanked before a long unchanged blank run: those two
        // written, the run not erased again.
        let mut shorter = b.clone();
        shorter.set_string(3, 0, "  ", Style::new());
        let mut out = String::new();
        cells(&mut out, b.diff(&shorter), Some(&shorter));
        assert_eq!(out, "\x1b[1;4H  ");
        // Where the blanks are styled, they are written.
        let mut c = b.clone();
        c.set_style(Rect::new(5, 0, 25, 1), Style::new().bg(Color::Blue));
        let mut out = String::new();
        cells(&mut out, a.diff(&c), Some(&c));
        assert!(
            out.contains(&format!("\x1b[44m{}", " ".repeat(25))),
            "{out:?}"
        );
    }

    #[test]
    fn short_unchanged_runs_in_the_same_style_are_written_not_hopped() {
        let a = Buffer::empty(Rect::new(0, 0, 20, 1));
        let mut b = a.clone();
        b.set_string(0, 0, "abcdefgh", Style::new());
        let mut c = b.clone();
        c.set_string(0, 0, "Xbc", Style::new());
        c.set_string(4, 0, "E", Style::new());
        c.set_string(7, 0, "H", Style::new());
        let mut out = String::new();
        cells(&mut out, b.diff(&c), Some(&c));
        // `bcd` (3 bytes) rather than a hop, and `fg`.
        assert_eq!(out, "\x1b[1HXbcdEfgH");
        // Cells in another style are hopped over.
        let red = Style::new().fg(Color::Red);
        b.set_style(Rect::new(1, 0, 2, 1), red);
        c.set_style(Rect::new(1, 0, 2, 1), red);
        let mut out = String::new();
        cells(&mut out, b.diff(&c), Some(&c));
        assert_eq!(out, "\x1b[1HX\x1b[3CEfgH");
    }

    #[test]
    fn styles_are_switched_in_one_sequence() {
        let mut out = String::new();
        let from = Pen {
            modifier: Modifier::BOLD,
            ..PLAIN
        };
        let to = Pen {
            fg: Color::Black,
            bg: Color::Cyan,
            modifier: Modifier::REVERSED,
        };
        sgr(&mut out, from, to);
        assert_eq!(out, "\x1b[0;7;30;46m");
        let mut out = String::new();
        sgr(&mut out, PLAIN, PLAIN);
        assert_eq!(out, "");
        assert_eq!(color(Color::DarkGray, true), "100");
        assert_eq!(color(Color::LightGreen, false), "92");
    }

    /// The terminal's colour number of a named colour (`Reset`: none).
    fn index(c: Color) -> vt100::Color {
        let named = [
            Color::Black,
            Color::Red,
            Color::Green,
            Color::Yellow,
            Color::Blue,
            Color::Magenta,
            Color::Cyan,
            Color::Gray,
            Color::DarkGray,
            Color::LightRed,
            Color::LightGreen,
            Color::LightYellow,
            Color::LightBlue,
            Color::LightMagenta,
            Color::LightCyan,
            Color::White,
        ];
        match named.iter().position(|&n| n == c) {
            Some(i) => vt100::Color::Idx(i as u8),
            None => vt100::Color::Default,
        }
    }

    /// What an emulator shows after `bytes`, against `want`, cell by cell
    /// (text, colours, bold, reverse, underline); the differences.
    fn unlike(screen: &vt100::Screen, want: &Buffer) -> Vec<String> {
        let mut wrong = Vec::new();
        for y in 0..want.area.height {
            let mut skip = false;
            for x in 0..want.area.width {
                // The cell after a wide character is its second half.
                if std::mem::take(&mut skip) {
                    continue;
                }
                let c = &want[(x, y)];
                skip = c.symbol().width() > 1;
                let Some(t) = screen.cell(y, x) else {
                    wrong.push(format!("{x},{y}: no cell"));
                    continue;
                };
                let text = if t.has_contents() { t.contents() } else { " " };
                let got = (
                    text,
                    t.fgcolor(),
                    t.bgcolor(),
                    t.bold(),
                    t.inverse(),
                    t.underline(),
                );
                let expected = (
                    c.symbol(),
                    index(c.fg),
                    index(c.bg),
                    c.modifier.contains(Modifier::BOLD),
                    c.modifier.contains(Modifier::REVERSED),
                    c.modifier.contains(Modifier::UNDERLINED),
                );
                if got != expected {
                    wrong.push(format!("{x},{y}: {got:?} for {expected:?}"));
                }
            }
        }
        wrong
    }

    /// A small generator (xorshift): the same cases each run.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// Writes a few random words (wide characters, blanks, styles) and
    /// blank stretches on `buf`.
    fn scribble(rng: &mut Rng, buf: &mut Buffer, n: usize) {
        let words = [
            "ab",
            "x",
            "long_name_here",
            "  ",
            "█▋",
            "2×",
            "漢字",
            "      ",
            "q",
        ];
        let colors = [
            Color::Reset,
            Color::Red,
            Color::Cyan,
            Color::DarkGray,
            Color::White,
        ];
        let mods = [Modifier::empty(), Modifier::BOLD, Modifier::REVERSED];
        let (w, h) = (buf.area.width as u64, buf.area.height as u64);
        for _ in 0..n {
            let (x, y) = (rng.below(w) as u16, rng.below(h) as u16);
            if rng.below(4) == 0 {
                // A blank stretch, often to the end of the row.
                let len = if rng.below(2) == 0 {
                    w
                } else {
                    rng.below(w) + 1
                };
                buf.set_string(x, y, " ".repeat(len as usize), Style::new());
                continue;
            }
            let word = words[rng.below(words.len() as u64) as usize];
            let style = Style::new()
                .fg(colors[rng.below(5) as usize])
                .bg(colors[rng.below(5) as usize])
                .add_modifier(mods[rng.below(3) as usize]);
            buf.set_string(x, y, word, style);
        }
    }

    /// Random frames written over each other as differences: the emulator
    /// shows each frame, cell for cell, whatever the moves, erases (`CSI
    /// X`, `CSI K`), unchanged runs written again and styles chosen.
    #[test]
    fn random_differences_leave_the_frame_on_an_emulator() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..300 {
            let (w, h) = ([7u16, 20, 41, 80][case % 4], [1u16, 3, 6][case % 3]);
            let size = |n: u16| std::num::NonZeroU16::new(n).unwrap();
            let mut parser = vt100::Parser::new(size(h), size(w), 0);
            let mut shown = Buffer::empty(Rect::new(0, 0, w, h));
            for step in 0..6 {
                let mut next = shown.clone();
                if step % 3 == 2 {
                    next = Buffer::empty(shown.area);
                }
                let n = rng.below(12) as usize + 1;
                scribble(&mut rng, &mut next, n);
                let mut out = String::new();
                cells(&mut out, changes(&shown, &next), Some(&next));
                parser.process(out.as_bytes());
                let wrong = unlike(parser.screen(), &next);
                assert!(
                    wrong.is_empty(),
                    "case {case}, step {step}: {wrong:?}\n{out:?}"
                );
                shown = next;
            }
        }
    }
}
