//! Sorted lists the app keeps: the flat list, the caller/callee edges of the
//! current function, and the cost order search results fall back to. Built
//! once per change of sort, event or parts, never per frame. Ties are
//! broken by name, then id, so screens are deterministic.

use super::SortKey;
use crate::analysis::Analysis;
use crate::profile::{FnId, Profile};
use std::cmp::Reverse;

/// Each function's position in name order (ties by id): computed once, so
/// sorting by cost breaks ties with an integer, not a string comparison.
pub fn name_ranks(profile: &Profile) -> Vec<u32> {
    let mut ids: Vec<FnId> = (0..profile.functions.len()).map(FnId::from_index).collect();
    ids.sort_unstable_by(|a, b| profile.fn_name(*a).cmp(profile.fn_name(*b)).then(a.cmp(b)));
    let mut rank = vec![0u32; ids.len()];
    for (r, f) in ids.into_iter().enumerate() {
        rank[f.index()] = r as u32;
    }
    rank
}

/// Active functions (cost or calls in the selected parts) sorted by `sort`,
/// ties by name (`ranks` from `name_ranks`).
pub fn sorted(analysis: &Analysis, ranks: &[u32], sort: SortKey, event: usize) -> Vec<FnId> {
    let at = |row: &[i64]| row.get(event).copied().unwrap_or(0);
    let rank = |f: FnId| ranks.get(f.index()).copied().unwrap_or(u32::MAX);
    let mut keyed: Vec<(i64, u32, FnId)> = (0..analysis.function_count())
        .map(FnId::from_index)
        .filter(|&f| analysis.is_active(f))
        .map(|f| {
            let key = match sort {
                SortKey::Inclusive => at(analysis.inclusive(f)),
                SortKey::SelfCost => at(analysis.self_cost(f)),
                SortKey::Calls => i64::try_from(analysis.called[f.index()]).unwrap_or(i64::MAX),
                SortKey::Name => 0,
            };
            (key, rank(f), f)
        })
        .collect();
    keyed.sort_unstable_by_key(|&(key, rank, _)| (Reverse(key), rank));
    keyed.into_iter().map(|(_, _, f)| f).collect()
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

/// All functions by inclusive cost of `event` (then id): the order in
/// which equally good search matches are listed.
pub fn search_order(analysis: &Analysis, event: usize) -> Vec<u32> {
    let at = |f: u32| analysis.inclusive(FnId(f)).get(event).copied().unwrap_or(0);
    let mut order: Vec<u32> = (0..analysis.function_count() as u32).collect();
    order.sort_by_cached_key(|&f| (Reverse(at(f)), f));
    order
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
