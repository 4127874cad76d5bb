//! Header lines: `positions:`, `events:`, `event:` (long names and derived
//! events), `summary:`/`totals:` and the part facts.

use super::*;
use crate::analysis::Analysis;
use crate::profile::Positions;

#[test]
fn header_lines_fill_meta_and_part() {
    let p = load(&[
        "# callgrind format",                 // 1
        "version: 1",                         // 2
        "creator: callgrind-3.19.0",          // 3
        "pid: 1234",                          // 4
        "cmd:  ./prog arg",                   // 5
        "part: 2",                            // 6
        "thread: 3",                          // 7
        "desc: I1 cache: 32768 B",            // 8
        "desc: Trigger: Program termination", // 9
        "positions: line",                    // 10
        "event: Ir : Instruction Fetches",    // 11
        "events: Ir Dr",                      // 12
        "fl=a.c",                             // 13
        "fn=main",                            // 14
        "5 10 3",                             // 15
    ]);
    assert_clean(&p);
    assert_eq!(p.sources, vec!["t.cg".to_string()]);
    assert_eq!(p.meta.version.as_deref(), Some("1"));
    assert_eq!(p.meta.creator.as_deref(), Some("callgrind-3.19.0"));
    assert_eq!(p.meta.cmd.as_deref(), Some("./prog arg"));
    assert_eq!(p.parts.len(), 1);
    let part = &p.parts[0].decode(&p);
    assert_eq!(part.source, 0);
    assert_eq!(part.first_line, 1);
    assert_eq!(part.pid, Some(1234));
    assert_eq!(part.number, Some(2));
    assert_eq!(part.thread, Some(3));
    assert_eq!(part.cmd.as_deref(), Some("./prog arg"));
    assert_eq!(
        part.desc,
        vec!["I1 cache: 32768 B", "Trigger: Program termination"]
    );
    assert_eq!(part.positions, Positions::default());
    assert_eq!(*part.event_map, [0, 1]);
    assert_eq!(event_names(&p), vec!["Ir", "Dr"]);
    assert_eq!(
        p.events.events[0].long_name.as_deref(),
        Some("Instruction Fetches")
    );
    assert_eq!(p.events.events[1].long_name, None);
    assert_eq!(part.self_cost(func(&p, "main", "a.c")), &[10, 3]);
    assert_eq!(part.label(&p.sources), "part 2, thread 3, pid 1234 (t.cg)");
}

#[test]
fn positions_combinations_split_address_and_line() {
    // (positions line, cost line, positions, addr, line)
    let cases = [
        (
            "positions: instr line",
            "0x10 5 7",
            (true, false, true),
            16,
            5,
        ),
        ("positions: instr", "0x10 7", (true, false, false), 16, 0),
        ("positions: line", "5 7", (false, false, true), 0, 5),
        (
            "positions: instr bb line",
            "0x10 3 5 7",
            (true, true, true),
            16,
            5,
        ),
        ("positions: bb", "3 7", (false, true, false), 0, 0),
        ("positions: bb line", "3 5 7", (false, true, true), 0, 5),
        // Nothing named: the default, `line`.
        ("positions:", "5 7", (false, false, true), 0, 5),
    ];
    for (header, cost, (instr, bb, line), addr, at_line) in cases {
        let p = load(&[header, "events: Ir", "fn=f", cost]);
        assert_clean(&p);
        let part = &p.parts[0].decode(&p);
        assert_eq!(part.positions, Positions { instr, bb, line }, "{header}");
        assert_eq!(part.lines.len(), 1, "{header}");
        assert_eq!(part.lines[0].addr, addr, "{header}");
        assert_eq!(part.lines[0].line, at_line, "{header}");
        assert_eq!(part.line_cost(0), &[7], "{header}");
        assert_eq!(part.self_cost(func(&p, "f", "")), &[7], "{header}");
    }
}

#[test]
fn unknown_position_name_is_an_error_and_keeps_the_default() {
    let p = load(&[
        "positions: instr foo", // 1
        "events: Ir",           // 2
        "fn=f",                 // 3
        "5 7",                  // 4
    ]);
    assert_eq!(diags(&p), vec![(1, Severity::Error)]);
    assert!(message_at(&p, 1).contains("`foo`"));
    assert_eq!(p.parts[0].positions, Positions::default());
    assert_eq!(p.parts[0].decode(&p).lines[0].line, 5);
    assert_eq!(p.parts[0].decode(&p).line_cost(0), &[7]);
}

#[test]
fn derived_events_are_evaluated_for_totals() {
    let p = load(&[
        "event: Sum = Ir + 2 Dr : Weighted sum", // 1: before `events:` on purpose
        "events: Ir Dr",                         // 2
        "event: Star = Ir + 2 * Dr",             // 3
        "event: Twice = 2 Sum",                  // 4: in terms of a derived one
        "fn=main",                               // 5
        "1 10 3",                                // 6
        "fn=g",                                  // 7
        "2 4 1",                                 // 8
    ]);
    assert_clean(&p);
    assert_eq!(event_names(&p), vec!["Ir", "Dr", "Sum", "Star", "Twice"]);
    assert_eq!(p.events.raw_count(), 2);
    assert!(p.events.events[2].is_derived());
    assert_eq!(
        p.events.events[2].long_name.as_deref(),
        Some("Weighted sum")
    );
    let a = Analysis::new(&p);
    assert_eq!(a.width, 5);
    // Ir = 10 + 4 = 14, Dr = 3 + 1 = 4; Sum = Star = 14 + 2*4 = 22; Twice = 44.
    assert_eq!(a.totals, vec![14, 4, 22, 22, 44]);
    // main: 10 + 2*3 = 16.
    assert_eq!(a.self_cost(func(&p, "main", "")), &[10, 3, 16, 16, 32]);
}

#[test]
fn bad_derived_events_are_reported_on_their_lines() {
    let p = load(&[
        "events: Ir Dr",        // 1
        "event: Bad = Ir + Zz", // 2: unknown event
        "event: Sum = Ir + Dr", // 3
        "event: Sum = Ir",      // 4: defined twice
        "event: Ugly = Ir Dr",  // 5: not a formula
        "fn=main",              // 6
        "1 10 3",               // 7
    ]);
    // Derived events are resolved after the last line, so their warnings
    // come after the error of line 5; compare in line order.
    let mut found = diags(&p);
    found.sort_by_key(|d| d.0);
    assert_eq!(
        found,
        vec![
            (2, Severity::Error),
            (4, Severity::Warning),
            (5, Severity::Error),
        ]
    );
    assert!(message_at(&p, 2).contains("unknown event `Zz`"));
    assert!(message_at(&p, 4).contains("defined twice"));
    assert!(message_at(&p, 5).contains("`Ugly`"));
    assert_eq!(event_names(&p), vec!["Ir", "Dr", "Sum"]);
    // The first definition of Sum is kept.
    assert_eq!(Analysis::new(&p).totals, vec![10, 3, 13]);
}

#[test]
fn summary_above_the_cost_lines_is_the_total_quietly() {
    // Callgrind's `summary:` counts the last instructions before exit, which
    // no cost line has: every Callgrind profile is like this.
    let p = load(&[
        "events: Ir Dr", // 1
        "summary: 20 4", // 2
        "fn=main",       // 3
        "1 10 4",        // 4
        "2 5",           // 5
    ]);
    assert_clean(&p);
    assert_eq!(p.parts[0].summary, Some(vec![20, 4]));
    assert_eq!(p.parts[0].self_sum(), vec![15, 4]);
    assert_eq!(Analysis::new(&p).totals, vec![20, 4]);
}

#[test]
fn summary_below_the_cost_lines_warns_and_the_sum_is_the_total() {
    // pyprof2calltree writes the largest inclusive time as `summary:`.
    let p = load(&[
        "events: Ir", // 1
        "fn=main",    // 2
        "1 10",       // 3
        "2 5",        // 4
        "summary: 5", // 5
    ]);
    assert_eq!(diags(&p), vec![(5, Severity::Warning)]);
    assert_eq!(
        message_at(&p, 5),
        "`summary:` gives 5 for Ir, but the cost lines add up to 15; using 15"
    );
    assert_eq!(Analysis::new(&p).totals, vec![15]);
}

#[test]
fn totals_that_disagree_are_a_warning_on_their_line() {
    let p = load(&[
        "events: Ir Dr", // 1
        "fn=main",       // 2
        "1 10 4",        // 3
        "2 5",           // 4
        "totals: 15 5",  // 5
    ]);
    assert_eq!(diags(&p), vec![(5, Severity::Warning)]);
    assert!(message_at(&p, 5).contains("gives 5 for Dr, but the cost lines add up to 4"));
    assert_eq!(p.parts[0].totals, Some(vec![15, 5]));
}

#[test]
fn matching_summary_and_totals_are_quiet() {
    let p = load(&[
        "events: Ir",
        "summary: 15",
        "fn=main",
        "1 10",
        "2 5",
        "totals: 15",
    ]);
    assert_clean(&p);
    assert_eq!(p.parts[0].summary_line, 2);
    assert_eq!(p.parts[0].totals_line, 6);
}

#[test]
fn summary_before_events_is_an_error() {
    let p = load(&["summary: 5", "events: Ir", "fn=main", "1 5"]);
    assert_eq!(diags(&p), vec![(1, Severity::Error)]);
    assert_eq!(p.parts[0].summary, None);
}
