//! Styles: the 16 named terminal colours only, or none at all when
//! `NO_COLOR` is set (then bold, underline and reverse carry the highlights).

use ratatui::style::{Color, Modifier, Style};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    /// Colours unless `NO_COLOR` is set to a non-empty value.
    pub fn from_env() -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme { color: !no_color }
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

    /// Warnings: diagnostics count, missing source file.
    pub fn warn(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    /// Key names in the hints.
    pub fn key(self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }
}
