//! The plain-text report: header, totals, then one row per function.

use super::{ReportOptions, ranked};
use crate::analysis::Analysis;
use crate::format::{percent_text, printable, terminal_text, thousands};
use crate::profile::{FnId, Profile};
use std::fmt::Write;

pub fn text(profile: &Profile, analysis: &Analysis, options: &ReportOptions) -> String {
    let mut out = String::new();
    let ev = options.event;
    let events = &profile.events.events;
    let loaded: Vec<_> = profile.loaded_sources().map(printable).collect();
    match loaded.len() {
        1 => {
            let _ = writeln!(out, "Profile:     {}", loaded[0]);
        }
        n => {
            let _ = writeln!(out, "Profile:     {n} files: {}", loaded.join(", "));
        }
    }
    if let Some(creator) = &profile.meta.creator {
        let _ = writeln!(out, "Creator:     {creator}");
    }
    if let Some(cmd) = &profile.meta.cmd {
        let _ = writeln!(out, "Command:     {}", printable(cmd.trim()));
    }
    let selected = analysis.parts.iter().filter(|&&s| s).count();
    let _ = writeln!(out, "Parts:       {selected} of {}", profile.parts.len());
    let _ = writeln!(out, "Events:      {}", event_list(profile));
    let _ = writeln!(
        out,
        "Sorted by:   {} {} (threshold {}%{})",
        events[ev].name,
        if options.inclusive {
            "inclusive"
        } else {
            "self"
        },
        options.threshold,
        options
            .limit
            .map_or(String::new(), |l| format!(", limit {l}"))
    );
    out.push('\n');
    for (e, total) in events.iter().zip(&analysis.totals) {
        let _ = writeln!(out, "{:>20}  {} (program total)", thousands(*total), e.name);
    }
    out.push('\n');

    let name = &events[ev].name;
    let total = analysis.totals[ev];
    let _ = writeln!(
        out,
        "{:>18} {:>8} {:>18} {:>8} {:>12}  function (file) [object]",
        format!("{name} self"),
        "%",
        format!("{name} incl"),
        "%",
        "calls"
    );
    for f in ranked(profile, analysis, options) {
        let s = analysis.self_cost(f)[ev];
        let i = analysis.inclusive(f)[ev];
        let _ = writeln!(
            out,
            "{:>18} {:>8} {:>18} {:>8} {:>12}  {}",
            thousands(s),
            percent_text(s, total),
            thousands(i),
            percent_text(i, total),
            thousands(i64::try_from(analysis.called[f.index()]).unwrap_or(i64::MAX)),
            describe(profile, analysis, f)
        );
    }
    if !analysis.cycles.is_empty() {
        out.push_str("\nCycles (mutual recursion; members' inclusive costs leave out calls inside the cycle):\n");
        for c in &analysis.cycles {
            let members: Vec<_> = c
                .members
                .iter()
                .map(|&m| printable(profile.fn_name(m)))
                .collect();
            let _ = writeln!(
                out,
                "  <cycle {}>  self {}  incl {}  called {}  members: {}",
                c.number,
                thousands(c.self_cost[ev]),
                thousands(c.inclusive[ev]),
                c.called,
                members.join(", ")
            );
        }
    }
    terminal_text(out)
}

/// `Ir Dr (Sum = Ir + Dr)`.
fn event_list(profile: &Profile) -> String {
    let events = &profile.events.events;
    events
        .iter()
        .map(|e| match &e.formula {
            None => e.name.clone(),
            Some(terms) => {
                let parts: Vec<String> = terms
                    .iter()
                    .map(|t| match t.factor {
                        1 => events[t.event].name.clone(),
                        k => format!("{k} {}", events[t.event].name),
                    })
                    .collect();
                format!("{} (derived: {})", e.name, parts.join(" + "))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `name (file) [object] <cycle N>`, leaving out what is unknown.
fn describe(profile: &Profile, analysis: &Analysis, f: FnId) -> String {
    let mut s = printable(profile.fn_name(f)).into_owned();
    let file = profile.fn_file(f);
    if !file.is_empty() {
        let _ = write!(s, " ({})", printable(file));
    }
    let object = profile.fn_object(f);
    if !object.is_empty() {
        let _ = write!(s, " [{}]", printable(object));
    }
    if let Some(c) = analysis.cycle_of(f) {
        let _ = write!(s, " <cycle {}>", c.number);
    }
    s
}
