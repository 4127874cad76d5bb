//! Estimated call trees on small profiles; every expected number is worked
//! out by hand in the comments.

use super::*;
use crate::analysis::tree::Tree;
use std::ops::Range;

/// main (self 10) calls a twice (cost 60) and b once (30); a (self 20)
/// calls c (40); b (self 10) calls c (20); c's self is 60, two thirds of it
/// through a. Total 100.
fn diamond() -> crate::profile::Profile {
    load(&[
        "events: Ir",
        "fn=main",
        "1 10",
        "cfn=a",
        "calls=2 1",
        "1 60",
        "cfn=b",
        "calls=1 1",
        "1 30",
        "fn=a",
        "1 20",
        "cfn=c",
        "calls=4 1",
        "1 40",
        "fn=b",
        "1 10",
        "cfn=c",
        "calls=2 1",
        "1 20",
        "fn=c",
        "1 60",
    ])
}

fn names(p: &crate::profile::Profile, t: &Tree, nodes: Range<usize>) -> Vec<(String, Cost)> {
    nodes
        .map(|i| {
            let n = t.node(i);
            let name = n.func.map_or("(all)".into(), |f| p.fn_name(f).to_string());
            (name, n.value)
        })
        .collect()
}

#[test]
fn the_first_level_is_the_measured_calls() {
    let p = diamond();
    let a = Analysis::new(&p);
    let mut t = Tree::callees(&a, 0, Some(func(&p, "main")));
    assert_eq!(t.node(0).value, 100);
    let kids = t.children(&a, 0);
    assert_eq!(
        names(&p, &t, kids.clone()),
        [("a".into(), 60), ("b".into(), 30)]
    );
    assert_eq!(t.node(0).own(), Some(10));
    assert!(kids.clone().all(|i| t.node(i).exact));
    assert_eq!(t.node(kids.start).calls, 2);
}

#[test]
fn deeper_levels_are_shared_in_proportion_and_add_up() {
    let p = diamond();
    let a = Analysis::new(&p);
    let mut t = Tree::callees(&a, 0, Some(func(&p, "main")));
    let kids = t.children(&a, 0);
    // a got all of its cost (60 = 20 + 40) through main: c under a is the
    // measured 40, and exact.
    let under_a = t.children(&a, kids.start);
    assert_eq!(names(&p, &t, under_a.clone()), [("c".into(), 40)]);
    assert!(t.node(under_a.start).exact);
    assert_eq!(t.node(under_a.start).calls, 4);
    // c under a has no calls: its self share is its whole value.
    let none = t.children(&a, under_a.start);
    assert!(none.is_empty());
    assert_eq!(t.node(under_a.start).own(), Some(40));
}

#[test]
fn a_function_reached_by_part_of_its_cost_shares_it() {
    // The same diamond seen from c's callers' side: a tree of the whole
    // program. Root: 100 = main's 100. Under main exact; then a, b exact
    // too, since main got everything.
    let p = diamond();
    let a = Analysis::new(&p);
    let mut t = Tree::callees(&a, 0, None);
    let roots = t.children(&a, 0);
    assert_eq!(names(&p, &t, roots.clone()), [("main".into(), 100)]);
    assert_eq!(t.node(0).own(), Some(0));
    let kids = t.children(&a, roots.start);
    assert!(kids.clone().all(|i| t.node(i).exact));

    // Now a profile where a is called from two places: x (cost 30) and
    // y (cost 10); a = self 8 + call to c 32 = 40. Under x, a's 30 is 3/4
    // of a: its self share 6 and c's 24, estimated.
    let p = load(&[
        "events: Ir",
        "fn=root",
        "1 0",
        "cfn=x",
        "calls=1 1",
        "1 30",
        "cfn=y",
        "calls=1 1",
        "1 10",
        "fn=x",
        "cfn=a",
        "calls=3 1",
        "1 30",
        "fn=y",
        "cfn=a",
        "calls=1 1",
        "1 10",
        "fn=a",
        "1 8",
        "cfn=c",
        "calls=8 1",
        "1 32",
        "fn=c",
        "1 32",
    ]);
    let a2 = Analysis::new(&p);
    let mut t = Tree::callees(&a2, 0, Some(func(&p, "x")));
    let under_x = t.children(&a2, 0);
    assert_eq!(names(&p, &t, under_x.clone()), [("a".into(), 30)]);
    assert!(t.node(under_x.start).exact);
    let under_a = t.children(&a2, under_x.start);
    assert_eq!(names(&p, &t, under_a.clone()), [("c".into(), 24)]);
    assert_eq!(t.node(under_x.start).own(), Some(6));
    let c = t.node(under_a.start);
    assert!(!c.exact);
    // 8 calls of a to c, 3/4 of them along this path.
    assert_eq!(c.calls, 6);
}

#[test]
fn recursion_is_a_leaf_with_no_value() {
    // f (self 30) calls itself (the recursive call costs 20, inside f's 30)
    // and g (10). f's inclusive is 40: self 30 + g 10.
    let p = load(&[
        "events: Ir",
        "fn=f",
        "1 30",
        "cfn=f",
        "calls=5 1",
        "1 20",
        "cfn=g",
        "calls=1 1",
        "1 10",
        "fn=g",
        "1 10",
    ]);
    let a = Analysis::new(&p);
    let mut t = Tree::callees(&a, 0, Some(func(&p, "f")));
    assert_eq!(t.node(0).value, 40);
    let kids = t.children(&a, 0);
    assert_eq!(
        names(&p, &t, kids.clone()),
        [("g".into(), 10), ("f".into(), 0)]
    );
    let rec = kids.start + 1;
    assert!(t.node(rec).recursive);
    assert!(!t.may_expand(rec));
    assert!(t.children(&a, rec).is_empty());
    // The recursive call does not take from f's self share.
    assert_eq!(t.node(0).own(), Some(30));
}

#[test]
fn the_caller_tree_shares_a_cost_among_the_callers() {
    let p = diamond();
    let a = Analysis::new(&p);
    let mut t = Tree::callers(&a, 0, func(&p, "c"));
    assert_eq!(t.node(0).value, 60);
    let kids = t.children(&a, 0);
    assert_eq!(
        names(&p, &t, kids.clone()),
        [("a".into(), 40), ("b".into(), 20)]
    );
    assert_eq!(t.node(0).own(), Some(0));
    // a's 40 of c goes on to main, a's only caller; main is a root and
    // keeps it.
    let up = t.children(&a, kids.start);
    assert_eq!(names(&p, &t, up.clone()), [("main".into(), 40)]);
    assert!(t.children(&a, up.start).is_empty());
    assert_eq!(t.node(up.start).own(), Some(40));
    assert_eq!(t.path(up.start).len(), 3);
}

/// In the diamond, c's self cost of 60 arrives two thirds through a (40)
/// and one third through b (20), as its inclusive cost does; main, a root
/// that every path reaches, keeps what comes through a.
#[test]
fn the_caller_tree_shares_the_roots_self_cost_as_its_value() {
    use crate::analysis::tree::Direction;
    let p = diamond();
    let a = Analysis::new(&p);
    let mut t = Tree::callers(&a, 0, func(&p, "c"));
    assert_eq!(t.node(0).self_cost(Direction::Callers), Some(60));
    let kids = t.children(&a, 0);
    let selves: Vec<_> = kids
        .clone()
        .map(|k| t.node(k).self_cost(Direction::Callers))
        .collect();
    assert_eq!(selves, [Some(40), Some(20)]);
    let up = t.children(&a, kids.start);
    assert_eq!(t.node(up.start).self_cost(Direction::Callers), Some(40));
    // b's self is 10 of its 40: the ratio of a node's self to its value
    // is the root's, 60 of 60, whatever the function on the path spends.
    let b = Tree::callers(&a, 0, func(&p, "b"));
    assert_eq!(b.node(0).self_cost(Direction::Callers), Some(10));
}

/// A call tree node's self cost is its own share once its children are
/// known: main's 10, a's 20 (a has one caller), c's 40 under a.
#[test]
fn a_call_tree_nodes_self_cost_is_what_its_children_leave() {
    use crate::analysis::tree::Direction;
    let p = diamond();
    let a = Analysis::new(&p);
    let mut t = Tree::callees(&a, 0, Some(func(&p, "main")));
    assert_eq!(t.node(0).self_cost(Direction::Callees), None);
    assert_eq!(t.self_cost_of(&a, 0), Some(10));
    let kids = t.children(&a, 0);
    assert_eq!(t.self_cost_of(&a, kids.start), Some(20));
    let c = t.children(&a, kids.start).start;
    // c under a: 40, all of it c's own (c calls nothing).
    assert_eq!(t.self_cost_of(&a, c), Some(40));
}

/// The hot path goes down while the largest child costs more than what
/// its node spends itself: main (self 10) to a (60, self 20) to c (40),
/// c a leaf; with a spending more than c costs, it stops at a.
#[test]
fn the_hot_path_stops_where_a_node_spends_more_than_its_largest_call() {
    let p = diamond();
    let a = Analysis::new(&p);
    let mut t = Tree::callees(&a, 0, Some(func(&p, "main")));
    let path = t.expand_hottest(&a, 0);
    let names: Vec<_> = path
        .iter()
        .map(|&n| p.fn_name(t.node(n).func.unwrap()).to_string())
        .collect();
    assert_eq!(names, ["a", "c"]);
    // a spends 50 itself, c costs 10 under it: the path ends at a.
    let q = load(&[
        "events: Ir",
        "fn=main",
        "1 10",
        "cfn=a",
        "calls=1 1",
        "1 60",
        "fn=a",
        "1 50",
        "cfn=c",
        "calls=1 1",
        "1 10",
        "fn=c",
        "1 10",
    ]);
    let a = Analysis::new(&q);
    let mut t = Tree::callees(&a, 0, Some(func(&q, "main")));
    let path = t.expand_hottest(&a, 0);
    assert_eq!(path.len(), 1);
    assert_eq!(q.fn_name(t.node(path[0]).func.unwrap()), "a");
    // main spends 10 itself, less than a's 60: it does not stop at once;
    // a root spending more than all its calls has an empty path.
    let mut t = Tree::callees(&a, 0, Some(func(&q, "a")));
    assert!(t.expand_hottest(&a, 0).is_empty());
}

#[test]
fn children_and_own_share_add_up_everywhere() {
    let p = crate::parse::load_paths(
        &[std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/samples/cpp-names.callgrind"
        ))],
        crate::parse::LoadOptions::default(),
    )
    .unwrap();
    let a = Analysis::new(&p);
    let mut trees = vec![Tree::callees(&a, 0, None)];
    trees.extend((0..a.function_count()).map(|f| Tree::callers(&a, 0, FnId::from_index(f))));
    let mut nodes = 0;
    for mut t in trees {
        let mut i = 0;
        while i < t.len() && i < 20_000 {
            let kids = t.children(&a, i);
            let sum: Cost = kids.map(|k| t.node(k).value).sum::<Cost>() + t.node(i).own().unwrap();
            assert_eq!(sum, t.node(i).value, "node {i} {:?}", t.node(i));
            i += 1;
        }
        nodes += t.len();
    }
    assert!(nodes > 1000, "{nodes}");
}

/// A cycle no one calls (x ⇄ y, as Python's import machinery makes) stands
/// under the whole program's node with the cycle's cost, not with its
/// member's own inclusive cost, which leaves out what the other member does.
#[test]
fn a_cycle_no_one_calls_is_a_root_with_the_whole_cycles_cost() {
    let p = load(&[
        "events: Ir",
        "fn=x",
        "1 10",
        "cfn=y",
        "calls=1 1",
        "1 85",
        "fn=y",
        "1 80",
        "cfn=x",
        "calls=1 1",
        "1 5",
        "fn=z",
        "1 5",
    ]);
    let a = Analysis::new(&p);
    let cycle = a.cycle_of(func(&p, "x")).expect("x and y are a cycle");
    // 10 + 80 of self costs, nothing leaves the cycle.
    assert_eq!(cycle.inclusive[0], 90);
    let mut t = Tree::callees(&a, 0, None);
    assert_eq!(t.node(0).value, 95);
    let kids = t.children(&a, 0);
    assert_eq!(
        names(&p, &t, kids),
        [("x".into(), 90), ("z".into(), 5)],
        "the member whose self cost and calls cost most (x: 10 + 85, y: 80 + 5) stands for the cycle"
    );
    assert_eq!(t.node(0).own(), Some(0));
}

/// Without `--separate-threads`, a thread's work is a call from `clone` to
/// `start_thread` while the parent's call into `clone` costs next to
/// nothing: the whole program's tree has `clone` as an entry with what its
/// caller does not pay, so the entries cover the total.
#[test]
fn cost_no_call_explains_is_an_entry_of_the_whole_program() {
    let p = load(&[
        "events: Ir",
        "fn=main",
        "1 10",
        "cfn=clone",
        "calls=1 1",
        "1 1",
        "fn=clone",
        "1 1",
        "cfn=start_thread",
        "calls=1 1",
        "1 100",
        "fn=start_thread",
        "1 100",
    ]);
    let a = Analysis::new(&p);
    let mut t = Tree::callees(&a, 0, None);
    assert_eq!(t.node(0).value, 111);
    let kids = t.children(&a, 0);
    // clone: inclusive 101, of which main's call pays 1; main: 10 + 1.
    assert_eq!(
        names(&p, &t, kids),
        [("clone".into(), 100), ("main".into(), 11)]
    );
    assert_eq!(t.node(0).own(), Some(0));
}
