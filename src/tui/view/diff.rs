//! What the views add in a comparison (`--base`): each function's and
//! call's cost in the base and in the new profile beside the change (which
//! `App::analysis` holds), and which functions are new or gone.

use crate::analysis::diff::{Joined, Side};
use crate::profile::{Cost, FnId};
use crate::tui::app::{App, rows};

/// The comparison, and the base's column of the current event (none for
/// an event of the new profile only).
pub fn sides(app: &App) -> Option<(&Joined, Option<usize>)> {
    let joined = app.diff.as_deref()?;
    let base = joined
        .comparison
        .events
        .iter()
        .find(|e| e.new == app.event)
        .map(|e| e.base);
    Some((joined, base))
}

/// A function's cost of the current event (inclusive, else self) in the
/// base and in the new profile; `None` outside a comparison and for the
/// rows of cycles.
pub fn costs(app: &App, f: FnId, inclusive: bool) -> Option<(Cost, Cost)> {
    let (j, base) = sides(app)?;
    if !app.is_function(f) {
        return None;
    }
    let pick = |a: &crate::analysis::Analysis, g: FnId, col: usize| {
        let row = if inclusive {
            a.inclusive(g)
        } else {
            a.self_cost(g)
        };
        row.get(col).copied().unwrap_or(0)
    };
    let c = &j.comparison;
    let b = match (c.function(f.index(), Side::Base), base) {
        (Some(g), Some(col)) => pick(&j.base_analysis, g, col),
        _ => 0,
    };
    let n = c
        .function(f.index(), Side::New)
        .map_or(0, |g| pick(&j.new_analysis, g, app.event));
    Some((b, n))
}

/// A call's count and cost of the current event in the base and in the
/// new profile (`edge` indexes the change's calls, which are the pairs').
pub fn call(app: &App, edge: usize) -> Option<((u64, Cost), (u64, Cost))> {
    let (j, base) = sides(app)?;
    let pc = j.comparison.calls.get(edge)?;
    let side = |a: &crate::analysis::Analysis, e: Option<usize>, col: Option<usize>| {
        e.map_or((0, 0), |e| {
            let cost = col.and_then(|c| a.edge_cost(e).get(c).copied());
            (a.edges[e].count, cost.unwrap_or(0))
        })
    };
    Some((
        side(&j.base_analysis, pc.base, base),
        side(&j.new_analysis, pc.new, Some(app.event)),
    ))
}

/// The base's total of the current event: what changes are a share of.
pub fn base_total(app: &App) -> Option<Cost> {
    let (j, base) = sides(app)?;
    Some(base.map_or(0, |col| j.base_analysis.totals[col]))
}

/// `new` or `gone` for a function of one profile only.
pub fn status(app: &App, f: FnId) -> Option<&'static str> {
    let (j, _) = sides(app)?;
    let p = j.comparison.pairs.get(f.index())?;
    match (p.base, p.new) {
        (None, Some(_)) => Some("new"),
        (Some(_), None) => Some("gone"),
        _ => None,
    }
}

/// The change of a function's sorted cost, for the list (the change is
/// the analysis' own cost).
pub fn change(app: &App, f: FnId, inclusive: bool) -> Cost {
    let row = if inclusive {
        rows::inclusive(&app.analysis, f)
    } else {
        rows::self_cost(&app.analysis, f)
    };
    row.get(app.event).copied().unwrap_or(0)
}
