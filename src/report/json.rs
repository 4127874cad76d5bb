//! The JSON report. Its schema is documented in README.md ("JSON schema");
//! change both together.

use crate::analysis::Analysis;
use crate::profile::{Cost, FnId, Profile, Severity};
use serde_json::{Map, Value, json as j};

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

pub fn json(profile: &Profile, analysis: &Analysis) -> Value {
    let events = &profile.events.events;
    let functions: Vec<Value> = (0..analysis.function_count())
        .map(|i| {
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
        })
        .collect();
    let calls: Vec<Value> = analysis
        .edges
        .iter()
        .enumerate()
        .map(|(i, e)| {
            j!({
                "caller": e.caller.index(),
                "callee": e.callee.index(),
                "count": e.count,
                "inclusive": by_event(profile, analysis.edge_cost(i)),
                "recursive": analysis.is_recursive(i),
            })
        })
        .collect();
    let cycles: Vec<Value> = analysis
        .cycles
        .iter()
        .map(|c| {
            j!({
                "name": format!("<cycle {}>", c.number),
                "members": c.members.iter().map(|m| m.index()).collect::<Vec<_>>(),
                "self": by_event(profile, &c.self_cost),
                "inclusive": by_event(profile, &c.inclusive),
                "called": c.called,
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
        "sources": profile.sources,
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
        "functions": functions,
        "calls": calls,
        "cycles": cycles,
        "skipped_lines": profile.skipped_lines,
        "diagnostics": diagnostics,
        "dropped_diagnostics": profile.dropped_diagnostics,
    })
}

/// `report --json --lines`: each function gets `lines` (`{file, line, self}`)
/// and `call_sites` (`{file, line, callee, count, inclusive}`).
pub fn add_lines(value: &mut Value, profile: &Profile, analysis: &Analysis) {
    let sources = crate::analysis::source::by_function(profile, analysis);
    if let Some(error) = sources.first().and_then(|s| s.error.clone()) {
        value["lines_error"] = Value::String(error);
    }
    let Some(functions) = value.get_mut("functions").and_then(Value::as_array_mut) else {
        return;
    };
    for (f, src) in functions.iter_mut().zip(sources) {
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
        f["lines"] = Value::Array(lines);
        f["call_sites"] = Value::Array(calls);
    }
}
