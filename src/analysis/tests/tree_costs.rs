//! Trees valued in more events than the one they are built by (the
//! browser's chosen columns): every expected number is worked out by hand
//! in the comments, then the rule is checked against the tree's own event
//! on the samples.

use super::*;
use crate::analysis::tree::{Limits, NodeCosts, Tree};

/// Events Ir and Dr. main (self 10/1) calls a (60/6), b (30/30) and d
/// (0/5: no Ir, so no child of an Ir tree); a (self 20/2) calls c
/// (40/4); b (self 10/10) calls c (20/20); c (self 30/12) calls e
/// (30/12), whose self is all of it. main's inclusive: 100 Ir, 42 Dr.
fn two_events() -> Profile {
    load(&[
        "events: Ir Dr",
        "fn=main",
        "1 10 1",
        "cfn=a",
        "calls=2 1",
        "1 60 6",
        "cfn=b",
        "calls=1 1",
        "1 30 30",
        "cfn=d",
        "calls=1 1",
        "1 0 5",
        "fn=a",
        "1 20 2",
        "cfn=c",
        "calls=4 1",
        "1 40 4",
        "fn=b",
        "1 10 10",
        "cfn=c",
        "calls=2 1",
        "1 20 20",
        "fn=c",
        "1 30 12",
        "cfn=e",
        "calls=1 1",
        "1 30 12",
        "fn=d",
        "1 0 5",
        "fn=e",
        "1 30 12",
    ])
}

/// Node `i`'s name and its (inclusive, self) Dr.
fn dr(p: &Profile, t: &Tree, i: usize) -> (String, Cost, Option<Cost>) {
    let NodeCosts { inclusive, own } = t.costs(i, 2).unwrap();
    let name = t
        .node(i)
        .func
        .map_or("(cut)".into(), |f| p.fn_name(f).to_string());
    (name, inclusive[1], own.map(|o| o[1]))
}

#[test]
fn a_call_tree_shares_each_event_by_its_own_costs() {
    let p = two_events();
    let a = Analysis::new(&p);
    let mut t = Tree::callees(&a, 0, Some(func(&p, "main"))).with_events(&a, vec![0, 1]);
    let kids = t.children(&a, 0);
    // Measured at the first level, in the Ir tree's order: a 6, b 30.
    // d's 5 Dr belongs to no child and stays out of main's own 1.
    let got: Vec<_> = kids.clone().map(|k| dr(&p, &t, k)).collect();
    assert_eq!(
        got,
        [("a".into(), 6, None), ("b".into(), 30, None)],
        "a and b before they are opened have no self cost yet"
    );
    assert_eq!(dr(&p, &t, 0), ("main".into(), 42, Some(1)));
    // b (30 Dr) shares by its own Dr: self 10, c 20. Under a, c gets
    // a's whole call (4); below it, e and c's self share c's 4 Dr as
    // c's 12 and 12: 2 and 2, estimated.
    let (a_node, b_node) = (kids.start, kids.start + 1);
    let under_b = t.children(&a, b_node);
    assert_eq!(dr(&p, &t, under_b.start).1, 20);
    assert_eq!(dr(&p, &t, b_node), ("b".into(), 30, Some(10)));
    let c = t.children(&a, a_node).start;
    let under_c = t.children(&a, c);
    assert_eq!(dr(&p, &t, c), ("c".into(), 4, Some(2)));
    assert_eq!(dr(&p, &t, under_c.start), ("e".into(), 2, None));
    // The Ir column of the same tree is the tree's own values.
    assert_eq!(t.costs(c, 2).unwrap().inclusive[0], t.node(c).value);
    assert_eq!(t.node(c).value, 40);
}

#[test]
fn a_caller_tree_shares_the_roots_self_cost_by_each_event() {
    let p = two_events();
    let a = Analysis::new(&p);
    let c = func(&p, "c");
    let mut t = Tree::callers(&a, 0, c).with_events(&a, vec![1]);
    // c's inclusive Dr is 24: 4 by a, 20 by b; its self 12 comes by them
    // as 4 : 20, so 2 and 10.
    assert_eq!(dr(&p, &t, 0), ("c".into(), 24, Some(12)));
    let kids: Vec<_> = t.children(&a, 0).map(|k| dr(&p, &t, k)).collect();
    assert_eq!(kids, [("a".into(), 4, Some(2)), ("b".into(), 20, Some(10))]);
}

/// Every node of every tree of the samples, valued in every event too:
/// the tree's own event's row is the tree's own values and self costs,
/// and no node's children and self cost exceed its value in any event of
/// one sign.
#[test]
fn the_rows_of_the_trees_own_event_are_its_values() {
    for name in [
        "recursion.callgrind",
        "cycle-entry.callgrind",
        "cachesim.callgrind",
        "branches.cachegrind",
        "inline.callgrind",
    ] {
        let p = load_text(&std::fs::read_to_string(format!("samples/{name}")).unwrap());
        let a = Analysis::new(&p);
        let width = a.width;
        let all: Vec<usize> = (0..width).collect();
        let roots = (0..a.function_count())
            .map(FnId::from_index)
            .filter(|&f| a.is_active(f))
            .take(6);
        for f in roots {
            for ev in 0..width {
                let limits = Limits {
                    depth: 30,
                    children: 50,
                    nodes: 1_000,
                };
                let trees = [
                    Tree::callees(&a, ev, Some(f)),
                    Tree::callers(&a, ev, f),
                    Tree::callees(&a, ev, None),
                ];
                for t in trees {
                    let mut t = t.with_limits(limits).with_events(&a, all.clone());
                    let direction = t.direction;
                    t.expand_all(&a, 0, 0, 500);
                    for i in 0..t.len() {
                        let costs = t.costs(i, width).unwrap();
                        let node = t.node(i).clone();
                        assert_eq!(costs.inclusive[ev], node.value, "{name} node {i}");
                        let own = node.self_cost(direction);
                        assert_eq!(costs.own.map(|o| o[ev]), own, "{name} node {i}");
                        if !t.is_expanded(i) || !node.is_call() {
                            continue;
                        }
                        for e in 0..width {
                            let kids: i128 = t
                                .children_of(i)
                                .map(|k| i128::from(t.costs(k, width).unwrap().inclusive[e]))
                                .sum();
                            let own = t.costs(i, width).unwrap().own.unwrap()[e];
                            let value = t.costs(i, width).unwrap().inclusive[e];
                            if direction == crate::analysis::tree::Direction::Callees && value >= 0
                            {
                                assert!(
                                    kids + i128::from(own) <= i128::from(value),
                                    "{name} node {i} event {e}: {kids} + {own} > {value}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
