//! Golden tests: our numbers against callgrind_annotate's, for every sample
//! it can read. The golden files are made by `tests/golden/make-goldens.sh`
//! (tool version in `tests/golden/VERSION`).
//!
//! callgrind_annotate names a function `file:function` where `file` is the
//! `fi=`/`fe=` file of each cost line, so one function is split over the
//! files its inlined code comes from; we build the same keys from our
//! per-line records. Where it is known to be wrong, the test says so and
//! checks the exact difference instead of skipping:
//! - it adds the inclusive cost of `calls=0` edges to the caller's self cost;
//! - `--inclusive=yes` adds recursive calls again (fib'2 shows 200%), so
//!   inclusive costs are only compared for functions without recursion;
//! - it takes the total of a multi-part file from the last part's header,
//!   and uses `summary:` even where the cost lines add up to less;
//! - for a recursive function or a member of a cycle it adds the calls to
//!   itself or other members, which measure the nested activations again
//!   (`step'2` of cycle-entry: 227,200, 101.7% of the run); ours is the
//!   larger of its figure without those calls and the calls into it from
//!   outside, both read from its own tree, and the test checks exactly that.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::annotate_output;

use annotate_output::Costs;
use cgtui::analysis::Analysis;
use cgtui::parse::{LoadOptions, load_paths};
use cgtui::profile::{FileId, FnId, Part, Profile};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every golden `.annotate` file with the sample it was made from.
fn goldens() -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    let mut dirs = vec![root().join("tests/golden")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "annotate") {
                let rel = path.strip_prefix(root().join("tests/golden")).unwrap();
                let sample = root().join("samples").join(rel.with_extension(""));
                out.push((path, sample));
            }
        }
    }
    out.sort();
    out
}

fn load(sample: &Path) -> Profile {
    load_paths(
        &[sample.to_path_buf()],
        LoadOptions {
            siblings: false,
            ..LoadOptions::default()
        },
    )
    .unwrap()
}

/// `file:function` as callgrind_annotate writes it.
fn key(profile: &Profile, file: FileId, f: FnId) -> String {
    let file = profile.file_name(file);
    let file = if file.is_empty() { "???" } else { file };
    format!("{file}:{}", profile.fn_name(f))
}

/// A part's row in the golden's event order.
fn in_order(profile: &Profile, part: &Part, events: &[String], row: &[i64]) -> Costs {
    events
        .iter()
        .map(|name| {
            let global = profile.events.index_of(name).unwrap();
            part.event_map
                .iter()
                .position(|&g| g == global)
                .map_or(0, |c| row.get(c).copied().unwrap_or(0))
        })
        .collect()
}

fn add(to: &mut Costs, row: &[i64]) {
    for (a, b) in to.iter_mut().zip(row) {
        *a += b;
    }
}

/// Our self costs per `file:function`, plus the `calls=0` edge costs that
/// callgrind_annotate wrongly adds to the caller (second map).
fn our_self(
    profile: &Profile,
    events: &[String],
) -> (HashMap<String, Costs>, HashMap<String, Costs>) {
    let mut own: HashMap<String, Costs> = HashMap::new();
    let mut zero_calls: HashMap<String, Costs> = HashMap::new();
    let n = events.len();
    for part in &profile.parts {
        let part = &part.decode(profile);
        for (i, l) in part.lines.iter().enumerate() {
            let row = in_order(profile, part, events, part.line_cost(i));
            add(
                own.entry(key(profile, l.file, l.func))
                    .or_insert(vec![0; n]),
                &row,
            );
        }
        for (i, c) in part.calls.iter().enumerate().filter(|(_, c)| c.count == 0) {
            let row = in_order(profile, part, events, part.call_cost(i));
            add(
                zero_calls
                    .entry(key(profile, c.file, c.caller))
                    .or_insert(vec![0; n]),
                &row,
            );
        }
    }
    (own, zero_calls)
}

/// Each sample with a `--tree=both` golden (not cg_diff's, whose negative
/// costs callgrind_annotate prints as 0), its parsed golden and our profile.
fn tree_goldens() -> Vec<(PathBuf, annotate_output::Annotate, Profile)> {
    goldens()
        .into_iter()
        .filter_map(|(golden, sample)| {
            let tree_file = golden.with_extension("inclusive");
            if sample.ends_with("branches-diff.cachegrind") || !tree_file.exists() {
                return None;
            }
            let theirs = annotate_output::parse(&std::fs::read_to_string(&tree_file).unwrap());
            let profile = load(&sample);
            Some((sample, theirs, profile))
        })
        .collect()
}

fn nonzero(c: &Costs) -> bool {
    c.iter().any(|&x| x != 0)
}

/// Every sample callgrind_annotate can read has its goldens (seven samples
/// once went without, unchecked, until make-goldens.sh ran again): all but
/// the gzipped one and empty files, as make-goldens.sh skips them.
#[test]
fn golden_files_exist_for_the_samples() {
    let samples = root().join("samples");
    let mut dirs = vec![samples.clone()];
    let mut missing = Vec::new();
    let mut found = 0;
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                if name != "src" {
                    dirs.push(path);
                }
                continue;
            }
            let no_profile = name.ends_with(".md") || name.ends_with(".sh");
            if no_profile || name.ends_with(".gz") || path.metadata().unwrap().len() == 0 {
                continue;
            }
            let rel = path.strip_prefix(&samples).unwrap();
            let golden = root().join("tests/golden").join(rel);
            for kind in ["annotate", "inclusive"] {
                let golden = golden.with_file_name(format!("{name}.{kind}"));
                if golden.exists() {
                    found += 1;
                } else {
                    missing.push(golden);
                }
            }
        }
    }
    assert_eq!(
        missing,
        Vec::<PathBuf>::new(),
        "run tests/golden/make-goldens.sh"
    );
    assert!(found >= 80, "only {found} golden files");
}

#[test]
fn self_costs_equal_callgrind_annotate() {
    let mut checked = 0;
    for (golden, sample) in goldens() {
        if sample.ends_with("branches-diff.cachegrind") {
            // cg_diff output: callgrind_annotate prints 0 for negative
            // per-function costs; `cg_diff_is_the_difference_of_its_inputs` checks it.
            continue;
        }
        let theirs = annotate_output::parse(&std::fs::read_to_string(&golden).unwrap());
        let profile = load(&sample);
        let (mut ours, zero_calls) = our_self(&profile, &theirs.events);
        for (k, extra) in &zero_calls {
            add(ours.entry(k.clone()).or_insert(vec![0; extra.len()]), extra);
        }
        let keys: HashSet<&String> = ours.keys().chain(theirs.functions.keys()).collect();
        for k in keys {
            let zero = vec![0; theirs.events.len()];
            let a = ours.get(k).unwrap_or(&zero);
            let b = theirs.functions.get(k).unwrap_or(&zero);
            if nonzero(a) || nonzero(b) {
                assert_eq!(a, b, "{}: self cost of {k}", sample.display());
            }
        }
        checked += 1;
    }
    assert!(checked >= 20);
}

#[test]
fn totals_equal_callgrind_annotate_where_the_file_is_consistent() {
    for (golden, sample) in goldens() {
        let theirs = annotate_output::parse(&std::fs::read_to_string(&golden).unwrap());
        let profile = load(&sample);
        let analysis = Analysis::new(&profile);
        let ours: Costs = theirs
            .events
            .iter()
            .map(|e| analysis.totals[profile.events.index_of(e).unwrap()])
            .collect();
        // callgrind_annotate's total is the last part's `summary:` whatever
        // the cost lines say, 0 for an event it does not list (callgrind's
        // `--cacheuse=yes` lists 13 of 17). Ours is the sum over all parts
        // of each part's `summary:`, where that is at least the sum of its
        // cost lines.
        let last = profile.parts.last().unwrap();
        let inconsistent = profile.parts.iter().any(|p| {
            p.summary.as_ref().is_some_and(|s| {
                let listed = s.iter().chain(std::iter::repeat(&0));
                listed.zip(p.self_sum()).any(|(d, s)| *d < s)
            })
        });
        if profile.parts.len() > 1 || inconsistent {
            let summary = last.summary.as_ref().unwrap();
            assert_eq!(
                in_order(&profile, last, &theirs.events, summary),
                theirs.totals
            );
            assert_ne!(
                ours,
                theirs.totals,
                "{}: expected to differ",
                sample.display()
            );
        } else {
            assert_eq!(ours, theirs.totals, "{}: totals", sample.display());
        }
    }
}

/// Every `>` row of the tree output is one of our call edges, with the same
/// count and inclusive cost, and we have no edge it lacks.
#[test]
fn call_edges_equal_callgrind_annotate() {
    let mut checked = 0;
    for (sample, theirs, profile) in tree_goldens() {
        let n = theirs.events.len();
        let mut ours: HashMap<(String, String), (u64, Costs)> = HashMap::new();
        for part in &profile.parts {
            let part = &part.decode(&profile);
            // callgrind_annotate folds `calls=0` sites into self cost instead.
            for (i, c) in part.calls.iter().enumerate().filter(|(_, c)| c.count > 0) {
                let callee_file = profile.functions[c.callee.index()].file;
                let k = (
                    key(&profile, c.file, c.caller),
                    key(&profile, callee_file, c.callee),
                );
                let e = ours.entry(k).or_insert((0, vec![0; n]));
                e.0 += c.count;
                add(
                    &mut e.1,
                    &in_order(&profile, part, &theirs.events, part.call_cost(i)),
                );
            }
        }
        assert_eq!(
            ours.len(),
            theirs.calls.len(),
            "{}: number of edges",
            sample.display()
        );
        for (k, v) in &theirs.calls {
            assert_eq!(ours.get(k), Some(v), "{}: call {k:?}", sample.display());
        }
        checked += 1;
    }
    assert!(checked >= 20);
}

/// Inclusive costs agree where there is no recursion; where there is, ours
/// stay within the total while callgrind_annotate's count recursive calls twice.
#[test]
fn inclusive_costs_equal_callgrind_annotate_without_recursion() {
    let mut compared = 0;
    let mut recursive_seen = 0;
    let mut inconsistent_seen = 0;
    for (sample, theirs, profile) in tree_goldens() {
        if profile.parts.len() > 1 {
            // Several parts in one file: callgrind_annotate's inclusive costs
            // come out below the self costs (trigger: 20 incl, 30 self in
            // active-call); self costs and edges are compared above.
            continue;
        }
        let analysis = Analysis::new(&profile);
        let ev = profile.events.index_of(&theirs.events[0]).unwrap();
        // callgrind_annotate gives a function's whole inclusive cost to its
        // own `fl=` key (its `fi=` pieces get rows of their own), so compare
        // per `fl=` key, summing functions that share one (same name and
        // file in several objects).
        let mut ours: HashMap<String, i64> = HashMap::new();
        let mut special: HashSet<String> = HashSet::new();
        let mut inconsistent: HashSet<String> = HashSet::new();
        let cost = |e: u32| analysis.edge_cost(e as usize)[ev];
        for f in (0..analysis.function_count()).map(FnId::from_index) {
            let k = key(&profile, profile.functions[f.index()].file, f);
            *ours.entry(k.clone()).or_default() += analysis.inclusive(f)[ev];
            if analysis
                .callees(f)
                .iter()
                .any(|e| analysis.is_recursive(e as usize))
            {
                special.insert(k.clone());
            }
            let incoming: i64 = analysis.callers(f).iter().map(cost).sum();
            let outgoing: i64 = analysis.callees(f).iter().map(cost).sum();
            let own = analysis.self_cost(f)[ev] + outgoing;
            let over_total = own > analysis.totals[ev];
            if over_total || (!analysis.callers(f).is_empty() && incoming != own) {
                inconsistent.insert(k);
            }
        }
        for part in &profile.parts {
            let part = &part.decode(&profile);
            for c in part.calls.iter().filter(|c| c.count == 0) {
                special.insert(key(
                    &profile,
                    profile.functions[c.caller.index()].file,
                    c.caller,
                ));
            }
        }
        let total = analysis.totals[ev];
        for (name, ours) in ours {
            let Some(theirs) = theirs.functions.get(&name).map(|c| c[0]) else {
                continue;
            };
            if inconsistent.contains(&name) && !special.contains(&name) {
                // The calls into it measured a different cost than its self cost
                // plus its calls (xdebug's timer, or a process exiting inside
                // `_exit`), or more than the whole run (yappi's ticks):
                // callgrind_annotate takes one of the measurements, we take the
                // larger, capped at the total.
                let total = analysis.totals[ev];
                assert!(
                    ours >= theirs || ours == total,
                    "{}: {name}: {ours} < {theirs}",
                    sample.display()
                );
                inconsistent_seen += 1;
            } else if special.contains(&name) {
                assert!(
                    ours <= theirs,
                    "{}: {name}: {ours} > {theirs}",
                    sample.display()
                );
                assert!(
                    ours <= total.max(0) || total < 0,
                    "{}: {name} over total",
                    sample.display()
                );
                recursive_seen += 1;
            } else {
                assert_eq!(
                    ours,
                    theirs,
                    "{}: inclusive cost of {name}",
                    sample.display()
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "compared {compared}");
    assert!(recursive_seen > 10, "recursive {recursive_seen}");
    assert!(inconsistent_seen > 0);
}

/// cycle-entry (SQLite's `sqlite3_step` shape): `step'2` and `vdbe_exec'2`
/// form a cycle entered from `vdbe_exec`. callgrind_annotate's inclusive
/// cost of `step'2` is its self cost plus the calls to `vdbe_exec'2`, which
/// contain the nested `step'2` activations again; ours is the cost of the
/// calls into it from outside the cycle, which callgrind_annotate measures
/// right (they are also `vdbe_exec`'s inclusive cost minus its self cost and
/// its calls to `leaf`).
#[test]
fn a_cycle_entered_from_outside_gets_the_cost_of_the_calls_into_it() {
    let (_, theirs, profile) = tree_goldens()
        .into_iter()
        .find(|(s, _, _)| s.ends_with("cycle-entry.callgrind"))
        .expect("cycle-entry golden");
    let analysis = Analysis::new(&profile);
    let file = "samples/src/cycle_entry.c";
    let name = |f: &str| format!("{file}:{f}");
    let call = |a: &str, b: &str| theirs.calls[&(name(a), name(b))].1[0];
    let their_incl = |f: &str| theirs.functions[&name(f)][0];
    let self_golden = root().join("tests/golden/cycle-entry.callgrind.annotate");
    let their_selfs = annotate_output::parse(&std::fs::read_to_string(self_golden).unwrap());
    let their_self = |f: &str| their_selfs.functions[&name(f)][0];
    let ours = |f: &str| {
        let id = profile
            .find_function(f, file, "/tmp/cgtui-samples/cycle_entry")
            .unwrap();
        analysis.inclusive(id)[0]
    };
    let into_step2 = call("vdbe_exec", "step'2");
    assert_eq!(into_step2, 90_940);
    assert_eq!(
        into_step2,
        their_incl("vdbe_exec") - their_self("vdbe_exec") - call("vdbe_exec", "leaf")
    );
    assert_eq!(ours("step'2"), into_step2);
    // callgrind_annotate: 720 + 226,480 = 227,200, more than the whole run;
    // the difference from ours is the nested activations counted again.
    assert_eq!(their_self("step'2"), 720);
    assert_eq!(
        their_incl("step'2"),
        their_self("step'2") + call("step'2", "vdbe_exec'2")
    );
    assert_eq!(their_incl("step'2") - ours("step'2"), 136_260);
    assert!(their_incl("step'2") > analysis.totals[0]);
    // vdbe_exec'2 is called only from inside: 1,260 self + 88,960 to leaf.
    assert_eq!(
        ours("vdbe_exec'2"),
        their_self("vdbe_exec'2") + call("vdbe_exec'2", "leaf")
    );
    assert_eq!(ours("vdbe_exec'2"), 90_220);
    // The cycle: members' self 720 + 1,260 plus 88,960 leaving, equal to
    // the calls into it.
    let cycle = &analysis.cycles[0];
    assert_eq!(cycle.self_cost[0], 1_980);
    assert_eq!(cycle.inclusive[0], into_step2);
    // The functions outside the cycle agree with callgrind_annotate.
    for f in ["step", "vdbe_exec", "exec_sql", "leaf"] {
        assert_eq!(ours(f), their_incl(f), "{f}");
    }
}

/// Where callgrind_annotate's inclusive cost of a recursive function (one
/// calling itself or another member of its cycle) differs from ours, the
/// difference is exactly what it counts twice: its own tree gives the calls
/// to itself or other members (`>` rows), whose costs contain the nested
/// activations again, and the calls into it from outside (`<` rows). Ours is
/// the larger of its figure without those calls and the calls in from
/// outside, capped at the total.
#[test]
fn recursive_inclusive_costs_are_callgrind_annotates_without_nested_calls() {
    let mut checked = 0;
    let mut members = 0;
    for (sample, theirs, profile) in tree_goldens() {
        if profile.parts.len() > 1 {
            continue; // see inclusive_costs_equal_callgrind_annotate_without_recursion
        }
        let analysis = Analysis::new(&profile);
        let ev = profile.events.index_of(&theirs.events[0]).unwrap();
        let of_key = functions_by_key(&profile);
        let one = |k: &str| match of_key.get(k) {
            Some(set) if set.len() == 1 => set.iter().next().copied(),
            _ => None,
        };
        let same_cycle = |a: FnId, b: FnId| {
            a == b
                || analysis
                    .cycle_of(a)
                    .is_some_and(|c| Some(c.number) == analysis.cycle_of(b).map(|c| c.number))
        };
        let sum = |edges: cgtui::analysis::EdgeIds| -> i64 {
            edges
                .iter()
                .map(|e| analysis.edge_cost(e as usize)[ev])
                .sum()
        };
        for (k, incl) in &theirs.functions {
            let Some(f) = one(k) else { continue };
            let edges = || analysis.callees(f).iter().chain(analysis.callers(f));
            let is_recursive = edges().any(|e| analysis.is_recursive(e as usize));
            let zero_calls = edges().any(|e| analysis.edges[e as usize].count == 0);
            // Where the calls into it measured other than its self cost plus
            // its calls (cProfile's timer), the data contradicts itself and
            // there is no exact figure to compare.
            let consistent = analysis.callers(f).is_empty()
                || sum(analysis.callers(f)) == analysis.self_cost(f)[ev] + sum(analysis.callees(f));
            // Its whole inclusive cost goes to its `fl=` key only.
            let own_key = key(&profile, profile.functions[f.index()].file, f) == *k;
            if !is_recursive || zero_calls || !consistent || !own_key {
                continue;
            }
            let (mut nested, mut from_outside, mut unresolved) = (0, 0, false);
            for ((caller, callee), (_, cost)) in &theirs.calls {
                let (a, b) = (one(caller), one(callee));
                if a != Some(f) && b != Some(f) {
                    continue;
                }
                // A key shared by several functions (one name and file in
                // two objects) cannot be split into ours.
                let (Some(a), Some(b)) = (a, b) else {
                    unresolved = true;
                    continue;
                };
                if a == f && same_cycle(a, b) {
                    nested += cost[0];
                } else if b == f && !same_cycle(a, b) {
                    from_outside += cost[0];
                }
            }
            if unresolved {
                continue;
            }
            let total = analysis.totals[ev];
            let expected = (incl[0] - nested).max(from_outside).min(total);
            assert_eq!(
                analysis.inclusive(f)[ev],
                expected,
                "{}: {k}: callgrind_annotate {}, nested {nested}, from outside {from_outside}",
                sample.display(),
                incl[0]
            );
            checked += 1;
            members += usize::from(analysis.cycle_of(f).is_some());
        }
    }
    assert!(checked > 50, "checked {checked}");
    assert!(members > 30, "cycle members {members}");
}

/// Every key callgrind_annotate makes for each function: its `fl=` file and
/// the `fi=`/`fe=` files of its lines and call lines.
fn functions_by_key(profile: &Profile) -> HashMap<String, HashSet<FnId>> {
    let mut of_key: HashMap<String, HashSet<FnId>> = HashMap::new();
    for (i, f) in profile.functions.iter().enumerate() {
        let id = FnId::from_index(i);
        of_key
            .entry(key(profile, f.file, id))
            .or_default()
            .insert(id);
    }
    for part in &profile.parts {
        let part = &part.decode(profile);
        let lines = part.lines.iter().map(|l| (l.file, l.func));
        for (file, f) in lines.chain(part.calls.iter().map(|c| (c.file, c.caller))) {
            of_key.entry(key(profile, file, f)).or_default().insert(f);
        }
    }
    of_key
}
