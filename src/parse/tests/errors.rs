//! Bad input: unknown and malformed lines become diagnostics on their
//! lines and loading goes on; input that is not a profile is refused.

use super::*;
use crate::analysis::Analysis;
use crate::parse::LoadError;

#[test]
fn unknown_headers_and_specs_warn_once_each() {
    let p = load(&[
        "events: Ir", // 1
        "foo: 1",     // 2
        "foo: 2",     // 3
        "bar: x",     // 4
        "fn=main",    // 5
        "1 1",        // 6
        "zz=3",       // 7
        "zz=4",       // 8
        "2 1",        // 9
    ]);
    assert_eq!(
        diags(&p),
        vec![
            (2, Severity::Warning),
            (4, Severity::Warning),
            (7, Severity::Warning)
        ]
    );
    assert!(message_at(&p, 2).contains("`foo:`"));
    assert!(message_at(&p, 7).contains("`zz=`"));
    assert_eq!(p.skipped_lines, 0);
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[2]);
}

#[test]
fn malformed_lines_are_errors_on_their_lines_and_loading_goes_on() {
    let p = load(&[
        "events: Ir",  // 1
        "1 5",         // 2: before any fn=
        "fn=main",     // 3
        "1 10",        // 4
        "hello world", // 5
        "2 x 5",       // 6
        "3 5",         // 7
        "jump=x",      // 8
        "jcnd=1/x 5",  // 9
        "4 1",         // 10
    ]);
    assert_eq!(
        diags(&p),
        vec![
            (2, Severity::Error),
            (5, Severity::Error),
            (6, Severity::Error),
            (8, Severity::Error),
            (9, Severity::Error),
        ]
    );
    assert!(message_at(&p, 2).contains("before any `fn=`"));
    assert!(message_at(&p, 5).contains("hello world"));
    assert!(message_at(&p, 6).contains("`x 5`"));
    assert!(message_at(&p, 8).contains("jump="));
    assert!(message_at(&p, 9).contains("jcnd="));
    assert_eq!(p.skipped_lines, 5);
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[16]);
}

#[test]
fn more_costs_than_events_warns_and_drops_the_extra_ones() {
    let p = load(&["events: Ir Dr", "fn=main", "1 10 2 30 40"]);
    assert_eq!(diags(&p), vec![(3, Severity::Warning)]);
    assert_eq!(
        message_at(&p, 3),
        "4 counters but 2 events; the extra ones are ignored"
    );
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[10, 2]);
    assert_eq!(p.parts[0].decode(&p).line_cost(0), &[10, 2]);
}

#[test]
fn counters_beyond_64_bits_saturate_with_a_warning() {
    let p = load(&[
        "events: Ir Dr",            // 1
        "fn=main",                  // 2
        "1 99999999999999999999 5", // 3
        "2 9223372036854775807 1",  // 4: i64::MAX, read as it is
    ]);
    assert_eq!(
        diags(&p),
        vec![(3, Severity::Warning), (4, Severity::Warning)]
    );
    assert_eq!(
        message_at(&p, 3),
        "1 counter(s) beyond the signed 64-bit range saturated"
    );
    // Sums saturate too, and say so.
    assert!(message_at(&p, 4).contains("the sum is saturated"));
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[i64::MAX, 6]);
    assert_eq!(p.parts[0].decode(&p).line_cost(0), &[i64::MAX, 5]);
}

fn not_a_profile(bytes: &[u8]) -> String {
    match load_reader("t.cg", bytes) {
        Err(LoadError::NotAProfile { path, reason }) => {
            assert_eq!(path, "t.cg");
            reason
        }
        other => panic!("expected NotAProfile, got {other:?}"),
    }
}

#[test]
fn empty_input_is_not_a_profile() {
    assert!(not_a_profile(b"").contains("the file is empty"));
    assert!(not_a_profile(b"\n").contains("events:"));
}

#[test]
fn text_without_events_is_not_a_profile() {
    assert!(not_a_profile(b"hello\nworld\nfn=main\n").contains("events:"));
    // Comments and a header alone are not enough either.
    assert!(not_a_profile(b"# callgrind format\nversion: 1\n").contains("events:"));
}

#[test]
fn binary_garbage_is_not_a_profile() {
    // Pseudo-random bytes (not starting with the gzip magic).
    let mut x: u32 = 12345;
    let bytes: Vec<u8> = (0..100_000)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect();
    assert_ne!(bytes[0], 0x1f);
    not_a_profile(&bytes);
}

#[test]
fn many_unreadable_lines_before_events_stop_the_load() {
    let text = "garbage line\n".repeat(25) + "events: Ir\nfn=main\n1 1\n";
    assert!(not_a_profile(text.as_bytes()).contains("20 unreadable lines"));
}

#[test]
fn cost_line_before_events_is_an_error() {
    let p = load(&[
        "fn=main",    // 1
        "1 5",        // 2
        "events: Ir", // 3
        "1 7",        // 4
    ]);
    assert_eq!(diags(&p), vec![(2, Severity::Error)]);
    assert!(message_at(&p, 2).contains("before the `events:` header"));
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[7]);
}

#[test]
fn events_without_data_is_an_empty_profile() {
    let p = load(&["events: Ir"]);
    assert_clean(&p);
    assert!(p.parts.is_empty());
    assert_eq!(Analysis::new(&p).totals, vec![0]);
}

#[test]
fn an_unreadable_fn_line_sends_its_costs_to_unknown_not_to_the_previous_function() {
    let p = load(&[
        "events: Ir",
        "fn=main",
        "1 5",
        "fn=(99999999999999999999)",
        "2 7",
    ]);
    assert_eq!(diags(&p), vec![(4, Severity::Error)]);
    let a = Analysis::new(&p);
    assert_eq!(a.self_cost(func(&p, "main", "")), &[5]);
    assert_eq!(a.self_cost(func(&p, "???", "")), &[7]);
}

#[test]
fn diagnostics_past_ten_thousand_are_counted_not_kept() {
    let mut text = String::from("events: Ir\nfn=main\n1 1\n");
    for _ in 0..10_005 {
        text.push_str("nonsense\n");
    }
    let p = load_str(&text);
    assert_eq!(p.diagnostics.len(), crate::profile::KEPT_DIAGNOSTICS);
    assert_eq!(p.dropped_diagnostics, 5);
    assert_eq!(p.diagnostic_count(), 10_005);
    assert_eq!(p.skipped_lines, 10_005);
    assert_eq!(p.diagnostics.last().map(|d| d.line), Some(10_003));
}

#[test]
fn only_the_first_256_events_are_read() {
    let names: Vec<String> = (0..300).map(|i| format!("e{i}")).collect();
    let p = load_str(&format!("events: {}\nfn=main\n1 5 6\n", names.join(" ")));
    assert_eq!(p.events.len(), 256);
    assert_eq!(diags(&p), vec![(1, Severity::Warning)]);
    assert!(message_at(&p, 1).contains("300 events"));
    assert_eq!(p.parts[0].self_cost(func(&p, "main", ""))[..2], [5, 6]);
}

#[test]
fn positions_and_counts_beyond_64_bits_are_reported() {
    let p = load(&[
        "events: Ir",
        "fn=main",
        "99999999999999999999 5",
        "cfn=g",
        "calls=99999999999999999999 1",
        "2 7",
        "jump=99999999999999999999 3",
        "* ",
        "3 1",
    ]);
    assert_eq!(
        diags(&p),
        vec![
            (3, Severity::Error),
            (5, Severity::Warning),
            (7, Severity::Warning)
        ]
    );
    let part = &p.parts[0].decode(&p);
    assert_eq!(part.calls[0].count, u64::MAX);
    assert_eq!(part.jumps[0].taken, u64::MAX);
    assert_eq!(part.self_cost(func(&p, "main", "")), &[1]);
}
