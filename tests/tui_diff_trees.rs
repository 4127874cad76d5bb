//! The call tree, caller tree and flame graph of a comparison (`--base`):
//! every node's two sides against that side's own tree, built here on
//! that profile loaded alone and walked by the names along the path; a
//! path of one profile only; the hottest path leading to the change; the
//! differential flame graph's colours per sign and its text marks without
//! colour and in ASCII; snapshots at 80x24 and 120x40.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;

use cgtui::analysis::Analysis;
use cgtui::analysis::diff::{Joined, MatchOptions, Side};
use cgtui::analysis::tree::{Direction, Tree};
use cgtui::format::thousands;
use cgtui::parse::{LoadOptions, load_paths};
use cgtui::profile::{FnId, Profile};
use ratatui::style::Color;
use std::sync::Arc;
use support::*;

const O0: &str = "diff-branches-64.callgrind";
const O2: &str = "diff-branches-O2.callgrind";

/// Pairs of samples whose programs make calls.
const PAIRS: [(&str, &str); 3] = [
    (O0, O2),
    ("diff-jumps-O0.callgrind", "diff-jumps-O2.callgrind"),
    ("diff-branches-16.callgrind", O0),
];

fn load(name: &str) -> Profile {
    load_paths(&[sample(name)], LoadOptions::default()).unwrap()
}

/// One side, loaded alone, with its own analysis and tree.
struct Alone {
    profile: Profile,
    analysis: Analysis,
    tree: Tree,
}

impl Alone {
    fn new(name: &str, direction: Direction, root: Option<&str>) -> Option<Alone> {
        let profile = load(name);
        let analysis = Analysis::new(&profile);
        let ev = profile.events.index_of("Ir").unwrap();
        let root = match root {
            Some(r) => Some(
                (0..profile.functions.len())
                    .map(FnId::from_index)
                    .find(|&f| profile.fn_name(f) == r)?,
            ),
            None => None,
        };
        let tree = match (direction, root) {
            (Direction::Callers, Some(f)) => Tree::callers(&analysis, ev, f),
            (_, root) => Tree::callees(&analysis, ev, root),
        };
        Some(Alone {
            profile,
            analysis,
            tree,
        })
    }

    /// The node at the end of the path of names below the root: `Ok(None)`
    /// where the path is not in this profile, `Err` where two calls on
    /// the way share a name (not told apart by name alone).
    fn find(&mut self, path: &[String]) -> Result<Option<usize>, ()> {
        let mut n = 0;
        for name in path {
            let kids: Vec<usize> = self
                .tree
                .children(&self.analysis, n)
                .filter(|&k| {
                    let node = self.tree.node(k);
                    !node.recursive
                        && node
                            .func
                            .is_some_and(|f| self.profile.fn_name(f) == name.as_str())
                })
                .collect();
            match kids[..] {
                [] => return Ok(None),
                [k] => n = k,
                _ => return Err(()),
            }
        }
        Ok(Some(n))
    }
}

/// Checks every node of a comparison's tree (expanded up to `limit` nodes)
/// against each side's own tree; returns the nodes checked and those of
/// one side only.
fn check(base: &str, new: &str, direction: Direction, root: Option<&str>) -> (usize, usize) {
    let (mut b, mut n) = (
        Alone::new(base, direction, root).unwrap(),
        Alone::new(new, direction, root).unwrap(),
    );
    let mut extended = load(new);
    let (joined, difference) = Joined::new(load(base), &mut extended, &MatchOptions::default());
    let joined = Arc::new(joined);
    let ev = extended.events.index_of("Ir").unwrap();
    let from = root.map(|r| {
        (0..extended.functions.len())
            .map(FnId::from_index)
            .find(|&f| extended.fn_name(f) == r)
            .unwrap()
    });
    let mut tree = Tree::compared(joined.clone(), direction, ev, from, &[]);
    tree.expand_all(&difference, 0, 1, 3_000);
    let c = &joined.comparison;
    let (mut checked, mut one_sided) = (0, 0);
    for i in 0..tree.len() {
        let node = tree.node(i).clone();
        if !node.is_call() || !tree.is_expanded(i) {
            continue;
        }
        let pairs = tree.path(i);
        let below = if root.is_some() {
            &pairs[1..]
        } else {
            &pairs[..]
        };
        let sides = tree.sides(i).unwrap();
        for (side, alone, profile, cost, own, present) in [
            (
                Side::Base,
                &mut b,
                &joined.base,
                sides.base,
                sides.base_self,
                sides.in_base,
            ),
            (
                Side::New,
                &mut n,
                &extended,
                sides.new,
                sides.new_self,
                sides.in_new,
            ),
        ] {
            let names: Option<Vec<String>> = below
                .iter()
                .map(|p| Some(profile.fn_name(c.function(p.index(), side)?).to_string()))
                .collect();
            let found = match names {
                Some(names) => alone.find(&names),
                None => Ok(None),
            };
            let Ok(found) = found else { continue };
            let what = format!("{base} -> {new} {direction:?} {side:?} {below:?}");
            match found {
                Some(m) => {
                    assert!(present, "{what}: in that profile, not marked so");
                    assert_eq!(cost, alone.tree.node(m).value, "{what}");
                    let alone_own = alone.tree.self_cost_of(&alone.analysis, m);
                    assert_eq!(own, alone_own, "{what}: self cost");
                }
                None => {
                    assert!(!present, "{what}: not in that profile");
                    assert_eq!(cost, 0, "{what}");
                    one_sided += 1;
                }
            }
            checked += 1;
        }
        assert_eq!(
            node.value,
            sides.new - sides.base,
            "the value is the change"
        );
    }
    (checked, one_sided)
}

#[test]
fn each_side_of_every_node_is_that_sides_own_tree() {
    let mut one_sided = 0;
    for (base, new) in PAIRS {
        let (checked, one) = check(base, new, Direction::Callees, None);
        assert!(checked > 100, "{base} -> {new}: {checked} checked");
        one_sided += one;
        let (checked, _) = check(base, new, Direction::Callees, Some("main"));
        assert!(checked > 50, "{base} -> {new}: {checked} checked");
    }
    assert!(one_sided > 10, "paths of one profile only: {one_sided}");
}

#[test]
fn each_side_of_every_caller_node_is_that_sides_own_tree() {
    for (base, new) in PAIRS {
        for root in ["main", "printf", "malloc"] {
            let (checked, _) = check(base, new, Direction::Callers, Some(root));
            assert!(checked > 4, "{base} -> {new} {root}: {checked} checked");
        }
    }
}

/// `count_big` is gone at -O2 (inlined into `count_big.constprop.0`, a
/// new function): each shows its cost on its own side, 0 on the other,
/// marked as the list marks them.
#[test]
fn a_path_of_one_profile_only_shows_0_on_the_other_and_is_marked() {
    let mut base = Alone::new(O0, Direction::Callees, Some("main")).unwrap();
    let gone = base.find(&["count_big".into()]).unwrap().unwrap();
    let gone = thousands(base.tree.node(gone).value);
    let mut new = Alone::new(O2, Direction::Callees, Some("main")).unwrap();
    let added = new
        .find(&["count_big.constprop.0".into()])
        .unwrap()
        .unwrap();
    let added = thousands(new.tree.node(added).value);
    let mut app = comparison_app(O0, O2);
    assert_eq!(current(&app), "main");
    press(&mut app, "t");
    let buf = render(&mut app, 120, 40);
    let screen = text(&buf);
    let line = |name: &str| {
        screen
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name}\n{screen}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let g = line("count_big gone");
    assert_eq!(g[..3], [gone.clone(), "0".into(), format!("-{gone}")]);
    let n = line("count_big.constprop.0 new");
    assert_eq!(n[..3], ["0".into(), added.clone(), format!("+{added}")]);
}

/// The tree opens on the path to where the change is: each step the child
/// whose change is largest, down to a node whose own change is larger
/// than any of its children's.
#[test]
fn the_opening_path_leads_to_the_change() {
    for (base, new) in PAIRS {
        let mut app = comparison_app(base, new);
        press(&mut app, "t");
        let view = app.tree().unwrap();
        let tree = &view.tree;
        let at = view.node();
        let path: Vec<usize> =
            std::iter::successors(Some(at), |&n| tree.node(n).parent()).collect();
        for &n in &path[..path.len() - 1] {
            let parent = tree.node(n).parent().unwrap();
            let biggest = tree
                .children_of(parent)
                .map(|k| tree.node(k).value.abs())
                .max()
                .unwrap();
            assert_eq!(tree.node(n).value.abs(), biggest, "{base} -> {new}");
        }
        let own = tree.node(at).own().unwrap().abs();
        for k in tree.children_of(at) {
            assert!(tree.node(k).value.abs() <= own, "{base} -> {new}");
        }
    }
}

#[test]
fn comparison_tree_snapshots() {
    for (w, h) in [(80, 24), (120, 40)] {
        for (name, keys) in [
            ("diff_call_tree", "t"),
            ("diff_caller_tree", "/cmp_int<Enter>b"),
            ("diff_flame", "f"),
            ("diff_flame_selected", "fjj"),
        ] {
            let mut app = comparison_app(O0, O2);
            press(&mut app, keys);
            let screen = text(&render(&mut app, w, h));
            insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen);
        }
    }
}

/// Where a box is on screen: the row and column its name starts at.
fn find_box(buf: &ratatui::buffer::Buffer, h: u16, name: &str) -> (u16, u16) {
    (0..h)
        .find_map(|y| {
            let r = row(buf, y);
            r.find(name).map(|x| (x as u16, y))
        })
        .unwrap_or_else(|| panic!("{name}\n{}", text(buf)))
}

/// Red where the cost grew, green where it shrank, grey where it did not
/// change; the first character says the sign.
#[test]
fn the_flame_graphs_colours_follow_the_sign_of_the_change() {
    let mut app = comparison_app(O0, O2);
    press(&mut app, "f");
    let buf = render(&mut app, 120, 40);
    let (x, y) = find_box(&buf, 40, "-sum_rows");
    assert_eq!(buf[(x, y)].bg, Color::Green);
    // count_big.constprop.0, new at -O2.
    let (x, y) = find_box(&buf, 40, "+co");
    assert_eq!(buf[(x, y)].bg, Color::Red);
    // A box whose cost is the same on both sides: no sign, grey.
    let (x, y) = find_box(&buf, 40, " __me");
    assert_eq!(buf[(x + 1, y)].bg, Color::Gray);
    let screen = text(&buf);
    assert!(screen.contains("Differential flame graph"), "{screen}");
    assert!(screen.contains("widths: new"), "{screen}");
}

/// Without colour the sign is in the text, and in ASCII too.
#[test]
fn without_colour_and_in_ascii_the_sign_is_text() {
    for (color, ascii) in [(false, false), (false, true), (true, true)] {
        let mut app = comparison_app(O0, O2);
        app.theme = cgtui::tui::Theme {
            color,
            ascii,
            ..app.theme
        };
        press(&mut app, "f");
        let screen = text(&render(&mut app, 120, 40));
        let open = if color { "" } else { "[" };
        for mark in [format!("{open}-main"), format!("{open}+")] {
            assert!(screen.contains(&mark), "{color} {ascii}: {mark}\n{screen}");
        }
        for legend in ["+ slower", "- faster"] {
            assert!(screen.contains(legend), "{screen}");
        }
        if ascii {
            assert!(screen.is_ascii(), "{screen}");
        }
    }
}

/// The status line gives the selected box's cost on each side (each
/// side's own inclusive cost of main), the change and the self change.
#[test]
fn the_status_line_gives_both_sides_and_the_changes() {
    let side = |name: &str| {
        let p = load(name);
        let a = Analysis::new(&p);
        let ev = p.events.index_of("Ir").unwrap();
        let main = (0..p.functions.len())
            .map(FnId::from_index)
            .find(|&f| p.fn_name(f) == "main")
            .unwrap();
        (a.inclusive(main)[ev], a.self_cost(main)[ev])
    };
    let ((bi, bs), (ni, ns)) = (side(O0), side(O2));
    let mut app = comparison_app(O0, O2);
    press(&mut app, "f");
    let screen = text(&render(&mut app, 120, 40));
    let sign = |v: i64| if v > 0 { "+" } else { "" };
    let want = format!(
        "main: base {}, new {}, change {}{}",
        thousands(bi),
        thousands(ni),
        sign(ni - bi),
        thousands(ni - bi)
    );
    assert!(screen.contains(&want), "{want}\n{screen}");
    let own = format!("self change {}{}", sign(ns - bs), thousands(ns - bs));
    assert!(screen.contains(&own), "{own}\n{screen}");
}
