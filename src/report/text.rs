//! The plain-text report: header, totals, then one row per function.

use super::{ReportOptions, Row, listing};
use crate::analysis::Analysis;
use crate::format::{percent_text, printable, terminal_text, thousands};
use crate::profile::{FnId, Profile};
use std::collections::{BTreeMap, BTreeSet};
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
    let sorted_by = match options.sort {
        Some(m) => options.metrics.get(m).name.as_str(),
        None => events[ev].name.as_str(),
    };
    let _ = writeln!(
        out,
        "Sorted by:   {} {} (threshold {}%{})",
        sorted_by,
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
    let min = options.metrics.min_denominator;
    for m in metric_columns(options) {
        let total = m.text(&analysis.totals, min);
        let _ = writeln!(out, "{total:>20}  {} = {} (program)", m.name, m.formula);
    }
    out.push('\n');

    if let Some(kind) = options.group_by {
        group_table(&mut out, profile, analysis, options, kind);
    }
    let name = &events[ev].name;
    let total = analysis.totals[ev];
    let metric_heads: String = metric_columns(options)
        .map(|m| {
            format!(
                " {:>14} {:>14}",
                format!("{} self", m.name),
                format!("{} incl", m.name)
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "{:>18} {:>8} {:>18} {:>8} {:>12}{metric_heads}  function (file) [object]",
        format!("{name} self"),
        "%",
        format!("{name} incl"),
        "%",
        "calls"
    );
    let rows = listing(profile, analysis, options);
    for &row in &rows {
        let (costs, calls, name) = match row {
            Row::Function(f) => (
                (analysis.self_cost(f), analysis.inclusive(f)),
                calls_text(analysis, analysis.called(f), analysis.callers(f)),
                describe(profile, analysis, f, options.demangle),
            ),
            Row::Cycle(c) => {
                let cycle = &analysis.cycles[c];
                (
                    (&cycle.self_cost[..], &cycle.inclusive[..]),
                    calls_text(analysis, cycle.called, analysis.cycle_callers(c)),
                    format!("<cycle {}>", cycle.number),
                )
            }
        };
        let (s, i) = (costs.0[ev], costs.1[ev]);
        let metrics: String = metric_columns(options)
            .map(|m| format!(" {:>14} {:>14}", m.text(costs.0, min), m.text(costs.1, min)))
            .collect();
        let _ = writeln!(
            out,
            "{:>18} {:>8} {:>18} {:>8} {:>12}{metrics}  {name}",
            thousands(s),
            percent_text(s, total),
            thousands(i),
            percent_text(i, total),
            calls,
        );
    }
    // The cycles the listing names, as a row or as a member's `<cycle N>`.
    let named: BTreeSet<usize> = (rows.iter())
        .filter_map(|&row| match row {
            Row::Function(f) => analysis.cycle_index(f).map(|c| c as usize),
            Row::Cycle(c) => Some(c),
        })
        .collect();
    cycles(&mut out, profile, analysis, (ev, options.demangle), &named);
    terminal_text(out)
}

/// The metrics shown as columns, self and inclusive each: the user's
/// (`--metric`) and the one sorted by (`--sort`) when it is not an event.
fn metric_columns(options: &ReportOptions) -> impl Iterator<Item = &crate::metric::Metric> {
    use crate::metric::Origin;
    let sorted = options.sort.map(|i| options.metrics.get(i));
    let user = (options.metrics.list.iter()).filter(|m| m.origin == Origin::User);
    sorted
        .filter(|m| m.origin == Origin::Builtin)
        .into_iter()
        .chain(user)
}

/// The groups of `kind`, by the sorted cost, before the functions.
fn group_table(
    out: &mut String,
    profile: &Profile,
    analysis: &Analysis,
    options: &ReportOptions,
    kind: crate::analysis::groups::Grouping,
) {
    let ev = options.event;
    let total = analysis.totals[ev];
    let mut groups = crate::analysis::groups::groups(profile, analysis, kind);
    let key = |g: &crate::analysis::groups::Group| {
        let v = if options.inclusive {
            g.inclusive[ev]
        } else {
            g.self_cost[ev]
        };
        v.saturating_abs()
    };
    groups.sort_by(|a, b| key(b).cmp(&key(a)).then_with(|| a.name.cmp(&b.name)));
    let name = &profile.events.events[ev].name;
    let _ = writeln!(
        out,
        "{:>18} {:>8} {:>18} {:>8} {:>12}  {}",
        format!("{name} self"),
        "%",
        format!("{name} incl"),
        "%",
        "functions",
        kind.label()
    );
    for g in groups.iter().filter(|g| key(g) != 0) {
        let _ = writeln!(
            out,
            "{:>18} {:>8} {:>18} {:>8} {:>12}  {}",
            thousands(g.self_cost[ev]),
            percent_text(g.self_cost[ev], total),
            thousands(g.inclusive[ev]),
            percent_text(g.inclusive[ev], total),
            thousands(g.functions.len() as i64),
            printable(&g.name)
        );
    }
    out.push('\n');
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

/// `name (file) [object]`, leaving out what is unknown, escaped.
pub(super) fn place(name: &str, file: &str, object: &str) -> String {
    let mut s = printable(name).into_owned();
    if !file.is_empty() {
        let _ = write!(s, " ({})", printable(file));
    }
    if !object.is_empty() {
        let _ = write!(s, " [{}]", printable(object));
    }
    s
}

/// `name (file) [object] <cycle N>`, leaving out what is unknown.
fn describe(profile: &Profile, analysis: &Analysis, f: FnId, demangle: bool) -> String {
    let name = super::function_name(profile, f, demangle);
    let mut s = place(&name, profile.fn_file(f), profile.fn_object(f));
    if let Some(c) = analysis.cycle_of(f) {
        let _ = write!(s, " <cycle {}>", c.number);
    }
    s
}

/// A count of calls: `?` where the profile does not know how many
/// (`calls=0`: pprof, xtree, calls still active from an earlier dump),
/// `N+?` where it knows only some of them.
fn calls_text(analysis: &Analysis, known: u64, edges: impl IntoIterator<Item = u32>) -> String {
    let count = crate::format::wide_thousands(known.into());
    let unknown = (edges.into_iter()).any(|e| analysis.edges[e as usize].count == 0);
    match (unknown, known) {
        (false, _) => count,
        (true, 0) => "?".into(),
        (true, _) => format!("{count}+?"),
    }
}

/// Members, callers and callees of the cycles the listing names, after it:
/// a report of one function in a program of thousands of cycles is not
/// a list of them all (`--json` has every cycle).
fn cycles(
    out: &mut String,
    profile: &Profile,
    analysis: &Analysis,
    (ev, demangle): (usize, bool),
    named: &BTreeSet<usize>,
) {
    if named.is_empty() {
        return;
    }
    out.push_str(
        "\nCycles (mutual recursion). A member's inclusive cost is the larger of its self\n\
         cost plus the calls leaving the cycle, and the calls into it from outside.\n",
    );
    for &i in named {
        let c = &analysis.cycles[i];
        // The costliest members first, where only some are named.
        let mut members = c.members.clone();
        members.sort_by_key(|&m| (std::cmp::Reverse(analysis.self_cost(m)[ev]), m));
        let members = (members.iter())
            .map(|&m| printable(&super::function_name(profile, m, demangle)).into_owned());
        let callers = analysis.cycle_callers(i);
        let _ = writeln!(
            out,
            "  <cycle {}>  self {}  incl {}  called {}  members: {}",
            c.number,
            thousands(c.self_cost[ev]),
            thousands(c.inclusive[ev]),
            calls_text(analysis, c.called, callers.iter().copied()),
            first_of(members, c.members.len())
        );
        let ends = [
            ("callers", callers, true),
            ("callees", analysis.cycle_callees(i), false),
        ];
        for (label, edges, from) in ends {
            let _ = writeln!(
                out,
                "    {label}: {}",
                by_function(profile, analysis, &edges, from, demangle)
            );
        }
    }
}

/// Names listed on one line of the cycles: this many at most.
const NAMES_SHOWN: usize = 12;

/// The first `NAMES_SHOWN` of `len` names, joined, and how many more.
fn first_of(names: impl Iterator<Item = String>, len: usize) -> String {
    let mut text = names.take(NAMES_SHOWN).collect::<Vec<_>>().join(", ");
    if len > NAMES_SHOWN {
        let _ = write!(text, ", and {} more", thousands((len - NAMES_SHOWN) as i64));
    }
    text
}

/// `name (N×), ...` for the other end of each edge (the caller if `from`),
/// counts summed per function, the most calls first; `-` if none.
fn by_function(
    profile: &Profile,
    analysis: &Analysis,
    edges: &[u32],
    from: bool,
    demangle: bool,
) -> String {
    let mut counts: BTreeMap<FnId, (u64, Vec<u32>)> = BTreeMap::new();
    for &e in edges {
        let edge = analysis.edges[e as usize];
        let f = if from { edge.caller } else { edge.callee };
        let entry = counts.entry(f).or_default();
        entry.0 = entry.0.saturating_add(edge.count);
        entry.1.push(e);
    }
    if counts.is_empty() {
        return "-".into();
    }
    let mut counts: Vec<_> = counts.into_iter().collect();
    counts.sort_by_key(|&(f, (n, _))| (std::cmp::Reverse(n), f));
    let names = counts.iter().map(|(f, (n, edges))| {
        format!(
            "{} ({}\u{d7})",
            printable(&super::function_name(profile, *f, demangle)),
            calls_text(analysis, *n, edges.iter().copied())
        )
    });
    first_of(names, counts.len())
}
