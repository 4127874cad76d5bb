//! Functions grouped by ELF object, source file, C++ class or namespace,
//! or Rust module (`symbols::scope`), with each group's costs.
//!
//! A group's self cost is its functions' self costs summed. Its inclusive
//! cost follows the rule of cycles (`inclusive`): the larger of its self
//! cost plus the calls from its functions to functions outside it, and the
//! calls into it from outside; never above the total (where the data
//! contradicts itself), and in a column with negative costs (a comparison)
//! the one of the larger size.

use super::Analysis;
use super::diff::{Comparison, Joined, Side};
use crate::profile::{Cost, FnId, Profile};
use crate::symbols::demangle::{Demangled, demangle_bounded};
use crate::symbols::scope;
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;

/// What functions are grouped by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Grouping {
    #[default]
    Object,
    File,
    /// The class or namespace of a C++ name.
    Class,
    /// The module of a Rust path (the type of an `impl`).
    Module,
    /// No grouping: every function in one group.
    None,
}

impl Grouping {
    pub const ALL: [Grouping; 5] = [
        Grouping::Object,
        Grouping::File,
        Grouping::Class,
        Grouping::Module,
        Grouping::None,
    ];

    /// The grouping after this one, around.
    pub fn next(self) -> Grouping {
        let at = Grouping::ALL.iter().position(|&g| g == self).unwrap_or(0);
        Grouping::ALL[(at + 1) % Grouping::ALL.len()]
    }

    pub fn label(self) -> &'static str {
        match self {
            Grouping::Object => "object",
            Grouping::File => "file",
            Grouping::Class => "class",
            Grouping::Module => "module",
            Grouping::None => "none",
        }
    }

    /// The grouping named `name` (as `--group-by` takes it).
    pub fn named(name: &str) -> Option<Grouping> {
        Grouping::ALL.into_iter().find(|g| g.label() == name)
    }
}

/// The group name of what has none: no object, no file, no scope.
pub const UNKNOWN: &str = "???";

/// The one group of no grouping.
pub const EVERY: &str = "(every function)";

/// One group and its costs (per column of the analysis).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub name: String,
    /// The name as a list shows it (`short_names`).
    pub short: String,
    pub self_cost: Vec<Cost>,
    pub inclusive: Vec<Cost>,
    pub functions: Vec<FnId>,
}

/// The group of function `f` (a mangled name's scope is read from its
/// readable form; one too long to demangle has none).
pub fn group_of(profile: &Profile, f: FnId, grouping: Grouping) -> Cow<'_, str> {
    let name: Cow<'_, str> = match grouping {
        Grouping::None => return EVERY.into(),
        Grouping::Object => profile.fn_object(f).into(),
        Grouping::File => profile.fn_file(f).into(),
        Grouping::Class | Grouping::Module => {
            let raw = profile.fn_name(f);
            match demangle_bounded(raw) {
                Some(Demangled::Readable(readable)) => {
                    scope(&readable).unwrap_or("").to_string().into()
                }
                Some(Demangled::TooLong) => "".into(),
                None => scope(raw).unwrap_or("").into(),
            }
        }
    };
    if name.is_empty() {
        UNKNOWN.into()
    } else {
        name
    }
}

/// Which group each function is in: what does not change with the event
/// or the parts, kept by the browser per grouping (reading a million
/// names' scopes takes a while).
#[derive(Clone, Debug, Default)]
pub struct Membership {
    /// The groups' names, in order of first function.
    pub names: Vec<String>,
    /// The same shortened (`short_names`): objects and files.
    pub short: Vec<String>,
    /// Per function: its group.
    pub of: Vec<u32>,
}

impl Membership {
    pub fn new(profile: &Profile, grouping: Grouping) -> Membership {
        let mut index: HashMap<Cow<'_, str>, u32> = HashMap::default();
        let mut names = Vec::new();
        let of = (0..profile.functions.len())
            .map(|i| {
                let name = group_of(profile, FnId::from_index(i), grouping);
                *index.entry(name).or_insert_with_key(|name| {
                    names.push(name.to_string());
                    names.len() as u32 - 1
                })
            })
            .collect();
        let short = match grouping {
            Grouping::Object | Grouping::File => short_names(&names),
            _ => names.clone(),
        };
        Membership { names, short, of }
    }

    /// The same groups for the functions of a comparison's base side:
    /// each base function in the group of its pair (a pair's index is
    /// its id in the new profile, which `self` groups).
    pub fn of_base(&self, comparison: &Comparison, base_functions: usize) -> Membership {
        let of = (0..base_functions)
            .map(|b| {
                let pair = comparison.pair_of(Side::Base, FnId::from_index(b));
                self.of.get(pair).copied().unwrap_or(0)
            })
            .collect();
        Membership {
            names: self.names.clone(),
            short: self.short.clone(),
            of,
        }
    }
}

/// Paths shortened to their last component (`/usr/lib/libc.so.6` to
/// `libc.so.6`), or to as many last components as tell them apart from
/// the others (`a/util.h` and `b/util.h`); a name without `/` is kept.
/// Names the same components make alike stay whole.
pub fn short_names(names: &[String]) -> Vec<String> {
    let parts: Vec<Vec<&str>> = names
        .iter()
        .map(|n| n.split('/').filter(|p| !p.is_empty()).collect())
        .collect();
    let tail = |i: usize, k: usize| -> String {
        let p = &parts[i];
        if !names[i].contains('/') || k >= p.len() {
            names[i].clone()
        } else {
            p[p.len() - k..].join("/")
        }
    };
    let mut kept = vec![1usize; names.len()];
    // Each round lengthens the names that collide: at most as many
    // rounds as the deepest path has components.
    loop {
        let shown: Vec<String> = (0..names.len()).map(|i| tail(i, kept[i])).collect();
        let mut by_shown: HashMap<&str, Vec<usize>> = HashMap::default();
        for (i, s) in shown.iter().enumerate() {
            by_shown.entry(s.as_str()).or_default().push(i);
        }
        let mut longer = false;
        for same in by_shown.values().filter(|v| v.len() > 1) {
            for &i in same {
                if names[i].contains('/') && kept[i] < parts[i].len() {
                    kept[i] += 1;
                    longer = true;
                }
            }
        }
        if !longer {
            return shown;
        }
    }
}

/// A comparison's groups on each side, in the order of `members`' names:
/// the base's (its own profile's events) and the new profile's, each
/// summed by the same rules as one profile's.
pub fn sides(joined: &Joined, new: &Profile, members: &Membership) -> [Vec<Group>; 2] {
    let base_members = members.of_base(&joined.comparison, joined.base.functions.len());
    [
        costs(&joined.base, &joined.base_analysis, &base_members),
        costs(new, &joined.new_analysis, members),
    ]
}

/// Every function in exactly one group; groups in order of first function.
pub fn groups(profile: &Profile, a: &Analysis, grouping: Grouping) -> Vec<Group> {
    costs(profile, a, &Membership::new(profile, grouping))
}

/// The groups of `members` with their costs in `a`.
pub fn costs(profile: &Profile, a: &Analysis, members: &Membership) -> Vec<Group> {
    let width = a.width;
    // Each group's list made as long as it will be: a million functions
    // in thousands of groups, without regrowing thousands of lists.
    let mut sizes = vec![0usize; members.names.len()];
    for &g in &members.of {
        sizes[g as usize] += 1;
    }
    let mut out: Vec<Group> = members
        .names
        .iter()
        .zip(&members.short)
        .zip(sizes)
        .map(|((name, short), size)| Group {
            name: name.clone(),
            short: short.clone(),
            self_cost: vec![0; width],
            inclusive: vec![0; width],
            functions: Vec::with_capacity(size),
        })
        .collect();
    let member_of: Vec<usize> = members.of.iter().map(|&g| g as usize).collect();
    for (i, &g) in member_of.iter().enumerate().take(a.function_count()) {
        let f = FnId::from_index(i);
        out[g].functions.push(f);
        super::add(&mut out[g].self_cost, a.self_cost(f));
    }
    // Calls leaving each group and calls entering it.
    let mut leaving: Vec<Vec<Cost>> = out.iter().map(|g| g.self_cost.clone()).collect();
    let mut entering: Vec<Vec<Cost>> = vec![vec![0; width]; out.len()];
    for (e, edge) in a.edges.iter().enumerate() {
        let (from, to) = (
            member_of[edge.caller.index()],
            member_of[edge.callee.index()],
        );
        if from != to {
            super::add(&mut leaving[from], a.edge_cost(e));
            super::add(&mut entering[to], a.edge_cost(e));
        }
    }
    for (g, group) in out.iter_mut().enumerate() {
        for col in 0..width {
            let (l, e) = (leaving[g][col], entering[g][col]);
            let v = if a.is_signed(col) {
                if l.saturating_abs() >= e.saturating_abs() {
                    l
                } else {
                    e
                }
            } else {
                l.max(e).min(a.totals[col].max(group.self_cost[col]))
            };
            group.inclusive[col] = v;
        }
        // Derived events from the raw ones, as for functions.
        profile.events.derive(&mut group.inclusive);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn short(names: &[&str]) -> Vec<String> {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        short_names(&names)
    }

    #[test]
    fn paths_are_cut_to_their_file_name() {
        assert_eq!(
            short(&[
                "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30",
                "/usr/lib/x86_64-linux-gnu/libc.so.6",
                "???",
                "[vdso]",
                "./samples/src/cpp_names.cpp",
            ]),
            [
                "libstdc++.so.6.0.30",
                "libc.so.6",
                "???",
                "[vdso]",
                "cpp_names.cpp"
            ]
        );
    }

    #[test]
    fn names_that_collide_keep_as_much_of_their_path_as_tells_them_apart() {
        assert_eq!(
            short(&[
                "/usr/include/string.h",
                "/usr/include/c++/13/bits/string.h",
                "/opt/a/include/util.h",
                "/opt/b/include/util.h",
                "/lib/libc.so.6",
                "libc.so.6",
                "main.c",
            ]),
            [
                "include/string.h",
                "bits/string.h",
                "a/include/util.h",
                "b/include/util.h",
                // Every component kept: the path whole.
                "/lib/libc.so.6",
                "libc.so.6",
                "main.c",
            ]
        );
        // Names alike but for their slashes stay whole.
        assert_eq!(short(&["/a/b.c", "a//b.c"]), ["/a/b.c", "a//b.c"]);
    }
}
