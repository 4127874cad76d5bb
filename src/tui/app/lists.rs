//! Lists the app keeps besides the flat list's orders (`orders`): the name
//! ranks, the caller/callee edges of the current function, the parts'
//! totals. Built once per change, never per frame. Ties are broken by name,
//! then id, so screens are deterministic.

use crate::analysis::Analysis;
use crate::profile::{FnId, Profile};
use std::cmp::Reverse;
use std::collections::HashMap;

/// For each function whose name another function has too (`main` in three
/// files of a Cachegrind profile, six `<module>` rows of a Python one, the
/// two `(below main)` of every Valgrind profile), what tells it apart: the
/// first of its file's base name, its object's base name, its file's path,
/// or file and object, that differs across all functions of that name (and
/// is not `???`).
/// `by_name` is every function sorted by name.
pub fn qualifiers(profile: &Profile, by_name: &[FnId]) -> HashMap<FnId, String> {
    let base = |p: &str| -> String {
        std::path::Path::new(p)
            .file_name()
            .map_or_else(|| p.to_string(), |n| n.to_string_lossy().into_owned())
    };
    let ways: [&dyn Fn(FnId) -> String; 4] = [
        &|f| base(profile.fn_file(f)),
        &|f| base(profile.fn_object(f)),
        &|f| profile.fn_file(f).to_string(),
        &|f| format!("{} {}", profile.fn_file(f), base(profile.fn_object(f))),
    ];
    let mut out = HashMap::new();
    for group in by_name.chunk_by(|a, b| profile.fn_name(*a) == profile.fn_name(*b)) {
        if group.len() < 2 {
            continue;
        }
        let distinct = |way: &dyn Fn(FnId) -> String| {
            let mut seen: Vec<String> = group.iter().map(|&f| way(f)).collect();
            seen.sort_unstable();
            // `???` (no file known) tells nothing: try another way first.
            seen.windows(2).all(|w| w[0] != w[1]) && !seen.iter().any(|s| s == "???")
        };
        let way = ways
            .iter()
            .find(|w| distinct(**w))
            .unwrap_or(&ways[ways.len() - 1]);
        for &f in group {
            out.insert(f, way(f));
        }
    }
    out
}

/// Each function's position in name order (ties by id), and the functions
/// in that order: computed once, so that sorting by cost breaks ties with
/// an integer, not a string comparison, and sorting by name is a filter.
pub fn name_ranks(profile: &Profile) -> (Vec<u32>, Vec<FnId>) {
    let mut ids: Vec<FnId> = (0..profile.functions.len()).map(FnId::from_index).collect();
    ids.sort_unstable_by(|a, b| profile.fn_name(*a).cmp(profile.fn_name(*b)).then(a.cmp(b)));
    let mut rank = vec![0u32; ids.len()];
    for (r, f) in ids.iter().enumerate() {
        rank[f.index()] = r as u32;
    }
    (rank, ids)
}

/// The function the browser opens on: `main` where the profile has one
/// (the costliest if several), else the costliest with a name (not an
/// unnamed address such as ld.so's `0x000000000001ab70`). `order` is the
/// list sorted by inclusive cost.
pub fn opening_function(profile: &Profile, order: &[FnId]) -> Option<FnId> {
    let n = profile.functions.len();
    let functions = || order.iter().copied().filter(|f| f.index() < n);
    functions()
        .find(|&f| profile.fn_name(f) == "main")
        .or_else(|| functions().find(|&f| !profile.fn_name(f).starts_with("0x")))
        .or_else(|| order.first().copied())
}

/// `edges` (indexes into `analysis.edges`) by the inclusive cost of the
/// calls, costliest first; ties by the other end's name.
pub fn sorted_edges(
    profile: &Profile,
    analysis: &Analysis,
    edges: &[u32],
    event: usize,
    callers: bool,
) -> Vec<u32> {
    let mut out = edges.to_vec();
    let other = |e: u32| {
        let edge = analysis.edges[e as usize];
        if callers { edge.caller } else { edge.callee }
    };
    let cost = |e: u32| {
        analysis
            .edge_cost(e as usize)
            .get(event)
            .copied()
            .unwrap_or(0)
    };
    out.sort_unstable_by(|&a, &b| {
        Reverse(cost(a))
            .cmp(&Reverse(cost(b)))
            .then_with(|| profile.fn_name(other(a)).cmp(profile.fn_name(other(b))))
            .then(a.cmp(&b))
    });
    out
}

/// Each part's self-cost sum, in the profile's event columns.
pub fn part_totals(profile: &Profile) -> Vec<Vec<i64>> {
    let width = profile.events.len();
    profile
        .parts
        .iter()
        .map(|part| {
            let mut row = vec![0; width];
            for (c, v) in part.self_sum().into_iter().enumerate() {
                if let Some(slot) = part.event_map.get(c).and_then(|&e| row.get_mut(e)) {
                    *slot = v;
                }
            }
            profile.events.derive(&mut row);
            row
        })
        .collect()
}
