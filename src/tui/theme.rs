//! Styles and glyphs: the 16 named terminal colours only, or none at all
//! when `NO_COLOR` is set (then bold, underline and reverse carry the
//! highlights); and the one table of every non-ASCII character the views
//! draw, with an ASCII twin for terminals whose locale is not UTF-8 (as
//! htop does). View code never writes a glyph itself.

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::border;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
    /// Draw with ASCII only (`--ascii`, `CGTUI_ASCII=1`, or a locale that
    /// is not UTF-8).
    pub ascii: bool,
}

/// Every glyph the views draw.
#[derive(Debug)]
pub struct Glyphs {
    /// Cut text: `…`.
    pub ellipsis: &'static str,
    /// The sorted column, biggest first / smallest first.
    pub sort_down: &'static str,
    pub sort_up: &'static str,
    /// A whole cell of the cost bar, and its eighths (index 0: empty).
    pub bar_full: &'static str,
    pub bar_eighths: [&'static str; 8],
    /// Rules between panes and beside line numbers.
    pub vertical: &'static str,
    /// Between the parts of the header.
    pub separator: &'static str,
    /// Between the functions of the breadcrumb.
    pub crumb: &'static str,
    /// A call count: `12×`.
    pub times: &'static str,
    /// A recursive call.
    pub recursive: &'static str,
    /// Between the parts of a title.
    pub dash: &'static str,
    /// The search prompt's cursor.
    pub cursor: &'static str,
    /// A source line cut at the right edge, or scrolled at the left.
    pub cut_right: &'static str,
    pub cut_left: &'static str,
    /// Popup frames.
    pub border: border::Set<'static>,
    /// An estimated cost (call trees deeper than one level).
    pub approx: &'static str,
    /// A tree node shown open, and one that can be opened.
    pub open: &'static str,
    pub closed: &'static str,
    /// From the base to the new profile in a comparison.
    pub arrow: &'static str,
}

const UNICODE: Glyphs = Glyphs {
    ellipsis: "…",
    sort_down: "▼",
    sort_up: "▲",
    bar_full: "█",
    bar_eighths: [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"],
    vertical: "│",
    separator: "│",
    crumb: " › ",
    times: "×",
    recursive: "↻",
    dash: "—",
    cursor: "▏",
    cut_right: "»",
    cut_left: "«",
    border: border::PLAIN,
    approx: "≈",
    open: "▾",
    closed: "▸",
    arrow: "→",
};

const ASCII: Glyphs = Glyphs {
    ellipsis: "...",
    sort_down: "v",
    sort_up: "^",
    bar_full: "#",
    bar_eighths: [" ", " ", " ", " ", "+", "+", "+", "+"],
    vertical: "|",
    separator: "|",
    crumb: " > ",
    times: "x",
    recursive: "(rec)",
    dash: "-",
    cursor: "_",
    cut_right: ">",
    cut_left: "<",
    border: border::Set {
        top_left: "+",
        top_right: "+",
        bottom_left: "+",
        bottom_right: "+",
        vertical_left: "|",
        vertical_right: "|",
        horizontal_top: "-",
        horizontal_bottom: "-",
    },
    approx: "~",
    open: "-",
    closed: "+",
    arrow: "->",
};

/// Whether the C library would call the locale UTF-8: the first of
/// `LC_ALL`, `LC_CTYPE`, `LANG` that is set and not empty decides; none
/// set means the C locale, which is ASCII.
pub fn locale_is_utf8(var: impl Fn(&str) -> Option<String>) -> bool {
    let value = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| var(k).filter(|v| !v.is_empty()));
    value.is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v.contains("utf-8") || v.contains("utf8")
    })
}

impl Theme {
    /// Colours unless `NO_COLOR` is set to a non-empty value; ASCII when
    /// `CGTUI_ASCII` is set (not `0`) or the locale is not UTF-8.
    pub fn from_env() -> Self {
        let var = |k: &str| std::env::var(k).ok();
        let no_color = var("NO_COLOR").is_some_and(|v| !v.is_empty());
        let forced = var("CGTUI_ASCII").is_some_and(|v| !v.is_empty() && v != "0");
        Theme {
            color: !no_color,
            ascii: forced || !locale_is_utf8(var),
        }
    }

    /// Colours, Unicode glyphs: what tests draw by default.
    pub const fn plain_colors() -> Self {
        Theme {
            color: true,
            ascii: false,
        }
    }

    /// The glyph table in use.
    pub fn glyphs(self) -> &'static Glyphs {
        if self.ascii { &ASCII } else { &UNICODE }
    }

    fn fg(self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    /// The top line.
    pub fn header(self) -> Style {
        if self.color {
            Style::new().fg(Color::Black).bg(Color::Cyan)
        } else {
            Style::new().add_modifier(Modifier::REVERSED)
        }
    }

    /// A pane's title line; brighter when the pane has the focus.
    pub fn title(self, focused: bool) -> Style {
        match (self.color, focused) {
            (true, true) => Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            (true, false) => Style::new().fg(Color::White).bg(Color::DarkGray),
            (false, true) => Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            (false, false) => Style::new().add_modifier(Modifier::UNDERLINED),
        }
    }

    /// The selected row; only the focused pane shows it strongly.
    pub fn selected(self, focused: bool) -> Style {
        match (self.color, focused) {
            (true, true) => Style::new().fg(Color::Black).bg(Color::Cyan),
            (true, false) => Style::new().bg(Color::DarkGray),
            (false, true) => Style::new().add_modifier(Modifier::REVERSED),
            (false, false) => Style::new().add_modifier(Modifier::UNDERLINED),
        }
    }

    /// The current function, wherever it is listed.
    pub fn current(self) -> Style {
        self.fg(Color::LightGreen).add_modifier(Modifier::BOLD)
    }

    /// Matched characters of a search result.
    pub fn matched(self) -> Style {
        self.fg(Color::LightYellow)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    /// The cost bar.
    pub fn bar(self) -> Style {
        self.fg(Color::Red)
    }

    /// A line with a cost in the source view.
    pub fn hot(self) -> Style {
        self.fg(Color::LightRed).add_modifier(Modifier::BOLD)
    }

    /// Call and jump annotations in the source view.
    pub fn call(self) -> Style {
        self.fg(Color::LightBlue)
    }

    /// Secondary text: file names, objects, line numbers.
    pub fn dim(self) -> Style {
        if self.color {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new().add_modifier(Modifier::DIM)
        }
    }

    /// Recursion and cycle markers.
    pub fn marker(self) -> Style {
        self.fg(Color::Magenta).add_modifier(Modifier::BOLD)
    }

    /// A change between two profiles: a cost that grew (worse) is red, one
    /// that shrank green; the sign tells them apart without colour.
    pub fn change(self, value: i64) -> Style {
        match value.signum() {
            1 => self.fg(Color::Red),
            -1 => self.fg(Color::Green),
            _ => Style::new(),
        }
    }

    /// Warnings: diagnostics count, missing source file.
    pub fn warn(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    /// Key names in the hints.
    pub fn key(self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_locale_decides_as_the_c_library_does() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(locale_is_utf8(env(&[("LANG", "en_US.UTF-8")])));
        assert!(locale_is_utf8(env(&[("LC_CTYPE", "C.utf8")])));
        assert!(!locale_is_utf8(env(&[])));
        assert!(!locale_is_utf8(env(&[
            ("LC_ALL", "C"),
            ("LANG", "en_US.UTF-8")
        ])));
        assert!(locale_is_utf8(env(&[("LC_ALL", ""), ("LANG", "C.UTF-8")])));
        assert!(!locale_is_utf8(env(&[("LANG", "POSIX")])));
    }

    #[test]
    fn the_ascii_table_is_ascii() {
        let g = Theme {
            color: false,
            ascii: true,
        }
        .glyphs();
        let all = [
            g.ellipsis,
            g.sort_down,
            g.sort_up,
            g.bar_full,
            g.vertical,
            g.separator,
            g.crumb,
            g.times,
            g.recursive,
            g.dash,
            g.cursor,
            g.cut_right,
            g.cut_left,
        ];
        let b = g.border;
        let frame = [
            b.top_left,
            b.top_right,
            b.bottom_left,
            b.bottom_right,
            b.vertical_left,
            b.vertical_right,
            b.horizontal_top,
            b.horizontal_bottom,
        ];
        for s in all.iter().chain(g.bar_eighths.iter()).chain(frame.iter()) {
            assert!(s.is_ascii(), "{s}");
        }
    }
}
