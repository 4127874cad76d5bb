//! Bytes in, a small call graph out (its functions, self costs and calls
//! with costs read from the bytes, a chain of up to 2,000 on request), as
//! Callgrind text; then the call tree, the caller tree and the flame
//! graph's tree of it, grown every way the browser grows them, under small
//! bounds and the browser's, and the folded stacks. Checks: no panic;
//! every tree within its bounds on depth and nodes; a node's own share and
//! its children adding up to its value; the folded stacks within their
//! bounds on paths and depth, adding up to the total, and (where no depth
//! cut moved a cost) each function's stacks to its self cost.

use cgtui::analysis::Analysis;
use cgtui::analysis::tree::{Limits, Tree};
use cgtui::profile::{Cost, FnId};
use cgtui::report::folded::{self, FoldedOptions};
use std::fmt::Write;

/// The graph the bytes describe, as Callgrind text.
fn graph(data: &[u8]) -> String {
    let mut bytes = data.iter().copied();
    let mut next = || bytes.next().unwrap_or(0);
    let functions = 1 + usize::from(next() % 24);
    let chain = usize::from(next()) * 8;
    let big = next() % 4 == 0;
    let mut s = String::from("events: Ir\n");
    for f in 0..functions {
        let _ = write!(s, "fn=f{f}\n1 {}\n", next());
        for _ in 0..next() % 5 {
            let callee = usize::from(next()) % functions;
            let cost = if big {
                u64::from(next()) << 50
            } else {
                u64::from(next())
            };
            let _ = write!(s, "cfn=f{callee}\ncalls={} 1\n1 {cost}\n", next());
        }
    }
    // A chain below f0, each link paying the rest.
    for i in 0..chain {
        let callee = format!("c{}", i + 1);
        let _ = write!(
            s,
            "fn=c{i}\n1 1\ncfn={callee}\ncalls=1 1\n1 {}\n",
            chain - i
        );
    }
    if chain > 0 {
        let _ = write!(s, "fn=f0\ncfn=c0\ncalls=1 1\n1 {}\n", chain + 1);
    }
    s
}

/// Grows `t` as the browser does and checks its bounds and sums.
fn grow(a: &Analysis, mut t: Tree, exact_sums: bool) {
    let limits = t.limits();
    let _ = t.expand_hottest(a, 0);
    let _ = t.expand_all(a, 0, 0, 500);
    let mut i = 0;
    while i < t.len().min(400) {
        let _ = t.children(a, i);
        i += 1;
    }
    assert!(t.len() <= limits.nodes.saturating_mul(2).saturating_add(1));
    for n in 0..t.len() {
        let node = t.node(n);
        assert!(node.depth <= limits.depth.saturating_add(1));
        if let Some(own) = node.own()
            && exact_sums
            && node.is_call()
        {
            let sum: i128 = t.children_of(n).map(|k| i128::from(t.node(k).value)).sum();
            assert_eq!(sum + i128::from(own), i128::from(node.value), "node {n}");
        }
    }
}

/// The target: never panics on any `data` (see the module doc).
pub fn run(data: &[u8]) {
    let text = graph(data);
    let Ok(profile) = cgtui::parse::load_reader("fuzz.cg", text.as_bytes()) else {
        return;
    };
    let a = Analysis::new(&profile);
    let total = a.totals[0];
    // Shares of costs near the 64-bit limit may saturate.
    let exact_sums = total.saturating_abs() < 1 << 60;
    let b = data.get(3).copied().unwrap_or(0);
    let small = Limits {
        depth: 1 + u32::from(b % 8),
        children: 1 + usize::from(b / 8 % 5),
        nodes: 1 + usize::from(b / 40) * 10,
    };
    let firsts = (0..a.function_count().min(4)).map(FnId::from_index);
    for limits in [small, Limits::default()] {
        grow(
            &a,
            Tree::callees(&a, 0, None).with_limits(limits),
            exact_sums,
        );
        for f in firsts.clone() {
            grow(
                &a,
                Tree::callees(&a, 0, Some(f)).with_limits(limits),
                exact_sums,
            );
            grow(&a, Tree::callers(&a, 0, f).with_limits(limits), exact_sums);
        }
    }
    for (max_paths, max_depth, min) in [
        (1 + usize::from(b % 16), 1 + u32::from(b / 16), 0.0),
        (folded::DEFAULT_PATHS, folded::DEFAULT_DEPTH, 0.0),
        (folded::MAX_PATHS, folded::DEFAULT_DEPTH, 0.01),
    ] {
        let options = FoldedOptions {
            event: 0,
            min,
            max_paths,
            max_depth,
        };
        let out = folded::stacks(&a, options);
        assert!(
            out.stacks.len() <= 2 * max_paths + 2,
            "{} stacks",
            out.stacks.len()
        );
        let frames: usize = out.stacks.iter().map(|s| s.frames.len()).sum();
        assert!(frames <= folded::MAX_FRAMES);
        assert!(
            out.stacks
                .iter()
                .all(|s| s.frames.len() <= max_depth as usize)
        );
        if exact_sums {
            let sum: i128 = out.stacks.iter().map(|s| i128::from(s.value)).sum();
            let all = sum + i128::from(out.other) + i128::from(out.unattributed);
            assert_eq!(all, i128::from(total));
            if out.cut.depth == 0 {
                let mut ending = vec![0 as Cost; a.function_count()];
                for s in &out.stacks {
                    if let Some(&f) = s.frames.last() {
                        ending[f.index()] += s.value;
                    }
                }
                let other: Cost = (0..a.function_count())
                    .map(FnId::from_index)
                    .filter(|&f| ending[f.index()] == 0)
                    .map(|f| a.self_cost(f)[0])
                    .sum();
                assert_eq!(other, out.other);
                for f in (0..a.function_count()).map(FnId::from_index) {
                    let got = ending[f.index()];
                    assert!(got == 0 || got == a.self_cost(f)[0], "{f:?}");
                }
            }
        }
        let mut written = Vec::new();
        folded::write(&profile, &out, &mut written).unwrap_or_default();
    }
}
