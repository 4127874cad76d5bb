//! Screen tests: `TestBackend` snapshots of every view at 80x24 and 120x40
//! (and the side-by-side layout at 200x50), plus cell-style checks for the
//! highlights that text snapshots cannot show.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;

use cgtui::tui::Theme;
use ratatui::style::{Color, Modifier};
use support::*;

/// Snapshots `keys` on `sample` at both sizes.
fn both_sizes(name: &str, sample: &str, keys: &str) {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = sample_app(sample);
        press(&mut app, keys);
        let screen = text(&render(&mut app, w, h));
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen);
    }
}

#[test]
fn flat_list() {
    both_sizes("flat", "recursion.callgrind", "");
}

#[test]
fn callers_and_callees() {
    both_sizes(
        "calls",
        "recursion-separate-recs1.callgrind",
        "/is_even<Enter><Tab><Tab>",
    );
}

#[test]
fn source_view() {
    both_sizes("source", "recursion.callgrind", "/fib'2<Enter>s");
}

#[test]
fn source_view_with_inlined_code_and_jumps() {
    both_sizes("source_jumps", "jumps.callgrind", "/main<Enter>s");
}

#[test]
fn search() {
    both_sizes("search", "recursion.callgrind", "/fib");
}

#[test]
fn help() {
    both_sizes("help", "recursion.callgrind", "?");
}

#[test]
fn parts() {
    both_sizes("parts", "threads/callgrind.out.1000", "pj<Space>");
}

#[test]
fn side_by_side_when_wide() {
    let mut app = sample_app("cpp-names.callgrind");
    press(&mut app, "<Tab>");
    let screen = text(&render(&mut app, 200, 50));
    insta::assert_snapshot!("wide_200x50", screen);
}

#[test]
fn selection_and_focus_are_highlighted() {
    let mut app = sample_app("recursion.callgrind");
    let buf = render(&mut app, 80, 24);
    // The browser opens on `main`: its row is the selection, focused.
    let y = (3..24)
        .find(|&y| row(&buf, y).trim_end().ends_with(" main"))
        .unwrap();
    assert_eq!(buf[(0, y)].bg, Color::Cyan);
    assert_eq!(buf[(0, y - 1)].bg, Color::Reset);
    // The list's title is the focused pane's.
    assert_eq!(buf[(0, 2)].bg, Color::Yellow);
    press(&mut app, "<Tab>");
    let buf = render(&mut app, 80, 24);
    assert_eq!(buf[(0, y)].bg, Color::DarkGray, "unfocused selection");
}

#[test]
fn search_matches_are_highlighted() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/fib");
    let buf = render(&mut app, 80, 24);
    // Find the first result row, `fib`, and check its letters' style.
    let y = (0..24).find(|&y| row(&buf, y).contains(" fib ")).unwrap();
    let x = row(&buf, y).find(" fib ").unwrap() as u16 + 1;
    let x = (0..80)
        .find(|&c| buf[(c, y)].symbol() == "f" && c >= x.saturating_sub(4))
        .unwrap();
    for dx in 0..3 {
        let cell = &buf[(x + dx, y)];
        assert_eq!(cell.fg, Color::LightYellow, "{:?}", cell);
        assert!(cell.modifier.contains(Modifier::BOLD));
    }
}

#[test]
fn source_hot_lines_are_highlighted() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/fib'2<Enter>s<Down>");
    let buf = render(&mut app, 80, 24);
    let y = (0..24).find(|&y| row(&buf, y).contains("   10 │")).unwrap();
    assert_eq!(buf[(2, y)].fg, Color::LightRed);
}

#[test]
fn no_color_uses_reverse_and_no_colours_at_all() {
    let mut app = sample_app("recursion.callgrind");
    app.theme = Theme {
        color: false,
        ascii: false,
        ..Theme::plain_colors()
    };
    press(&mut app, "/fib");
    let buf = render(&mut app, 80, 24);
    for cell in buf.content() {
        assert_eq!(cell.fg, Color::Reset);
        assert_eq!(cell.bg, Color::Reset);
    }
    press(&mut app, "<Esc>g");
    let buf = render(&mut app, 80, 24);
    assert!(buf[(0, 3)].modifier.contains(Modifier::REVERSED));
}
