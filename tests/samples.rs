//! Whole-profile checks on the real samples that the golden files cannot
//! make: gzip, sibling sets, cg_diff's negative costs, and invariants of the
//! inclusive costs.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cgtui::analysis::Analysis;
use cgtui::parse::{LoadOptions, load_paths};
use cgtui::profile::{FnId, Profile, Severity};
use std::collections::HashMap;
use std::path::PathBuf;

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

fn load(name: &str, siblings: bool) -> Profile {
    load_paths(
        &[sample(name)],
        LoadOptions {
            siblings,
            ..LoadOptions::default()
        },
    )
    .unwrap()
}

/// Self cost per (function name, file) in the profile's first event columns.
fn self_by_name(p: &Profile) -> HashMap<(String, String), Vec<i64>> {
    let a = Analysis::new(p);
    let mut out: HashMap<(String, String), Vec<i64>> = HashMap::new();
    for f in (0..a.function_count()).map(FnId::from_index) {
        let row = out
            .entry((p.fn_name(f).to_string(), p.fn_file(f).to_string()))
            .or_insert(vec![0; a.width]);
        for (x, y) in row.iter_mut().zip(a.self_cost(f)) {
            *x += y;
        }
    }
    out
}

#[test]
fn gzip_sample_reads_like_the_plain_one() {
    let plain = Analysis::new(&load("recursion.callgrind", false));
    let gz_profile = load("recursion.callgrind.gz", false);
    let gz = Analysis::new(&gz_profile);
    assert_eq!(plain.totals, gz.totals);
    assert_eq!(plain.function_count(), gz.function_count());
    assert_eq!(plain.edges, gz.edges);
}

#[test]
fn cg_diff_is_the_difference_of_its_inputs() {
    // branches-diff = cg_diff(branches, branches-n16): second minus first.
    let a = self_by_name(&load("branches.cachegrind", false));
    let b = self_by_name(&load("branches-n16.cachegrind", false));
    let diff_profile = load("branches-diff.cachegrind", false);
    let diff = self_by_name(&diff_profile);
    let analysis = Analysis::new(&diff_profile);
    assert!(analysis.totals[0] < 0, "the smaller run minus the larger");
    let mut negatives = 0;
    // cg_diff writes the profile's events in its own order; map by name.
    let order: Vec<usize> = diff_profile
        .events
        .events
        .iter()
        .map(|e| {
            load("branches.cachegrind", false)
                .events
                .index_of(&e.name)
                .unwrap()
        })
        .collect();
    for (k, d) in &diff {
        let zero = vec![0; 16];
        let (x, y) = (a.get(k).unwrap_or(&zero), b.get(k).unwrap_or(&zero));
        for (col, &v) in d.iter().enumerate() {
            assert_eq!(v, y[order[col]] - x[order[col]], "{k:?} column {col}");
            negatives += usize::from(v < 0);
        }
    }
    assert!(negatives > 0);
}

#[test]
fn naming_one_thread_file_loads_the_whole_run() {
    let all = load("threads/callgrind.out.1000-02", true);
    // The empty callgrind.out.1000 Valgrind leaves beside them is skipped.
    assert_eq!(all.sources.len(), 4, "{:?}", all.sources);
    assert_eq!(all.parts.len(), 4);
    let threads: Vec<_> = all.parts.iter().map(|p| p.thread).collect();
    assert_eq!(threads, vec![Some(1), Some(2), Some(3), Some(4)]);
    let sum: i64 = (1..=4)
        .map(|t| Analysis::new(&load(&format!("threads/callgrind.out.1000-0{t}"), false)).totals[0])
        .sum();
    assert_eq!(Analysis::new(&all).totals[0], sum);
    // Parts can be switched off: thread 1 alone.
    let only_first = Analysis::with_parts(&all, &[true, false, false, false]);
    let first = Analysis::new(&load("threads/callgrind.out.1000-01", false));
    assert_eq!(only_first.totals, first.totals);
}

#[test]
fn naming_the_base_file_loads_every_dump() {
    let all = load("dumps/callgrind.out.1000", true);
    assert_eq!(all.sources.len(), 4);
    assert!(all.sources[0].ends_with("callgrind.out.1000.1"));
    assert!(all.sources[3].ends_with("callgrind.out.1000"));
}

#[test]
fn several_dumps_in_one_file_become_parts() {
    let p = load("combined-dumps.callgrind", false);
    assert!(p.parts.len() > 1);
    let numbers: Vec<_> = p.parts.iter().map(|x| x.number).collect();
    let expected: Vec<_> = (1..=p.parts.len() as u64).map(Some).collect();
    assert_eq!(numbers, expected);
}

/// Every sample loads without errors, and no inclusive cost exceeds the
/// total or falls below the self cost (in columns without negative costs;
/// in a `cg_diff` file's signed columns, inclusive is self).
#[test]
fn inclusive_costs_stay_between_self_and_total_on_every_sample() {
    let mut files = Vec::new();
    for dir in ["", "threads", "dumps"] {
        for entry in std::fs::read_dir(sample(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let is_profile = name.contains(".callgrind")
                || name.contains(".cachegrind")
                || name.starts_with("callgrind.out");
            if path.is_file() && is_profile && std::fs::metadata(&path).unwrap().len() > 0 {
                files.push(path);
            }
        }
    }
    assert!(files.len() >= 30, "{}", files.len());
    for path in files {
        let p = load_paths(
            std::slice::from_ref(&path),
            LoadOptions {
                siblings: false,
                ..LoadOptions::default()
            },
        )
        .unwrap();
        let errors: Vec<_> = p
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        assert_eq!(p.skipped_lines, 0);
        let a = Analysis::new(&p);
        for f in (0..a.function_count()).map(FnId::from_index) {
            for ev in 0..a.width {
                let (s, i) = (a.self_cost(f)[ev], a.inclusive(f)[ev]);
                if a.is_signed(ev) {
                    // cg_diff: costs of either sign, no bound from the total;
                    // without calls (Cachegrind) inclusive is self.
                    if a.callees(f).is_empty() {
                        assert_eq!(i, s, "{}: {}", path.display(), p.fn_name(f));
                    }
                    continue;
                }
                assert!(
                    i >= s,
                    "{}: {} incl {i} < self {s}",
                    path.display(),
                    p.fn_name(f)
                );
                assert!(
                    i <= a.totals[ev],
                    "{}: {} incl {i} > total",
                    path.display(),
                    p.fn_name(f)
                );
            }
        }
    }
}
