//! Input made to mislead the reader (issue 16): derived events that nest or
//! refer to themselves, odd line ends and byte order marks, duplicate
//! events, headers with more values than events, unknown versions, sums at
//! the counter's limit, and the extremes of a cost's range.

use super::*;
use crate::analysis::Analysis;

/// Errors and warnings as (line, severity, message), in line order.
fn all(p: &Profile) -> Vec<(usize, Severity, String)> {
    let mut v: Vec<_> = p
        .diagnostics
        .iter()
        .map(|d| (d.line, d.severity, d.message.clone()))
        .collect();
    v.sort_by_key(|d| d.0);
    v
}

#[test]
fn nested_derived_events_are_reduced_to_raw_factors() {
    // E1 = Ir, E2 = E1 + E1, ... E40 = E39 + E39: 2^39 Ir, as one term
    // (expanded term by term it would be 2^39 terms).
    let mut lines = vec!["events: Ir".to_string(), "event: E1 = Ir".to_string()];
    for k in 2..=40 {
        lines.push(format!("event: E{k} = E{} + E{}", k - 1, k - 1));
    }
    lines.extend(["fn=main".into(), "1 3".into()]);
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let p = load(&refs);
    assert_clean(&p);
    let e40 = &p.events.events[p.events.index_of("E40").unwrap()];
    assert_eq!(e40.formula.as_ref().unwrap().len(), 1);
    let a = Analysis::new(&p);
    assert_eq!(*a.totals.last().unwrap(), 3 << 39);
}

#[test]
fn every_derived_event_the_sum_of_all_before() {
    let mut lines = vec!["events: Ir Dr".to_string()];
    let mut before = vec!["Ir".to_string(), "Dr".to_string()];
    for k in 0..300 {
        lines.push(format!("event: S{k} = {}", before.join(" + ")));
        before.push(format!("S{k}"));
    }
    lines.extend(["fn=main".into(), "1 1 1".into()]);
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let p = load(&refs);
    // 256 are kept; the rest are reported.
    assert_eq!(p.events.len(), 2 + 256);
    assert!(
        p.events.events[2..]
            .iter()
            .all(|e| e.formula.as_ref().unwrap().len() <= 2)
    );
    assert_eq!(p.diagnostics.len(), 300 - 256, "{:#?}", &p.diagnostics[..1]);
    assert!(
        p.diagnostics[0]
            .message
            .contains("more than 256 derived events")
    );
    // S0 = 2, S1 = 4, S2 = 8: each doubles the sum before it.
    let a = Analysis::new(&p);
    assert_eq!(&a.totals[..5], &[1, 1, 2, 4, 8]);
}

#[test]
fn derived_events_may_use_later_ones_but_never_themselves() {
    let p = load(&[
        "events: Ir Dr",           // 1
        "event: A = B + Ir",       // 2: B is defined below: resolved
        "event: B = 2 Dr",         // 3
        "event: Self = Self + Ir", // 4
        "event: P = Q",            // 5: P and Q need each other
        "event: Q = P + Dr",       // 6
        "event: R = Q",            // 7: uses a dropped one
        "event: U = Nope",         // 8
        "fn=main",                 // 9
        "1 10 3",                  // 10
    ]);
    assert_eq!(event_names(&p), vec!["Ir", "Dr", "A", "B"]);
    assert_eq!(Analysis::new(&p).totals, vec![10, 3, 16, 6]);
    let found = all(&p);
    let lines: Vec<_> = found.iter().map(|d| (d.0, d.1)).collect();
    assert_eq!(
        lines,
        vec![
            (4, Severity::Error),
            (5, Severity::Error),
            (6, Severity::Error),
            (7, Severity::Error),
            (8, Severity::Error)
        ]
    );
    assert!(found[0].2.contains("`Self` is defined in terms of itself"));
    assert!(found[3].2.contains("`R` uses event `Q`, which is dropped"));
    assert!(found[4].2.contains("unknown event `Nope`"));
}

#[test]
fn a_function_only_declared_is_not_a_function() {
    // yappi names every function up front under the last `fl=`.
    let p = load(&[
        "events: Ticks",   // 1
        "fl=(1) a.py",     // 2
        "fl=(2) b.py",     // 3
        "fn=(1) f",        // 4: declared in b.py, never used there
        "fn=(2) g",        // 5
        "fn=(3) unused",   // 6
        "",                // 7
        "fl=(1)",          // 8
        "fn=(1)",          // 9
        "1 5",             // 10
        "cfl=(2)",         // 11
        "cfn=(2)",         // 12
        "calls=1 0",       // 13
        "0 3",             // 14
        "fl=(2)",          // 15
        "fn=(2)",          // 16
        "0 3",             // 17
        "fn=(4) declared", // 18: at the end, never used
    ]);
    assert_clean(&p);
    let names: Vec<_> = (0..p.functions.len())
        .map(|i| {
            let f = FnId::from_index(i);
            (p.fn_name(f), p.fn_file(f))
        })
        .collect();
    assert_eq!(names, vec![("f", "a.py"), ("g", "b.py")]);
}

#[test]
fn a_negative_summary_equal_to_the_cost_lines_is_quiet() {
    // cg_diff: the sum may be negative; agreeing with it is no problem.
    let p = load(&["events: Ir", "summary: -2", "fn=main", "1 -2"]);
    assert_clean(&p);
    let p = load(&["events: Ir", "summary: -1", "fn=main", "1 -2"]);
    assert_eq!(diags(&p), vec![(2, Severity::Warning)]);
}

#[test]
fn a_byte_order_mark_duplicate_events_and_versions() {
    let p = load(&["\u{feff}version: 2", "events: Ir Ir", "fn=main", "1 5 6"]);
    let found = all(&p);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].2.contains("`version: 2` is not the version"));
    assert!(found[1].2.contains("names Ir more than once"));
    assert_eq!(p.meta.version.as_deref(), Some("2"));
    // Only on the first line: a mark elsewhere is an unreadable line.
    let p = load(&["events: Ir", "\u{feff}fn=main", "1 5"]);
    assert_eq!(diags(&p)[0], (2, Severity::Error));
}

#[test]
fn an_empty_events_line_is_named_when_the_file_is_refused() {
    let err = load_reader("t.cg", &b"events:\nfn=main\n1 5\n"[..]).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("the `events:` line (line 1) names no event"),
        "{err}"
    );
}
