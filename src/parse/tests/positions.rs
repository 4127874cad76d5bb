//! Subposition compression: absolute, relative (`+N`/`-N`) and `*`
//! positions, and which lines move the last position.

use super::*;

#[test]
fn relative_instr_and_line_positions() {
    let p = load(&[
        "positions: instr line", // 1
        "events: Ir",            // 2
        "fn=f",                  // 3
        "0x10 5 1",              // 4: (0x10, 5)
        "+3 * 2",                // 5: (0x13, 5)
        "+1 +1 3",               // 6: (0x14, 6)
        "-2 -3 4",               // 7: (0x12, 3)
        "0x20 10 5",             // 8: (0x20, 10)
        "* * 6",                 // 9: (0x20, 10)
        "+0x10 +0x2 7",          // 10: (0x30, 12)
        "0x40 -2 8",             // 11: (0x40, 10)
    ]);
    assert_clean(&p);
    let got: Vec<(u64, u64, i64)> = line_records(&p)
        .into_iter()
        .map(|(_, _, line, addr, c)| (addr, line, c[0]))
        .collect();
    assert_eq!(
        got,
        vec![
            (0x10, 5, 1),
            (0x13, 5, 2),
            (0x14, 6, 3),
            (0x12, 3, 4),
            (0x20, 10, 5),
            (0x20, 10, 6),
            (0x30, 12, 7),
            (0x40, 10, 8),
        ]
    );
    assert_eq!(p.parts[0].self_cost(func(&p, "f", "")), &[36]);
}

#[test]
fn relative_line_positions_with_line_zero_between() {
    let p = load(&[
        "events: Ir",
        "fn=f",
        "10 1",
        "+2 1",
        "-5 1",
        "* 1",
        "0 1",
        "+3 1",
    ]);
    assert_clean(&p);
    let got: Vec<u64> = p.parts[0].decode(&p).lines.iter().map(|l| l.line).collect();
    assert_eq!(got, vec![10, 12, 7, 7, 0, 3]);
}

#[test]
fn call_and_jump_positions_do_not_move_the_last_position() {
    let p = load(&[
        "positions: instr line", // 1
        "events: Ir",            // 2
        "fl=a.c",                // 3
        "fn=main",               // 4
        "0x100 10 1",            // 5: last = (0x100, 10)
        "cfn=g",                 // 6
        "calls=1 +5 +5",         // 7: target (0x105, 15)
        "+2 +2 100",             // 8: call at (0x102, 12); last stays
        "+1 +1 7",               // 9: (0x101, 11), not (0x103, 13)
        "jump=3 +16 +4",         // 10: target (0x111, 15)
        "+4 +1",                 // 11: from (0x105, 12); last stays
        "+1 +1 2",               // 12: (0x102, 12)
        "calls=2 0x500",         // 13: target (0x500, last line 12)
        "* * 9",                 // 14: call at (0x102, 12)
    ]);
    assert_clean(&p);
    let main = func(&p, "main", "a.c");
    let g = func(&p, "g", "a.c");
    let part = &p.parts[0].decode(&p);
    let a = file(&p, "a.c");
    assert_eq!(
        line_records(&p),
        vec![
            (main, a, 10, 0x100, vec![1]),
            (main, a, 11, 0x101, vec![7]),
            (main, a, 12, 0x102, vec![2]),
        ]
    );
    assert_eq!(part.self_cost(main), &[10]);
    assert_eq!(part.calls.len(), 2);
    let c = part.calls[0];
    assert_eq!((c.caller, c.callee, c.count), (main, g, 1));
    assert_eq!((c.addr, c.line), (0x102, 12));
    assert_eq!((c.target_addr, c.target_line), (0x105, 15));
    assert_eq!(part.call_cost(0), &[100]);
    let c = part.calls[1];
    assert_eq!((c.addr, c.line, c.count), (0x102, 12, 2));
    assert_eq!((c.target_addr, c.target_line), (0x500, 12));
    assert_eq!(part.call_cost(1), &[9]);
    assert_eq!(part.jumps.len(), 1);
    let j = part.jumps[0];
    assert_eq!((j.addr, j.line), (0x105, 12));
    assert_eq!((j.target_addr, j.target_line), (0x111, 15));
    assert_eq!((j.taken, j.executed), (3, None));
    assert_eq!(
        (j.func, j.target_func, j.file, j.target_file),
        (main, main, a, a)
    );
}

#[test]
fn relative_position_below_zero_is_an_error_and_the_line_is_skipped() {
    let p = load(&[
        "events: Ir", // 1
        "fn=main",    // 2
        "10 1",       // 3
        "-20 5",      // 4
        "+1 3",       // 5: relative to line 10
    ]);
    assert_eq!(diags(&p), vec![(4, Severity::Error)]);
    assert!(message_at(&p, 4).contains("below zero"));
    assert_eq!(p.skipped_lines, 1);
    let lines: Vec<u64> = p.parts[0].decode(&p).lines.iter().map(|l| l.line).collect();
    assert_eq!(lines, vec![10, 11]);
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[4]);
}

#[test]
fn relative_position_beyond_64_bits_is_an_error() {
    let p = load(&[
        "positions: instr",     // 1
        "events: Ir",           // 2
        "fn=main",              // 3
        "0xffffffffffffffff 1", // 4
        "+1 5",                 // 5
    ]);
    assert_eq!(diags(&p), vec![(5, Severity::Error)]);
    assert!(message_at(&p, 5).contains("beyond 64 bits"));
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[1]);
}
