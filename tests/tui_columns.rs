//! The metric columns (`m`): the chooser lists every metric with what it
//! is, Space and `s` show a metric's inclusive and self columns beside
//! the list's costs, at 80x24 and 40x10 too (the last chosen gives way
//! first), and the values are the report's.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;
use support::*;

/// `m`, then down to `metric` and the keys `toggle` (` ` or `s`).
fn choose(app: &mut cgtui::tui::app::App, metric: &str, toggle: &str) {
    let i = app.columns.metrics.index_of(metric).unwrap();
    press(app, &format!("m{}{toggle}<Esc>", "j".repeat(i)));
}

#[test]
fn the_chooser_lists_every_metric_with_what_it_is() {
    let mut app = sample_app("cachesim.callgrind");
    choose(&mut app, "D1mrRate", " ");
    press(&mut app, "m");
    let screen = text(&render(&mut app, 100, 32));
    insta::assert_snapshot!("columns_chooser_100x32", screen);
    assert!(screen.contains("CEst"), "{screen}");
    assert!(
        screen.contains("L1 data read miss rate = D1mr / Dr"),
        "{screen}"
    );
    assert!(screen.contains("[x]"), "{screen}");
    assert!(screen.contains("1 of at most 8 columns"), "{screen}");
}

#[test]
fn chosen_columns_stand_beside_the_costs_at_every_size() {
    let mut app = sample_app("cachesim.callgrind");
    choose(&mut app, "D1mrRate", " ");
    choose(&mut app, "D1mrRate", "s");
    choose(&mut app, "IPC", " ");
    for (w, h) in [(80, 24), (40, 10), (250, 70)] {
        let screen = text(&render(&mut app, w, h));
        insta::assert_snapshot!(format!("columns_list_{w}x{h}"), screen);
    }
    // At 40 columns the first chosen stays, the others give way.
    let narrow = text(&render(&mut app, 40, 10));
    assert!(
        narrow.contains("D1mrRate") && !narrow.contains("IPC"),
        "{narrow}"
    );
    // Toggling again hides it.
    choose(&mut app, "IPC", " ");
    let screen = text(&render(&mut app, 80, 24));
    assert!(!screen.contains("IPC"), "{screen}");
}

/// The rate in the list is the report's: main's inclusive D1mrRate.
#[test]
fn the_values_are_the_reports() {
    let report: serde_json::Value = serde_json::from_str(&crate::support::cli::stdout_of(&[
        "report",
        "--json",
        "--no-config",
        "samples/cachesim.callgrind",
        "--metric",
        "r=D1mr/Dr",
    ]))
    .unwrap();
    let main = (report["functions"].as_array().unwrap().iter())
        .find(|f| f["name"] == "main")
        .unwrap();
    let rate = main["metrics"]["r"]["inclusive"].as_f64().unwrap();
    let mut app = sample_app("cachesim.callgrind");
    choose(&mut app, "D1mrRate", " ");
    let screen = text(&render(&mut app, 80, 24));
    let row = screen
        .lines()
        .find(|l| l.trim_end().ends_with(" main"))
        .unwrap();
    let shown = format!("{:.4}%", rate * 100.0);
    assert!(row.contains(&shown[..5]), "{shown}: {row}");
}

/// Enter in the chooser sorts the list by the metric's inclusive column
/// (shown if it was not): largest first, blanks last; again reverses;
/// hiding the column sorts by inclusive cost again.
#[test]
fn enter_sorts_the_list_by_a_metric_column() {
    let mut app = sample_app("cachesim.callgrind");
    let i = app.columns.metrics.index_of("D1mrRate").unwrap();
    press(&mut app, &format!("m{}<Enter>", "j".repeat(i)));
    let column = app.columns.parse("D1mrRate").unwrap();
    assert_eq!(app.columns.chosen, [column]);
    let a = &app.analysis;
    let values: Vec<Option<f64>> = (app.browse.order.iter())
        .map(|&f| {
            let own = cgtui::tui::app::rows::self_cost(a, f);
            let incl = cgtui::tui::app::rows::inclusive(a, f);
            app.columns.value(column, own, incl)
        })
        .collect();
    let shown = values.iter().take_while(|v| v.is_some()).count();
    assert!(shown > 3 && shown < values.len(), "{values:?}");
    assert!(values[shown..].iter().all(Option::is_none));
    let numbers: Vec<f64> = values.iter().flatten().copied().collect();
    assert!(numbers.windows(2).all(|w| w[0] >= w[1]), "{numbers:?}");
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("D1mrRate▼"), "{screen}");
    // Again: reversed, the smallest rate first (blanks still last).
    press(&mut app, &format!("m{}<Enter>", "j".repeat(i)));
    assert!(app.browse.reversed);
    // Hidden: the inclusive sort again.
    press(&mut app, &format!("m{} <Esc>", "j".repeat(i)));
    assert!(app.columns.chosen.is_empty());
    assert_eq!(app.browse.sort, cgtui::tui::app::SortKey::Inclusive);
}

/// The source view shows the chosen metrics of each line's own costs
/// after its cost, named in the title: line 65 of `main` writes a matrix
/// with a 6.27% L1 write miss rate (D1mw / Dw of the line's costs in
/// `cgtui report --json --lines`: 257 of 4,096).
#[test]
fn the_source_view_shows_the_metrics_of_each_line() {
    let mut app = sample_app("cachesim.callgrind");
    choose(&mut app, "D1mrRate", " ");
    choose(&mut app, "D1mwRate", " ");
    press(&mut app, "s");
    let screen = text(&render(&mut app, 100, 30));
    insta::assert_snapshot!("columns_source_100x30", screen);
    assert!(
        screen.contains("self cost per line, then D1mrRate D1mwRate"),
        "{screen}"
    );
    let line = screen.lines().find(|l| l.contains(" 65 │")).unwrap();
    assert!(line.contains("6.27%"), "{line}");
}

/// The cell of `row` in the right-aligned column whose header ends where
/// `header` ends in `head`.
fn cell_under(head: &str, header: &str, row: &str) -> String {
    let end = head.find(header).unwrap() + header.chars().count();
    let chars: Vec<char> = row.chars().collect();
    let start = chars[..end].iter().rposition(|&c| c == ' ').unwrap() + 1;
    chars[start..end].iter().collect()
}

/// The call tree draws the chosen columns of each node's costs on its
/// path: main at its root holds its own inclusive and self D1mr (the
/// report's), qsort, called only by main, its inclusive D1mr; choosing
/// another column keeps the tree as it was (open nodes, selection), and
/// the flame graph says the selected box's columns on its status line.
#[test]
fn the_trees_and_the_flame_graph_show_the_chosen_columns() {
    let report: serde_json::Value = serde_json::from_str(&crate::support::cli::stdout_of(&[
        "report",
        "--json",
        "--no-config",
        "samples/cachesim.callgrind",
    ]))
    .unwrap();
    let d1mr = |name: &str, scope: &str| {
        let f = (report["functions"].as_array().unwrap().iter())
            .find(|f| f["name"] == name)
            .unwrap();
        let v = f[scope]["D1mr"].as_i64().unwrap();
        cgtui::format::thousands(v)
    };
    let mut app = sample_app("cachesim.callgrind");
    choose(&mut app, "D1mr", " ");
    choose(&mut app, "D1mr", "s");
    press(&mut app, "t");
    let screen = text(&render(&mut app, 120, 30));
    insta::assert_snapshot!("columns_tree_120x30", screen);
    let lines: Vec<&str> = screen.lines().collect();
    let head = lines.iter().find(|l| l.contains("Call tree of")).unwrap();
    let row = |name: &str| {
        *lines
            .iter()
            .find(|l| l.trim_end().ends_with(&format!(" {name}")))
            .unwrap_or_else(|| panic!("no {name}: {screen}"))
    };
    assert_eq!(
        cell_under(head, "D1mr", row("main")),
        d1mr("main", "inclusive")
    );
    assert_eq!(
        cell_under(head, "D1mr self", row("main")),
        d1mr("main", "self")
    );
    assert_eq!(
        cell_under(head, "D1mr", row("qsort")),
        d1mr("qsort", "inclusive")
    );
    // Another column: the same rows open, the same one selected.
    let (rows, selected) = {
        let v = app.tree().unwrap();
        (v.rows.len(), v.scroll.selected)
    };
    choose(&mut app, "D1mrRate", " ");
    let v = app.tree().unwrap();
    assert_eq!((v.rows.len(), v.scroll.selected), (rows, selected));
    let screen = text(&render(&mut app, 120, 30));
    assert!(screen.contains("D1mrRate"), "{screen}");
    // At 40 columns the self cost outlives the chosen columns.
    let narrow = text(&render(&mut app, 40, 10));
    assert!(
        narrow.contains("Self") && !narrow.contains("D1mr"),
        "{narrow}"
    );
    // The flame graph's status line: the whole program's D1mr.
    press(&mut app, "f");
    let screen = text(&render(&mut app, 160, 30));
    let total = cgtui::format::thousands(report["totals"]["D1mr"].as_i64().unwrap());
    assert!(
        screen.contains(&format!("D1mr {total}, D1mr self 0, D1mrRate")),
        "{screen}"
    );
}
