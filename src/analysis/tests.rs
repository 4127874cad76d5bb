//! Inclusive costs, cycles, part selection, derived events and the per-line
//! view of one function, on small profiles written here (every expected
//! number is worked out by hand in the comments), plus a call chain and a
//! cycle of a million functions (200,000 in debug builds) that must not
//! overflow the stack.

use super::source::function_source;
use super::*;
use crate::profile::FileId;
use std::fmt::Write;

fn load(lines: &[&str]) -> Profile {
    let mut text = lines.join("\n");
    text.push('\n');
    load_text(&text)
}

fn load_text(text: &str) -> Profile {
    crate::parse::load_reader("t.cg", text.as_bytes()).unwrap()
}

fn func(p: &Profile, name: &str) -> FnId {
    func_in(p, name, "")
}

fn func_in(p: &Profile, name: &str, file: &str) -> FnId {
    p.find_function(name, file, "")
        .unwrap_or_else(|| panic!("no function {name} in {file:?}"))
}

fn file(p: &Profile, name: &str) -> FileId {
    FileId(p.files.get(name).unwrap())
}

/// The edge index of caller -> callee.
fn edge(a: &Analysis, caller: FnId, callee: FnId) -> usize {
    a.edges
        .iter()
        .position(|e| e.caller == caller && e.callee == callee)
        .unwrap_or_else(|| panic!("no edge {caller:?} -> {callee:?}"))
}

fn assert_clean(p: &Profile) {
    assert!(p.diagnostics.is_empty(), "{:#?}", p.diagnostics);
}

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
    assert_eq!(a.called[main.index()], 0);
    assert_eq!(a.called[fa.index()], 1);
    assert_eq!(a.called[fb.index()], 3);
    assert_eq!(a.callees(main), &[edge(&a, main, fa) as u32]);
    assert_eq!(a.callers(fb), &[edge(&a, fa, fb) as u32]);
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
    assert_eq!(a.called[fib.index()], 9);
    assert!(a.is_recursive(edge(&a, fib, fib)));
    assert!(!a.is_recursive(edge(&a, main, fib)));
    assert!(!a.is_recursive(edge(&a, fib, leaf)));
    // A function calling itself is not a cycle of two or more.
    assert!(a.cycles.is_empty());
    assert!(a.cycle_of(fib).is_none());
}

/// main -> a -> b -> c -> a, with a -> x and c -> y leaving the cycle.
fn three_cycle() -> Profile {
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
    // Members: self + calls leaving the cycle only.
    assert_eq!(a.inclusive(fa), &[15]);
    assert_eq!(a.inclusive(fb), &[20]);
    assert_eq!(a.inclusive(fc), &[40]);
    assert_eq!(a.inclusive(x), &[5]);
    assert_eq!(a.inclusive(y), &[10]);
    assert_eq!(a.inclusive(main), &[76]);
    // `called` counts every call in: 2 from main + 1 from c.
    assert_eq!(a.called[fa.index()], 3);
    assert_eq!(a.called[fb.index()], 3);
    assert_eq!(a.called[fc.index()], 3);
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
    assert_eq!(p.parts[0].calls.len(), 3);
    assert_eq!(a.edges.len(), 2);
    let e = edge(&a, main, f);
    assert_eq!((a.edges[e].count, a.edge_cost(e)), (5, &[50][..]));
    let e = edge(&a, g, f);
    assert_eq!((a.edges[e].count, a.edge_cost(e)), (4, &[40][..]));
    assert_eq!(a.called[f.index()], 9);
    assert_eq!(a.callers(f).len(), 2);
    assert_eq!(a.totals, vec![92]);
    assert_eq!(a.inclusive(main), &[51]);
    assert_eq!(a.inclusive(g), &[41]);
    assert_eq!(a.inclusive(f), &[90]);
}

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
    assert_eq!(first.called[h.index()], 0);
    assert!(!first.is_active(h));
    assert!(first.is_active(g));

    // A missing flag counts as set.
    let second = Analysis::with_parts(&p, &[false]);
    assert_eq!(second.parts, vec![false, true]);
    assert_eq!(second.totals, vec![5]);
    assert_eq!(second.inclusive(main), &[5]);
    assert_eq!(second.called[h.index()], 2);
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
    assert_eq!(a.called[g.index()], 0);
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
    // Every call between members is inside the cycle: a member's inclusive
    // cost is its own.
    assert_eq!(a.inclusive(func(&p, "f0")), &[1]);
    assert_eq!(a.inclusive(func(&p, "f123456")), &[1]);
    assert!(a.cycle_of(main).is_none());
}

// ------------------------------------------------------------ source view

#[test]
fn function_source_lines_inlined_files_and_calls() {
    let p = load(&[
        "events: Ir",
        "fl=a.c",
        "fn=main",
        "3 1",
        "3 2",
        "4 5",
        "fi=inc.h",
        "10 7",
        "10 1",
        "fe=a.c",
        "5 2",
        "cfn=g",
        "calls=2 20",
        "5 30",
        "calls=1 20", // same line, same callee: one row
        "5 10",
        "fi=inc.h",
        "cfn=h", // in inc.h
        "calls=1 30",
        "11 4",
        "fn=g",
        "20 40",
        "fl=inc.h",
        "fn=h",
        "30 4",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let main = func_in(&p, "main", "a.c");
    let g = func_in(&p, "g", "a.c");
    let h = func_in(&p, "h", "inc.h");
    let (ac, inc) = (file(&p, "a.c"), file(&p, "inc.h"));
    assert!(ac < inc);
    // main's self: 1 + 2 + 5 + 7 + 1 + 2 = 18, plus 40 (g) + 4 (h).
    assert_eq!(a.self_cost(main), &[18]);
    assert_eq!(a.inclusive(main), &[62]);
    let src = function_source(&p, &a, main);
    let lines: Vec<(FileId, u64, Vec<i64>)> = src
        .lines
        .iter()
        .map(|l| (l.file, l.line, l.cost.clone()))
        .collect();
    assert_eq!(
        lines,
        vec![
            (ac, 3, vec![3]),
            (ac, 4, vec![5]),
            (ac, 5, vec![2]),
            (inc, 10, vec![8]),
        ]
    );
    let calls: Vec<(FileId, u64, FnId, u64, Vec<i64>)> = src
        .calls
        .iter()
        .map(|c| (c.file, c.line, c.callee, c.count, c.inclusive.clone()))
        .collect();
    assert_eq!(
        calls,
        vec![(ac, 5, g, 3, vec![40]), (inc, 11, h, 1, vec![4])]
    );
    assert!(src.jumps.is_empty());
    assert!(src.instrs.is_empty());
    assert_eq!(src.files(), vec![ac, inc]);
    // g's own view: one line in its own file.
    let src = function_source(&p, &a, g);
    assert_eq!(src.lines.len(), 1);
    assert_eq!((src.lines[0].file, src.lines[0].line), (ac, 20));
    assert!(src.calls.is_empty());
}

#[test]
fn function_source_instruction_rows_with_derived_events() {
    let p = load(&[
        "positions: instr line",
        "events: Ir",
        "event: D = 2 Ir",
        "fl=a.c",
        "fn=main",
        "0x10 3 1", // (0x10, 3)
        "+2 * 2",   // (0x12, 3)
        "-2 * 4",   // (0x10, 3) again
        "fi=inc.h",
        "0x20 10 7", // (0x20, 10) in inc.h
        "+4 +1 3",   // (0x24, 11)
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let main = func_in(&p, "main", "a.c");
    let (ac, inc) = (file(&p, "a.c"), file(&p, "inc.h"));
    let src = function_source(&p, &a, main);
    let instrs: Vec<(u64, FileId, u64, Vec<i64>)> = src
        .instrs
        .iter()
        .map(|r| (r.addr, r.file, r.line, r.cost.clone()))
        .collect();
    assert_eq!(
        instrs,
        vec![
            (0x10, ac, 3, vec![5, 10]),
            (0x12, ac, 3, vec![2, 4]),
            (0x20, inc, 10, vec![7, 14]),
            (0x24, inc, 11, vec![3, 6]),
        ]
    );
    let lines: Vec<(FileId, u64, Vec<i64>)> = src
        .lines
        .iter()
        .map(|l| (l.file, l.line, l.cost.clone()))
        .collect();
    assert_eq!(
        lines,
        vec![
            (ac, 3, vec![7, 14]),
            (inc, 10, vec![7, 14]),
            (inc, 11, vec![3, 6]),
        ]
    );
}

#[test]
fn function_source_jump_rows_sum_by_source_and_target() {
    let p = load(&[
        "events: Ir",
        "fn=main",
        "10 1",
        "jcnd=1/2 +5", // 10 -> 15
        "*",
        "jcnd=3/4 +5", // 10 -> 15 again
        "*",
        "jump=2 20", // 11 -> 20
        "+1",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let main = func(&p, "main");
    let src = function_source(&p, &a, main);
    let jumps: Vec<(u64, FnId, u64, u64, Option<u64>)> = src
        .jumps
        .iter()
        .map(|j| (j.line, j.target_func, j.target_line, j.taken, j.executed))
        .collect();
    assert_eq!(
        jumps,
        vec![(10, main, 15, 4, Some(6)), (11, main, 20, 2, None)]
    );
}
