//! A call chain and a cycle of a million functions: no stack overflow.

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
