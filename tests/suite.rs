//! The integration tests, built and linked as one binary: each file of
//! `tests/` is a module here (what each checks: `tests/README.md`), its
//! helpers under `support/`. One binary builds in a fraction of the time
//! of one per file, and its tests share the cores while others wait on a
//! terminal. Run one file's tests with `cargo test --test suite FILE::`.

mod support;

mod annotate;
mod asm;
mod check;
mod cli;
mod cli_docs;
mod demangle;
mod diff;
mod docs;
mod folded;
mod fuzz_targets;
mod golden;
mod groups;
mod hostile;
mod hostile_names;
mod metrics;
mod parallel;
mod report_numbers;
mod roundtrip;
mod samples;
mod series;
mod source_view_matches_annotate;
mod tui_asm;
mod tui_columns;
mod tui_diff;
mod tui_diff_trees;
mod tui_faults;
mod tui_groups;
mod tui_keys;
mod tui_keys_ssh;
mod tui_large;
mod tui_pty;
mod tui_screens;
mod tui_slow_link;
mod tui_terminal;
mod tui_tmux;
mod tui_tree_bounds;
mod tui_trees;
mod tui_trust;

/// Cargo builds only this binary (`autotests = false` in Cargo.toml): a
/// file of `tests/` that is not a module here would never run, nor would
/// a fuzz target's body missing from `fuzz_targets`.
#[test]
fn every_test_file_and_fuzz_target_is_run() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_default();
    let files = |dir: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter_map(|n| n.strip_suffix(".rs").map(str::to_owned))
            .collect();
        names.sort();
        names
    };
    let suite = read("tests/suite.rs");
    for name in files("tests").iter().filter(|n| *n != "suite") {
        assert!(
            suite.contains(&format!("\nmod {name};")),
            "tests/{name}.rs is not a module of tests/suite.rs"
        );
    }
    let fuzz = read("tests/fuzz_targets.rs");
    let targets = files("fuzz/targets");
    assert!(targets.len() >= 6, "{targets:?}");
    for name in targets {
        assert!(
            fuzz.contains(&format!("\"../fuzz/targets/{name}.rs\"")),
            "fuzz/targets/{name}.rs is not run by tests/fuzz_targets.rs"
        );
    }
}
