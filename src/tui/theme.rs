//! Styles and glyphs: the 16 named terminal colours only, or none at all
//! when `NO_COLOR` is set (then bold, underline and reverse carry the
//! highlights); and the one table of every non-ASCII character the views
//! draw, with an ASCII twin for terminals whose locale is not UTF-8 (as
//! htop does). View code never writes a glyph itself. The colour of each
//! role is in `Palette`, which the configuration file can change.

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::border;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
    /// Draw with ASCII only (`--ascii`, `CGTUI_ASCII=1`, or a locale that
    /// is not UTF-8).
    pub ascii: bool,
    /// The colour of each role (unused without colour).
    pub palette: Palette,
}

/// A colour of the theme: one of the 16 named terminal colours, or none
/// (`default`: the terminal's own, or the text's beneath).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint(pub Option<Color>);

/// The names a configuration file gives the 16 colours, as ratatui names
/// them (`gray` is ANSI colour 7, `dark-gray` 8, `white` 15).
pub const COLOR_NAMES: [(&str, Color); 16] = [
    ("black", Color::Black),
    ("red", Color::Red),
    ("green", Color::Green),
    ("yellow", Color::Yellow),
    ("blue", Color::Blue),
    ("magenta", Color::Magenta),
    ("cyan", Color::Cyan),
    ("gray", Color::Gray),
    ("dark-gray", Color::DarkGray),
    ("light-red", Color::LightRed),
    ("light-green", Color::LightGreen),
    ("light-yellow", Color::LightYellow),
    ("light-blue", Color::LightBlue),
    ("light-magenta", Color::LightMagenta),
    ("light-cyan", Color::LightCyan),
    ("white", Color::White),
];

impl Paint {
    /// The colour called `name` (`default`: none).
    pub fn named(name: &str) -> Option<Paint> {
        if name == "default" {
            return Some(Paint(None));
        }
        COLOR_NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, c)| Paint(Some(c)))
    }
}

impl<'de> serde::Deserialize<'de> for Paint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Paint::named(&name).ok_or_else(|| {
            let names: Vec<&str> = COLOR_NAMES.iter().map(|(n, _)| *n).collect();
            let shown: String = name.chars().take(40).collect();
            serde::de::Error::custom(format!(
                "unknown colour `{shown}` (one of: {}, default)",
                names.join(", ")
            ))
        })
    }
}

/// The colour of every role the views draw in; the configuration file's
/// `[colors]` table sets any of them (its keys are these names with `-`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Palette {
    /// The top line.
    pub header_fg: Paint,
    pub header_bg: Paint,
    /// The title line of the pane with the focus, and of the others.
    pub title_fg: Paint,
    pub title_bg: Paint,
    pub title_inactive_fg: Paint,
    pub title_inactive_bg: Paint,
    /// The selected row in the pane with the focus, and in the others.
    pub selected_fg: Paint,
    pub selected_bg: Paint,
    pub selected_inactive_fg: Paint,
    pub selected_inactive_bg: Paint,
    /// The current function, wherever it is listed.
    pub current: Paint,
    /// Matched characters of a search result.
    pub matched: Paint,
    /// The cost bar.
    pub bar: Paint,
    /// A source line with a cost.
    pub hot: Paint,
    /// Call and jump annotations in the source view.
    pub call: Paint,
    /// Secondary text: file names, objects, line numbers.
    pub dim: Paint,
    /// Recursion and cycle markers.
    pub marker: Paint,
    /// In a comparison, a cost that grew, and one that shrank.
    pub grown: Paint,
    pub shrunk: Paint,
    /// Warnings: diagnostics count, missing source file.
    pub warning: Paint,
    /// Key names in the hints.
    pub key: Paint,
}

impl Palette {
    /// cgtui's own colours.
    pub const DEFAULT: Palette = {
        const fn p(c: Color) -> Paint {
            Paint(Some(c))
        }
        Palette {
            header_fg: p(Color::Black),
            header_bg: p(Color::Cyan),
            title_fg: p(Color::Black),
            title_bg: p(Color::Yellow),
            title_inactive_fg: p(Color::White),
            title_inactive_bg: p(Color::DarkGray),
            selected_fg: p(Color::Black),
            selected_bg: p(Color::Cyan),
            selected_inactive_fg: Paint(None),
            selected_inactive_bg: p(Color::DarkGray),
            current: p(Color::LightGreen),
            matched: p(Color::LightYellow),
            bar: p(Color::Red),
            hot: p(Color::LightRed),
            call: p(Color::LightBlue),
            dim: p(Color::DarkGray),
            marker: p(Color::Magenta),
            grown: p(Color::Red),
            shrunk: p(Color::Green),
            warning: p(Color::Yellow),
            key: p(Color::Cyan),
        }
    };
}

impl Default for Palette {
    fn default() -> Self {
        Palette::DEFAULT
    }
}

/// `style` with foreground `fg` and background `bg` where they are colours.
fn paint(style: Style, fg: Paint, bg: Paint) -> Style {
    let style = match fg.0 {
        Some(c) => style.fg(c),
        None => style,
    };
    match bg.0 {
        Some(c) => style.bg(c),
        None => style,
    }
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
    /// A cell of a flame graph box's self cost, under the box.
    pub shade: &'static str,
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
    shade: "░",
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
    shade: ":",
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
            palette: Palette::DEFAULT,
        }
    }

    /// Colours, Unicode glyphs: what tests draw by default.
    pub const fn plain_colors() -> Self {
        Theme {
            color: true,
            ascii: false,
            palette: Palette::DEFAULT,
        }
    }

    /// The glyph table in use.
    pub fn glyphs(self) -> &'static Glyphs {
        if self.ascii { &ASCII } else { &UNICODE }
    }

    fn fg(self, color: Paint) -> Style {
        if self.color {
            paint(Style::new(), color, Paint(None))
        } else {
            Style::new()
        }
    }

    /// The top line.
    pub fn header(self) -> Style {
        let p = self.palette;
        if self.color {
            paint(Style::new(), p.header_fg, p.header_bg)
        } else {
            Style::new().add_modifier(Modifier::REVERSED)
        }
    }

    /// A pane's title line; brighter when the pane has the focus.
    pub fn title(self, focused: bool) -> Style {
        let p = self.palette;
        match (self.color, focused) {
            (true, true) => {
                paint(Style::new(), p.title_fg, p.title_bg).add_modifier(Modifier::BOLD)
            }
            (true, false) => paint(Style::new(), p.title_inactive_fg, p.title_inactive_bg),
            (false, true) => Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            (false, false) => Style::new().add_modifier(Modifier::UNDERLINED),
        }
    }

    /// The selected row; only the focused pane shows it strongly.
    pub fn selected(self, focused: bool) -> Style {
        let p = self.palette;
        match (self.color, focused) {
            (true, true) => paint(Style::new(), p.selected_fg, p.selected_bg),
            (true, false) => paint(Style::new(), p.selected_inactive_fg, p.selected_inactive_bg),
            (false, true) => Style::new().add_modifier(Modifier::REVERSED),
            (false, false) => Style::new().add_modifier(Modifier::UNDERLINED),
        }
    }

    /// The current function, wherever it is listed.
    pub fn current(self) -> Style {
        self.fg(self.palette.current).add_modifier(Modifier::BOLD)
    }

    /// Matched characters of a search result.
    pub fn matched(self) -> Style {
        self.fg(self.palette.matched)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    /// The cost bar.
    pub fn bar(self) -> Style {
        self.fg(self.palette.bar)
    }

    /// A line with a cost in the source view.
    pub fn hot(self) -> Style {
        self.fg(self.palette.hot).add_modifier(Modifier::BOLD)
    }

    /// Call and jump annotations in the source view.
    pub fn call(self) -> Style {
        self.fg(self.palette.call)
    }

    /// Secondary text: file names, objects, line numbers.
    pub fn dim(self) -> Style {
        if self.color {
            self.fg(self.palette.dim)
        } else {
            Style::new().add_modifier(Modifier::DIM)
        }
    }

    /// Recursion and cycle markers.
    pub fn marker(self) -> Style {
        self.fg(self.palette.marker).add_modifier(Modifier::BOLD)
    }

    /// A change between two profiles: a cost that grew (worse) is red, one
    /// that shrank green; the sign tells them apart without colour.
    pub fn change(self, value: i64) -> Style {
        match value.signum() {
            1 => self.fg(self.palette.grown),
            -1 => self.fg(self.palette.shrunk),
            _ => Style::new(),
        }
    }

    /// Warnings: diagnostics count, missing source file.
    pub fn warn(self) -> Style {
        self.fg(self.palette.warning).add_modifier(Modifier::BOLD)
    }

    /// Key names in the hints.
    pub fn key(self) -> Style {
        self.fg(self.palette.key).add_modifier(Modifier::BOLD)
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
    fn the_palette_colours_each_role() {
        let t = Theme::plain_colors();
        // cgtui's own colours, as they were before the palette.
        assert_eq!(t.header(), Style::new().fg(Color::Black).bg(Color::Cyan));
        assert_eq!(t.selected(false), Style::new().bg(Color::DarkGray));
        assert_eq!(t.change(1), Style::new().fg(Color::Red));
        let mut p = Palette::DEFAULT;
        p.header_fg = Paint(None);
        p.header_bg = Paint(Some(Color::Blue));
        p.bar = Paint::named("light-magenta").unwrap();
        p.shrunk = Paint::named("cyan").unwrap();
        let t = Theme { palette: p, ..t };
        assert_eq!(t.header(), Style::new().bg(Color::Blue));
        assert_eq!(t.bar(), Style::new().fg(Color::LightMagenta));
        assert_eq!(t.change(-3), Style::new().fg(Color::Cyan));
        // Without colour the palette plays no part.
        let t = Theme { color: false, ..t };
        assert_eq!(t.bar(), Style::new());
    }

    #[test]
    fn each_name_is_one_of_the_16_colours() {
        let mut seen = Vec::new();
        for (name, color) in COLOR_NAMES {
            assert_eq!(Paint::named(name), Some(Paint(Some(color))));
            assert!(!seen.contains(&color), "{name}");
            seen.push(color);
        }
        assert_eq!(Paint::named("default"), Some(Paint(None)));
        for bad in ["Red", "", "#ff0000", "orange", "9"] {
            assert_eq!(Paint::named(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_ascii_table_is_ascii() {
        let g = Theme {
            color: false,
            ascii: true,
            palette: Palette::DEFAULT,
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
            g.shade,
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
