//! A cycle entered from outside (the shape of SQLite's `sqlite3_step`), the
//! `<cycle N>` pseudo-function's callers and callees, and the bounds of
//! inclusive costs in `cg_diff` profiles. Every number is worked out by hand.

use super::*;

/// main -> exec -> step <-> vdbe -> leaf, and main -> other -> step.
///
/// Self: main 1, exec 2, other 4, step 3, vdbe 40, leaf 100 = 150.
/// The calls inside the cycle measure nested activations again (step ->
/// vdbe 150, vdbe -> step 60), as Callgrind's do.
fn entered_cycle() -> Profile {
    load(&[
        "events: Ir",
        "fn=main",
        "1 1",
        "cfn=exec",
        "calls=1 10",
        "2 102",
        "cfn=other",
        "calls=1 30",
        "3 47",
        "fn=exec",
        "10 2",
        "cfn=step",
        "calls=2 20",
        "11 100",
        "fn=other",
        "30 4",
        "cfn=step",
        "calls=1 20",
        "31 43",
        "fn=step",
        "20 3",
        "cfn=vdbe",
        "calls=3 40",
        "21 150",
        "fn=vdbe",
        "40 40",
        "cfn=leaf",
        "calls=3 50",
        "41 100",
        "cfn=step",
        "calls=1 20",
        "42 60",
        "fn=leaf",
        "50 100",
    ])
}

#[test]
fn a_member_called_from_outside_gets_the_calls_into_it() {
    let p = entered_cycle();
    assert_clean(&p);
    let a = Analysis::new(&p);
    let [main, exec, other, step, vdbe, leaf] =
        ["main", "exec", "other", "step", "vdbe", "leaf"].map(|n| func(&p, n));
    assert_eq!(a.totals, vec![150]);
    assert_eq!(a.cycles.len(), 1);
    assert_eq!(a.cycle_of(step).map(|c| c.members.len()), Some(2));
    // step: self + calls leaving = 3, but exec and other call it for
    // 100 + 43 = 143; neither can be active inside step, so no nesting.
    assert_eq!(a.inclusive(step), &[143]);
    // vdbe: no caller outside the cycle; 40 + leaf 100.
    assert_eq!(a.inclusive(vdbe), &[140]);
    // The cycle: self 3 + 40, leaving 100 = 143; calls in 143.
    assert_eq!(a.cycles[0].self_cost, vec![43]);
    assert_eq!(a.cycles[0].inclusive, vec![143]);
    assert_eq!(a.cycles[0].called, 3);
    assert_eq!(a.inclusive(main), &[150]);
    assert_eq!(a.inclusive(exec), &[102]);
    assert_eq!(a.inclusive(other), &[47]);
    assert_eq!(a.inclusive(leaf), &[100]);
}

#[test]
fn cycle_callers_and_callees_are_the_edges_crossing_its_border() {
    let p = entered_cycle();
    let a = Analysis::new(&p);
    let [exec, other, step, vdbe, leaf] =
        ["exec", "other", "step", "vdbe", "leaf"].map(|n| func(&p, n));
    let mut callers = a.cycle_callers(0);
    callers.sort_unstable();
    let mut expected = vec![edge(&a, exec, step) as u32, edge(&a, other, step) as u32];
    expected.sort_unstable();
    assert_eq!(callers, expected);
    assert_eq!(a.cycle_callees(0), vec![edge(&a, vdbe, leaf) as u32]);
    assert!(a.cycle_callers(1).is_empty());
    assert!(a.cycle_callees(7).is_empty());
}

#[test]
fn three_cycle_callers_and_callees() {
    // main -> a -> b -> c -> a, a -> x, c -> y.
    let p = super::calls_and_cycles::three_cycle();
    let a = Analysis::new(&p);
    let [main, fa, fc, x, y] = ["main", "a", "c", "x", "y"].map(|n| func(&p, n));
    assert_eq!(a.cycle_callers(0), vec![edge(&a, main, fa) as u32]);
    let mut callees = a.cycle_callees(0);
    callees.sort_unstable();
    let mut expected = vec![edge(&a, fa, x) as u32, edge(&a, fc, y) as u32];
    expected.sort_unstable();
    assert_eq!(callees, expected);
}

#[test]
fn a_diff_never_caps_inclusive_below_self() {
    // cg_diff output: a grew by 10 Ir / 8 I1mr, b shrank by 20 / 3. The
    // I1mr total is 5, below a's own 8; a total is no bound in a diff.
    let p = load(&["events: Ir I1mr", "fn=a", "1 10 8", "fn=b", "1 -20 -3"]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let (fa, fb) = (func(&p, "a"), func(&p, "b"));
    assert_eq!(a.totals, vec![-10, 5]);
    assert!(a.is_signed(0) && a.is_signed(1));
    assert_eq!(a.inclusive(fa), &[10, 8]);
    assert_eq!(a.inclusive(fb), &[-20, -3]);
}

#[test]
fn only_columns_with_negative_costs_are_unbounded() {
    // yappi-like: the call into f measures 90, more than the total 30; the
    // Ir column has no negative cost, so f is capped at the total there.
    let p = load(&[
        "events: Ir D",
        "fn=main",
        "1 10 -1",
        "cfn=f",
        "calls=1 5",
        "2 90 0",
        "fn=f",
        "5 20 4",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    assert!(!a.is_signed(0));
    assert!(a.is_signed(1));
    assert_eq!(a.totals, vec![30, 3]);
    let f = func(&p, "f");
    // Ir: max(20, 90) capped at 30; D: max(4, 0), not capped, stays 4 > 3.
    assert_eq!(a.inclusive(f), &[30, 4]);
}
