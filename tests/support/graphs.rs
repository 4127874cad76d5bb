//! Generated call graphs that stress walks of the graph, as Callgrind
//! text: a chain `n` deep, layers with 2^layers paths, a function with
//! `n` callees. Every call carries the inclusive cost of its callee's
//! share, so the inclusive costs are exact and add up.

use std::fmt::Write;

/// `fn0 -> fn1 -> ... -> fn(n-1)`, each with self cost 1; the call into
/// `fn i` costs `n - i`. The total is `n`.
pub fn chain(n: usize) -> String {
    let mut s = String::with_capacity(n * 48);
    s.push_str("# callgrind format\nevents: Ir\nfl=(1) chain.c\nfn=(0) fn0\n1 1\n");
    for i in 1..n {
        let _ = write!(
            s,
            "cfn=({i}) fn{i}\ncalls=1 1\n1 {}\nfn=({i})\n1 1\n",
            n - i
        );
    }
    s
}

/// `main` (self 1) calls `l0_0` and `l0_1`; each `lk_j` (self `2 scale`)
/// calls both `l(k+1)_0` and `l(k+1)_1`, each call paying half of the
/// callee's inclusive cost `2 (layers - k) scale`. 2^layers paths; the
/// total is `1 + 4 layers scale` (a large `scale` keeps deep paths' shares
/// above zero).
pub fn layered(layers: usize, scale: u64) -> String {
    let id = |k: usize, j: usize| 1 + 2 * k + j;
    let inclusive = |k: usize| 2 * (layers - k) as u64 * scale;
    let mut s = String::new();
    s.push_str("# callgrind format\nevents: Ir\nfl=(1) layers.c\nfn=(0) main\n1 1\n");
    for j in 0..2 {
        let _ = write!(
            s,
            "cfn=({}) l0_{j}\ncalls=1 1\n1 {}\n",
            id(0, j),
            inclusive(0)
        );
    }
    for k in 0..layers {
        for j in 0..2 {
            let _ = write!(s, "fn=({})\n1 {}\n", id(k, j), 2 * scale);
            if k + 1 < layers {
                for jj in 0..2 {
                    let name = if j == 0 {
                        format!(" l{}_{jj}", k + 1)
                    } else {
                        String::new()
                    };
                    let cost = inclusive(k + 1) / 2;
                    let _ = write!(s, "cfn=({}){name}\ncalls=1 1\n1 {cost}\n", id(k + 1, jj));
                }
            }
        }
    }
    s
}

/// `main` (self 1) calls `w0` ... `w(n-1)`; `w i` has self cost `i + 1`.
/// The total is `1 + n (n + 1) / 2`.
pub fn wide(n: usize) -> String {
    let mut s = String::with_capacity(n * 64);
    s.push_str("# callgrind format\nevents: Ir\nfl=(1) wide.c\nfn=(0) main\n1 1\n");
    for i in 0..n {
        let _ = write!(s, "cfn=({}) w{i}\ncalls=1 1\n1 {}\n", i + 1, i + 1);
    }
    for i in 0..n {
        let _ = write!(s, "fn=({})\n1 {}\n", i + 1, i + 1);
    }
    s
}
