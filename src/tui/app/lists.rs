//! Lists the app keeps besides the flat list's orders (`orders`): the name
//! ranks, the caller/callee edges of the current function, the parts'
//! totals. Built once per change, never per frame. Ties are broken by name,
//! then id, so screens are deterministic.

use crate::analysis::Analysis;
use crate::profile::{FnId, Profile};
use std::cmp::Reverse;

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
