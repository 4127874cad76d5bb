//! Inclusive costs, cycles, part selection, derived events and the per-line
//! view of one function, on small profiles written here (every expected
//! number is worked out by hand in the comments), plus a call chain and a
//! cycle of a million functions (200,000 in debug builds) that must not
//! overflow the stack.

use super::*;
use crate::profile::FileId;

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

mod big_graphs;
mod calls_and_cycles;
mod cycle_members;
mod parts_and_events;
mod source;
mod tree;
mod tree_bounds;
mod tree_costs;
