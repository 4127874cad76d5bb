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
//!
//! The output is bounded whatever the graph: at most `max_paths` stacks,
//! `max_depth` frames deep, `MAX_FRAMES` frames in all. A path at the
//! depth bound is not followed further; its stack ends in a `[deeper
//! frames cut]` frame whose value is the self cost of the functions below
//! the cut that no kept path reaches (those a cut node calls, directly or
//! not), so the values still add up to the total. `Folded::cut` says
//! which bounds cut something.
//!
//! Two compared profiles (`write_compared`) give two-value lines, `stack
//! BASE NEW`, difffolded.pl's format: each side folded on its own as
//! above, its frames matched to the other's by `analysis::diff`.

use crate::analysis::Analysis;
use crate::analysis::diff::{Compared, Side};
use crate::analysis::share::share;
use crate::analysis::tree::{Cut, Limits, Tree};
use crate::format::printable;
use crate::profile::{Cost, FnId, Profile};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::io::{self, Write};

/// The default bound on the paths kept: about this many lines.
pub const DEFAULT_PATHS: usize = 100_000;

/// The bound with `--min`: memory stays bounded whatever the fraction.
pub const MAX_PATHS: usize = 1_000_000;

/// The default bound on a stack's depth (`--max-depth`): deeper paths end
/// in a `[deeper frames cut]` frame.
pub const DEFAULT_DEPTH: u32 = 1_000;

/// The bound on the frames of all stacks together: a stack's frames cost
/// memory and output, and 100,000 stacks 1,000 deep would be 10^8.
pub const MAX_FRAMES: usize = 20_000_000;

/// The frame that ends a stack cut at the depth bound.
pub const DEPTH_CUT_FRAME: &str = "[deeper frames cut]";

/// What to fold, and how much of it.
#[derive(Clone, Copy, Debug)]
pub struct FoldedOptions {
    /// Column index of the event.
    pub event: usize,
    /// Keep the paths of at least this fraction of the total (then at most
    /// `max_paths` all the same).
    pub min: f64,
    pub max_paths: usize,
    /// Frames per stack; a deeper path ends in `DEPTH_CUT_FRAME`.
    pub max_depth: u32,
}

/// One stack and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stack {
    pub frames: Vec<FnId>,
    pub value: Cost,
    /// The path goes deeper than the depth bound: `DEPTH_CUT_FRAME`
    /// follows the frames, and the value is of the functions below.
    pub cut: bool,
}

/// Which bounds left something out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    /// Paths cut at the depth bound.
    pub depth: usize,
    /// Paths above the floor left out by the bound on paths or frames.
    pub paths: bool,
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
    pub cut: Cuts,
}

/// The folded stacks of one event. Costs what it keeps: the tree grows
/// only below kept nodes, and a walk of the graph (linear) finds what
/// lies below the cuts.
pub fn stacks(a: &Analysis, options: FoldedOptions) -> Folded {
    let ev = options.event;
    let max_paths = options.max_paths.min(MAX_PATHS);
    // A child ranked below the paths still to keep can never be kept.
    let limits = Limits {
        depth: options.max_depth.max(1),
        children: max_paths.saturating_add(1),
        nodes: max_paths.saturating_mul(3).saturating_add(1 << 16),
    };
    let mut tree = Tree::callees(a, ev, None).with_limits(limits);
    let floor = (options.min.clamp(0.0, 1.0) * a.totals[ev].saturating_abs() as f64) as Cost;
    // Best first: the costliest node not yet kept, ties to the oldest.
    let mut heap = BinaryHeap::from([(Cost::MAX, std::cmp::Reverse(0usize))]);
    let mut ends: HashMap<FnId, Vec<usize>> = HashMap::default();
    let mut cuts: Vec<(usize, Cost)> = Vec::new();
    let mut out = Folded::default();
    let (mut kept, mut frames) = (0, 0usize);
    while let Some((size, std::cmp::Reverse(n))) = heap.pop() {
        if n != 0 && size < floor {
            break;
        }
        let depth = tree.node(n).depth as usize;
        if kept >= max_paths.saturating_add(1) || frames.saturating_add(depth) > MAX_FRAMES {
            out.cut.paths = true;
            break;
        }
        kept += 1;
        frames += depth;
        for k in tree.children(a, n) {
            let node = tree.node(k);
            match node.cut {
                Some(Cut::Depth) => cuts.push((n, node.value)),
                Some(Cut::Calls(_)) => out.cut.paths |= node.value.saturating_abs() >= floor,
                None if !node.recursive && node.value != 0 => {
                    heap.push((node.value.saturating_abs(), std::cmp::Reverse(k)));
                }
                None => {}
            }
        }
        if let Some(f) = tree.node(n).func {
            ends.entry(f).or_default().push(n);
        }
    }
    out.cut.depth = cuts.len();
    let below = below_cuts(a, ev, &tree, &cuts);
    let mut orphans = Vec::new();
    let mut under_cuts: Cost = 0;
    let mut attributed: Cost = 0;
    for i in 0..a.function_count() {
        let f = FnId::from_index(i);
        let own = a.self_cost(f)[ev];
        attributed = attributed.saturating_add(own);
        if own == 0 {
            continue;
        }
        let Some(nodes) = ends.get(&f) else {
            if below.contains(&f) {
                under_cuts = under_cuts.saturating_add(own);
            } else {
                orphans.push((own, f));
            }
            continue;
        };
        for (n, value) in nodes.iter().zip(split(&tree, nodes, own)) {
            if value != 0 {
                out.stacks.push(Stack {
                    frames: tree.path(*n),
                    value,
                    cut: false,
                });
            }
        }
    }
    if !cuts.is_empty() {
        let weights: Vec<Cost> = cuts.iter().map(|&(_, v)| v).collect();
        let mut shares = share(under_cuts, &weights);
        if shares.iter().all(|&s| s == 0) {
            shares[0] = under_cuts;
        }
        for (&(n, _), value) in cuts.iter().zip(shares) {
            if value != 0 {
                out.stacks.push(Stack {
                    frames: tree.path(n),
                    value,
                    cut: true,
                });
            }
        }
    }
    // Functions of no kept path: the largest on lines of their own while
    // there is room and they are not below the floor, the rest summed.
    orphans.sort_by_key(|&(own, f)| (std::cmp::Reverse(own.saturating_abs()), f));
    let room = max_paths.saturating_sub(out.stacks.len());
    for (i, (own, f)) in orphans.into_iter().enumerate() {
        if i < room && own.saturating_abs() >= floor {
            out.stacks.push(Stack {
                frames: vec![f],
                value: own,
                cut: false,
            });
        } else {
            out.other = out.other.saturating_add(own);
        }
    }
    out.unattributed = a.totals[ev].saturating_sub(attributed);
    out
}

/// The functions the nodes cut at the depth bound call, directly or not
/// (through calls with a cost in the event): one walk of the graph.
fn below_cuts(a: &Analysis, ev: usize, tree: &Tree, cuts: &[(usize, Cost)]) -> HashSet<FnId> {
    let mut seen = HashSet::default();
    let mut todo: Vec<FnId> = cuts
        .iter()
        .filter_map(|&(n, _)| tree.node(n).func)
        .collect();
    while let Some(f) = todo.pop() {
        for e in a.callees(f) {
            let callee = a.edges[e as usize].callee;
            if a.edge_cost(e as usize)[ev] != 0 && seen.insert(callee) {
                todo.push(callee);
            }
        }
    }
    seen
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

/// A name as a frame: printable, and without the `;` that separates
/// frames (written `:`).
fn frame_text(name: &str) -> String {
    printable(name).replace(';', ":")
}

/// A frame of a line: a function of one profile, or a pair of functions
/// of two compared profiles; its index into `Names`.
trait Frame: Copy + Eq {
    fn key(self) -> usize;
}

impl Frame for FnId {
    fn key(self) -> usize {
        self.index()
    }
}

/// A function of either profile or both (an index into
/// `Comparison::pairs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PairId(u32);

impl Frame for PairId {
    fn key(self) -> usize {
        self.0 as usize
    }
}

/// One line to write: frames, then a last frame that is no function; its
/// value in each column (one profile: the first only).
struct Line<'a, K> {
    frames: &'a [K],
    last: Option<&'static str>,
    values: [Cost; 2],
}

/// The frames' texts, made once per function.
struct Names {
    /// Per frame key, its index into `texts` (`u32::MAX`: not made).
    at: Vec<u32>,
    texts: Vec<String>,
}

impl Names {
    fn new(keys: usize) -> Names {
        Names {
            at: vec![u32::MAX; keys],
            texts: Vec::new(),
        }
    }

    /// Makes the text of each frame of `frames` not made yet.
    fn add<K: Frame>(&mut self, frames: &[K], text: impl Fn(K) -> String) {
        for &f in frames {
            if let Some(at) = self.at.get_mut(f.key())
                && *at == u32::MAX
            {
                *at = self.texts.len() as u32;
                self.texts.push(text(f));
            }
        }
    }

    fn get<K: Frame>(&self, f: K) -> &str {
        let i = self.at.get(f.key()).copied().unwrap_or(u32::MAX);
        self.texts.get(i as usize).map_or("", String::as_str)
    }

    /// The texts of a line's frames, in order.
    fn of<'n, K: Frame>(&'n self, line: &'n Line<K>) -> impl Iterator<Item = &'n str> + 'n {
        line.frames.iter().map(|&f| self.get(f)).chain(line.last)
    }

    /// The order of the lines' texts with `;` between frames, as if each
    /// were joined into one string (the same frames compare without
    /// looking at their text).
    fn order<K: Frame>(&self, x: &Line<K>, y: &Line<K>) -> Ordering {
        let same = x
            .frames
            .iter()
            .zip(y.frames)
            .take_while(|(a, b)| a == b)
            .count();
        let mut xs = self.of(x).skip(same).peekable();
        let mut ys = self.of(y).skip(same).peekable();
        loop {
            match (xs.next(), ys.next()) {
                (None, None) => return Ordering::Equal,
                (None, Some(_)) => return Ordering::Less,
                (Some(_), None) => return Ordering::Greater,
                (Some(a), Some(b)) if a == b => {}
                (Some(a), Some(b)) => {
                    // The first byte that differs, where a frame that ends
                    // is followed by `;` (or by nothing, at the line's end).
                    let after = |more: bool| more.then_some(b';');
                    let mut ab = a.bytes().map(Some).chain([after(xs.peek().is_some())]);
                    let mut bb = b.bytes().map(Some).chain([after(ys.peek().is_some())]);
                    loop {
                        match (ab.next(), bb.next()) {
                            (Some(p), Some(q)) if p == q => {}
                            (Some(p), Some(q)) => return p.cmp(&q),
                            // Not reached: no frame holds a `;`.
                            _ => return a.len().cmp(&b.len()),
                        }
                    }
                }
            }
        }
    }
}

/// The lines of what no stack holds: `[other functions]`, `[no function]`.
fn extra_lines<K>(folded: &Folded, column: usize) -> Vec<Line<'static, K>> {
    let mut lines = Vec::new();
    for (name, value) in [
        ("[other functions]", folded.other),
        ("[no function]", folded.unattributed),
    ] {
        if value != 0 {
            let mut values = [0; 2];
            values[column] = value;
            lines.push(Line {
                frames: &[],
                last: Some(name),
                values,
            });
        }
    }
    lines
}

/// Writes `lines` sorted by their text, equal lines merged (their values
/// added per column), each with its first `columns` values.
fn write_lines<K: Frame>(
    names: &Names,
    mut lines: Vec<Line<K>>,
    columns: usize,
    out: &mut impl Write,
) -> io::Result<()> {
    lines.sort_by(|x, y| names.order(x, y).then(x.values.cmp(&y.values)));
    let mut i = 0;
    while i < lines.len() {
        let mut values = lines[i].values;
        let mut j = i + 1;
        while j < lines.len() && names.order(&lines[i], &lines[j]) == Ordering::Equal {
            for (v, w) in values.iter_mut().zip(lines[j].values) {
                *v = v.saturating_add(w);
            }
            j += 1;
        }
        for (k, text) in names.of(&lines[i]).enumerate() {
            if k > 0 {
                out.write_all(b";")?;
            }
            out.write_all(text.as_bytes())?;
        }
        for v in &values[..columns] {
            write!(out, " {v}")?;
        }
        writeln!(out)?;
        i = j;
    }
    Ok(())
}

/// Writes the stacks as folded lines, sorted, equal lines merged. Each
/// name is made printable once; lines are compared frame by frame, never
/// built whole, so memory stays that of the stacks.
pub fn write(profile: &Profile, folded: &Folded, out: &mut impl Write) -> io::Result<()> {
    let mut names = Names::new(profile.functions.len());
    let mut lines: Vec<Line<FnId>> = Vec::with_capacity(folded.stacks.len() + 2);
    for s in &folded.stacks {
        names.add(&s.frames, |f| frame_text(profile.fn_name(f)));
        lines.push(Line {
            frames: &s.frames,
            last: s.cut.then_some(DEPTH_CUT_FRAME),
            values: [s.value, 0],
        });
    }
    lines.extend(extra_lines(folded, 0));
    write_lines(&names, lines, 1, out)
}

/// Writes the stacks of two compared profiles as two-value folded lines,
/// `stack BASE NEW`, as Brendan Gregg's difffolded.pl makes them for
/// flamegraph.pl's differential flame graphs. Each side's stacks are its
/// own (`stacks` of its analysis, with its own bounds); a frame is a pair
/// of matched functions (`Comparison::pairs`), named as in the new
/// profile where it is there, so a stack of both sides is one line; a
/// stack of one side only has 0 on the other. Each column adds up to its
/// profile's total, and the lines ending in a function to its self cost
/// on that side, as in `write`.
pub fn write_compared(
    compared: &Compared,
    base: &Folded,
    new: &Folded,
    out: &mut impl Write,
) -> io::Result<()> {
    let c = compared.comparison;
    let mut names = Names::new(c.pairs.len());
    let as_pairs = |stacks: &[Stack], side: Side| -> Vec<Vec<PairId>> {
        stacks
            .iter()
            .map(|s| {
                (s.frames.iter())
                    .map(|&f| PairId(c.pair_of(side, f) as u32))
                    .collect()
            })
            .collect()
    };
    let sides = [
        (base, as_pairs(&base.stacks, Side::Base)),
        (new, as_pairs(&new.stacks, Side::New)),
    ];
    let mut lines: Vec<Line<PairId>> = Vec::with_capacity(base.stacks.len() + new.stacks.len() + 4);
    for (column, (folded, frames)) in sides.iter().enumerate() {
        for (s, frames) in folded.stacks.iter().zip(frames) {
            names.add(frames, |p: PairId| frame_text(compared.names(p.key()).0));
            let mut values = [0; 2];
            values[column] = s.value;
            lines.push(Line {
                frames,
                last: s.cut.then_some(DEPTH_CUT_FRAME),
                values,
            });
        }
        lines.extend(extra_lines(folded, column));
    }
    write_lines(&names, lines, 2, out)
}
