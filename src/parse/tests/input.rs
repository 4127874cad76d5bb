//! Bytes and lines: CRLF, no final newline, blank lines and comments,
//! gzip, and cost lines with fewer or negative counters.

use super::*;
use std::io::Write;

#[test]
fn crlf_line_ends() {
    let p = load_str(
        "events: Ir Dr\r\nfl=a.c\r\nfn=main\r\n1 10 2\r\ncfn=g\r\ncalls=1 5\r\n1 3 0\r\nfn=g\r\n5 3\r\n",
    );
    assert_clean(&p);
    assert_eq!(event_names(&p), vec!["Ir", "Dr"]);
    let main = func(&p, "main", "a.c");
    let g = func(&p, "g", "a.c");
    assert_eq!(p.parts[0].self_cost(main), &[10, 2]);
    assert_eq!(p.parts[0].self_cost(g), &[3, 0]);
    assert_eq!(p.parts[0].decode(&p).call_cost(0), &[3, 0]);
}

#[test]
fn no_final_newline() {
    let p = load_str("events: Ir\nfn=main\n1 10\n2 5");
    assert_clean(&p);
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[15]);
}

#[test]
fn blank_lines_and_comments_anywhere() {
    let p = load(&[
        "# callgrind format", // 1
        "",                   // 2
        "# a comment",        // 3
        "events: Ir",         // 4
        "   ",                // 5
        "fn=main",            // 6
        "#",                  // 7
        "1 10",               // 8
        "\t",                 // 9
        "cfn=g",              // 10
        "# between",          // 11
        "calls=1 5",          // 12
        "2 3",                // 13
        "",                   // 14
        "fn=g",               // 15
        "5 3",                // 16
        "# the end",          // 17
    ]);
    assert_clean(&p);
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[10]);
    assert_eq!(p.parts[0].decode(&p).call_cost(0), &[3]);
}

#[test]
fn fewer_costs_than_events_are_zero() {
    let p = load(&["events: Ir Dr Dw", "fn=main", "1 10", "2"]);
    assert_clean(&p);
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[10, 0, 0]);
    assert_eq!(p.parts[0].decode(&p).line_cost(1), &[0, 0, 0]);
}

#[test]
fn negative_costs_are_kept() {
    let p = load(&["events: Ir", "fn=main", "1 10", "2 -25"]);
    assert_clean(&p);
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[-15]);
}

#[test]
fn gzip_input_reads_the_same_as_plain() {
    let plain = text(&[
        "events: Ir",
        "fl=a.c",
        "fn=main",
        "1 10",
        "cfn=g",
        "calls=3 5",
        "2 7",
        "fn=g",
        "5 7",
        "bogus",
    ]);
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(plain.as_bytes()).unwrap();
    let gz = enc.finish().unwrap();
    assert_eq!(&gz[..2], &[0x1f, 0x8b]);
    let p = load_reader("t.cg.gz", gz.as_slice()).unwrap();
    let q = load_str(&plain);
    let main = func(&p, "main", "a.c");
    let g = func(&p, "g", "a.c");
    assert_eq!(p.parts.len(), 1);
    assert_eq!(p.parts[0].self_cost(main), &[10]);
    assert_eq!(p.parts[0].self_cost(g), &[7]);
    assert_eq!(p.parts[0].decode(&p).calls, q.parts[0].decode(&q).calls);
    assert_eq!(p.parts[0].decode(&p).call_cost(0), &[7]);
    assert_eq!(p.parts[0].decode(&p).lines, q.parts[0].decode(&q).lines);
    assert_eq!(
        p.parts[0].decode(&p).line_costs,
        q.parts[0].decode(&q).line_costs
    );
    assert_eq!(diags(&p), vec![(10, Severity::Error)]);
    assert_eq!(diags(&p), diags(&q));
}
