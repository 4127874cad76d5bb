//! The JSON report. Its schema is documented in docs/report.md ("JSON schema");
//! change both together.

use crate::analysis::Analysis;
use crate::analysis::diff::{Compared, Side};
use crate::analysis::groups::{Grouping, groups};
use crate::analysis::source::function_lines;
use crate::metric::{Metric, Metrics, Origin};
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

/// A metric's value as JSON: a whole number where the formula sums
/// events times whole numbers, else a float; a blank is `null`.
fn metric_value(metrics: &Metrics, m: &Metric, row: &[Cost]) -> Value {
    if let Some(v) = m.exact(row).and_then(|v| i64::try_from(v).ok()) {
        return Value::from(v);
    }
    m.value(row, metrics.min_denominator)
        .map_or(Value::Null, Value::from)
}

/// `{NAME: {self, inclusive}}` of the user's metrics (`--metric`).
fn metrics_of(metrics: &Metrics, self_cost: &[Cost], inclusive: &[Cost]) -> Value {
    let map: Map<String, Value> = user_metrics(metrics)
        .map(|m| {
            let pair = j!({
                "self": metric_value(metrics, m, self_cost),
                "inclusive": metric_value(metrics, m, inclusive),
            });
            (m.name.clone(), pair)
        })
        .collect();
    Value::Object(map)
}

fn user_metrics(metrics: &Metrics) -> impl Iterator<Item = &Metric> {
    metrics.list.iter().filter(|m| m.origin == Origin::User)
}

/// Entry `i` of `functions` (with `demangle`, `name` readable and
/// `mangled` as the profile writes it).
fn function(report: &Report<'_>, i: usize) -> Value {
    let (profile, analysis, demangle) = (report.profile, report.analysis, report.demangle);
    let f = FnId::from_index(i);
    let mut entry = j!({
        "name": super::function_name(profile, f, demangle),
        "file": profile.fn_file(f),
        "object": profile.fn_object(f),
        "self": by_event(profile, analysis.self_cost(f)),
        "inclusive": by_event(profile, analysis.inclusive(f)),
        "called": analysis.called(FnId::from_index(i)),
        "cycle": analysis.cycle_of(f).map(|c| c.number),
    });
    if demangle {
        entry["mangled"] = Value::from(profile.fn_name(f));
    }
    if let Some(m) = report.metrics.filter(|m| user_metrics(m).next().is_some()) {
        entry["metrics"] = metrics_of(m, analysis.self_cost(f), analysis.inclusive(f));
    }
    entry
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

/// Entry `i` of `parts`.
fn part(profile: &Profile, analysis: &Analysis, i: usize) -> Value {
    let p = &profile.parts[i];
    let mut row: Vec<Cost> = vec![0; profile.events.len()];
    for (c, v) in p.self_sum().iter().enumerate() {
        let sum = &mut row[p.event_map[c]];
        *sum = sum.saturating_add(*v);
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
}

/// Everything but `parts`, `functions` and `calls`, which are `null`
/// here: they are written an entry at a time (`Report`). As a tree of
/// values, a hundred thousand tiny parts took 2.5 KB each.
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
        "parts": null,
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
    /// `--base`: the comparison with a base profile. `functions` and
    /// `calls` then hold those of either profile (the new profile's first,
    /// at their usual indexes), with the base's costs beside them.
    pub base: Option<Compared<'a>>,
    /// `groups`: the groups of this kind (`--group-by`).
    pub group_by: Option<Grouping>,
    /// Names demangled, with `mangled` beside them (`--demangle`).
    pub demangle: bool,
    /// The metrics: each function's `metrics` holds the user's
    /// (`--metric`), and the top level `metric_totals`.
    pub metrics: Option<&'a Metrics>,
    /// `--inlined`: each function's self cost by inlined function
    /// (`inlined`: null where DWARF could not be read for it).
    pub inlined: Option<&'a crate::asm::inlined::Inlined>,
}

/// `groups`: `{name, self, inclusive, functions}` per group.
fn group_fields(profile: &Profile, analysis: &Analysis, kind: Grouping) -> Value {
    let groups: Vec<Value> = groups(profile, analysis, kind)
        .iter()
        .map(|g| {
            j!({
                "name": g.name,
                "self": by_event(profile, &g.self_cost),
                "inclusive": by_event(profile, &g.inclusive),
                "functions": g.functions.iter().map(|f| f.index()).collect::<Vec<_>>(),
            })
        })
        .collect();
    Value::Array(groups)
}

/// What `--base` adds to the document's top level.
fn base_fields(c: &Compared<'_>) -> Value {
    let left_out: Vec<Value> = c
        .comparison
        .left_out
        .iter()
        .map(|(name, side)| {
            j!({"name": name, "only_in": if *side == Side::Base { "base" } else { "new" }})
        })
        .collect();
    j!({
        "sources": c.base.loaded_sources().collect::<Vec<_>>(),
        "creator": c.base.meta.creator,
        "cmd": c.base.meta.cmd,
        "totals": by_event(c.base, &c.base_analysis.totals),
        "events_left_out": left_out,
    })
}

/// Function entry `i` of a comparison: the new profile's entry (zeros for
/// a function only in the base) with the base's costs and the status.
fn compared_function(
    c: &Compared<'_>,
    metrics: Option<&Metrics>,
    i: usize,
    entry: Option<Value>,
) -> Value {
    let pair = c.comparison.pairs[i];
    let zeros = |p: &Profile| by_event(p, &vec![0; p.events.len()]);
    let mut entry = entry.unwrap_or_else(|| {
        let (name, file, object) = c.names(i);
        j!({
            "name": name,
            "file": file,
            "object": object,
            "self": zeros(c.new),
            "inclusive": zeros(c.new),
            "called": 0,
            "cycle": null,
        })
    });
    let (base_self, base_inclusive) = match pair.base {
        Some(b) => (
            by_event(c.base, c.base_analysis.self_cost(b)),
            by_event(c.base, c.base_analysis.inclusive(b)),
        ),
        None => (zeros(c.base), zeros(c.base)),
    };
    entry["base_self"] = base_self;
    entry["base_inclusive"] = base_inclusive;
    // The metrics on each side, each from that side's own costs.
    if let Some(m) = metrics.filter(|m| user_metrics(m).next().is_some()) {
        let width = c.analysis.width;
        let zero = vec![0; width];
        if pair.new.is_none() {
            entry["metrics"] = metrics_of(m, &zero, &zero);
        }
        let base = |row: &[Cost]| c.comparison.base_in_new_columns(row, width);
        entry["base_metrics"] = match pair.base {
            Some(b) => metrics_of(
                m,
                &base(c.base_analysis.self_cost(b)),
                &base(c.base_analysis.inclusive(b)),
            ),
            None => metrics_of(m, &zero, &zero),
        };
    }
    entry["status"] = Value::from(match (pair.base, pair.new) {
        (Some(_), Some(_)) => "both",
        (None, _) => "added",
        (_, None) => "removed",
    });
    entry
}

/// Call entry `i` of a comparison, as `compared_function`.
fn compared_call(c: &Compared<'_>, i: usize) -> Value {
    let pc = c.comparison.calls[i];
    let mut entry = match pc.new {
        Some(e) => call(c.new, c.analysis, e),
        None => j!({
            "caller": pc.caller,
            "callee": pc.callee,
            "count": 0,
            "inclusive": by_event(c.new, &vec![0; c.new.events.len()]),
            "recursive": pc.base.is_some_and(|e| c.base_analysis.is_recursive(e)),
        }),
    };
    let (count, inclusive) = match pc.base {
        Some(e) => (
            c.base_analysis.edges[e].count,
            by_event(c.base, c.base_analysis.edge_cost(e)),
        ),
        None => (0, by_event(c.base, &vec![0; c.base.events.len()])),
    };
    entry["base_count"] = Value::from(count);
    entry["base_inclusive"] = inclusive;
    entry
}

impl Serialize for Report<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut small = small(self.profile, self.analysis);
        if let Some(c) = &self.base {
            small["base"] = base_fields(c);
            if let Some(m) = self.metrics.filter(|m| user_metrics(m).next().is_some()) {
                let totals = c
                    .comparison
                    .base_in_new_columns(&c.base_analysis.totals, c.analysis.width);
                let map: Map<String, Value> = user_metrics(m)
                    .map(|metric| (metric.name.clone(), metric_value(m, metric, &totals)))
                    .collect();
                small["base"]["metric_totals"] = Value::Object(map);
            }
        }
        if let Some(kind) = self.group_by {
            small["groups"] = group_fields(self.profile, self.analysis, kind);
        }
        if let Some(m) = self.metrics.filter(|m| user_metrics(m).next().is_some()) {
            let totals = &self.analysis.totals;
            let map: Map<String, Value> = user_metrics(m)
                .map(|metric| (metric.name.clone(), metric_value(m, metric, totals)))
                .collect();
            small["metric_totals"] = Value::Object(map);
        }
        let error = RefCell::new(None);
        let mut map = s.serialize_map(None)?;
        for (key, v) in small.as_object().into_iter().flatten() {
            match key.as_str() {
                "parts" => {
                    let rows = Rows {
                        report: self,
                        count: self.profile.parts.len(),
                        error: &error,
                        of: Of::Parts,
                    };
                    map.serialize_entry(key, &rows)?;
                }
                "functions" => {
                    let rows = Rows {
                        report: self,
                        count: self
                            .base
                            .map_or(self.analysis.function_count(), |c| c.comparison.pairs.len()),
                        error: &error,
                        of: Of::Functions,
                    };
                    map.serialize_entry(key, &rows)?;
                }
                "calls" => {
                    let rows = Rows {
                        report: self,
                        count: self
                            .base
                            .map_or(self.analysis.edges.len(), |c| c.comparison.calls.len()),
                        error: &error,
                        of: Of::Calls,
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

/// Which array `Rows` writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Of {
    Parts,
    Functions,
    Calls,
}

/// The `parts`, `functions` or `calls` array, each entry made as it is
/// written.
struct Rows<'a> {
    report: &'a Report<'a>,
    count: usize,
    of: Of,
    /// The first error reading a function's rows again, for `lines_error`.
    error: &'a RefCell<Option<String>>,
}

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (profile, analysis) = (self.report.profile, self.report.analysis);
        let mut seq = s.serialize_seq(Some(self.count))?;
        for i in 0..self.count {
            // The new profile's functions come first, at their own indexes.
            let own = i < analysis.function_count();
            let entry = if self.of == Of::Parts {
                part(profile, analysis, i)
            } else if self.of == Of::Calls {
                match &self.report.base {
                    Some(c) => compared_call(c, i),
                    None => call(profile, analysis, i),
                }
            } else {
                let entry = own.then(|| {
                    let entry = match self.report.lines {
                        true => self.with_lines(function(self.report, i), i),
                        false => function(self.report, i),
                    };
                    match self.report.inlined {
                        Some(inlined) => with_inlined(profile, inlined, entry, i),
                        None => entry,
                    }
                });
                match &self.report.base {
                    Some(c) => compared_function(c, self.report.metrics, i, entry),
                    None => entry.unwrap_or(Value::Null),
                }
            };
            seq.serialize_element(&entry)?;
        }
        seq.end()
    }
}

/// Function `i`'s entry with its `inlined`: `[{name, inlined, self}]`,
/// costliest first, or null.
fn with_inlined(
    profile: &Profile,
    inlined: &crate::asm::inlined::Inlined,
    mut entry: Value,
    i: usize,
) -> Value {
    entry["inlined"] = match inlined.by_function.get(&FnId::from_index(i)) {
        Some(shares) => Value::Array(
            shares
                .iter()
                .map(|s| {
                    j!({
                        "name": s.name,
                        "inlined": s.inlined,
                        "self": by_event(profile, &s.cost),
                    })
                })
                .collect(),
        ),
        None => Value::Null,
    };
    entry
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
