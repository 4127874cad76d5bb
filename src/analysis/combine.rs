//! Sums the selected parts into the profile's event columns: self costs per
//! function, call edges per (caller, callee), totals; derived events computed.

use super::Edge;
use crate::profile::{Cost, Part, Profile};
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

pub struct Combined {
    pub width: usize,
    /// Per column: whether a sum of the parts' costs (or a derived
    /// event's formula) passed the signed 64-bit range and saturated.
    pub cut: Vec<bool>,
    pub totals: Vec<Cost>,
    pub self_costs: Arc<Vec<Cost>>,
    pub edges: Arc<Vec<Edge>>,
    pub edge_costs: Arc<Vec<Cost>>,
}

/// Whether `part`'s columns are the profile's events, in order, with no
/// derived event to compute.
fn has_profile_columns(profile: &Profile, part: &Part) -> bool {
    part.width() == profile.events.len()
        && profile.events.raw_count() == profile.events.len()
        && part.event_map.iter().enumerate().all(|(c, &e)| c == e)
}

/// Whether `part`'s self cost rows are those of functions `0..n`, in order.
fn has_every_row(part: &Part, n: usize) -> bool {
    part.rows() == n && part.rows_are_functions()
}

/// Sums the self costs of `parts` per function, in profile columns.
fn combine_self_costs(parts: &[&Part], n: usize, width: usize, cut: &mut [bool]) -> Vec<Cost> {
    let mut self_costs = vec![0; n * width];
    for part in parts {
        let pw = part.width();
        if pw == 0 {
            continue;
        }
        for (i, row) in part.self_costs.chunks_exact(pw).enumerate() {
            let f = part.self_fn(i).index();
            add_mapped(&mut self_costs[f * width..(f + 1) * width], part, row, cut);
        }
    }
    self_costs
}

/// Sums the edges of `parts` per (caller, callee), in profile columns.
fn combine_edges(parts: &[&Part], width: usize, cut: &mut [bool]) -> (Vec<Edge>, Vec<Cost>) {
    let mut edge_index: HashMap<(u32, u32), usize> = HashMap::default();
    let mut edges: Vec<Edge> = Vec::new();
    let mut edge_costs: Vec<Cost> = Vec::new();
    // Within a part, edges are already one per (caller, callee): with one
    // part there is nothing to look up.
    let only_one = parts.len() == 1;
    for part in parts {
        if part.width() == 0 {
            continue;
        }
        for (i, call) in part.edges.iter().enumerate() {
            let key = (call.caller.0, call.callee.0);
            let mut new = || {
                edges.push(Edge {
                    caller: call.caller,
                    callee: call.callee,
                    count: 0,
                });
                edge_costs.resize(edge_costs.len() + width, 0);
                edges.len() - 1
            };
            let e = if only_one {
                new()
            } else {
                *edge_index.entry(key).or_insert_with(new)
            };
            edges[e].count = edges[e].count.saturating_add(call.count);
            add_mapped(
                &mut edge_costs[e * width..(e + 1) * width],
                part,
                part.edge_cost(i),
                cut,
            );
        }
    }
    (edges, edge_costs)
}

/// Adds a row in part columns into a row in profile columns, saturating,
/// and noting in `cut` the columns that saturate.
fn add_mapped(row: &mut [Cost], part: &Part, costs: &[Cost], cut: &mut [bool]) {
    for (c, &v) in costs.iter().enumerate() {
        let col = part.event_map[c];
        let slot = &mut row[col];
        match slot.checked_add(v) {
            Some(sum) => *slot = sum,
            None => {
                *slot = slot.saturating_add(v);
                cut[col] = true;
            }
        }
    }
}

pub fn combine(profile: &Profile, selected: &[bool]) -> Combined {
    let n = profile.functions.len();
    let width = profile.events.len();
    let parts: Vec<&Part> = (profile.parts.iter().zip(selected))
        .filter(|(_, s)| **s)
        .map(|(p, _)| p)
        .collect();
    let mut cut = vec![false; width];
    let mut self_costs = match parts[..] {
        // One part in the profile's own columns with a row for every
        // function, in order: its rows as they are.
        [part] if has_profile_columns(profile, part) && has_every_row(part, n) => {
            part.self_costs.clone()
        }
        _ => Arc::new(combine_self_costs(&parts, n, width, &mut cut)),
    };
    let (edges, mut edge_costs) = match parts[..] {
        // One part in the profile's own columns: its edges as they are.
        [part] if has_profile_columns(profile, part) => {
            (part.edges.clone(), part.edge_costs.clone())
        }
        _ => {
            let (edges, edge_costs) = combine_edges(&parts, width, &mut cut);
            (Arc::new(edges), Arc::new(edge_costs))
        }
    };
    // Derived events (never in rows shared with a part).
    if width > profile.events.raw_count() {
        let mut note = |col: usize| cut[col] = true;
        for row in Arc::make_mut(&mut self_costs).chunks_exact_mut(width) {
            profile.events.derive_noting(row, &mut note);
        }
        for row in Arc::make_mut(&mut edge_costs).chunks_exact_mut(width) {
            profile.events.derive_noting(row, &mut note);
        }
    }
    let mut totals = vec![0; width];
    for part in &parts {
        add_mapped(&mut totals, part, &part.total, &mut cut);
    }
    profile
        .events
        .derive_noting(&mut totals, &mut |col| cut[col] = true);
    Combined {
        width,
        cut,
        totals,
        self_costs,
        edges,
        edge_costs,
    }
}
