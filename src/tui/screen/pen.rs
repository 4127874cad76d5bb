//! The terminal's pen (colours and attributes) and the shortest SGR
//! sequence that changes it. A space shows only its background (and
//! reverse video, an underline or a line through it): its foreground and
//! its other attributes are never seen, so a blank cell takes whatever pen
//! is on, and cells that differ only there are not written again. The 16
//! named colours are sent as their classic codes (`30`..`37`, `90`..`97`),
//! which every terminal knows; attributes are switched off by a reset
//! (`0`, or `CSI m` alone), which every terminal has, where a code to
//! switch one off (`22`, `27`) is not universal.

use ratatui::buffer::Cell;
use ratatui::style::{Color, Modifier};
use std::fmt::Write;

/// The style of the terminal's pen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pen {
    pub fg: Color,
    pub bg: Color,
    pub modifier: Modifier,
}

pub const PLAIN: Pen = Pen {
    fg: Color::Reset,
    bg: Color::Reset,
    modifier: Modifier::empty(),
};

/// The attributes that show on a space.
const SHOWN_ON_BLANK: Modifier = Modifier::REVERSED
    .union(Modifier::UNDERLINED)
    .union(Modifier::CROSSED_OUT);

impl Pen {
    /// The pen `cell` asks for.
    pub fn of(cell: &Cell) -> Pen {
        Pen {
            fg: cell.fg,
            bg: cell.bg,
            modifier: cell.modifier,
        }
    }

    /// Whether a space written or erased in this pen shows its
    /// background alone.
    fn blank_safe(self) -> bool {
        !self.modifier.intersects(SHOWN_ON_BLANK)
    }

    /// Whether writing `cell` in this pen shows it as it should look.
    pub fn draws(self, cell: &Cell) -> bool {
        if is_blank(cell) {
            self.bg == cell.bg && self.blank_safe()
        } else {
            self == Pen::of(cell)
        }
    }

    /// Whether erasing in this pen leaves the default blanks (a terminal
    /// that erases in the pen's background, as tmux and xterm do, and one
    /// that does not, as GNU screen by default, alike).
    pub fn erases_plain(self) -> bool {
        self.bg == Color::Reset && self.blank_safe()
    }

    /// Changes the pen to one that draws `cell`, by the shortest sequence.
    pub fn set_for(&mut self, out: &mut String, cell: &Cell) {
        if self.draws(cell) {
            return;
        }
        let exact = Pen::of(cell);
        if is_blank(cell) {
            // Its background alone matters: the foreground and attributes
            // kept, or none.
            let kept = Pen {
                bg: cell.bg,
                ..*self
            };
            let none = Pen {
                bg: cell.bg,
                ..PLAIN
            };
            let candidates = [kept, none];
            self.switch(out, candidates.iter().filter(|p| p.blank_safe()));
        } else {
            self.switch(out, std::iter::once(&exact));
        }
    }

    /// Changes the pen to one that erases to default blanks.
    pub fn set_for_erase(&mut self, out: &mut String) {
        if self.erases_plain() {
            return;
        }
        let kept = Pen {
            bg: Color::Reset,
            ..*self
        };
        let candidates = [kept, PLAIN];
        self.switch(out, candidates.iter().filter(|p| p.erases_plain()));
    }

    /// Makes the pen plain.
    pub fn reset(&mut self, out: &mut String) {
        self.switch(out, std::iter::once(&PLAIN));
    }

    /// Switches to the candidate reached by the shortest sequence.
    fn switch<'a>(&mut self, out: &mut String, candidates: impl Iterator<Item = &'a Pen>) {
        let best = candidates
            .map(|&p| (sgr(*self, p), p))
            .min_by_key(|(s, _)| s.len());
        if let Some((seq, pen)) = best {
            out.push_str(&seq);
            *self = pen;
        }
    }
}

/// Whether `cell` is a space that shows only its background.
pub fn is_blank(cell: &Cell) -> bool {
    cell.symbol() == " " && !cell.modifier.intersects(SHOWN_ON_BLANK)
}

/// Whether `cell` is a blank that erasing leaves (the default background).
pub fn is_plain_blank(cell: &Cell) -> bool {
    is_blank(cell) && cell.bg == Color::Reset
}

/// Whether two cells look the same on a terminal.
pub fn look_alike(a: &Cell, b: &Cell) -> bool {
    if a.symbol() != b.symbol() || a.bg != b.bg {
        return false;
    }
    (is_blank(a) && is_blank(b)) || (a.fg == b.fg && a.modifier == b.modifier)
}

/// The shortest SGR sequence taking the pen from `from` to `to`: the
/// attributes and colours that change, or a reset and all of `to`'s.
pub fn sgr(from: Pen, to: Pen) -> String {
    if from == to {
        return String::new();
    }
    let reset = {
        let codes = codes(PLAIN, to);
        if codes.is_empty() {
            "\x1b[m".to_string()
        } else {
            format!("\x1b[0;{}m", codes.join(";"))
        }
    };
    // Attributes cannot be switched off one by one everywhere.
    if !to.modifier.contains(from.modifier) {
        return reset;
    }
    let changed = format!("\x1b[{}m", codes(from, to).join(";"));
    if changed.len() <= reset.len() {
        changed
    } else {
        reset
    }
}

/// The codes that add `to`'s attributes missing from `from` and set the
/// colours that differ.
fn codes(from: Pen, to: Pen) -> Vec<String> {
    let mut codes: Vec<String> = Vec::new();
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
    codes
}

/// The SGR code of a colour, foreground or background.
pub fn color(c: Color, bg: bool) -> String {
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
        Color::Indexed(i) => {
            let mut s = String::new();
            let _ = write!(s, "{};5;{i}", if bg { 48 } else { 38 });
            s
        }
        Color::Rgb(r, g, b) => {
            let mut s = String::new();
            let _ = write!(s, "{};2;{r};{g};{b}", if bg { 48 } else { 38 });
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Style;

    fn cell(symbol: &'static str, style: Style) -> Cell {
        let mut c = Cell::new(symbol);
        c.set_style(style);
        c
    }

    #[test]
    fn styles_are_switched_by_the_shortest_sequence() {
        let bold = Pen {
            modifier: Modifier::BOLD,
            ..PLAIN
        };
        let reversed = Pen {
            fg: Color::Black,
            bg: Color::Cyan,
            modifier: Modifier::REVERSED,
        };
        // An attribute dropped: a reset.
        assert_eq!(sgr(bold, reversed), "\x1b[0;7;30;46m");
        assert_eq!(sgr(PLAIN, PLAIN), "");
        // Back to the default colours: a reset is shorter than `39;49`.
        let colours = Pen {
            fg: Color::Red,
            bg: Color::Blue,
            ..PLAIN
        };
        assert_eq!(sgr(colours, PLAIN), "\x1b[m");
        // One colour changed: that colour alone.
        let red_on_default = Pen {
            bg: Color::Reset,
            ..colours
        };
        assert_eq!(sgr(colours, red_on_default), "\x1b[49m");
        assert_eq!(color(Color::DarkGray, true), "100");
        assert_eq!(color(Color::LightGreen, false), "92");
    }

    #[test]
    fn a_space_shows_its_background_alone() {
        let red = Style::new().fg(Color::Red);
        let on_cyan = Style::new().bg(Color::Cyan);
        assert!(look_alike(&cell(" ", red), &cell(" ", Style::new())));
        assert!(look_alike(
            &cell(" ", red.add_modifier(Modifier::BOLD)),
            &cell(" ", Style::new())
        ));
        assert!(!look_alike(&cell(" ", on_cyan), &cell(" ", Style::new())));
        assert!(!look_alike(&cell("x", red), &cell("x", Style::new())));
        // Reversed or underlined, the foreground shows.
        let under = Style::new().add_modifier(Modifier::UNDERLINED);
        assert!(!look_alike(
            &cell(" ", under.fg(Color::Red)),
            &cell(" ", under)
        ));
        assert!(!look_alike(&cell(" ", under), &cell(" ", Style::new())));
        // A red pen writes a plain space as it is; a cyan one does not.
        let mut pen = Pen {
            fg: Color::Red,
            ..PLAIN
        };
        let mut out = String::new();
        pen.set_for(&mut out, &cell(" ", Style::new()));
        assert_eq!(out, "");
        pen.set_for(&mut out, &cell(" ", on_cyan));
        assert_eq!(out, "\x1b[46m");
        assert_eq!(pen.fg, Color::Red);
        // Erasing needs the default background only.
        let mut out = String::new();
        pen.set_for_erase(&mut out);
        assert_eq!(out, "\x1b[m");
        assert!(pen.erases_plain());
    }
}
