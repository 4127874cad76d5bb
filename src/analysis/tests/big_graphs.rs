//! A call chain and a cycle of a million functions: no stack overflow;
//! the analysis on two cores against the one on one.

use super::*;

use std::fmt::Write;

/// Functions in the big graphs: a million in release builds; 200,000 in
/// debug builds, where loading five lines per function takes ~2.5 µs a line
/// (12 s for a million). Either is far deeper than a recursive walk survives.
const BIG: usize = if cfg!(debug_assertions) {
    200_000
} else {
    1_000_000
};

/// `f0 -> f1 -> ... -> f(n-1)`, self cost 1 each; the call into `fi`
/// costs what `fi` and everything below it cost: `n - i`.
fn chain_text(n: usize) -> String {
    let mut s = String::from("events: Ir\nfn=(0) f0\n");
    for i in 0..n {
        if i > 0 {
            writeln!(s, "fn=({i})").unwrap();
        }
        s.push_str("1 1\n");
        if i + 1 < n {
            writeln!(s, "cfn=({}) f{}\ncalls=1 1\n1 {}", i + 1, i + 1, n - i - 1).unwrap();
        }
    }
    s
}

#[test]
fn a_deep_call_chain_does_not_overflow() {
    let n = BIG;
    let p = load_text(&chain_text(n));
    assert_clean(&p);
    assert_eq!(p.functions.len(), n);
    let a = Analysis::new(&p);
    assert_eq!(a.totals, vec![n as i64]);
    assert!(a.cycles.is_empty());
    assert_eq!(a.inclusive(func(&p, "f0")), &[n as i64]);
    let mid = n / 2;
    assert_eq!(
        a.inclusive(func(&p, &format!("f{mid}"))),
        &[(n - mid) as i64]
    );
    assert_eq!(a.inclusive(func(&p, &format!("f{}", n - 1))), &[1]);
}

/// `main -> f0 -> f1 -> ... -> f(n-1) -> f0`, self cost 1 each.
fn cycle_text(n: usize) -> String {
    let mut s = format!("events: Ir\nfn=(0) main\n1 1\ncfn=(1) f0\ncalls=1 1\n1 {n}\n");
    for i in 0..n {
        let next = (i + 1) % n;
        writeln!(s, "fn=({})\n1 1", i + 1).unwrap();
        if next == 0 {
            writeln!(s, "cfn=(1)\ncalls=1 1\n1 {n}").unwrap();
        } else {
            writeln!(s, "cfn=({}) f{next}\ncalls=1 1\n1 {}", next + 1, n - next).unwrap();
        }
    }
    s
}

#[test]
fn a_huge_cycle_is_one_cycle_and_does_not_overflow() {
    let n = BIG;
    let p = load_text(&cycle_text(n));
    assert_clean(&p);
    assert_eq!(p.functions.len(), n + 1);
    let a = Analysis::new(&p);
    let main = func(&p, "main");
    let total = n as i64 + 1;
    assert_eq!(a.totals, vec![total]);
    assert_eq!(a.inclusive(main), &[total]);
    assert_eq!(a.cycles.len(), 1);
    let cycle = &a.cycles[0];
    assert_eq!(cycle.members.len(), n);
    assert_eq!(cycle.self_cost, vec![n as i64]);
    assert_eq!(cycle.inclusive, vec![n as i64]);
    assert_eq!(cycle.called, 1);
    // f0 is entered from main, and the whole cycle runs inside that call;
    // every other member is called only from inside: its own cost.
    assert_eq!(a.inclusive(func(&p, "f0")), &[n as i64]);
    assert_eq!(a.inclusive(func(&p, "f123456")), &[1]);
    assert!(a.cycle_of(main).is_none());
}

// ------------------------------------------------------------ source view

/// Cycles of three, functions calling themselves, and calls into later
/// cycles from all over, across the middle function where the two cores split the work;
/// two events, one of them negative in places.
fn tangled_text(n: usize) -> String {
    let mut s = String::from("events: Ir Dr\n");
    for i in 0..n {
        writeln!(
            s,
            "fn=({i}) f{i}\n{} {} {}",
            i % 7,
            i % 5 + 1,
            i as i64 % 3 - 1
        )
        .unwrap();
        let mut call = |to: usize, cost: usize| {
            writeln!(
                s,
                "cfn=({to}) f{to}\ncalls={} 1\n1 {cost} {}",
                to % 4 + 1,
                cost / 2
            )
            .unwrap();
        };
        // A cycle of three: 3k -> 3k+1 -> 3k+2 -> 3k.
        call(
            if i % 3 == 2 { i - 2 } else { i + 1 }.min(n - 1),
            5 + i % 11,
        );
        if i % 10 == 0 {
            call(i, 3);
        }
        // Into a later cycle, near or far (no cycle across groups).
        let later = (i / 3 + 1 + i * 7919 % 977) * 3 + i % 3;
        if later < n {
            call(later, 2 + i % 13);
        }
    }
    s
}

#[test]
fn two_cores_find_what_one_does() {
    let n = 60_000;
    let p = load_text(&tangled_text(n));
    assert_clean(&p);
    let one = Analysis::on_cores(&p, &[], Some(false));
    let two = Analysis::on_cores(&p, &[], Some(true));
    assert!(two.edges.len() >= TWO_CORES_FROM);
    assert!(one.cycles.len() > 1000, "{} cycles", one.cycles.len());
    assert_eq!(one.inclusive, two.inclusive);
    assert_eq!(one.signed, two.signed);
    assert_eq!(one.cycle_of, two.cycle_of);
    for (a, b) in one.cycles.iter().zip(&two.cycles) {
        assert_eq!(
            (&a.members, &a.self_cost, &a.inclusive, a.called),
            (&b.members, &b.self_cost, &b.inclusive, b.called)
        );
    }
    assert_eq!(one.cycles.len(), two.cycles.len());
}
