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
