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
