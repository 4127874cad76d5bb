//! The bounds of an estimated tree: depth, children per node and nodes,
//! each cut marked by one child holding the share it left out, the values
//! of the nodes shown unchanged; and trees of deep chains and big cycles
//! grown in time linear in what they hold.

use super::*;
use crate::analysis::tree::{Cut, Limits, MAX_DEPTH, Tree};
use std::fmt::Write;

/// `fn0 -> fn1 -> ... -> fn(n-1)`, self cost 1 each (total n); with
/// `cycle`, `fn(n-1)` calls `fn1` again (cost 1).
fn chain(n: usize, cycle: bool) -> Profile {
    let mut s = String::from("events: Ir\nfn=(0) fn0\n1 1\n");
    for i in 1..n {
        let _ = write!(
            s,
            "cfn=({i}) fn{i}\ncalls=1 1\n1 {}\nfn=({i})\n1 1\n",
            n - i
        );
    }
    if cycle {
        s.push_str("cfn=(1)\ncalls=1 1\n1 1\n");
    }
    load_text(&s)
}

/// `main` (self 1) calls `w0..w(n-1)`, `w i` costing `i + 1`.
fn wide(n: usize) -> Profile {
    let mut s = String::from("events: Ir\nfn=main\n1 1\n");
    for i in 0..n {
        let _ = write!(s, "cfn=w{i}\ncalls=1 1\n1 {}\n", i + 1);
    }
    for i in 0..n {
        let _ = write!(s, "fn=w{i}\n1 {}\n", i + 1);
    }
    load_text(&s)
}

#[test]
fn a_chain_stops_at_the_depth_bound_with_the_rest_in_a_marker() {
    let p = chain(50, false);
    let a = Analysis::new(&p);
    let limits = Limits {
        depth: 10,
        ..Limits::default()
    };
    let mut t = Tree::callees(&a, 0, Some(func(&p, "fn0"))).with_limits(limits);
    let path = t.expand_hottest(&a, 0);
    // fn1..fn10, then the marker below fn10.
    assert_eq!(path.len(), 11);
    let last = t.node(*path.last().unwrap());
    assert_eq!(last.cut, Some(Cut::Depth));
    assert_eq!(last.func, None);
    assert_eq!(last.depth, 11);
    // fn10's value is the measured 40; it keeps its self cost 1 and the
    // marker holds the 39 below.
    let fn10 = t.node(path[9]);
    assert_eq!(fn10.value, 40);
    assert_eq!(fn10.own(), Some(1));
    assert_eq!(last.value, 39);
    assert!(!t.may_expand(path[10]));
    assert!(t.children(&a, path[10]).is_empty());
    assert_eq!(t.len(), 12);
}

#[test]
fn the_costliest_children_stay_and_the_rest_is_one_marker() {
    let p = wide(10);
    let a = Analysis::new(&p);
    let limits = Limits {
        children: 3,
        ..Limits::default()
    };
    let mut t = Tree::callees(&a, 0, Some(func(&p, "main"))).with_limits(limits);
    let kids = t.children(&a, 0);
    let got: Vec<(Option<String>, Cost, Option<Cut>)> = kids
        .map(|k| {
            let n = t.node(k);
            (n.func.map(|f| p.fn_name(f).to_string()), n.value, n.cut)
        })
        .collect();
    // w9, w8, w7 as measured (10, 9, 8); the other seven (1 + ... + 7 = 28)
    // in one marker; main keeps 1: 10 + 9 + 8 + 28 + 1 = 56.
    assert_eq!(
        got,
        [
            (Some("w9".into()), 10, None),
            (Some("w8".into()), 9, None),
            (Some("w7".into()), 8, None),
            (None, 28, Some(Cut::Calls(7))),
        ]
    );
    assert_eq!(t.node(0).value, 56);
    assert_eq!(t.node(0).own(), Some(1));
}

#[test]
fn past_the_node_bound_a_node_opened_gets_one_marker() {
    let p = wide(10);
    let a = Analysis::new(&p);
    let limits = Limits {
        nodes: 1,
        ..Limits::default()
    };
    let mut t = Tree::callees(&a, 0, None).with_limits(limits);
    // The whole program's only entry is main: no room, so a marker.
    let kids = t.children(&a, 0);
    assert_eq!(kids.len(), 1);
    assert_eq!(t.node(kids.start).cut, Some(Cut::Calls(1)));
    assert_eq!(t.node(kids.start).value, 56);
}

#[test]
fn bounds_leave_the_values_of_the_nodes_shown_as_they_were() {
    let p = wide(40);
    let a = Analysis::new(&p);
    let mut whole = Tree::callees(&a, 0, Some(func(&p, "main")));
    let all = whole.children(&a, 0);
    let mut cut = Tree::callees(&a, 0, Some(func(&p, "main"))).with_limits(Limits {
        children: 5,
        ..Limits::default()
    });
    let some = cut.children(&a, 0);
    for (x, y) in all.zip(some.clone().take(5)) {
        assert_eq!(whole.node(x).func, cut.node(y).func);
        assert_eq!(whole.node(x).value, cut.node(y).value);
        assert_eq!(whole.node(x).calls, cut.node(y).calls);
    }
    let sum: Cost = some.map(|k| cut.node(k).value).sum();
    assert_eq!(sum + cut.node(0).own().unwrap(), cut.node(0).value);
}

/// A chain far deeper than the bound: the hottest path stops at the bound,
/// having created only the nodes on it, and fast (it took about a minute
/// at 100,000 deep when every node walked its whole path).
#[test]
fn a_chain_deeper_than_the_bound_grows_linearly() {
    let n = if cfg!(debug_assertions) {
        20_000
    } else {
        200_000
    };
    for cycle in [false, true] {
        let p = chain(n, cycle);
        let a = Analysis::new(&p);
        let start = std::time::Instant::now();
        let mut t = Tree::callees(&a, 0, Some(func(&p, "fn0")));
        let path = t.expand_hottest(&a, 0);
        assert_eq!(path.len(), MAX_DEPTH as usize + 1, "cycle {cycle}");
        assert!(t.len() <= MAX_DEPTH as usize + 3, "{} nodes", t.len());
        let last = t.node(*path.last().unwrap());
        assert_eq!(last.cut, Some(Cut::Depth));
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
        // The caller tree of the deepest function, the same way up.
        let deepest = func(&p, &format!("fn{}", n - 1));
        let mut up = Tree::callers(&a, 0, deepest);
        let path = up.expand_hottest(&a, 0);
        assert_eq!(path.len(), MAX_DEPTH as usize + 1, "cycle {cycle}");
        assert_eq!(up.node(*path.last().unwrap()).cut, Some(Cut::Depth));
    }
}

/// In a cycle the recursion test still finds a function already on the
/// path: fn1 under fn(n-1) is a recursive leaf.
#[test]
fn recursion_is_found_inside_a_long_cycle() {
    let p = chain(30, true);
    let a = Analysis::new(&p);
    let mut t = Tree::callees(&a, 0, Some(func(&p, "fn0")));
    let path = t.expand_hottest(&a, 0);
    // The hot path stops at fn28: its self cost 1 is as large as fn29's
    // (a tie stays where it is).
    let stop = *path.last().unwrap();
    assert_eq!(t.node(stop).func, Some(func(&p, "fn28")));
    assert_eq!(t.node(stop).own(), Some(1));
    let end = t.children(&a, stop).start;
    assert_eq!(t.node(end).func, Some(func(&p, "fn29")));
    let kids = t.children(&a, end);
    assert_eq!(kids.len(), 1);
    let leaf = t.node(kids.start);
    assert!(leaf.recursive);
    assert_eq!(leaf.func, Some(func(&p, "fn1")));
}
