//! Demangled names against Valgrind's own demangler: the same program
//! profiled with `--demangle=no` (samples/cpp-names-mangled.callgrind,
//! samples/rust-names-mangled.callgrind) and without
//! (cpp-names.callgrind, rust-names.callgrind), by samples/regenerate.sh.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cgtui::parse::{LoadOptions, load_paths};
use cgtui::profile::{FnId, Profile};
use cgtui::symbols::demangle;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn load(name: &str) -> Profile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name);
    load_paths(&[path], LoadOptions::default()).unwrap()
}

fn names(p: &Profile) -> Vec<String> {
    (0..p.functions.len())
        .map(|i| p.fn_name(FnId::from_index(i)).to_string())
        .collect()
}

/// The share of mangled names whose demangled form Valgrind wrote too, and
/// the ones it did not.
fn agreement(mangled: &str, demangled: &str) -> (f64, usize, Vec<(String, String)>) {
    let valgrind: BTreeSet<String> = names(&load(demangled)).into_iter().collect();
    let mut total = 0;
    let mut same = 0;
    let mut differ = Vec::new();
    for name in names(&load(mangled)) {
        let Some(ours) = demangle(&name) else {
            continue;
        };
        total += 1;
        if valgrind.contains(&ours) {
            same += 1;
        } else {
            differ.push((name, ours));
        }
    }
    (same as f64 / total.max(1) as f64, total, differ)
}

#[test]
fn cpp_names_match_valgrinds_demangler() {
    let (share, total, differ) = agreement("cpp-names-mangled.callgrind", "cpp-names.callgrind");
    assert!(total > 300, "{total} mangled names");
    // 94.2% of 432 agree. In the 25 that differ, the parameter list refers
    // back to the template's own parameters (forwarding references `T&&`,
    // mangled `OT_`; packs `Args&&...`, `DpOT_`; `S1_`-style
    // substitutions inside them), which cpp_demangle expands otherwise than
    // libiberty (Valgrind): it leaves out some of those parameters or their
    // `&&` (`std::function<long (int)>::function<main::{lambda(int)#2},
    // void>()` where the parameter list has the lambda). The rest of each
    // name is the same.
    assert!(
        share >= 0.93,
        "{:.1}% of {total} agree; first differences: {:#?}",
        share * 100.0,
        &differ[..differ.len().min(15)]
    );
}

#[test]
fn rust_names_match_valgrinds_demangler() {
    let (share, total, differ) = agreement("rust-names-mangled.callgrind", "rust-names.callgrind");
    assert!(total > 100, "{total} mangled names");
    assert!(
        share >= 0.93,
        "{:.1}% of {total} agree; first differences: {:#?}",
        share * 100.0,
        &differ[..differ.len().min(15)]
    );
}

use crate::support::{cli, tui};

#[test]
fn report_demangle_gives_both_forms() {
    let file = "samples/cpp-names-mangled.callgrind";
    let v: serde_json::Value =
        serde_json::from_str(&cli::stdout_of(&["report", "--json", "--demangle", file])).unwrap();
    let push_back = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["mangled"] == "_ZNSt6vectorIiSaIiEE9push_backERKi")
        .expect("push_back is in the profile");
    assert_eq!(
        push_back["name"],
        "std::vector<int, std::allocator<int> >::push_back(int const&)"
    );
    let plain: serde_json::Value =
        serde_json::from_str(&cli::stdout_of(&["report", "--json", file])).unwrap();
    assert!(plain["functions"][0].get("mangled").is_none());
    let text = cli::stdout_of(&["report", "--demangle", "--threshold", "100", file]);
    assert!(text.contains("std::locale::locale()"), "{text}");
    assert!(!text.contains("_ZNSt6localeC1Ev"), "{text}");
}

#[test]
fn classes_of_mangled_names_are_those_of_their_readable_forms() {
    let groups = |file: &str| -> BTreeSet<String> {
        let v: serde_json::Value = serde_json::from_str(&cli::stdout_of(&[
            "report",
            "--json",
            "--group-by",
            "class",
            file,
        ]))
        .unwrap();
        v["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["name"].as_str().unwrap().to_string())
            .collect()
    };
    let mangled = groups("samples/cpp-names-mangled.callgrind");
    let readable = groups("samples/cpp-names.callgrind");
    let shared = mangled.intersection(&readable).count();
    assert!(
        shared as f64 >= 0.9 * readable.len() as f64,
        "{shared} of {} classes",
        readable.len()
    );
    assert!(mangled.contains("geo::detail::Vec<double, 3>"));
}

#[test]
fn the_browser_shows_readable_names_d_shows_them_as_written_and_search_finds_both() {
    let mut app = tui::sample_app("cpp-names-mangled.callgrind");
    let f = (0..app.profile.functions.len())
        .map(FnId::from_index)
        .find(|&f| app.profile.fn_name(f) == "_ZNSt6localeC1Ev")
        .unwrap();
    assert_eq!(app.function_name(f), "std::locale::locale()");
    tui::press(&mut app, "D");
    assert_eq!(app.function_name(f), "_ZNSt6localeC1Ev");
    tui::press(&mut app, "D");
    // Search by either form finds the function.
    for query in ["locale::locale", "_ZNSt6localeC1Ev"] {
        tui::press(&mut app, &format!("/{query}<Enter>"));
        assert_eq!(app.current, Some(f), "{query}");
        tui::press(&mut app, "g");
    }
    let screen = tui::text(&tui::render(&mut app, 120, 40));
    assert!(!screen.contains("_ZNSt6localeC1Ev"), "{screen}");
}
