//! Associations: `calls=` with its cost line, `cfn=`/`cfi=` targets,
//! `fi=`/`fe=` files, and `jump=`/`jcnd=` with their position rows.

use super::*;
use crate::analysis::Analysis;

#[test]
fn call_cost_is_inclusive_and_not_the_callers_self_cost() {
    let p = load(&[
        "events: Ir Dr", // 1
        "fl=a.c",        // 2
        "fn=main",       // 3
        "1 10 1",        // 4
        "cfn=g",         // 5
        "calls=2 5",     // 6
        "3 100 4",       // 7
        "fn=g",          // 8
        "5 100 4",       // 9
    ]);
    assert_clean(&p);
    let main = func(&p, "main", "a.c");
    let g = func(&p, "g", "a.c");
    let part = &p.parts[0].decode(&p);
    assert_eq!(part.self_cost(main), &[10, 1]);
    assert_eq!(part.self_cost(g), &[100, 4]);
    assert_eq!(part.lines.len(), 2);
    let c = part.calls[0];
    assert_eq!(
        (c.caller, c.callee, c.count, c.line, c.target_line),
        (main, g, 2, 3, 5)
    );
    assert_eq!(c.file, file(&p, "a.c"));
    assert_eq!(part.call_cost(0), &[100, 4]);
    let a = Analysis::new(&p);
    assert_eq!(a.totals, vec![110, 5]);
    assert_eq!(a.inclusive(main), &[110, 5]);
}

#[test]
fn calls_zero_is_still_call_cost() {
    let p = load(&[
        "events: Ir",
        "fn=main",
        "1 10",
        "cfn=g",
        "calls=0 0",
        "1 50",
        "fn=g",
        "2 50",
    ]);
    assert_clean(&p);
    let main = func(&p, "main", "");
    let part = &p.parts[0].decode(&p);
    assert_eq!(part.self_cost(main), &[10]);
    assert_eq!(part.calls[0].count, 0);
    assert_eq!(part.call_cost(0), &[50]);
}

#[test]
fn calls_without_cfn_is_an_error_and_its_cost_line_is_dropped() {
    let p = load(&[
        "events: Ir", // 1
        "fn=main",    // 2
        "1 10",       // 3
        "calls=1 5",  // 4
        "2 50",       // 5: the call's cost, not self cost
        "3 1",        // 6
    ]);
    assert_eq!(diags(&p), vec![(4, Severity::Error)]);
    assert!(message_at(&p, 4).contains("cfn="));
    assert_eq!(p.skipped_lines, 1);
    assert!(p.parts[0].decode(&p).calls.is_empty());
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[11]);
    assert_eq!(p.parts[0].decode(&p).lines.len(), 2);
}

#[test]
fn unreadable_calls_count_is_an_error_and_its_cost_line_is_dropped() {
    let p = load(&["events: Ir", "fn=main", "cfn=g", "calls=x 5", "2 50", "3 1"]);
    assert_eq!(diags(&p), vec![(4, Severity::Error)]);
    assert!(p.parts[0].decode(&p).calls.is_empty());
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[1]);
}

#[test]
fn calls_at_the_end_of_the_file_is_a_warning() {
    let lines = [
        "events: Ir", // 1
        "fn=main",    // 2
        "1 10",       // 3
        "cfn=g",      // 4
        "calls=1 5",  // 5
    ];
    let p = load(&lines);
    assert_eq!(diags(&p), vec![(5, Severity::Warning)]);
    assert!(message_at(&p, 5).starts_with("file ends after `calls=` without its cost line"));
    assert!(p.parts[0].decode(&p).calls.is_empty());
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[10]);

    // The same without the final newline.
    let p = load_str(&lines.join("\n"));
    assert_eq!(diags(&p), vec![(5, Severity::Warning)]);
    assert!(message_at(&p, 5).starts_with("file ends after `calls=`"));
    assert!(p.parts[0].decode(&p).calls.is_empty());
}

#[test]
fn comments_and_blank_lines_between_calls_and_its_cost_line_are_skipped() {
    // The format allows comments everywhere, and KCachegrind keeps waiting
    // for the call's cost line across them.
    let p = load(&[
        "events: Ir", // 1
        "fn=main",    // 2
        "1 10",       // 3
        "cfn=g",      // 4
        "calls=1 5",  // 5
        "# note",     // 6
        "",           // 7
        "2 30",       // 8: the call's cost
        "fn=g",       // 9
        "5 30",       // 10
    ]);
    assert_clean(&p);
    let (main, g) = (func(&p, "main", ""), func(&p, "g", ""));
    let part = &p.parts[0].decode(&p);
    assert_eq!(part.calls.len(), 1);
    assert_eq!((part.calls[0].callee, part.calls[0].line), (g, 2));
    assert_eq!(part.call_cost(0), &[30]);
    assert_eq!(part.self_cost(main), &[10]);
}

#[test]
fn calls_followed_by_another_kind_of_line_drops_the_call() {
    let p = load(&[
        "events: Ir", // 1
        "fn=main",    // 2
        "cfn=g",      // 3
        "calls=1 5",  // 4
        "fn=g",       // 5
        "1 5",        // 6: g's self cost
    ]);
    assert_eq!(diags(&p), vec![(5, Severity::Error)]);
    assert!(message_at(&p, 5).contains("not followed by a cost line"));
    assert!(p.parts[0].decode(&p).calls.is_empty());
    assert_eq!(p.parts[0].self_cost(func(&p, "g", "")), &[5]);
}

#[test]
fn callee_without_cfi_is_in_the_inlined_file_and_fn_resets_to_the_fl_file() {
    let p = load(&[
        "events: Ir", // 1
        "fl=a.c",     // 2
        "fn=main",    // 3
        "1 1",        // 4
        "fi=inc.h",   // 5
        "2 2",        // 6
        "cfn=inl",    // 7: in inc.h (Valgrind leaves cfi= out when it is the fi= file)
        "calls=1 10", // 8
        "3 5",        // 9: call site in inc.h
        "fn=other",   // 10: back in a.c
        "4 1",        // 11
        "cfn=g",      // 12: in a.c
        "calls=1 20", // 13
        "5 3",        // 14
        "fl=inc.h",   // 15
        "fn=inl",     // 16
        "10 5",       // 17
        "fl=a.c",     // 18
        "fn=g",       // 19
        "20 3",       // 20
    ]);
    assert_clean(&p);
    let (a, inc) = (file(&p, "a.c"), file(&p, "inc.h"));
    let main = func(&p, "main", "a.c");
    let inl = func(&p, "inl", "inc.h");
    let other = func(&p, "other", "a.c");
    let g = func(&p, "g", "a.c");
    assert_eq!(p.functions.len(), 4);
    assert_eq!(p.find_function("inl", "a.c", ""), None);
    assert_eq!(p.find_function("g", "inc.h", ""), None);
    let part = &p.parts[0].decode(&p);
    assert_eq!(
        line_records(&p),
        vec![
            (main, a, 1, 0, vec![1]),
            (main, inc, 2, 0, vec![2]),
            (other, a, 4, 0, vec![1]),
            (inl, inc, 10, 0, vec![5]),
            (g, a, 20, 0, vec![3]),
        ]
    );
    assert_eq!(
        (part.calls[0].callee, part.calls[0].file, part.calls[0].line),
        (inl, inc, 3)
    );
    assert_eq!(
        (part.calls[1].callee, part.calls[1].file, part.calls[1].line),
        (g, a, 5)
    );
    assert_eq!(part.self_cost(main), &[3]);
}

#[test]
fn fi_and_fe_move_line_costs_without_a_new_function() {
    let p = load(&[
        "events: Ir",
        "fl=a.c",
        "fn=main",
        "1 1",
        "fi=x.h",
        "2 2",
        "fe=y.h",
        "3 4",
        "fe=a.c",
        "4 8",
    ]);
    assert_clean(&p);
    assert_eq!(p.functions.len(), 1);
    let main = func(&p, "main", "a.c");
    let files: Vec<FileId> = p.parts[0].decode(&p).lines.iter().map(|l| l.file).collect();
    let (a, x, y) = (file(&p, "a.c"), file(&p, "x.h"), file(&p, "y.h"));
    assert_eq!(files, vec![a, x, y, a]);
    assert_eq!(p.parts[0].self_cost(main), &[15]);
}

#[test]
fn jump_and_jcnd_records() {
    let p = load(&[
        "positions: instr line", // 1
        "events: Ir",            // 2
        "fl=a.c",                // 3
        "fn=main",               // 4
        "0x200 20 1",            // 5: last = (0x200, 20)
        "jcnd=1/2 +22 0",        // 6: Valgrind style, target (0x216, 0)
        "* * ",                  // 7: from (0x200, 20)
        "jfi=b.c",               // 8
        "jfn=other",             // 9
        "jcnd=3 2 0x300 30",     // 10: grammar style: executed 3, taken 2
        "+4 +1",                 // 11: from (0x204, 21)
        "jump=5 +8 *",           // 12: target (0x208, 20)
        "fn=next",               // 13: no position row: at the last position
        "0x400 1 1",             // 14
    ]);
    assert_clean(&p);
    let main = func(&p, "main", "a.c");
    let other = func(&p, "other", "b.c");
    let (a, b) = (file(&p, "a.c"), file(&p, "b.c"));
    let part = &p.parts[0].decode(&p);
    assert_eq!(part.jumps.len(), 3);
    let j = part.jumps[0];
    assert_eq!((j.func, j.file, j.addr, j.line), (main, a, 0x200, 20));
    assert_eq!(
        (j.target_func, j.target_file, j.target_addr, j.target_line),
        (main, a, 0x216, 0)
    );
    assert_eq!((j.taken, j.executed), (1, Some(2)));
    let j = part.jumps[1];
    assert_eq!((j.func, j.file, j.addr, j.line), (main, a, 0x204, 21));
    assert_eq!(
        (j.target_func, j.target_file, j.target_addr, j.target_line),
        (other, b, 0x300, 30)
    );
    assert_eq!((j.taken, j.executed), (2, Some(3)));
    let j = part.jumps[2];
    assert_eq!((j.func, j.addr, j.line), (main, 0x200, 20));
    assert_eq!(
        (j.target_func, j.target_file, j.target_addr, j.target_line),
        (main, a, 0x208, 20)
    );
    assert_eq!((j.taken, j.executed), (5, None));
    // Jump rows are not cost lines.
    assert_eq!(part.self_cost(main), &[1]);
    assert_eq!(part.lines.len(), 2);
}

#[test]
fn jump_without_its_position_row_at_the_end_of_the_file_is_kept() {
    // As in the middle of a file: the jump is at the last position.
    let p = load(&["events: Ir", "fn=main", "10 1", "jump=3 20"]);
    assert_clean(&p);
    let part = &p.parts[0].decode(&p);
    assert_eq!(part.jumps.len(), 1);
    let j = part.jumps[0];
    assert_eq!(
        (j.line, j.target_line, j.taken, j.executed),
        (10, 20, 3, None)
    );
}

#[test]
fn a_jump_that_cannot_be_read_does_not_turn_its_row_into_a_cost_line() {
    let p = load(&[
        "events: Ir",
        "positions: line",
        "fn=main",
        "10 5",
        "jcnd=x/y +3",
        "* ",
        "+1 2",
    ]);
    assert_eq!(diags(&p), vec![(5, Severity::Error)]);
    let part = &p.parts[0].decode(&p);
    assert!(part.jumps.is_empty());
    let lines: Vec<u64> = part.lines.iter().map(|l| l.line).collect();
    assert_eq!(lines, vec![10, 11]);
}
