//! Lists the app keeps besides the flat list's orders (`orders`): the name
//! ranks, the caller/callee edges of the current function, the parts'
//! totals. Built once per change, never per frame. Ties are broken by name,
//! then id, so screens are deterministic.

use super::rows;
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
/// Functions of one name share its interned id: the groups are found by
/// counting ids, with no string compared and no name order needed.
pub fn qualifiers(profile: &Profile) -> HashMap<FnId, String> {
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
    for group in same_names(profile) {
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
        for &f in &group {
            out.insert(f, way(f));
        }
    }
    out
}

/// The functions of each name that two or more have, in id order.
fn same_names(profile: &Profile) -> Vec<Vec<FnId>> {
    const NONE: u32 = u32::MAX;
    // Per name id: how many functions have it, then its group.
    let mut count = vec![0u32; profile.fn_names.len()];
    for f in &profile.functions {
        count[f.name as usize] = count[f.name as usize].saturating_add(1);
    }
    let mut groups: Vec<Vec<FnId>> = Vec::new();
    let mut group_of = count;
    for g in group_of.iter_mut() {
        *g = if *g > 1 {
            groups.push(Vec::new());
            groups.len() as u32 - 1
        } else {
            NONE
        };
    }
    for (i, f) in profile.functions.iter().enumerate() {
        if let Some(group) = groups.get_mut(group_of[f.name as usize] as usize) {
            group.push(FnId::from_index(i));
        }
    }
    groups
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

/// Functions from which the name order is sorted in two halves at once.
const TWO_HALVES_FROM: usize = 50_000;

/// Every function, sorted by name (ties by id), eight bytes of the names
/// at a time: sorted by their first eight, then each run of equal ones by
/// the next eight, and so on. A comparison of two names that share a long
/// prefix (C++ names do) would read both names, two cache misses, each time;
/// this reads each name once per eight bytes it shares. Many functions are
/// split by their first eight bytes into two halves, each sorted on a core
/// of its own (names that begin alike are in the same half).
fn sorted_by_name(profile: &Profile) -> Vec<FnId> {
    let mut keyed: Vec<(u64, FnId)> = (0..profile.functions.len())
        .map(|i| {
            let f = FnId::from_index(i);
            (window(profile, f, 0), f)
        })
        .collect();
    let split = if keyed.len() >= TWO_HALVES_FROM {
        let pivot = median_key(&keyed);
        partition(&mut keyed, pivot)
    } else {
        keyed.len()
    };
    let (low, high) = keyed.split_at_mut(split);
    crate::threads::both_if(
        !high.is_empty(),
        || sort_by_name(profile, high),
        || sort_by_name(profile, low),
    );
    keyed.into_iter().map(|(_, f)| f).collect()
}

/// Eight bytes of `f`'s name from `depth` on, zero-padded, as a number
/// that orders as the bytes do.
fn window(profile: &Profile, f: FnId, depth: usize) -> u64 {
    let mut bytes = [0u8; 8];
    let rest = profile
        .fn_name(f)
        .as_bytes()
        .get(depth..)
        .unwrap_or_default();
    let n = rest.len().min(8);
    bytes[..n].copy_from_slice(&rest[..n]);
    u64::from_be_bytes(bytes)
}

/// The median of an even sample of the keys.
fn median_key(keyed: &[(u64, FnId)]) -> u64 {
    const SAMPLE: usize = 1023;
    let mut sample: Vec<u64> = (0..SAMPLE)
        .map(|i| keyed[i * keyed.len() / SAMPLE].0)
        .collect();
    sample.sort_unstable();
    sample[SAMPLE / 2]
}

/// Puts the keys below `pivot` first; returns how many there are.
fn partition(keyed: &mut [(u64, FnId)], pivot: u64) -> usize {
    let mut below = 0;
    for i in 0..keyed.len() {
        if keyed[i].0 < pivot {
            keyed.swap(below, i);
            below += 1;
        }
    }
    below
}

/// Sorts `keyed`, whose keys are the names' first eight bytes, by name
/// (see `sorted_by_name`).
fn sort_by_name(profile: &Profile, keyed: &mut [(u64, FnId)]) {
    let name = |f: FnId| profile.fn_name(f).as_bytes();
    // Runs still to sort: where, how deep their names are equal, and
    // whether their keys are read already.
    let mut runs = vec![(0, keyed.len(), 0, true)];
    while let Some((lo, hi, depth, keys_read)) = runs.pop() {
        let run = &mut keyed[lo..hi];
        if !keys_read {
            if run.iter().all(|&(_, f)| name(f).len() <= depth) {
                // Equal up to here, every name ended (a shorter one, padded
                // with zero bytes, may equal a longer one ending in them).
                run.sort_unstable_by_key(|&(_, f)| (name(f).len(), f));
                continue;
            }
            for entry in run.iter_mut() {
                entry.0 = window(profile, entry.1, depth);
            }
        }
        run.sort_unstable();
        let mut start = 0;
        while start < run.len() {
            let end = start + run[start..].partition_point(|e| e.0 == run[start].0);
            if end - start > 1 {
                runs.push((lo + start, lo + end, depth + 8, false));
            }
            start = end;
        }
    }
}

/// The function the browser opens on: `main` where the profile has one
/// (the costliest if several), else the costliest with a name (not an
/// unnamed address such as ld.so's `0x000000000001ab70`). `order` is the
/// list sorted by inclusive cost.
pub fn opening_function(profile: &Profile, order: &[FnId]) -> Option<FnId> {
    let n = profile.functions.len();
    let functions = || order.iter().copied().filter(|f| f.index() < n);
    // `main` by its name's id: the functions table is read in order, and
    // only where there are several `main` is their place in `order` sought
    // (comparing a million names in cost order took 40 to 90 ms).
    let main = profile.fn_names.get("main").and_then(|name| {
        let mains: Vec<FnId> = (0..n)
            .filter(|&i| profile.functions[i].name == name)
            .map(FnId::from_index)
            .collect();
        match mains[..] {
            [] => None,
            [only] => order.contains(&only).then_some(only),
            _ => functions().find(|f| mains.contains(f)),
        }
    });
    main.or_else(|| functions().find(|&f| !profile.fn_name(f).starts_with("0x")))
        .or_else(|| order.first().copied())
}

/// `edges` (indexes into `analysis.edges`) by the inclusive cost of the
/// calls, costliest first; ties by the other end's name.
pub fn sorted_edges(
    profile: &Profile,
    analysis: &Analysis,
    mut out: Vec<u32>,
    event: usize,
    callers: bool,
) -> Vec<u32> {
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

/// `order` (by inclusive cost) sorted again by the metric column `c`:
/// largest first, blanks last, ties in the order they were. Each half is
/// keyed and sorted on a core of its own, then the halves are merged (a
/// million functions in well under 100 ms).
pub fn by_metric(
    a: &Analysis,
    columns: &crate::tui::columns::Columns,
    c: crate::tui::columns::MetricColumn,
    order: &[FnId],
) -> super::orders::List {
    by_value(order, |f| {
        columns.value(c, rows::self_cost(a, f), rows::inclusive(a, f))
    })
}

/// `order` sorted by `value`, largest first, blanks last, ties in the
/// order they had (on two cores from 20,000 rows).
pub fn by_value(order: &[FnId], value: impl Fn(FnId) -> Option<f64> + Sync) -> super::orders::List {
    // The key sorts ascending: the value's total order turned around, a
    // blank after every number, then the place in `order`.
    let keyed = |part: &[FnId], first: usize| {
        let mut keys: Vec<(u64, u32)> = (part.iter().enumerate())
            .map(|(i, &f)| {
                let key = value(f).map_or(u64::MAX, |v| !ordered_bits(v));
                (key, (first + i) as u32)
            })
            .collect();
        keys.sort_unstable();
        keys
    };
    let half = order.len() / 2;
    let (left, right) = crate::threads::both_if(
        order.len() >= 20_000,
        || keyed(&order[..half], 0),
        || keyed(&order[half..], half),
    );
    let mut merged = Vec::with_capacity(order.len());
    let (mut l, mut r) = (left.iter().peekable(), right.iter().peekable());
    while let (Some(x), Some(y)) = (l.peek(), r.peek()) {
        if x <= y {
            merged.push(order[x.1 as usize]);
            l.next();
        } else {
            merged.push(order[y.1 as usize]);
            r.next();
        }
    }
    merged.extend(l.map(|x| order[x.1 as usize]));
    merged.extend(r.map(|y| order[y.1 as usize]));
    merged.into()
}

/// `v`'s bits, ordered as the numbers are (negative below positive).
fn ordered_bits(v: f64) -> u64 {
    let bits = v.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `name_ranks` against a sort of whole names, ties by id.
    fn ranked_as_a_plain_sort(profile: &Profile) {
        let (ranks, by_name) = name_ranks(profile);
        let mut want: Vec<FnId> = (0..profile.functions.len()).map(FnId::from_index).collect();
        want.sort_by(|a, b| profile.fn_name(*a).cmp(profile.fn_name(*b)).then(a.cmp(b)));
        assert_eq!(by_name, want);
        for (r, f) in want.iter().enumerate() {
            assert_eq!(ranks[f.index()] as usize, r);
        }
    }

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
        ranked_as_a_plain_sort(&profile);
    }

    /// Enough functions for the two halves, with names that begin alike
    /// on both sides of any split and names of one another's prefixes.
    #[test]
    fn many_names_sorted_in_two_halves_rank_as_a_plain_sort() {
        let mut text = String::from("events: Ir\n");
        for i in 0..TWO_HALVES_FROM * 2 {
            let name = match i % 5 {
                0 => format!("std::vector<int>::push_back_{i}"),
                1 => format!("f{}", i * 104_729 % 1_000_000),
                2 => format!("llvm::detail::x{i}"),
                3 => "same".repeat(1 + i % 4),
                _ => format!("{}", i * 31 % 1_000_003),
            };
            text.push_str(&format!("fl=f{}.c\nfn={name}\n1 1\n", i % 3));
        }
        let profile = crate::parse::load_reader("t", text.as_bytes()).unwrap();
        assert!(profile.functions.len() >= TWO_HALVES_FROM);
        ranked_as_a_plain_sort(&profile);
    }

    #[test]
    fn qualified_are_the_functions_whose_name_another_has() {
        let text = "events: Ir\nob=a.so\nfl=x.c\nfn=main\n1 1\nfn=solo\n1 1\n\
                    fl=y.c\nfn=main\n1 1\nob=b.so\nfl=y.c\nfn=main\n1 1\nfn=two\n1 1\n\
                    fl=z.c\nfn=two\n1 1\n";
        let profile = crate::parse::load_reader("t", text.as_bytes()).unwrap();
        let qualifiers = qualifiers(&profile);
        let id = |name: &str, file: &str, object: &str| {
            (0..profile.functions.len())
                .map(FnId::from_index)
                .find(|&f| {
                    profile.fn_name(f) == name
                        && profile.fn_file(f) == file
                        && profile.fn_object(f) == object
                })
                .unwrap()
        };
        let q = |name, file, object| qualifiers.get(&id(name, file, object)).cloned();
        // Files tell the two `two` apart; for `main` neither files nor
        // objects alone do, the file's path and object together do.
        assert_eq!(q("two", "y.c", "b.so").as_deref(), Some("y.c"));
        assert_eq!(q("two", "z.c", "b.so").as_deref(), Some("z.c"));
        assert_eq!(q("main", "x.c", "a.so").as_deref(), Some("x.c a.so"));
        assert_eq!(q("main", "y.c", "a.so").as_deref(), Some("y.c a.so"));
        assert_eq!(q("main", "y.c", "b.so").as_deref(), Some("y.c b.so"));
        assert_eq!(q("solo", "x.c", "a.so"), None);
        assert_eq!(qualifiers.len(), 5);
    }
}
