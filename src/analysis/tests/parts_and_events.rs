//! Part selection, derived events, `calls=0` edges and the bounds of
//! inclusive costs.

use super::*;
use crate::analysis::source::function_source;

#[test]
fn parts_selection_changes_totals_edges_and_inclusive() {
    let p = load(&[
        "events: Ir",
        "part: 1",
        "fn=main",
        "1 10",
        "cfn=g",
        "calls=1 5",
        "2 30",
        "fn=g",
        "5 30",
        "part: 2",
        "fn=main",
        "1 1",
        "cfn=h",
        "calls=2 7",
        "2 4",
        "fn=h",
        "7 4",
    ]);
    assert_clean(&p);
    assert_eq!(p.parts.len(), 2);
    let (main, g, h) = (func(&p, "main"), func(&p, "g"), func(&p, "h"));

    let all = Analysis::new(&p);
    assert_eq!(all.parts, vec![true, true]);
    assert_eq!(all.totals, vec![45]);
    assert_eq!(all.self_cost(main), &[11]);
    assert_eq!(all.inclusive(main), &[45]);
    assert_eq!(all.edges.len(), 2);

    let first = Analysis::with_parts(&p, &[true, false]);
    assert_eq!(first.totals, vec![40]);
    assert_eq!(first.self_cost(main), &[10]);
    assert_eq!(first.inclusive(main), &[40]);
    assert_eq!(first.self_cost(h), &[0]);
    assert_eq!(first.edges.len(), 1);
    assert_eq!(first.called(h), 0);
    assert!(!first.is_active(h));
    assert!(first.is_active(g));

    // A missing flag counts as set.
    let second = Analysis::with_parts(&p, &[false]);
    assert_eq!(second.parts, vec![false, true]);
    assert_eq!(second.totals, vec![5]);
    assert_eq!(second.inclusive(main), &[5]);
    assert_eq!(second.called(h), 2);
    assert!(!second.is_active(g));

    let src = function_source(&p, &first, main);
    assert_eq!(src.calls.len(), 1);
    assert_eq!(src.calls[0].callee, g);
    assert_eq!(src.lines.len(), 1);
    assert_eq!(src.lines[0].cost, vec![10]);
}

#[test]
fn derived_events_for_self_inclusive_and_edges() {
    let p = load(&[
        "events: Ir Dr",
        "event: Sum = Ir + 2 Dr",
        "fn=main",
        "1 10 1",
        "cfn=g",
        "calls=1 5",
        "2 20 5",
        "fn=g",
        "5 20 5",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let (main, g) = (func(&p, "main"), func(&p, "g"));
    assert_eq!(a.width, 3);
    // main: 10 + 2*1; g and the call: 20 + 2*5.
    assert_eq!(a.self_cost(main), &[10, 1, 12]);
    assert_eq!(a.self_cost(g), &[20, 5, 30]);
    assert_eq!(a.edge_cost(edge(&a, main, g)), &[20, 5, 30]);
    assert_eq!(a.inclusive(main), &[30, 6, 42]);
    assert_eq!(a.inclusive(g), &[20, 5, 30]);
    assert_eq!(a.totals, vec![30, 6, 42]);
}

/// Where calls into g measured more Ir but less Dr than g's own lines, each
/// raw event takes the larger figure and `Sum` is computed from those.
#[test]
fn derived_inclusive_costs_follow_their_formula_when_measurements_disagree() {
    let p = load(&[
        "events: Ir Dr",
        "event: Sum = Ir + 2 Dr",
        "fn=main",
        "1 100 50",
        "cfn=g",
        "calls=1 5",
        "2 12 1",
        "fn=g",
        "5 10 3",
    ]);
    let a = Analysis::new(&p);
    let g = func(&p, "g");
    // Ir: max(10, 12) = 12; Dr: max(3, 1) = 3; Sum = 12 + 2 * 3.
    assert_eq!(a.inclusive(g), &[12, 3, 18]);
}

#[test]
fn calls_zero_cost_goes_to_the_callee_path_not_the_callers_self() {
    let p = load(&[
        "events: Ir",
        "fn=main",
        "1 10",
        "cfn=g",
        "calls=0 0",
        "1 50",
        "fn=g",
        "2 50",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let (main, g) = (func(&p, "main"), func(&p, "g"));
    assert_eq!(a.self_cost(main), &[10]);
    assert_eq!(a.inclusive(main), &[60]);
    assert_eq!(a.inclusive(g), &[50]);
    let e = edge(&a, main, g);
    assert_eq!((a.edges[e].count, a.edge_cost(e)), (0, &[50][..]));
    assert_eq!(a.called(g), 0);
    assert_eq!(a.totals, vec![60]);
}

#[test]
fn a_callee_without_self_cost_is_as_costly_as_its_calls() {
    // The last instructions before exit appear only in the call into `_exit`;
    // `summary:` has them.
    let p = load(&[
        "events: Ir",
        "summary: 60",
        "fn=main",
        "1 10",
        "cfn=_exit",
        "calls=1 0",
        "2 50",
    ]);
    let a = Analysis::new(&p);
    let (main, exit) = (func(&p, "main"), func(&p, "_exit"));
    assert_eq!(a.totals, vec![60]);
    assert_eq!(a.self_cost(exit), &[0]);
    assert_eq!(a.inclusive(exit), &[50]);
    assert_eq!(a.inclusive(main), &[60]);
}

#[test]
fn inclusive_never_exceeds_the_total() {
    // Contradictory data: the call claims more than all self costs together.
    let p = load(&[
        "events: Ir",
        "fn=main",
        "1 10",
        "cfn=g",
        "calls=1 0",
        "2 500",
        "fn=g",
        "5 20",
    ]);
    let a = Analysis::new(&p);
    assert_eq!(a.totals, vec![30]);
    assert_eq!(a.inclusive(func(&p, "main")), &[30]);
    assert_eq!(a.inclusive(func(&p, "g")), &[30]);
}

// ------------------------------------------------------------ big graphs
