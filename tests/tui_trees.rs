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
    both_sizes("flame_self", "recursion.callgrind", "fjjjjjjjjv");
}

/// The rows' names, trimmed, from the tree's body.
fn rows(app: &mut cgtui::tui::App) -> Vec<String> {
    let view = app.tree().unwrap();
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
    let view = app.tree().unwrap();
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
    let v = app.tree().unwrap();
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
    assert!(app.tree().is_none());
    assert_eq!(current(&app), "fib");
    // Esc closes without moving.
    press(&mut app, "t<Esc>");
    assert!(app.tree().is_none());
    assert_eq!(current(&app), "fib");
}

#[test]
fn the_caller_tree_shares_a_function_among_its_callers() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/is_odd<Enter>b");
    let view = app.tree().unwrap();
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
    assert_eq!(app.tree().unwrap().tree.node(0).value, total);
    // Down to the first root, Enter zooms into it.
    press(&mut app, "j<Enter>");
    let v = app.tree().unwrap();
    assert_ne!(v.zoom, 0);
    assert_eq!(v.zoom, v.selected);
    // Backspace zooms out one level; Esc out of any zoom at once; Esc at
    // the top closes.
    press(&mut app, "<Backspace>");
    assert_eq!(app.tree().unwrap().zoom, 0);
    press(&mut app, "<Enter>jjj<Enter>");
    let v = app.tree().unwrap();
    let depth = v.tree.node(v.zoom).depth;
    assert!(depth >= 2, "depth {depth}");
    press(&mut app, "<Backspace>");
    let v = app.tree().unwrap();
    assert_eq!(v.tree.node(v.zoom).depth, depth - 1);
    press(&mut app, "jj<Enter><Esc>");
    assert_eq!(app.tree().unwrap().zoom, 0);
    // `e` (next event): the graph is of the new event's total.
    press(&mut app, "e");
    let v = app.tree().unwrap();
    assert_eq!(v.tree.node(0).value, app.analysis.totals[1]);
    press(&mut app, "<Esc>");
    assert!(app.tree().is_none());
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
        let v = app.tree().expect("the flame graph stays open");
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
    assert!(app.tree().is_none() && app.popup.is_none());
    let f = app.current.expect("a current function");
    assert_eq!(app.profile.fn_name(f), "__printf_fp_l");
}

/// Per function of `samples/NAME`, from `cgtui report --json` (the flat
/// profile, not the trees): name, self cost of the first event, the
/// distinct functions that call it, and whether it is in a cycle.
struct Flat {
    name: String,
    own: i64,
    callers: std::collections::BTreeSet<usize>,
    cycle: bool,
}

fn flat(sample: &str) -> Vec<Flat> {
    let out = crate::support::cli::stdout_of(&["report", "--json", &format!("samples/{sample}")]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let event = v["events"][0].as_str().unwrap().to_string();
    let mut fs: Vec<Flat> = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| Flat {
            name: f["name"].as_str().unwrap().to_string(),
            own: f["self"][&event].as_i64().unwrap_or(0),
            callers: Default::default(),
            cycle: !f["cycle"].is_null(),
        })
        .collect();
    for c in v["calls"].as_array().unwrap() {
        let (caller, callee) = (c["caller"].as_u64().unwrap(), c["callee"].as_u64().unwrap());
        fs[callee as usize].callers.insert(caller as usize);
    }
    fs
}

/// The flat entry of the one function named `name`.
fn flat_named<'a>(fs: &'a [Flat], name: &str) -> (usize, &'a Flat) {
    let found: Vec<_> = fs
        .iter()
        .enumerate()
        .filter(|(_, f)| f.name == name)
        .collect();
    assert_eq!(found.len(), 1, "{name}");
    found[0]
}

/// Opens a tree on `sample` with `keys`; checks the self cost of every
/// row on a path where every function below the root has one caller
/// (the function above it) and no cycle, so that the node is the whole
/// of its function: its self cost is the flat one. The names checked.
fn self_costs_on_unique_paths(sample: &str, keys: &str) -> Vec<String> {
    let fs = flat(sample);
    let mut app = sample_app(sample);
    // The report's functions are the profile's, in the same order.
    for (i, f) in fs.iter().enumerate() {
        let id = cgtui::profile::FnId::from_index(i);
        assert_eq!(app.profile.fn_name(id), f.name);
    }
    press(&mut app, keys);
    let _ = render(&mut app, 80, 24);
    let view = app.tree().unwrap();
    // Rows off screen get their self costs computed here.
    let mut t = view.tree.clone();
    let mut checked = Vec::new();
    for &n in &view.rows {
        let own = t.self_cost_of(&app.analysis, n);
        let mut unique = n != 0 && t.node(n).is_call();
        let mut at = n;
        while let Some(p) = t.node(at).parent() {
            let Some(f) = t.node(at).func else {
                unique = false;
                break;
            };
            let f = &fs[f.index()];
            let above = t.node(p).func.map_or(usize::MAX, |g| g.index());
            unique &= !f.cycle && !t.node(at).recursive && f.callers.len() == 1;
            unique &= f.callers.contains(&above);
            at = p;
        }
        if !unique {
            continue;
        }
        let f = &fs[t.node(n).func.unwrap().index()];
        assert_eq!(
            own,
            Some(f.own),
            "{sample}: {} at depth {}",
            f.name,
            t.node(n).depth
        );
        checked.push(f.name.clone());
    }
    checked
}

#[test]
fn the_self_column_is_the_flat_self_cost_where_the_path_is_unique() {
    let checked =
        self_costs_on_unique_paths("recursion.callgrind", "/_dl_lookup_symbol_x<Enter>t*");
    assert!(checked.iter().any(|n| n == "do_lookup_x"), "{checked:?}");
    let more = self_costs_on_unique_paths("cpp-names.callgrind", "/main<Enter>t*");
    assert!(more.len() >= 5, "{more:?}");
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/_dl_lookup_symbol_x<Enter>t");
    let screen = text(&render(&mut app, 80, 24));
    // On screen: do_lookup_x's row shows its inclusive cost, then its self
    // cost of 21,727 (callgrind_annotate: 21,016 + 395 + 316 in three files).
    let line = screen
        .lines()
        .find(|l| l.ends_with(" do_lookup_x"))
        .unwrap_or_else(|| panic!("{screen}"));
    let cells: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(cells[1], "21,727", "{line}");
    assert!(
        screen.contains("Incl") && screen.contains("Self"),
        "{screen}"
    );
}

#[test]
fn the_hot_path_ends_where_the_cost_is_spent() {
    let fs = flat("recursion.callgrind");
    let (lookup, _) = flat_named(&fs, "do_lookup_x");
    // do_lookup_x spends more itself than its costliest call passes on.
    let v: serde_json::Value = serde_json::from_str(&crate::support::cli::stdout_of(&[
        "report",
        "--json",
        "samples/recursion.callgrind",
    ]))
    .unwrap();
    let hottest_call = v["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["caller"].as_u64() == Some(lookup as u64))
        .map(|c| c["inclusive"]["Ir"].as_i64().unwrap())
        .max()
        .unwrap();
    assert!(
        fs[lookup].own > hottest_call,
        "{} {hottest_call}",
        fs[lookup].own
    );
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/_dl_lookup_symbol_x<Enter>t");
    let view = app.tree().unwrap();
    let sel = view.tree.node(view.node());
    assert_eq!(app.profile.fn_name(sel.func.unwrap()), "do_lookup_x");
    assert_eq!(sel.depth, 1);
    // Its children are listed (the path stopped, not the tree) and each
    // is smaller than its self cost.
    let kids: Vec<usize> = view.tree.children_of(view.node()).collect();
    assert!(!kids.is_empty());
    assert!(view.is_open(view.node()));
    for k in kids {
        assert!(view.tree.node(k).value < fs[lookup].own);
    }
    // Above it the hottest child was larger than the node's self cost:
    // _dl_lookup_symbol_x itself spends less than do_lookup_x costs.
    let (_, root) = flat_named(&fs, "_dl_lookup_symbol_x");
    assert!(root.own < sel.value, "{} {}", root.own, sel.value);
}

#[test]
fn the_caller_tree_shares_the_roots_self_cost_along_its_paths() {
    let fs = flat("recursion.callgrind");
    let (_, f) = flat_named(&fs, "do_lookup_x");
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/do_lookup_x<Enter>b");
    let view = app.tree().unwrap();
    let t = &view.tree;
    assert_eq!(t.node(0).self_cost(t.direction), Some(f.own));
    // do_lookup_x has one caller: all of its self cost comes that way.
    assert_eq!(f.callers.len(), 1);
    let kids: Vec<usize> = t.children_of(0).collect();
    assert_eq!(kids.len(), 1);
    assert_eq!(t.node(kids[0]).self_cost(t.direction), Some(f.own));
    // Further up, each level's shares add up to no more than the root's.
    for &n in &view.rows {
        if t.is_expanded(n) && t.node(n).is_call() {
            let sum: i64 = t
                .children_of(n)
                .filter_map(|k| t.node(k).self_cost(t.direction))
                .sum();
            let own = t.node(n).self_cost(t.direction).unwrap();
            assert!(sum <= own, "{sum} > {own}");
        }
    }
}

/// main calls work (self 600), which calls leaf (self 400).
const WORK: &str = "events: Ir\nfn=main\n1 0\ncfn=work\ncalls=1 1\n1 1000\n\
                    fn=work\n1 600\ncfn=leaf\ncalls=1 1\n1 400\nfn=leaf\n1 400\n";

#[test]
fn the_flame_graph_shades_self_costs_under_the_boxes_with_v() {
    for (color, ascii, shade) in [(true, false, "░"), (false, true, ":"), (false, false, "░")] {
        let mut app = text_app(WORK);
        app.theme = cgtui::tui::Theme {
            color,
            ascii,
            ..cgtui::tui::Theme::plain_colors()
        };
        // all, main, work: the selected box.
        press(&mut app, "fjj");
        let screen = text(&render(&mut app, 80, 24));
        assert!(!screen.contains(shade) || !color, "{screen}");
        assert!(
            screen.contains("work: 1,000 (100.00% of the total), self 600 (60.00%)"),
            "{screen}"
        );
        press(&mut app, "v");
        let screen = text(&render(&mut app, 80, 24));
        let lines: Vec<&str> = screen.lines().collect();
        let y = lines
            .iter()
            .position(|l| l.starts_with("leaf") || l.starts_with("[leaf"))
            .unwrap_or_else(|| panic!("{screen}"));
        // leaf takes 400 of 1,000 in 80 cells: 32; work's self the 48
        // right of it, leaf's own the 32 under it.
        let cells: Vec<String> = lines[y].chars().map(String::from).collect();
        assert_eq!(cells.len(), 80, "{screen}");
        assert!(cells[32..].iter().all(|c| c == shade), "{screen}");
        assert!(cells[..32].iter().all(|c| c != shade), "{screen}");
        assert_eq!(lines[y + 1], shade.repeat(32), "{screen}");
        assert!(screen.contains(&format!("; {shade} self")), "{screen}");
        // main spends nothing itself: nothing under main's row but work.
        assert!(!lines[y - 1].contains(shade), "{screen}");
        press(&mut app, "v");
        let screen = text(&render(&mut app, 80, 24));
        let lines: Vec<&str> = screen.lines().collect();
        assert!(
            !lines[y].contains(shade) && !lines[y + 1].contains(shade),
            "{screen}"
        );
    }
}

/// One step per level at every size (issue 40: `main` and its child once
/// shared a column and the next level sat one cell in): the hot path of
/// the C++ sample opens deep, so the rows above the levels that fit say
/// their depth (`…3`), and every other row of the path is one indent
/// further than its parent.
#[test]
fn tree_levels_are_one_step_each_and_cut_levels_say_their_depth() {
    for (w, h) in [(80, 24), (40, 10), (250, 70)] {
        let mut app = sample_app("cpp-names.callgrind");
        press(&mut app, "/main<Enter>t");
        let screen = text(&render(&mut app, w, h));
        // The column of each row's opener, and whether it says its depth.
        let openers: Vec<(usize, bool)> = (screen.lines())
            .filter_map(|l| {
                let at = l.chars().position(|c| c == '▾')?;
                let before: String = l.chars().take(at).collect();
                Some((
                    at,
                    before.trim_end().ends_with(|c: char| c.is_ascii_digit()),
                ))
            })
            .collect();
        assert!(openers.len() >= 3, "{screen}");
        let plain: Vec<usize> = (openers.iter())
            .filter(|(_, marked)| !marked)
            .map(|&(at, _)| at)
            .collect();
        assert!(
            plain.windows(2).all(|p| p[1] == p[0] + 2),
            "{w}x{h}: {plain:?}\n{screen}"
        );
        if w == 80 {
            assert!(screen.contains("…1 ▾"), "{screen}");
        }
    }
}

/// The views stack: a view opened over another is the one drawn and
/// given the keys, and closing it shows the one under it as it was.
#[test]
fn a_view_opened_over_another_closes_back_to_it() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/main<Enter>tjj");
    let selected = app.tree().unwrap().node();
    // `s` over the tree: the source view is drawn and moves with `j`.
    press(&mut app, "s");
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("Source of main"), "{screen}");
    let line = app.source().unwrap().scroll.selected;
    press(&mut app, "j");
    assert_eq!(app.source().unwrap().scroll.selected, line + 1);
    assert_eq!(app.tree().unwrap().node(), selected);
    // Esc: back to the tree, its selection kept; Esc again: the list.
    press(&mut app, "<Esc>");
    assert!(app.source().is_none());
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("Call tree"), "{screen}");
    assert_eq!(app.tree().unwrap().node(), selected);
    press(&mut app, "<Esc>");
    assert!(app.tree().is_none());
}
