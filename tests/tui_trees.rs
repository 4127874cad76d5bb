//! The call tree (`t`), caller tree (`b`) and flame graph (`f`): snapshots
//! at 80x24 and 120x40, and key sequences that open, close, expand, zoom
//! and go back. Expected numbers are the samples' measured call costs
//! (`cgtui report` and callgrind_annotate's goldens list them).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;

use support::*;

fn both_sizes(name: &str, sample: &str, keys: &str) {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = sample_app(sample);
        press(&mut app, keys);
        let screen = text(&render(&mut app, w, h));
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen);
    }
}

#[test]
fn call_tree_snapshots() {
    both_sizes("call_tree", "recursion.callgrind", "/main<Enter>t");
    both_sizes("call_tree_cpp", "cpp-names.callgrind", "/main<Enter>t");
}

#[test]
fn caller_tree_snapshots() {
    both_sizes("caller_tree", "recursion.callgrind", "/is_odd<Enter>b");
}

#[test]
fn flame_graph_snapshots() {
    both_sizes("flame", "recursion.callgrind", "f");
    both_sizes("flame_zoomed", "recursion.callgrind", "fjjjjjjj<Enter>");
}

/// The rows' names, trimmed, from the tree's body.
fn rows(app: &mut cgtui::tui::App) -> Vec<String> {
    let view = app.tree.as_ref().unwrap();
    view.rows
        .iter()
        .map(|&n| {
            view.tree
                .node(n)
                .func
                .map_or("(all)".into(), |f| app.profile.fn_name(f).to_string())
        })
        .collect()
}

#[test]
fn the_call_tree_opens_on_the_hottest_path_and_expands_and_collapses() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/main<Enter>t");
    // main's measured calls: fib 31,564, printf 4,534, then the rest;
    // fib's hottest path is fib'2 (its recursion), opened.
    assert_eq!(
        rows(&mut app)[..5],
        ["main", "fib", "fib'2", "fib'2", "printf"].map(String::from)
    );
    let view = app.tree.as_ref().unwrap();
    assert_eq!(view.tree.node(view.rows[1]).value, 31_564);
    assert!(view.tree.node(view.rows[1]).exact);
    assert!(view.tree.node(view.rows[3]).recursive);
    // The end of the hottest path is selected (fib'2); Left closes it,
    // Left again goes to its parent.
    press(&mut app, "<Left>");
    assert_eq!(
        rows(&mut app)[..4],
        ["main", "fib", "fib'2", "printf"].map(String::from)
    );
    press(&mut app, "<Left>");
    let v = app.tree.as_ref().unwrap();
    assert_eq!(v.node(), v.rows[1]);
    // Down to printf, Right opens it: its callees appear below it.
    press(&mut app, "jj<Right>");
    let r = rows(&mut app);
    let at = r.iter().position(|n| n == "printf").unwrap();
    assert_eq!(r[at + 1], "__vfprintf_internal", "{r:?}");
    // `*` opens everything of at least 1% below the selected node.
    press(&mut app, "g*");
    assert!(rows(&mut app).len() > r.len());
    // Enter makes the node's function current and closes the tree.
    press(&mut app, "g<Down><Enter>");
    assert!(app.tree.is_none());
    assert_eq!(current(&app), "fib");
    // Esc closes without moving.
    press(&mut app, "t<Esc>");
    assert!(app.tree.is_none());
    assert_eq!(current(&app), "fib");
}

#[test]
fn the_caller_tree_shares_a_function_among_its_callers() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/is_odd<Enter>b");
    let view = app.tree.as_ref().unwrap();
    let root = view.tree.node(0);
    assert_eq!(app.profile.fn_name(root.func.unwrap()), "is_odd");
    // The first level's values add up to what the calls into is_odd cost.
    let kids: i64 = view
        .tree
        .children_of(0)
        .map(|k| view.tree.node(k).value)
        .sum();
    assert!(kids <= root.value && kids > 0, "{kids} of {}", root.value);
}

#[test]
fn the_flame_graph_zooms_in_and_out_and_follows_the_event() {
    let mut app = sample_app("cachesim.callgrind");
    press(&mut app, "f");
    let total = app.analysis.totals[0];
    assert_eq!(app.tree.as_ref().unwrap().tree.node(0).value, total);
    // Down to the first root, Enter zooms into it.
    press(&mut app, "j<Enter>");
    let v = app.tree.as_ref().unwrap();
    assert_ne!(v.zoom, 0);
    assert_eq!(v.zoom, v.selected);
    // Backspace zooms out; Esc at the top closes.
    press(&mut app, "<Backspace>");
    assert_eq!(app.tree.as_ref().unwrap().zoom, 0);
    press(&mut app, "<Enter><Esc>");
    assert_eq!(app.tree.as_ref().unwrap().zoom, 0);
    // `e` (next event): the graph is of the new event's total.
    press(&mut app, "e");
    let v = app.tree.as_ref().unwrap();
    assert_eq!(v.tree.node(0).value, app.analysis.totals[1]);
    press(&mut app, "<Esc>");
    assert!(app.tree.is_none());
}

#[test]
fn the_flame_graph_draws_in_ascii_at_40x10_without_a_panic() {
    let mut app = sample_app("cpp-names.callgrind");
    app.theme = cgtui::tui::Theme {
        color: false,
        ascii: true,
        ..cgtui::tui::Theme::plain_colors()
    };
    press(&mut app, "fjjj");
    let screen = text(&render(&mut app, 40, 10));
    assert!(screen.is_ascii(), "{screen}");
    assert!(screen.contains("Flame graph"), "{screen}");
}

#[test]
fn a_search_in_the_flame_graph_marks_boxes_and_n_goes_through_them() {
    let mut app = sample_app("recursion.callgrind");
    let _ = render(&mut app, 120, 40);
    press(&mut app, "f/_dl_<Enter>");
    let name = |app: &cgtui::tui::App| {
        let v = app.tree.as_ref().expect("the flame graph stays open");
        let f = v.tree.node(v.selected).func.expect("a function's box");
        app.profile.fn_name(f).to_string()
    };
    assert!(app.popup.is_none());
    // Top-down, left to right: `_dl_start` is the first box that matches.
    assert_eq!(name(&app), "_dl_start");
    press(&mut app, "n");
    assert_eq!(name(&app), "_dl_sysdep_start");
    press(&mut app, "NN");
    assert!(name(&app).contains("_dl_"), "{}", name(&app));
    assert_ne!(
        name(&app),
        "_dl_start",
        "N from the first wraps to the last"
    );
    // Matching boxes are underlined, others not.
    let buf = render(&mut app, 120, 40);
    let screen = text(&buf);
    let at = |word: &str| {
        let y = screen.lines().position(|l| l.starts_with(word)).unwrap();
        buf[(0, y as u16)].modifier
    };
    use ratatui::style::Modifier;
    assert!(at("_dl_start").contains(Modifier::UNDERLINED), "{screen}");
    assert!(!at("0x000000000001ab70").contains(Modifier::UNDERLINED));
}

#[test]
fn a_search_from_the_call_tree_goes_to_the_function_in_the_main_view() {
    let mut app = sample_app("cpp-names.callgrind");
    press(&mut app, "t/printf_fp_l<Enter>");
    assert!(app.tree.is_none() && app.popup.is_none());
    let f = app.current.expect("a current function");
    assert_eq!(app.profile.fn_name(f), "__printf_fp_l");
}
