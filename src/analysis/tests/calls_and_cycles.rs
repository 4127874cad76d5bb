//! Inclusive costs of chains, recursion and cycles; call counts.

use super::*;

#[test]
fn chain_inclusive_is_self_plus_calls_out() {
    let p = load(&[
        "events: Ir",
        "fl=m.c",
        "fn=main",
        "1 10",
        "cfn=a",
        "calls=1 2",
        "2 60",
        "fn=a",
        "2 20",
        "cfn=b",
        "calls=3 3",
        "3 40",
        "fn=b",
        "3 40",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let (main, fa, fb) = (
        func_in(&p, "main", "m.c"),
        func_in(&p, "a", "m.c"),
        func_in(&p, "b", "m.c"),
    );
    assert_eq!(a.width, 1);
    assert_eq!(a.function_count(), 3);
    assert_eq!(a.totals, vec![70]);
    assert_eq!(a.self_cost(main), &[10]);
    assert_eq!(a.self_cost(fa), &[20]);
    assert_eq!(a.self_cost(fb), &[40]);
    // main = 10 + 60, a = 20 + 40, b = 40.
    assert_eq!(a.inclusive(main), &[70]);
    assert_eq!(a.inclusive(fa), &[60]);
    assert_eq!(a.inclusive(fb), &[40]);
    assert_eq!(a.edges.len(), 2);
    let e = edge(&a, main, fa);
    assert_eq!((a.edges[e].count, a.edge_cost(e)), (1, &[60][..]));
    let e = edge(&a, fa, fb);
    assert_eq!((a.edges[e].count, a.edge_cost(e)), (3, &[40][..]));
    assert_eq!(a.called(main), 0);
    assert_eq!(a.called(fa), 1);
    assert_eq!(a.called(fb), 3);
    assert!(a.callees(main).iter().eq([edge(&a, main, fa) as u32]));
    assert!(a.callers(fb).iter().eq([edge(&a, fa, fb) as u32]));
    assert!(a.callers(main).is_empty());
    assert!(a.callees(fb).is_empty());
    assert!(a.cycles.is_empty());
    assert!((0..a.edges.len()).all(|e| !a.is_recursive(e)));
    assert!([main, fa, fb].iter().all(|&f| a.is_active(f)));
}

#[test]
fn self_recursion_is_not_counted_twice() {
    let p = load(&[
        "events: Ir",
        "fn=main",
        "1 5",
        "cfn=fib",
        "calls=1 10",
        "2 100",
        "fn=fib",
        "10 60",
        "cfn=fib", // fib calling itself: 8 calls, 80 inclusive
        "calls=8 10",
        "11 80",
        "cfn=leaf",
        "calls=4 20",
        "12 40",
        "fn=leaf",
        "20 40",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let (main, fib, leaf) = (func(&p, "main"), func(&p, "fib"), func(&p, "leaf"));
    // Total: 5 + 60 + 40.
    assert_eq!(a.totals, vec![105]);
    // fib = 60 + 40 (leaf); the recursive 80 is already in there.
    assert_eq!(a.inclusive(fib), &[100]);
    assert_eq!(a.inclusive(leaf), &[40]);
    assert_eq!(a.inclusive(main), &[105]);
    for f in [main, fib, leaf] {
        assert!(a.inclusive(f)[0] <= a.totals[0]);
    }
    // Called: once from main, 8 times from itself.
    assert_eq!(a.called(fib), 9);
    assert!(a.is_recursive(edge(&a, fib, fib)));
    assert!(!a.is_recursive(edge(&a, main, fib)));
    assert!(!a.is_recursive(edge(&a, fib, leaf)));
    // A function calling itself is not a cycle of two or more.
    assert!(a.cycles.is_empty());
    assert!(a.cycle_of(fib).is_none());
}

/// main -> a -> b -> c -> a, with a -> x and c -> y leaving the cycle.
pub(super) fn three_cycle() -> Profile {
    load(&[
        "events: Ir",
        "fn=main",
        "1 1",
        "cfn=a",
        "calls=2 10",
        "2 75",
        "fn=a",
        "10 10",
        "cfn=b",
        "calls=3 20",
        "11 90",
        "cfn=x",
        "calls=1 40",
        "12 5",
        "fn=b",
        "20 20",
        "cfn=c",
        "calls=3 30",
        "21 70",
        "fn=c",
        "30 30",
        "cfn=a",
        "calls=1 10",
        "31 60",
        "cfn=y",
        "calls=2 50",
        "32 10",
        "fn=x",
        "40 5",
        "fn=y",
        "50 10",
    ])
}

#[test]
fn three_function_cycle() {
    let p = three_cycle();
    assert_clean(&p);
    let a = Analysis::new(&p);
    let [main, fa, fb, fc, x, y] = ["main", "a", "b", "c", "x", "y"].map(|n| func(&p, n));
    // Self: 1 + 10 + 20 + 30 + 5 + 10.
    assert_eq!(a.totals, vec![76]);
    assert_eq!(a.cycles.len(), 1);
    let cycle = &a.cycles[0];
    assert_eq!(cycle.number, 1);
    let mut members = vec![fa, fb, fc];
    members.sort();
    assert_eq!(cycle.members, members);
    // Members' self: 10 + 20 + 30; leaving: a -> x 5, c -> y 10.
    assert_eq!(cycle.self_cost, vec![60]);
    assert_eq!(cycle.inclusive, vec![75]);
    // Two calls from main; c -> a is inside.
    assert_eq!(cycle.called, 2);
    for f in [fa, fb, fc] {
        assert_eq!(a.cycle_of(f).map(|c| c.number), Some(1));
    }
    for f in [main, x, y] {
        assert!(a.cycle_of(f).is_none());
    }
    for (from, to) in [(fa, fb), (fb, fc), (fc, fa)] {
        assert!(a.is_recursive(edge(&a, from, to)));
    }
    for (from, to) in [(main, fa), (fa, x), (fc, y)] {
        assert!(!a.is_recursive(edge(&a, from, to)));
    }
    // Members: the larger of self + calls leaving the cycle (a: 10 + 5) and
    // the calls into it from outside (a: 75 from main; b and c have none).
    assert_eq!(a.inclusive(fa), &[75]);
    assert_eq!(a.inclusive(fb), &[20]);
    assert_eq!(a.inclusive(fc), &[40]);
    assert_eq!(a.inclusive(x), &[5]);
    assert_eq!(a.inclusive(y), &[10]);
    assert_eq!(a.inclusive(main), &[76]);
    // `called` counts every call in: 2 from main + 1 from c.
    assert_eq!(a.called(fa), 3);
    assert_eq!(a.called(fb), 3);
    assert_eq!(a.called(fc), 3);
}

#[test]
fn called_and_edges_sum_over_call_sites() {
    let p = load(&[
        "events: Ir",
        "fn=main",
        "1 1",
        "cfn=f",
        "calls=2 10",
        "2 20",
        "calls=3 10", // a second call site, same callee
        "3 30",
        "fn=g",
        "5 1",
        "cfn=f",
        "calls=4 10",
        "6 40",
        "fn=f",
        "10 90",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let (main, g, f) = (func(&p, "main"), func(&p, "g"), func(&p, "f"));
    assert_eq!(p.parts[0].decode(&p).calls.len(), 3);
    assert_eq!(a.edges.len(), 2);
    let e = edge(&a, main, f);
    assert_eq!((a.edges[e].count, a.edge_cost(e)), (5, &[50][..]));
    let e = edge(&a, g, f);
    assert_eq!((a.edges[e].count, a.edge_cost(e)), (4, &[40][..]));
    assert_eq!(a.called(f), 9);
    assert_eq!(a.callers(f).len(), 2);
    assert_eq!(a.totals, vec![92]);
    assert_eq!(a.inclusive(main), &[51]);
    assert_eq!(a.inclusive(g), &[41]);
    assert_eq!(a.inclusive(f), &[90]);
}
