//! The JSON report. Its schema is documented in README.md ("JSON schema");
//! change both together.

use crate::analysis::Analysis;
use crate::analysis::source::function_lines;
use crate::profile::{Cost, FnId, Profile, Severity};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Value, json as j};
use std::cell::RefCell;

/// `{event name: cost}` for a row in the profile's columns.
fn by_event(profile: &Profile, row: &[Cost]) -> Value {
    let map: Map<String, Value> = profile
        .events
        .events
        .iter()
        .zip(row)
        .map(|(e, &c)| (e.name.clone(), Value::from(c)))
        .collect();
    Value::Object(map)
}

/// Entry `i` of `functions`.
fn function(profile: &Profile, analysis: &Analysis, i: usize) -> Value {
    let f = FnId::from_index(i);
    j!({
        "name": profile.fn_name(f),
        "file": profile.fn_file(f),
        "object": profile.fn_object(f),
        "self": by_event(profile, analysis.self_cost(f)),
        "inclusive": by_event(profile, analysis.inclusive(f)),
        "called": analysis.called[i],
        "cycle": analysis.cycle_of(f).map(|c| c.number),
    })
}

/// Entry `i` of `calls`.
fn call(profile: &Profile, analysis: &Analysis, i: usize) -> Value {
    let e = &analysis.edges[i];
    j!({
        "caller": e.caller.index(),
        "callee": e.callee.index(),
        "count": e.count,
        "inclusive": by_event(profile, analysis.edge_cost(i)),
        "recursive": analysis.is_recursive(i),
    })
}

/// Everything but `functions` and `calls`, which are `null` here: they are
/// written an entry at a time (`Report`).
fn small(profile: &Profile, analysis: &Analysis) -> Value {
    let events = &profile.events.events;
    let cycles: Vec<Value> = analysis
        .cycles
        .iter()
        .enumerate()
        .map(|(i, c)| {
            j!({
                "name": format!("<cycle {}>", c.number),
                "members": c.members.iter().map(|m| m.index()).collect::<Vec<_>>(),
                "self": by_event(profile, &c.self_cost),
                "inclusive": by_event(profile, &c.inclusive),
                "called": c.called,
                "callers": analysis.cycle_callers(i),
                "callees": analysis.cycle_callees(i),
            })
        })
        .collect();
    let parts: Vec<Value> = profile
        .parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut row = vec![0; profile.events.len()];
            for (c, v) in p.self_sum().iter().enumerate() {
                row[p.event_map[c]] += v;
            }
            profile.events.derive(&mut row);
            j!({
                "index": i + 1,
                "source": profile.sources[p.source],
                "number": p.number,
                "pid": p.pid,
                "thread": p.thread,
                "selected": analysis.parts[i],
                "totals": by_event(profile, &row),
            })
        })
        .collect();
    let diagnostics: Vec<Value> = profile
        .diagnostics
        .iter()
        .map(|d| {
            j!({
                "file": d.file,
                "line": d.line,
                "severity": if d.severity == Severity::Error { "error" } else { "warning" },
                "message": d.message,
            })
        })
        .collect();
    j!({
        "sources": profile.loaded_sources().collect::<Vec<_>>(),
        "creator": profile.meta.creator,
        "cmd": profile.meta.cmd,
        "events": events.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        "derived_events": events.iter().filter(|e| e.is_derived()).map(|e| e.name.clone()).collect::<Vec<_>>(),
        "event_details": events.iter().map(|e| j!({
            "name": e.name,
            "long_name": e.long_name,
            "derived": e.is_derived(),
            "formula": e.formula.as_ref().map(|t| t.iter().map(|t| j!({"factor": t.factor, "event": events[t.event].name})).collect::<Vec<_>>()),
        })).collect::<Vec<_>>(),
        "totals": by_event(profile, &analysis.totals),
        "parts": parts,
        "functions": null,
        "calls": null,
        "cycles": cycles,
        "skipped_lines": profile.skipped_lines,
        "diagnostics": diagnostics,
        "dropped_diagnostics": profile.dropped_diagnostics,
    })
}

/// The JSON report, written as it is made: the `functions` and `calls`
/// entries (and with `lines`, each function's `lines`, `{file, line, self}`,
/// and `call_sites`, `{file, line, callee, count, inclusive}`) are made and
/// written one at a time. As one tree of JSON values, a big profile's report
/// would take many times the memory of the profile.
pub struct Report<'a> {
    pub profile: &'a Profile,
    pub analysis: &'a Analysis,
    pub lines: bool,
}

impl Serialize for Report<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let small = small(self.profile, self.analysis);
        let error = RefCell::new(None);
        let mut map = s.serialize_map(None)?;
        for (key, v) in small.as_object().into_iter().flatten() {
            match key.as_str() {
                "functions" => {
                    let rows = Rows {
                        report: self,
                        count: self.analysis.function_count(),
                        error: &error,
                        functions: true,
                    };
                    map.serialize_entry(key, &rows)?;
                }
                "calls" => {
                    let rows = Rows {
                        report: self,
                        count: self.analysis.edges.len(),
                        error: &error,
                        functions: false,
                    };
                    map.serialize_entry(key, &rows)?;
                }
                _ => map.serialize_entry(key, v)?,
            }
        }
        if let Some(error) = error.take() {
            map.serialize_entry("lines_error", &error)?;
        }
        map.end()
    }
}

/// The `functions` or `calls` array, each entry made as it is written.
struct Rows<'a> {
    report: &'a Report<'a>,
    count: usize,
    functions: bool,
    /// The first error reading a function's rows again, for `lines_error`.
    error: &'a RefCell<Option<String>>,
}

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (profile, analysis) = (self.report.profile, self.report.analysis);
        let mut seq = s.serialize_seq(Some(self.count))?;
        for i in 0..self.count {
            let entry = if !self.functions {
                call(profile, analysis, i)
            } else if self.report.lines {
                self.with_lines(function(profile, analysis, i), i)
            } else {
                function(profile, analysis, i)
            };
            seq.serialize_element(&entry)?;
        }
        seq.end()
    }
}

impl Rows<'_> {
    /// Function `i`'s entry with its `lines` and `call_sites`.
    fn with_lines(&self, mut entry: Value, i: usize) -> Value {
        let (profile, analysis) = (self.report.profile, self.report.analysis);
        let src = function_lines(profile, analysis, FnId::from_index(i));
        if let Some(e) = src.error {
            self.error.borrow_mut().get_or_insert(e);
        }
        let lines: Vec<Value> = src
            .lines
            .iter()
            .map(|l| {
                j!({
                    "file": profile.file_name(l.file),
                    "line": l.line,
                    "self": by_event(profile, &l.cost),
                })
            })
            .collect();
        let calls: Vec<Value> = src
            .calls
            .iter()
            .map(|c| {
                j!({
                    "file": profile.file_name(c.file),
                    "line": c.line,
                    "callee": c.callee.index(),
                    "count": c.count,
                    "inclusive": by_event(profile, &c.inclusive),
                })
            })
            .collect();
        entry["lines"] = Value::Array(lines);
        entry["call_sites"] = Value::Array(calls);
        entry
    }
}
