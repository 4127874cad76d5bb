//! The per-line view of one function (`source::function_source`).

use super::*;

use crate::analysis::source::{collect, function_source};

#[test]
fn function_source_lines_inlined_files_and_calls() {
    let p = load(&[
        "events: Ir",
        "fl=a.c",
        "fn=main",
        "3 1",
        "3 2",
        "4 5",
        "fi=inc.h",
        "10 7",
        "10 1",
        "fe=a.c",
        "5 2",
        "cfn=g",
        "calls=2 20",
        "5 30",
        "calls=1 20", // same line, same callee: one row
        "5 10",
        "fi=inc.h",
        "cfn=h", // in inc.h
        "calls=1 30",
        "11 4",
        "fn=g",
        "20 40",
        "fl=inc.h",
        "fn=h",
        "30 4",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let main = func_in(&p, "main", "a.c");
    let g = func_in(&p, "g", "a.c");
    let h = func_in(&p, "h", "inc.h");
    let (ac, inc) = (file(&p, "a.c"), file(&p, "inc.h"));
    assert!(ac < inc);
    // main's self: 1 + 2 + 5 + 7 + 1 + 2 = 18, plus 40 (g) + 4 (h).
    assert_eq!(a.self_cost(main), &[18]);
    assert_eq!(a.inclusive(main), &[62]);
    let src = function_source(&p, &a, main);
    let lines: Vec<(FileId, u64, Vec<i64>)> = src
        .lines
        .iter()
        .map(|l| (l.file, l.line, l.cost.clone()))
        .collect();
    assert_eq!(
        lines,
        vec![
            (ac, 3, vec![3]),
            (ac, 4, vec![5]),
            (ac, 5, vec![2]),
            (inc, 10, vec![8]),
        ]
    );
    let calls: Vec<(FileId, u64, FnId, u64, Vec<i64>)> = src
        .calls
        .iter()
        .map(|c| (c.file, c.line, c.callee, c.count, c.inclusive.clone()))
        .collect();
    assert_eq!(
        calls,
        vec![(ac, 5, g, 3, vec![40]), (inc, 11, h, 1, vec![4])]
    );
    assert!(src.jumps.is_empty());
    assert!(src.instrs.is_empty());
    assert_eq!(src.files(), vec![ac, inc]);
    // g's own view: one line in its own file.
    let src = function_source(&p, &a, g);
    assert_eq!(src.lines.len(), 1);
    assert_eq!((src.lines[0].file, src.lines[0].line), (ac, 20));
    assert!(src.calls.is_empty());
}

#[test]
fn function_source_instruction_rows_with_derived_events() {
    let p = load(&[
        "positions: instr line",
        "events: Ir",
        "event: D = 2 Ir",
        "fl=a.c",
        "fn=main",
        "0x10 3 1", // (0x10, 3)
        "+2 * 2",   // (0x12, 3)
        "-2 * 4",   // (0x10, 3) again
        "fi=inc.h",
        "0x20 10 7", // (0x20, 10) in inc.h
        "+4 +1 3",   // (0x24, 11)
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let main = func_in(&p, "main", "a.c");
    let (ac, inc) = (file(&p, "a.c"), file(&p, "inc.h"));
    let src = function_source(&p, &a, main);
    let instrs: Vec<(u64, FileId, u64, Vec<i64>)> = src
        .instrs
        .iter()
        .map(|r| (r.addr, r.file, r.line, r.cost.clone()))
        .collect();
    assert_eq!(
        instrs,
        vec![
            (0x10, ac, 3, vec![5, 10]),
            (0x12, ac, 3, vec![2, 4]),
            (0x20, inc, 10, vec![7, 14]),
            (0x24, inc, 11, vec![3, 6]),
        ]
    );
    let lines: Vec<(FileId, u64, Vec<i64>)> = src
        .lines
        .iter()
        .map(|l| (l.file, l.line, l.cost.clone()))
        .collect();
    assert_eq!(
        lines,
        vec![
            (ac, 3, vec![7, 14]),
            (inc, 10, vec![7, 14]),
            (inc, 11, vec![3, 6]),
        ]
    );
}

#[test]
fn function_source_jump_rows_sum_by_source_and_target() {
    let p = load(&[
        "events: Ir",
        "fn=main",
        "10 1",
        "jcnd=1/2 +5", // 10 -> 15
        "*",
        "jcnd=3/4 +5", // 10 -> 15 again
        "*",
        "jump=2 20", // 11 -> 20
        "+1",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let main = func(&p, "main");
    let src = function_source(&p, &a, main);
    let jumps: Vec<(u64, FnId, u64, u64, Option<u64>)> = src
        .jumps
        .iter()
        .map(|j| (j.line, j.target_func, j.target_line, j.taken, j.executed))
        .collect();
    assert_eq!(
        jumps,
        vec![(10, main, 15, 4, Some(6)), (11, main, 20, 2, None)]
    );
}

#[test]
fn whole_program_rows_leave_instructions_out_and_split_by_file() {
    let p = load(&[
        "positions: instr line",
        "events: Ir",
        "fl=a.c",
        "fn=main",
        "0x10 3 1",
        "fi=inc.h",
        "0x20 10 7",
        "fe=a.c",
        "cfn=g",
        "calls=1 0x30 20",
        "0x14 4 9",
        "fn=g",
        "0x30 20 9",
    ]);
    assert_clean(&p);
    let a = Analysis::new(&p);
    let main = func_in(&p, "main", "a.c");
    assert_eq!(function_source(&p, &a, main).instrs.len(), 2);
    let all = collect(&p, &a, |_| true);
    assert!(all.instrs.is_empty(), "instructions are per function");
    let (ac, inc) = (file(&p, "a.c"), file(&p, "inc.h"));
    let rows = |file| -> Vec<u64> { all.in_file(file).lines.iter().map(|l| l.line).collect() };
    assert_eq!(rows(ac), vec![3, 20]);
    assert_eq!(rows(inc), vec![10]);
    let calls = all.in_file(ac).calls;
    assert_eq!((calls.len(), calls[0].line), (1, 4));
    assert!(all.in_file(inc).calls.is_empty());
}
