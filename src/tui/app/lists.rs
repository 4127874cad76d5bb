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
    let ids = sorted_by_name(profile);
    let mut rank = vec![0u32; ids.len()];
    for (r, f) in ids.iter().enumerate() {
        rank[f.index()] = r as u32;
    }
    (rank, ids)
}

/// Every function, sorted by name (ties by id), eight bytes of the names
/// at a time: sorted by their first eight, then each run of equal ones by
/// the next eight, and so on. A comparison of two names that share a long
/// prefix (C++ names do) would read both names, two cache misses, each time;
/// this reads each name once per eight bytes it shares.
fn sorted_by_name(profile: &Profile) -> Vec<FnId> {
    let name = |f: FnId| profile.fn_name(f).as_bytes();
    let window = |f: FnId, depth: usize| {
        let mut bytes = [0u8; 8];
        let rest = name(f).get(depth..).unwrap_or_default();
        let n = rest.len().min(8);
        bytes[..n].copy_from_slice(&rest[..n]);
        u64::from_be_bytes(bytes)
    };
    let mut keyed: Vec<(u64, FnId)> = (0..profile.functions.len())
        .map(|i| (0, FnId::from_index(i)))
        .collect();
    let mut runs = vec![(0, keyed.len(), 0)];
    while let Some((lo, hi, depth)) = runs.pop() {
        let run = &mut keyed[lo..hi];
        if run.iter().all(|&(_, f)| name(f).len() <= depth) {
            // Equal up to here, every name ended (a shorter one, padded
            // with zero bytes, may equal a longer one ending in them).
            run.sort_unstable_by_key(|&(_, f)| (name(f).len(), f));
            continue;
        }
        for entry in run.iter_mut() {
            entry.0 = window(entry.1, depth);
        }
        run.sort_unstable();
        let mut start = 0;
        while start < run.len() {
            let end = start + run[start..].partition_point(|e| e.0 == run[start].0);
            if end - start > 1 {
                runs.push((lo + start, lo + end, depth + 8));
            }
            start = end;
        }
    }
    keyed.into_iter().map(|(_, f)| f).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_rank_as_a_plain_sort_of_the_whole_names_would() {
        let names = [
            "llvm::detail::b",
            "llvm::detail::a",
            "llvm::de",
            "llvm::d",
            "ab\u{0}x",
            "ab",
            "abc",
            "zz",
            "llvm::detail::a",
            "",
            "é",
            "e",
            "ab\u{0}",
            "ab\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}",
            "std::vector<int, std::allocator<int> >::push_back(int const&)",
            "std::vector<int, std::allocator<int> >::push_back(int&&)",
            "std::vector<int, std::allocator<int> >::push_back",
        ];
        let mut text = String::from("events: Ir\n");
        for (i, name) in names.iter().enumerate() {
            text.push_str(&format!("fl=f{i}.c\nfn={name}\n1 1\n"));
        }
        let profile = crate::parse::load_reader("t", text.as_bytes()).unwrap();
        let (ranks, by_name) = name_ranks(&profile);
        let mut want: Vec<FnId> = (0..profile.functions.len()).map(FnId::from_index).collect();
        want.sort_by(|a, b| profile.fn_name(*a).cmp(profile.fn_name(*b)).then(a.cmp(b)));
        assert_eq!(by_name, want);
        for (r, f) in want.iter().enumerate() {
            assert_eq!(ranks[f.index()] as usize, r);
        }
    }
}
