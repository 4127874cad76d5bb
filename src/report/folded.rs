//! Folded stacks: one line `root;caller;...;function VALUE` per path of the
//! estimated call tree (`analysis::tree`), the input of flamegraph.pl,
//! inferno-flamegraph and speedscope.
//!
//! The paths kept are the costliest nodes of the tree, found best first
//! (a child is never costlier than its parent, so they form a tree): at
//! most `max_paths`, or those of at least `min` of the total. A path's
//! value is its share of its function's self cost: each function's self
//! cost is shared among the kept paths that end in it, in proportion to
//! their estimated self shares. So the values add up exactly to the total
//! and the lines ending in a function add up exactly to its self cost; the
//! cost of pruned paths goes to the kept paths of the same function. A
//! function reached by no kept path is a stack of its own name while
//! lines are left, the smallest of them summed on one `[other functions]`
//! line.

use crate::analysis::Analysis;
use crate::analysis::share::share;
use crate::analysis::tree::Tree;
use crate::format::printable;
use crate::profile::{Cost, FnId, Profile};
use rustc_hash::FxHashMap as HashMap;
use std::collections::BinaryHeap;
use std::io::{self, Write};

/// The default bound on the paths kept: about this many lines.
pub const DEFAULT_PATHS: usize = 100_000;

/// The bound with `--min`: memory stays bounded whatever the fraction.
pub const MAX_PATHS: usize = 5_000_000;

/// What to fold, and how much of it.
#[derive(Clone, Copy, Debug)]
pub struct FoldedOptions {
    /// Column index of the event.
    pub event: usize,
    /// Keep the paths of at least this fraction of the total (then at most
    /// `max_paths` all the same).
    pub min: f64,
    pub max_paths: usize,
}

/// One stack and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stack {
    pub frames: Vec<FnId>,
    pub value: Cost,
}

/// The stacks of one event, and what they leave out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folded {
    /// Zero values left out.
    pub stacks: Vec<Stack>,
    /// The self costs of the functions that got no stack: reached by no
    /// kept path and too small for a line of their own (written as one
    /// line `[other functions]`).
    pub other: Cost,
    /// What the total has beyond all self costs (a `summary:` counts the
    /// last instructions before exit; written as `[no function]`).
    pub unattributed: Cost,
}

/// The folded stacks of one event.
pub fn stacks(a: &Analysis, options: FoldedOptions) -> Folded {
    let ev = options.event;
    let mut tree = Tree::callees(a, ev, None);
    let floor = (options.min.clamp(0.0, 1.0) * a.totals[ev].saturating_abs() as f64) as Cost;
    // Best first: the costliest node not yet kept, ties to the oldest.
    let mut heap = BinaryHeap::from([(Cost::MAX, std::cmp::Reverse(0usize))]);
    let mut ends: HashMap<FnId, Vec<usize>> = HashMap::default();
    let mut kept = 0;
    while let Some((size, std::cmp::Reverse(n))) = heap.pop() {
        if kept >= options.max_paths.saturating_add(1) || (n != 0 && size < floor) {
            break;
        }
        kept += 1;
        for k in tree.children(a, n) {
            let node = tree.node(k);
            if !node.recursive && node.value != 0 {
                heap.push((node.value.saturating_abs(), std::cmp::Reverse(k)));
            }
        }
        if let Some(f) = tree.node(n).func {
            ends.entry(f).or_default().push(n);
        }
    }
    let mut out = Folded::default();
    let mut orphans = Vec::new();
    let mut attributed: Cost = 0;
    for i in 0..a.function_count() {
        let f = FnId::from_index(i);
        let own = a.self_cost(f)[ev];
        attributed = attributed.saturating_add(own);
        if own == 0 {
            continue;
        }
        let Some(nodes) = ends.get(&f) else {
            orphans.push((own, f));
            continue;
        };
        for (n, value) in nodes.iter().zip(split(&tree, nodes, own)) {
            if value != 0 {
                out.stacks.push(Stack {
                    frames: tree.path(*n),
                    value,
                });
            }
        }
    }
    // Functions of no kept path: the largest on lines of their own while
    // there is room and they are not below the floor, the rest summed.
    orphans.sort_by_key(|&(own, f)| (std::cmp::Reverse(own.saturating_abs()), f));
    let room = options.max_paths.saturating_sub(out.stacks.len());
    for (i, (own, f)) in orphans.into_iter().enumerate() {
        if i < room && own.saturating_abs() >= floor {
            out.stacks.push(Stack {
                frames: vec![f],
                value: own,
            });
        } else {
            out.other = out.other.saturating_add(own);
        }
    }
    out.unattributed = a.totals[ev].saturating_sub(attributed);
    out
}

/// `own` shared among `nodes` by their estimated self shares, or by their
/// values where those are all zero, or all to the first.
fn split(tree: &Tree, nodes: &[usize], own: Cost) -> Vec<Cost> {
    let by_own: Vec<Cost> = nodes
        .iter()
        .map(|&n| tree.node(n).own().unwrap_or(0))
        .collect();
    let by_value: Vec<Cost> = nodes.iter().map(|&n| tree.node(n).value).collect();
    for weights in [by_own, by_value] {
        if weights.iter().map(|&w| i128::from(w)).sum::<i128>() != 0 {
            return share(own, &weights);
        }
    }
    let mut shares = vec![0; nodes.len()];
    shares[0] = own;
    shares
}

/// A function's name as a frame: printable, and without the `;` that
/// separates frames (written `:`).
fn frame(profile: &Profile, f: FnId) -> String {
    printable(profile.fn_name(f)).replace(';', ":")
}

/// Writes the stacks as folded lines, sorted, equal lines merged.
pub fn write(profile: &Profile, folded: &Folded, out: &mut impl Write) -> io::Result<()> {
    let mut lines: HashMap<String, Cost> = HashMap::default();
    for s in &folded.stacks {
        let names: Vec<String> = s.frames.iter().map(|&f| frame(profile, f)).collect();
        let v = lines.entry(names.join(";")).or_default();
        *v = v.saturating_add(s.value);
    }
    for (name, value) in [
        ("[other functions]", folded.other),
        ("[no function]", folded.unattributed),
    ] {
        if value != 0 {
            let v = lines.entry(name.to_string()).or_default();
            *v = v.saturating_add(value);
        }
    }
    let mut lines: Vec<(String, Cost)> = lines.into_iter().collect();
    lines.sort_unstable();
    for (stack, value) in lines {
        writeln!(out, "{stack} {value}")?;
    }
    Ok(())
}
