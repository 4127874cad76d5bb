//! Shared helpers for the TUI tests: build an `App` from a sample or from
//! profile text, drive it with key strings, render it with `TestBackend`.

#![allow(dead_code)]
use cgtui::locate::Locator;
use cgtui::parse::{LoadOptions, load_paths, load_reader};
use cgtui::tui::{App, Theme, draw, parse_keys};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use std::path::PathBuf;

pub fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

/// An app on `samples/NAME` (its siblings too), in colour, 80x24.
pub fn sample_app(name: &str) -> App {
    let profile = load_paths(&[sample(name)], LoadOptions::default()).unwrap();
    let mut app = App::new(profile, Theme { color: true }, Locator::default());
    app.resize(80, 24);
    app
}

/// An app on a profile given as text.
pub fn text_app(text: &str) -> App {
    let profile = load_reader("test.callgrind", text.as_bytes()).unwrap();
    let mut app = App::new(profile, Theme { color: true }, Locator::default());
    app.resize(80, 24);
    app
}

/// Presses the keys of `keys` (`"/fib<Enter><Tab>"` style).
pub fn press(app: &mut App, keys: &str) {
    for key in parse_keys(keys) {
        app.key(key);
    }
}

/// Draws the app at `w`x`h`; returns the buffer.
pub fn render(app: &mut App, w: u16, h: u16) -> Buffer {
    app.resize(w, h);
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| draw(app, f)).unwrap();
    terminal.backend().buffer().clone()
}

/// The buffer's text, one line per row, trailing spaces cut.
pub fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The current function's name.
pub fn current(app: &App) -> String {
    app.current
        .map(|f| app.profile.fn_name(f).to_string())
        .unwrap_or_default()
}

/// Names along the back history.
pub fn history(app: &App) -> Vec<String> {
    app.back
        .iter()
        .map(|&f| app.profile.fn_name(f).to_string())
        .collect()
}

/// Row `y` of the buffer as text.
pub fn row(buf: &Buffer, y: u16) -> String {
    (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
}
