//! Keys as they arrive over SSH (issue "over SSH"): raw terminal bytes go
//! through the key parser into the app, as in the browser. Linux-console
//! and unknown function keys do nothing; the search query is edited with
//! readline's keys without leaving the search or touching history; the
//! mouse scrolls, selects, focuses and double-clicks; `y`/`Y` copy with
//! OSC 52; `T` folds C++ template arguments; the source view scrolls
//! sideways.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;

use cgtui::tui::App;
use cgtui::tui::app::{Pane, Popup};
use cgtui::tui::input::Parser;
use std::time::{Duration, Instant};
use support::*;

/// Feeds `bytes` as the terminal would send them, arriving at `at`.
fn send_at(app: &mut App, bytes: &[u8], at: Instant) {
    let mut parser = Parser::default();
    let mut keys = Vec::new();
    parser.feed(bytes, &mut keys);
    parser.flush(&mut keys);
    app.keys_at(&keys, at);
}

fn send(app: &mut App, bytes: &[u8]) {
    send_at(app, bytes, Instant::now());
}

/// An SGR mouse report: button code `b` at 0-based cell (`x`, `y`).
fn mouse(b: u8, x: u16, y: u16) -> Vec<u8> {
    format!("\x1b[<{b};{};{}M", x + 1, y + 1).into_bytes()
}

fn click(x: u16, y: u16) -> Vec<u8> {
    mouse(0, x, y)
}

fn query(app: &App) -> (&str, usize) {
    (app.search.query(), app.search_cursor)
}

#[test]
fn linux_console_function_keys_do_nothing() {
    let mut app = sample_app("recursion.callgrind");
    let before = (app.event, app.current, app.browse.list);
    // F1-F5 of the Linux console; F5 used to arrive as `E` (previous event).
    send(
        &mut app,
        b"\x1b[[A\x1b[[B\x1b[[C\x1b[[D\x1b[[E\x1bOP\x1b[15~\x1b[1;2S",
    );
    assert_eq!((app.event, app.current, app.browse.list), before);
    assert!(app.popup.is_none() && app.message.is_none());
    // In the search prompt they used to type A-E.
    send(&mut app, b"/fi\x1b[[A\x1b[[Eb\x1b[17~");
    assert_eq!(query(&app), ("fib", 3));
}

#[test]
fn the_query_is_edited_as_in_readline() {
    let mut app = sample_app("recursion.callgrind");
    send(&mut app, b"/abcdef");
    // Left twice, then typing inserts at the cursor.
    send(&mut app, b"\x1b[D\x1b[DX");
    assert_eq!(query(&app), ("abcdXef", 5));
    // Home and Ctrl-A, End and Ctrl-E, Right at the end stays.
    send(&mut app, b"\x1b[HY\x05Z\x1b[C\x01W");
    assert_eq!(query(&app), ("WYabcdXefZ", 1));
    // Delete (the character under the cursor), Right.
    send(&mut app, b"\x1b[3~\x1b[C");
    assert_eq!(query(&app), ("WabcdXefZ", 2));
    // Ctrl-U: from the start to the cursor.
    send(&mut app, b"\x15");
    assert_eq!(query(&app), ("bcdXefZ", 0));
    // Ctrl-W, Alt-Backspace and Ctrl-Backspace (CSI u): a word each.
    send(&mut app, b"\x05\x15std::vector_push::size");
    send(&mut app, b"\x17");
    assert_eq!(query(&app), ("std::vector_push::", 18));
    send(&mut app, b"\x1b\x7f");
    assert_eq!(query(&app), ("std::", 5));
    send(&mut app, b"\x1b[127;5u");
    assert_eq!(query(&app), ("", 0));
    // Still searching; the results are those of the query typed at once.
    send(&mut app, b"fb\x1b[Di");
    assert_eq!(query(&app), ("fib", 2));
    assert!(matches!(app.popup, Some(Popup::Search(_))));
    let edited = app.search.results().to_vec();
    let mut fresh = sample_app("recursion.callgrind");
    send(&mut fresh, b"/fib");
    assert_eq!(edited, fresh.search.results());
}

#[test]
fn no_editing_key_leaves_the_search_or_touches_history() {
    let mut app = sample_app("recursion.callgrind");
    send(&mut app, b"/fib\r");
    assert_eq!(current(&app), "fib");
    let back = app.back.clone();
    send(&mut app, b"/cycle");
    // Alt-Backspace used to be Esc (cancel) then Backspace (back); Left
    // is Back outside the prompt.
    for keys in [
        &b"\x1b\x7f"[..],
        b"\x1b[D",
        b"\x1b[C",
        b"\x1b[H",
        b"\x1b[F",
        b"\x01",
        b"\x05",
        b"\x17",
        b"\x15",
        b"\x1b[3~",
        b"\x7f",
        b"\x08",
        b"\x1b[127;5u",
        b"\x1b[27;5;127~",
    ] {
        send(&mut app, keys);
        assert!(matches!(app.popup, Some(Popup::Search(_))), "{keys:?}");
        assert_eq!(current(&app), "fib", "{keys:?}");
        assert_eq!(app.back, back, "{keys:?}");
    }
}

#[test]
fn the_part_being_typed_stays_visible() {
    let mut app = sample_app("recursion.callgrind");
    let long = format!("{}_tail_XYZ", "start_".repeat(20));
    send(&mut app, format!("/{long}").as_bytes());
    let screen = text(&render(&mut app, 80, 24));
    let prompt = screen.lines().find(|l| l.contains("/ ")).unwrap();
    assert!(prompt.contains("_tail_XYZ▏"), "{prompt}");
    assert!(prompt.contains("/ «"), "{prompt}");
    assert!(!prompt.contains("/ start_"), "{prompt}");
    // Home: the start shows, and a mark says more follows.
    send(&mut app, b"\x1b[H");
    let screen = text(&render(&mut app, 80, 24));
    let prompt = screen.lines().find(|l| l.contains("/ ")).unwrap();
    assert!(prompt.contains("/ start_start_"), "{prompt}");
    assert!(prompt.contains('»'), "{prompt}");
    assert!(!prompt.contains("XYZ"), "{prompt}");
}

#[test]
fn clicks_select_focus_and_double_click_acts_as_enter() {
    let mut app = sample_app("recursion.callgrind");
    let a = app.areas();
    let t0 = Instant::now();
    // A click on the third row of the list: that function is current.
    let (x, y) = (a.list.body.x + 5, a.list.body.y + 2);
    send_at(&mut app, &click(x, y), t0);
    let row = app.browse.list.offset + 2;
    assert_eq!(app.browse.list.selected, row);
    assert_eq!(app.current, Some(app.browse.order[row]));
    assert_eq!(app.browse.focus, Pane::List);
    assert!(app.back.is_empty(), "a click is a cursor move, not history");
    // The release does nothing; a second click 500 ms later is no
    // double-click.
    send_at(
        &mut app,
        format!("\x1b[<0;{};{}m", x + 1, y + 1).as_bytes(),
        t0,
    );
    send_at(&mut app, &click(x, y), t0 + Duration::from_millis(500));
    assert_eq!(app.browse.focus, Pane::List);
    // Another within 400 ms: Enter (the list walks into the callees).
    send_at(&mut app, &click(x, y), t0 + Duration::from_millis(800));
    assert_eq!(app.browse.focus, Pane::Callees);
    // A click on the callers pane's title focuses it.
    let a = app.areas();
    send_at(
        &mut app,
        &click(a.callers.title.x + 3, a.callers.title.y),
        t0,
    );
    assert_eq!(app.browse.focus, Pane::Callers);
}

#[test]
fn a_double_click_on_a_caller_goes_there() {
    let mut app = sample_app("recursion.callgrind");
    send(&mut app, b"/fib'2\r");
    assert_eq!(current(&app), "fib'2");
    let a = app.areas();
    let t0 = Instant::now();
    // Callers of fib'2: fib'2 (recursive) first, then fib.
    let (x, y) = (a.callers.body.x + 40, a.callers.body.y + 1);
    send_at(&mut app, &click(x, y), t0);
    assert_eq!(
        (app.browse.focus, app.panes.caller_scroll.selected),
        (Pane::Callers, 1)
    );
    send_at(&mut app, &click(x, y), t0 + Duration::from_millis(200));
    assert_eq!(current(&app), "fib");
    assert_eq!(history(&app).last().map(String::as_str), Some("fib'2"));
}

#[test]
fn the_wheel_scrolls_the_pane_under_the_pointer() {
    let mut app = sample_app("recursion.callgrind");
    let a = app.areas();
    let (offset, selected) = (app.browse.list.offset, app.browse.list.selected);
    let (x, y) = (a.list.body.x + 1, a.list.body.y + 1);
    send(&mut app, &mouse(65, x, y));
    assert_eq!(
        (app.browse.list.offset, app.browse.list.selected),
        (offset + 3, selected + 3)
    );
    assert_eq!(app.current, Some(app.browse.order[selected + 3]));
    send(&mut app, &mouse(64, x, y));
    assert_eq!(
        (app.browse.list.offset, app.browse.list.selected),
        (offset, selected)
    );
    // Over the callees pane: it scrolls, the focus stays on the list.
    send(&mut app, b"/main\r");
    let a = app.areas();
    assert!(app.panes.callees.len() > 1);
    send(&mut app, &mouse(65, a.callees.body.x + 2, a.callees.body.y));
    assert_eq!(app.browse.focus, Pane::List);
    assert_eq!(
        app.panes.callee_scroll.selected,
        3.min(app.panes.callees.len() - 1)
    );
    // The source view, and a search popup's results.
    send(&mut app, b"sg");
    let a = app.areas();
    send(
        &mut app,
        &mouse(65, a.source.body.x + 9, a.source.body.y + 4),
    );
    assert_eq!(app.source().unwrap().scroll.selected, 3);
    send(&mut app, b"s/_dl");
    let a = app.areas();
    send(&mut app, &mouse(65, a.popup.x + 4, a.popup.y + 4));
    assert!(matches!(app.popup, Some(Popup::Search(s)) if s.selected == 3));
}

#[test]
fn a_click_on_a_search_result_selects_it_and_a_double_click_goes() {
    let mut app = sample_app("recursion.callgrind");
    send(&mut app, b"/cycle_");
    let a = app.areas();
    // Results start below the border and the prompt.
    let (x, y) = (a.popup.x + 10, a.popup.y + 3);
    let t0 = Instant::now();
    send_at(&mut app, &click(x, y), t0);
    assert!(matches!(app.popup, Some(Popup::Search(s)) if s.selected == 1));
    let want = app.search.results()[1];
    send_at(&mut app, &click(x, y), t0 + Duration::from_millis(100));
    assert!(app.popup.is_none());
    assert_eq!(app.current.map(|f| f.0), Some(want));
}

#[test]
fn m_switches_mouse_capture() {
    let mut app = sample_app("recursion.callgrind");
    assert!(app.mouse, "on by default");
    send(&mut app, b"M");
    assert!(!app.mouse);
    assert!(
        app.message
            .as_deref()
            .unwrap()
            .contains("terminal selects text")
    );
    let before = app.browse.list;
    let a = app.areas();
    send(&mut app, &click(a.list.body.x + 1, a.list.body.y + 4));
    send(&mut app, &mouse(65, a.list.body.x + 1, a.list.body.y + 4));
    assert_eq!(app.browse.list, before, "reports after M are ignored");
    send(&mut app, b"M");
    assert!(app.mouse);
    app.set_mouse(false);
    assert!(!app.mouse);
    // The help says how to select text while capture is on.
    let help = cgtui::tui::keymap::help_lines(false);
    let mouse = help
        .iter()
        .find_map(|(title, _, _)| title.filter(|t| t.starts_with("Mouse")));
    assert!(mouse.unwrap().contains("Shift-drag selects text"));
}

#[test]
fn y_copies_the_full_name_and_capital_y_the_place() {
    let mut app = sample_app("recursion.callgrind");
    assert_eq!(current(&app), "main");
    send(&mut app, b"y");
    assert_eq!(app.clipboard.take().as_deref(), Some("main"));
    assert_eq!(
        app.message.as_deref(),
        Some("copied main to the clipboard (OSC 52)")
    );
    // main's first line with a cost: `fn=(536) main` then `56 5` in the
    // profile.
    send(&mut app, b"Y");
    assert_eq!(
        app.clipboard.take().as_deref(),
        Some("samples/src/recursion.c:56")
    );
    // In the source view: the selected line.
    send(&mut app, b"/fib\rsgj");
    let line = match &app.source().unwrap().rows[1] {
        cgtui::tui::views::source::Row::Line { line, .. } => *line,
        row => panic!("{row:?}"),
    };
    send(&mut app, b"Y");
    assert_eq!(
        app.clipboard.take(),
        Some(format!("samples/src/recursion.c:{line}"))
    );
    // In the callees pane: the function selected there.
    send(&mut app, b"s\t\t");
    send(&mut app, b"y");
    assert_eq!(app.clipboard.take().as_deref(), Some("fib'2"));
}

#[test]
fn copied_text_is_clean() {
    let mut app = text_app("events: Ir\nfn=evil\x1b]52;c;AAAA\x07name\n1 100\n");
    send(&mut app, b"y");
    assert_eq!(app.clipboard.as_deref(), Some("evil]52;c;AAAAname"));
    let seq = cgtui::tui::clipboard::osc52(app.clipboard.as_deref().unwrap());
    assert_eq!(seq, "\x1b]52;c;ZXZpbF01MjtjO0FBQUFuYW1l\x07");
}

#[test]
fn t_folds_template_arguments_everywhere_but_the_details_line() {
    let mut app = sample_app("cpp-names.callgrind");
    send(&mut app, b"/use_facet");
    let full = text(&render(&mut app, 120, 40));
    send(&mut app, b"\x1b");
    send(&mut app, b"T/use_facet");
    assert!(app.fold_templates);
    let folded = text(&render(&mut app, 120, 40));
    assert!(full.contains("std::use_facet<std::ctype<char> >"), "{full}");
    assert!(
        folded.contains("std::use_facet<…>(std::locale const&)"),
        "{folded}"
    );
    insta::assert_snapshot!("cpp_names_folded_search_120x40", folded);
    // The list, the panes and the details line.
    send(&mut app, b"\r");
    let name = current(&app);
    assert!(name.contains("use_facet<std::"), "{name}");
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = text(&render(&mut app, w, h));
        insta::assert_snapshot!(format!("cpp_names_folded_{w}x{h}"), screen);
    }
    let screen = text(&render(&mut app, 200, 50));
    let details = screen.lines().rev().nth(2).unwrap();
    assert!(details.starts_with(&name), "{details}");
    assert!(
        screen.contains("Callers of std::ctype<…> const& std::use_"),
        "{screen}"
    );
    // Again: unfolded.
    send(&mut app, b"T");
    let screen = text(&render(&mut app, 200, 50));
    assert!(!screen.contains("<…>"), "{screen}");
}

#[test]
fn the_source_view_scrolls_sideways_with_marks() {
    let mut app = sample_app("recursion.callgrind");
    send(&mut app, b"/fib'2\rsg");
    let screen = text(&render(&mut app, 80, 24));
    let line2 = screen.lines().find(|l| l.contains("  2 │")).unwrap();
    assert!(line2.ends_with("cycle_»"), "{line2}");
    send(&mut app, b">");
    assert_eq!(app.source_shift, 20);
    let screen = text(&render(&mut app, 80, 24));
    let line2 = screen.lines().find(|l| l.contains("  2 │")).unwrap();
    // The text from its 21st cell, a mark where its start is cut.
    assert!(line2.contains("2 │ «"), "{line2}");
    assert!(line2.contains("(cycle_a -> cycle_b"), "{line2}");
    // Left and Right keep their meaning (Back, Open); `<` scrolls back.
    send(&mut app, b"<<");
    assert_eq!(app.source_shift, 0);
    let scrolled = text(&render(&mut app, 80, 24));
    assert!(scrolled.contains("1 │ /* Self recursion"), "{scrolled}");
}

#[test]
fn what_these_keys_draw_is_ascii_in_ascii_mode() {
    let mut app = sample_app("cpp-names.callgrind");
    app.theme = cgtui::tui::Theme {
        color: false,
        ascii: true,
        ..cgtui::tui::Theme::plain_colors()
    };
    let long = "std::basic_ostream".repeat(8);
    send(&mut app, format!("T/{long}\x1b[D\x1b[D").as_bytes());
    let search = text(&render(&mut app, 80, 24));
    send(&mut app, b"\x1b[H");
    let start = text(&render(&mut app, 80, 24));
    send(&mut app, b"\x05\x15\x1b\x7fuse_facet\ry");
    let copied = text(&render(&mut app, 80, 24));
    send(&mut app, b"Ms>");
    let source = text(&render(&mut app, 80, 24));
    // Everything, popup frames included, is ASCII.
    for screen in [&search, &start, &copied, &source] {
        let other = screen.chars().find(|c| !c.is_ascii());
        assert_eq!(other, None, "{screen}");
    }
    assert!(search.contains("/ <"), "{search}");
    assert!(start.contains("/ std::basic_ostreamstd"), "{start}");
    assert!(
        copied.contains("copied std::ctype<char> con")
            && copied.contains("to the clipboard (OSC 52)"),
        "{copied}"
    );
    assert!(source.contains("| <"), "{source}");
    assert!(app.source_shift > 0);
}

/// The name of the function of the tree view's selected node.
fn selected_node_name(app: &App) -> String {
    let view = app.tree().unwrap();
    let f = view.tree.node(view.node()).func.unwrap();
    app.profile.fn_name(f).to_string()
}

#[test]
fn the_wheel_scrolls_the_call_and_caller_trees_under_the_pointer() {
    let mut app = sample_app("cpp-names.callgrind");
    // The call tree (76 rows open) and _dl_fixup's caller tree (82).
    for keys in [&b"t*"[..], b"/_dl_fixup\rb*"] {
        send(&mut app, keys);
        let a = app.areas();
        let (x, y) = (a.source.body.x + 4, a.source.body.y + 2);
        let view = app.tree().unwrap();
        let len = view.rows.len();
        assert!(len > a.source.body.height as usize + 15, "{len} rows");
        let before = (view.scroll.offset, view.scroll.selected);
        // Five notches down: 15 rows, the selection keeping its place on
        // screen (before, nothing moved).
        for _ in 0..5 {
            send(&mut app, &mouse(65, x, y));
        }
        let view = app.tree().unwrap();
        assert_eq!(
            (view.scroll.offset, view.scroll.selected),
            (before.0 + 15, before.1 + 15)
        );
        for _ in 0..5 {
            send(&mut app, &mouse(64, x, y));
        }
        let view = app.tree().unwrap();
        assert_eq!((view.scroll.offset, view.scroll.selected), before);
        // A click selects the row under the pointer, a second one goes to
        // its function in the main view.
        let at = Instant::now();
        send_at(&mut app, &click(x, y), at);
        let view = app.tree().unwrap();
        assert_eq!(view.scroll.selected, view.scroll.offset + 2);
        let name = selected_node_name(&app);
        // The row drawn under the pointer is that node's.
        let drawn = row(&render(&mut app, 80, 24), y);
        let start: String = name.chars().take(8).collect();
        assert!(drawn.contains(&start), "{drawn:?} is not {name}");
        send_at(&mut app, &click(x, y), at + Duration::from_millis(100));
        assert!(app.tree().is_none());
        assert_eq!(current(&app), name);
    }
}

#[test]
fn the_wheel_over_the_flame_graph_selects_a_box_a_level_down_or_up() {
    let mut app = sample_app("recursion.callgrind");
    send(&mut app, b"/main\rf");
    let a = app.areas();
    let (x, y) = (a.source.body.x + 4, a.source.body.y + 2);
    let root = app.tree().unwrap().node();
    send(&mut app, &mouse(65, x, y));
    let view = app.tree().unwrap();
    assert_ne!(view.node(), root);
    assert_eq!(view.tree.node(view.node()).parent(), Some(root));
    send(&mut app, &mouse(64, x, y));
    assert_eq!(app.tree().unwrap().node(), root);
}

#[test]
fn y_in_a_tree_view_copies_the_selected_node() {
    let mut app = sample_app("recursion.callgrind");
    // The call tree of main opens on its hottest path, fib'2 selected.
    send(&mut app, b"/main\rt");
    assert_eq!(selected_node_name(&app), "fib'2");
    send(&mut app, b"y");
    assert_eq!(app.clipboard.take().as_deref(), Some("fib'2"));
    send(&mut app, b"ky");
    assert_eq!(app.clipboard.take().as_deref(), Some("fib"));
    // The caller tree of fib: its root, then a caller.
    send(&mut app, b"\x1b/fib\rb");
    let root = app.profile.fn_name(app.current.unwrap()).to_string();
    send(&mut app, b"ggy");
    assert_eq!(app.clipboard.take(), Some(root.clone()));
    send(&mut app, b"jy");
    let caller = selected_node_name(&app);
    assert_ne!(caller, root);
    assert_eq!(app.clipboard.take(), Some(caller));
    // The flame graph: the selected box.
    send(&mut app, b"\x1b/main\rfjy");
    let child = selected_node_name(&app);
    assert_ne!(child, "main");
    assert_eq!(app.clipboard.take(), Some(child));
    // main is called by no one: the flame graph is the whole program's,
    // whose box is no function.
    send(&mut app, b"ky");
    let view = app.tree().unwrap();
    assert_eq!(view.tree.node(view.node()).func, None);
    assert_eq!(app.clipboard.take(), None);
    assert_eq!(app.message.as_deref(), Some("no function selected"));
}

#[test]
fn a_copy_cut_to_the_clipboards_limit_says_so() {
    use cgtui::tui::clipboard::MAX_COPY;
    let name = "n".repeat(1 << 20);
    let mut app = text_app(&format!("events: Ir\nfn={name}\n1 100\n"));
    send(&mut app, b"y");
    assert_eq!(app.clipboard.take().unwrap().len(), MAX_COPY);
    let message = app.message.clone().unwrap();
    assert!(
        message.starts_with("copied the first 100 KiB of 1.0 MiB of nnnn"),
        "{message}"
    );
    // A name that fits says nothing of a cut.
    let mut app = text_app(&format!("events: Ir\nfn={}\n1 100\n", &name[..MAX_COPY]));
    send(&mut app, b"y");
    assert_eq!(app.clipboard.take().unwrap().len(), MAX_COPY);
    assert!(!app.message.unwrap().contains("first"));
}
