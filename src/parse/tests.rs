//! Loader behaviour, one line kind or rule at a time: small profiles written
//! here, loaded through `load_reader` (copied to a file and read by the
//! chunk reader, as standard input is), and the model checked number by
//! number.
//! Texts are built from a list of lines so that line numbers are easy to
//! read off: the `n`-th string is line `n` (1-based).
//!
//! This file holds the shared helpers; the tests are in `tests/`, one file
//! per topic.

mod calls;
mod errors;
mod headers;
mod hostile;
mod input;
mod names;
mod parts;
mod positions;
mod streams;

use super::load_reader;
use crate::profile::{FileId, FnId, Profile, Severity};

/// The lines joined with `\n`, with a final newline.
fn text(lines: &[&str]) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

fn load(lines: &[&str]) -> Profile {
    load_str(&text(lines))
}

fn load_str(s: &str) -> Profile {
    load_reader("t.cg", s.as_bytes()).unwrap()
}

/// A function with no object.
fn func(p: &Profile, name: &str, file: &str) -> FnId {
    func_in(p, name, file, "")
}

fn func_in(p: &Profile, name: &str, file: &str, object: &str) -> FnId {
    p.find_function(name, file, object)
        .unwrap_or_else(|| panic!("no function {name} in {file:?} / {object:?}"))
}

fn file(p: &Profile, name: &str) -> FileId {
    FileId(
        p.files
            .get(name)
            .unwrap_or_else(|| panic!("no file {name}")),
    )
}

/// (line, severity) of every diagnostic, in order.
fn diags(p: &Profile) -> Vec<(usize, Severity)> {
    p.diagnostics.iter().map(|d| (d.line, d.severity)).collect()
}

fn assert_clean(p: &Profile) {
    assert!(p.diagnostics.is_empty(), "{:#?}", p.diagnostics);
    assert_eq!(p.skipped_lines, 0);
}

/// The message of the only diagnostic on `line`.
fn message_at(p: &Profile, line: usize) -> &str {
    let found: Vec<_> = p.diagnostics.iter().filter(|d| d.line == line).collect();
    assert_eq!(
        found.len(),
        1,
        "diagnostics on line {line}: {:#?}",
        p.diagnostics
    );
    &found[0].message
}

fn event_names(p: &Profile) -> Vec<&str> {
    p.events.events.iter().map(|e| e.name.as_str()).collect()
}

/// (func, file, line, addr, costs) of every line record of part 0.
fn line_records(p: &Profile) -> Vec<(FnId, FileId, u64, u64, Vec<i64>)> {
    let part = &p.parts[0].decode(p);
    part.lines
        .iter()
        .enumerate()
        .map(|(i, l)| (l.func, l.file, l.line, l.addr, part.line_cost(i).to_vec()))
        .collect()
}
