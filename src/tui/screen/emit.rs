//! The bytes for a frame's changed cells, as few as a terminal needs:
//! cursor moves only where the next cell is not where the cursor is (a
//! hop forward along the row as `CSI n C`, or the unchanged cells
//! themselves where they are fewer bytes, another row by the shorter of
//! `CSI row ; col H` and a relative move, parameters of 1 left out), and
//! the pen changed only where a cell shows it ([`pen`]). A long run of
//! blank cells is erased (`CSI n X`, which xterm, the Linux console,
//! tmux, GNU screen and mosh all have) rather than written as spaces, and
//! blanks to the end of a row by `CSI K` (every VT100 has it): a short
//! name in a wide row costs its text. A row whose changes are mostly
//! blanks between words (a list row losing its highlight) may be erased
//! first from its first change on, then only its words written: each row
//! is written the shorter way. Erasing is done in the default background,
//! so a terminal that erases in the current background colour (tmux,
//! xterm) and one that does not (GNU screen's default) leave the same
//! blanks.

use super::pen::{self, PLAIN, Pen};
use ratatui::buffer::{Buffer, Cell};
use std::fmt::Write;
use unicode_width::UnicodeWidthStr;

/// The cells of `next` to write over `shown`, in drawing order:
/// ratatui's difference less the cells that look the same (a space whose
/// foreground alone changed), and the second half of each wide character
/// a write breaks (a narrow one over its first half, a wide one ending
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
    // A cell that looks as it did is left, unless a wide character
    // around it changed (then its neighbour's width decides).
    let narrow = |x: u16, y: u16| {
        (x.saturating_sub(1)..=x).all(|x| {
            [shown, next]
                .iter()
                .all(|b| b.cell((x, y)).is_none_or(|c| c.symbol().width() <= 1))
        })
    };
    cells.retain(|&(x, y, cell)| {
        let alike = shown
            .cell((x, y))
            .is_some_and(|old| pen::look_alike(old, cell));
        !(alike && narrow(x, y))
    });
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
/// again where that is shorter than hopping over them, and runs of its
/// blanks are erased.
pub fn cells<'a>(
    out: &mut String,
    cells: impl IntoIterator<Item = (u16, u16, &'a Cell)>,
    frame: Option<&Buffer>,
) {
    let cells: Vec<(u16, u16, &Cell)> = cells.into_iter().collect();
    let mut writer = Writer::new(frame.map_or(0, |f| f.area.width));
    writer.write(out, &cells, frame);
    writer.pen.reset(out);
}

/// Appends to `out` what turns `shown` into `next` on the terminal, and
/// leaves the pen plain: each row's changes as [`cells`] writes them, or
/// erased first and their words written, whichever is shorter.
pub fn difference(out: &mut String, shown: &Buffer, next: &Buffer) {
    let changed = changes(shown, next);
    let mut writer = Writer::new(next.area.width);
    for row in changed.chunk_by(|a, b| a.1 == b.1) {
        let mut best = (String::new(), writer);
        best.1.write(&mut best.0, row, Some(next));
        for to_end in [false, true] {
            let mut other = (String::new(), writer);
            if other.1.erase_first(&mut other.0, row, shown, next, to_end)
                && other.0.len() < best.0.len()
            {
                best = other;
            }
        }
        out.push_str(&best.0);
        writer = best.1;
    }
    writer.pen.reset(out);
}

/// The terminal's pen and cursor while a frame is written.
#[derive(Clone, Copy)]
struct Writer {
    pen: Pen,
    /// Where the cursor is, where known.
    at: Option<(u16, u16)>,
    /// The terminal's width: from the last column the cursor waits to
    /// wrap, and is not moved relatively.
    width: u16,
}

impl Writer {
    fn new(width: u16) -> Writer {
        Writer {
            pen: PLAIN,
            at: None,
            width,
        }
    }

    /// Writes `cells` (positions in drawing order, of `frame` where
    /// given).
    fn write(&mut self, out: &mut String, cells: &[(u16, u16, &Cell)], frame: Option<&Buffer>) {
        // Cells of this row before this column were erased already.
        let mut erased: Option<(u16, u16)> = None;
        for (k, &(x, y, cell)) in cells.iter().enumerate() {
            if erased.is_some_and(|(ey, end)| ey == y && x < end) {
                continue;
            }
            self.go(out, x, y, frame);
            let run = frame.map_or(0, |f| blank_run(f, x, y));
            // Erased up to the last cell to write among the blanks.
            let blanks = cells[k..]
                .iter()
                .take_while(|&&(bx, by, _)| by == y && bx < x + run)
                .last()
                .map_or(0, |&(bx, _, _)| bx + 1 - x);
            // Blank to the end of the row: erased to it (`CSI K`, 3 bytes).
            let to_end = run > 0 && x + run == self.width;
            if (to_end && blanks >= ERASE_LINE_FROM) || blanks >= ERASE_FROM {
                let end = if to_end { self.width } else { x + blanks };
                self.erase(out, x, y, end);
                erased = Some((y, end));
                continue;
            }
            self.pen.set_for(out, cell);
            let symbol = cell.symbol();
            out.push_str(symbol);
            self.at = Some((x + symbol.width().max(1) as u16, y));
        }
    }

    /// Takes the cursor to `(x, y)`: nowhere if it is there, along the
    /// row by the unchanged cells of `frame` or a hop, else [`move_to`].
    fn go(&mut self, out: &mut String, x: u16, y: u16, frame: Option<&Buffer>) {
        match self.at {
            Some((cx, cy)) if cy == y && cx == x => {}
            Some((cx, cy)) if cy == y && x > cx => {
                let again = (x - cx < 4).then_some(frame).flatten();
                match again.and_then(|f| unchanged_run(f, cx..x, y, self.pen)) {
                    Some(text) => out.push_str(&text),
                    None => csi(out, x - cx, 'C'),
                }
            }
            _ => move_to(out, self.at.filter(|&(cx, _)| cx < self.width), x, y),
        }
        self.at = Some((x, y));
    }

    /// Erases cells `x..end` of row `y` (the cursor at `x`, where it
    /// stays) to default blanks: `CSI K` to the end of the row.
    fn erase(&mut self, out: &mut String, x: u16, y: u16, end: u16) {
        self.pen.set_for_erase(out);
        if end >= self.width {
            out.push_str("\x1b[K");
        } else {
            csi(out, end - x, 'X');
        }
        self.at = Some((x, y));
    }

    /// Writes a row's changed `cells` by erasing from the first of them
    /// (to the end of the last, or of the row) and writing the cells of
    /// `next` there that are not default blanks; false where a wide
    /// character is at the edges (erasing half of one is not the same
    /// everywhere) or nothing changed.
    fn erase_first(
        &mut self,
        out: &mut String,
        cells: &[(u16, u16, &Cell)],
        shown: &Buffer,
        next: &Buffer,
        to_end: bool,
    ) -> bool {
        let (Some(&(x0, y, _)), Some(&(xl, _, last))) = (cells.first(), cells.last()) else {
            return false;
        };
        let width = self.width.min(next.area.width);
        let end = if to_end {
            width
        } else {
            (xl + last.symbol().width().max(1) as u16).min(width)
        };
        let wide = (x0.saturating_sub(1)..(end + 1).min(width)).any(|x| {
            [shown, next]
                .iter()
                .any(|b| b.cell((x, y)).is_some_and(|c| c.symbol().width() != 1))
        });
        if wide || x0 >= end {
            return false;
        }
        self.go(out, x0, y, None);
        self.erase(out, x0, y, end);
        let words: Vec<(u16, u16, &Cell)> = (x0..end)
            .map(|x| (x, y, &next[(x, y)]))
            .filter(|(_, _, c)| !pen::is_plain_blank(c))
            .collect();
        self.write(out, &words, Some(next));
        true
    }
}

/// `CSI n F`, the count left out where it is 1.
fn csi(out: &mut String, n: u16, f: char) {
    if n == 1 {
        let _ = write!(out, "\x1b[{f}");
    } else {
        let _ = write!(out, "\x1b[{n}{f}");
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
    let absolute = match (x, y) {
        (0, 0) => "\x1b[H".to_string(),
        (0, _) => format!("\x1b[{}H", y + 1),
        _ => format!("\x1b[{};{}H", y + 1, x + 1),
    };
    let Some((cx, cy)) = from else {
        out.push_str(&absolute);
        return;
    };
    let mut relative = String::new();
    match y.cmp(&cy) {
        std::cmp::Ordering::Greater if y - cy <= 3 => {
            relative.push_str(&"\n".repeat((y - cy) as usize));
        }
        std::cmp::Ordering::Greater => csi(&mut relative, y - cy, 'B'),
        std::cmp::Ordering::Less => csi(&mut relative, cy - y, 'A'),
        std::cmp::Ordering::Equal => {}
    }
    match x.cmp(&cx) {
        _ if x == 0 && cx != 0 => relative.push('\r'),
        std::cmp::Ordering::Less if cx - x <= 3 => {
            relative.push_str(&"\x08".repeat((cx - x) as usize));
        }
        std::cmp::Ordering::Less => csi(&mut relative, cx - x, 'D'),
        std::cmp::Ordering::Greater => csi(&mut relative, x - cx, 'C'),
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

/// How many default blank cells of `frame` row `y` start at column `x`.
/// Unchanged ones among them are blank on the terminal already, so erasing
/// them too is harmless.
fn blank_run(frame: &Buffer, x: u16, y: u16) -> u16 {
    (x..frame.area.right())
        .take_while(|&x| frame.cell((x, y)).is_some_and(pen::is_plain_blank))
        .count() as u16
}

/// The text of cells `xs` of row `y` if writing it again is shorter than
/// the hop over them (`CSI n C`, 3 or 4 bytes) and `pen` draws them: one
/// plain-width character each.
fn unchanged_run(frame: &Buffer, xs: std::ops::Range<u16>, y: u16, pen: Pen) -> Option<String> {
    let hop = if xs.len() == 1 { 3 } else { 4 };
    let mut text = String::new();
    for x in xs {
        let cell = frame.cell((x, y))?;
        let symbol = cell.symbol();
        let plain = cell.diff_option == ratatui::buffer::CellDiffOption::None;
        if !pen.draws(cell) || !plain || symbol.len() != 1 || symbol.width() != 1 {
            return None;
        }
        text.push_str(symbol);
    }
    (text.len() < hop).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Modifier, Style};

    #[test]
    fn few_bytes_for_a_changed_word() {
        let a = Buffer::empty(Rect::new(0, 0, 20, 2));
        let mut b = a.clone();
        b.set_string(2, 1, "ab", Style::new().fg(Color::Red));
        b.set_string(8, 1, "c", Style::new().fg(Color::Red));
        let mut out = String::new();
        cells(&mut out, a.diff(&b), Some(&b));
        assert_eq!(out, "\x1b[2;3H\x1b[31mab\x1b[4Cc\x1b[m");
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
        assert_eq!(out, "\x1b[Hshort\x1b[25X\x1b[25C|     |   ");
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

    /// A list row losing its highlight: erased, then its words written
    /// with hops between them, rather than every blank again.
    #[test]
    fn a_row_of_words_losing_its_background_is_erased_first() {
        let mut plain = Buffer::empty(Rect::new(0, 0, 20, 1));
        plain.set_string(0, 0, "ab", Style::new());
        plain.set_string(8, 0, "cd", Style::new().fg(Color::Red));
        let mut lit = plain.clone();
        lit.set_style(plain.area, Style::new().bg(Color::Cyan));
        let mut out = String::new();
        difference(&mut out, &lit, &plain);
        assert_eq!(out, "\x1b[H\x1b[Kab\x1b[6C\x1b[31mcd\x1b[m");
        // The other way every cell is written, blanks too (a background
        // is not erased: GNU screen would erase in the default one), the
        // blanks after `cd` in its red pen.
        let mut out = String::new();
        difference(&mut out, &plain, &lit);
        assert_eq!(
            out,
            format!(
                "\x1b[H\x1b[46mab{}\x1b[31mcd{}\x1b[m",
                " ".repeat(6),
                " ".repeat(10)
            )
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
        assert_eq!(out, "\x1b[HXbcdEfgH");
        // Cells in another style are hopped over.
        let red = Style::new().fg(Color::Red);
        b.set_style(Rect::new(1, 0, 2, 1), red);
        c.set_style(Rect::new(1, 0, 2, 1), red);
        let mut out = String::new();
        cells(&mut out, b.diff(&c), Some(&c));
        assert_eq!(out, "\x1b[HX\x1b[3CEfgH");
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
                // A blank shows its background alone: its foreground and
                // boldness are not compared.
                let blank = pen::is_blank(c);
                let got = (
                    text,
                    (!blank).then(|| t.fgcolor()),
                    t.bgcolor(),
                    !blank && t.bold(),
                    t.inverse(),
                    t.underline(),
                );
                let expected = (
                    c.symbol(),
                    (!blank).then(|| index(c.fg)),
                    index(c.bg),
                    !blank && c.modifier.contains(Modifier::BOLD),
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
            "ab    cd  e     f",
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
        for case in 0..600 {
            // Half the cases as the screen writes frames (each row the
            // shorter of its changes and erased first), half as `cells`.
            let whole = case % 2 == 1;
            let (w, h) = ([7u16, 20, 41, 80][case / 2 % 4], [1u16, 3, 6][case % 3]);
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
                if whole {
                    difference(&mut out, &shown, &next);
                } else {
                    cells(&mut out, changes(&shown, &next), Some(&next));
                }
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
