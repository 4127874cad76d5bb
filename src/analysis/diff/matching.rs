//! Which function of the base profile is which of the new one. Addresses,
//! PIDs and build folders differ between runs and builds; names and source
//! files mostly do not. Functions are matched by name and source file;
//! where that is ambiguous (the same name and file in several objects),
//! the object's file name decides too; files that differ only in their
//! folders match by their last component. Each rule is tried on what the
//! rules before it left unmatched, and matches only where exactly one
//! function on each side has the key; the last one pairs what remains of
//! equal keys in order of appearance.

use super::rewrite::{Rewrite, apply_all};
use crate::profile::{FnId, Profile};
use rustc_hash::FxHashMap as HashMap;

/// What names are rewritten before matching (`--mod-filename`,
/// `--mod-funcname`).
#[derive(Clone, Debug, Default)]
pub struct MatchOptions {
    pub mod_filename: Vec<Rewrite>,
    pub mod_funcname: Vec<Rewrite>,
}

/// One function of either profile, or of both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    pub base: Option<FnId>,
    pub new: Option<FnId>,
}

/// The names a function is matched by, after the rewrites.
struct Names {
    name: String,
    file: String,
    object: String,
}

fn last_component(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A key: name, file and object, or parts of them.
type Key<'a> = (&'a str, &'a str, &'a str);

/// The functions of each side that have one key.
type Group = (Vec<usize>, Vec<usize>);

/// The keys, most precise first.
const RULES: [fn(&Names) -> Key<'_>; 4] = [
    |n| (&n.name, &n.file, ""),
    |n| (&n.name, &n.file, last_component(&n.object)),
    |n| (&n.name, last_component(&n.file), ""),
    |n| (&n.name, last_component(&n.file), last_component(&n.object)),
];

fn names(profile: &Profile, options: &MatchOptions) -> Vec<Names> {
    (0..profile.functions.len())
        .map(|i| {
            let f = FnId::from_index(i);
            Names {
                name: apply_all(&options.mod_funcname, profile.fn_name(f)).into_owned(),
                file: apply_all(&options.mod_filename, profile.fn_file(f)).into_owned(),
                object: apply_all(&options.mod_filename, profile.fn_object(f)).into_owned(),
            }
        })
        .collect()
}

/// Every function of either profile once: the new profile's in their
/// order (with their base function where one matches), then the base
/// functions that match none.
pub fn match_functions(base: &Profile, new: &Profile, options: &MatchOptions) -> Vec<Pair> {
    let (b, n) = (names(base, options), names(new, options));
    let mut base_of: Vec<Option<FnId>> = vec![None; n.len()];
    let mut taken = vec![false; b.len()];
    for (last, rule) in RULES.iter().enumerate() {
        let mut groups: HashMap<Key<'_>, Group> = HashMap::default();
        for (i, names) in b.iter().enumerate().filter(|(i, _)| !taken[*i]) {
            groups.entry(rule(names)).or_default().0.push(i);
        }
        for (i, names) in n.iter().enumerate().filter(|(i, _)| base_of[*i].is_none()) {
            if let Some(g) = groups.get_mut(&rule(names)) {
                g.1.push(i);
            }
        }
        let in_order = last + 1 == RULES.len();
        for (bs, ns) in groups.values() {
            if (bs.len() == 1 && ns.len() == 1) || in_order {
                for (&bi, &ni) in bs.iter().zip(ns) {
                    base_of[ni] = Some(FnId::from_index(bi));
                    taken[bi] = true;
                }
            }
        }
    }
    let mut pairs: Vec<Pair> = base_of
        .iter()
        .enumerate()
        .map(|(i, &base)| Pair {
            base,
            new: Some(FnId::from_index(i)),
        })
        .collect();
    pairs.extend((0..b.len()).filter(|&i| !taken[i]).map(|i| Pair {
        base: Some(FnId::from_index(i)),
        new: None,
    }));
    pairs
}
