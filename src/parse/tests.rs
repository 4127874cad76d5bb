//! Loader behaviour, one line kind or rule at a time: small profiles written
//! here, loaded through `load_reader`, and the model checked number by number.
//! Texts are built from a list of lines so that line numbers are easy to
//! read off: the `n`-th string is line `n` (1-based).

use super::{LoadError, LoadOptions, load_paths, load_reader};
use crate::analysis::Analysis;
use crate::profile::{FileId, FnId, ObjId, Positions, Profile, Severity};
use std::io::Write;

/// The lines joined with `\n`, with a final newline.
fn text(lines: &[&str]) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

fn load(lines: &[&str]) -> Profile {
    load_str(&text(lines))
}

fn load_str(s: &str) -> Profile {
    load_reader("t.cg", s.as_bytes()).unwrap()
}

/// A function with no object.
fn func(p: &Profile, name: &str, file: &str) -> FnId {
    func_in(p, name, file, "")
}

fn func_in(p: &Profile, name: &str, file: &str, object: &str) -> FnId {
    p.find_function(name, file, object)
        .unwrap_or_else(|| panic!("no function {name} in {file:?} / {object:?}"))
}

fn file(p: &Profile, name: &str) -> FileId {
    FileId(
        p.files
            .get(name)
            .unwrap_or_else(|| panic!("no file {name}")),
    )
}

/// (line, severity) of every diagnostic, in order.
fn diags(p: &Profile) -> Vec<(usize, Severity)> {
    p.diagnostics.iter().map(|d| (d.line, d.severity)).collect()
}

fn assert_clean(p: &Profile) {
    assert!(p.diagnostics.is_empty(), "{:#?}", p.diagnostics);
    assert_eq!(p.skipped_lines, 0);
}

/// The message of the only diagnostic on `line`.
fn message_at(p: &Profile, line: usize) -> &str {
    let found: Vec<_> = p.diagnostics.iter().filter(|d| d.line == line).collect();
    assert_eq!(
        found.len(),
        1,
        "diagnostics on line {line}: {:#?}",
        p.diagnostics
    );
    &found[0].message
}

fn event_names(p: &Profile) -> Vec<&str> {
    p.events.events.iter().map(|e| e.name.as_str()).collect()
}

/// (func, file, line, addr, costs) of every line record of part 0.
fn line_records(p: &Profile) -> Vec<(FnId, FileId, u64, u64, Vec<i64>)> {
    let part = &p.parts[0];
    part.lines
        .iter()
        .enumerate()
        .map(|(i, l)| (l.func, l.file, l.line, l.addr, part.line_cost(i).to_vec()))
        .collect()
}

// ---------------------------------------------------------------- headers

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
    let part = &p.parts[0];
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
    assert_eq!(part.event_map, vec![0, 1]);
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
        let part = &p.parts[0];
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
    assert_eq!(p.parts[0].lines[0].line, 5);
    assert_eq!(p.parts[0].line_cost(0), &[7]);
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
            (2, Severity::Warning),
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
fn summary_that_disagrees_with_the_cost_lines_is_a_warning_on_its_line() {
    let p = load(&[
        "events: Ir Dr", // 1
        "summary: 20 4", // 2
        "fn=main",       // 3
        "1 10 4",        // 4
        "2 5",           // 5
    ]);
    // Ir adds up to 15, Dr to 4: only Ir disagrees. (Which figure becomes
    // the total when `summary:` is the larger is the finish step's choice,
    // not checked here.)
    assert_eq!(diags(&p), vec![(2, Severity::Warning)]);
    assert!(
        message_at(&p, 2)
            .starts_with("`summary:` gives 20 for Ir, but the cost lines add up to 15; using ")
    );
    assert_eq!(p.parts[0].summary, Some(vec![20, 4]));
    assert_eq!(p.parts[0].self_sum(), vec![15, 4]);
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

// ------------------------------------------------------- name compression

#[test]
fn compressed_names_define_and_reference() {
    let p = load(&[
        "events: Ir",     // 1
        "ob=(1) prog",    // 2: IDs are per space: (1) is an object,
        "fl=(1) a.c",     // 3: a file
        "fn=(1) main",    // 4: and a function
        "1 10",           // 5
        "cfi=(2) b.c",    // 6
        "cfn=(2) helper", // 7
        "calls=1 20",     // 8
        "2 5",            // 9
        "fl=(2)",         // 10
        "fn=(2)",         // 11
        "20 5",           // 12
        "fl=(1)",         // 13
        "fn=(1)",         // 14
        "3 1",            // 15
    ]);
    assert_clean(&p);
    let main = func_in(&p, "main", "a.c", "prog");
    let helper = func_in(&p, "helper", "b.c", "prog");
    assert_eq!(p.functions.len(), 2);
    let part = &p.parts[0];
    assert_eq!(part.self_cost(main), &[11]);
    assert_eq!(part.self_cost(helper), &[5]);
    assert_eq!(part.calls.len(), 1);
    let call = part.calls[0];
    assert_eq!((call.caller, call.callee, call.count), (main, helper, 1));
    assert_eq!((call.line, call.target_line), (2, 20));
    assert_eq!(part.call_cost(0), &[5]);
}

#[test]
fn an_id_defined_again_takes_the_new_name() {
    let p = load(&[
        "events: Ir",    // 1
        "fn=(1) first",  // 2
        "1 1",           // 3
        "fn=(1) second", // 4
        "1 2",           // 5
        "fn=(1)",        // 6: now `second`
        "1 4",           // 7
    ]);
    assert_clean(&p);
    assert_eq!(p.parts[0].self_cost(func(&p, "first", "")), &[1]);
    assert_eq!(p.parts[0].self_cost(func(&p, "second", "")), &[6]);
}

#[test]
fn file_ids_are_shared_by_fl_fi_fe_cfi_cfl_and_jfi() {
    let p = load(&[
        "events: Ir",   // 1
        "fl=(1) a.c",   // 2
        "fn=(1) main",  // 3
        "fi=(2) inc.h", // 4
        "1 1",          // 5: in inc.h
        "fe=(3) o.h",   // 6
        "2 2",          // 7: in o.h
        "cfl=(2)",      // 8: inc.h, defined by fi=
        "cfn=(2) inl",  // 9
        "calls=1 10",   // 10
        "2 3",          // 11
        "jfi=(3)",      // 12: o.h, defined by fe=
        "jfn=(3) jt",   // 13
        "jump=1 30",    // 14
        "2",            // 15
        "cfi=(4) c.c",  // 16
        "cfn=(4) cf",   // 17
        "calls=1 40",   // 18
        "2 4",          // 19
        "fl=(4)",       // 20: c.c, defined by cfi=
        "fn=(4)",       // 21
        "40 4",         // 22
        "fi=(1)",       // 23: a.c, defined by fl=
        "5 6",          // 24
    ]);
    assert_clean(&p);
    let (a, inc, o, c) = (
        file(&p, "a.c"),
        file(&p, "inc.h"),
        file(&p, "o.h"),
        file(&p, "c.c"),
    );
    let main = func(&p, "main", "a.c");
    let inl = func(&p, "inl", "inc.h");
    let cf = func(&p, "cf", "c.c");
    let part = &p.parts[0];
    assert_eq!(
        line_records(&p),
        vec![
            (main, inc, 1, 0, vec![1]),
            (main, o, 2, 0, vec![2]),
            (cf, c, 40, 0, vec![4]),
            (cf, a, 5, 0, vec![6]),
        ]
    );
    assert_eq!(part.calls[0].callee, inl);
    assert_eq!(part.calls[0].file, o);
    assert_eq!(part.calls[1].callee, cf);
    assert_eq!(part.jumps.len(), 1);
    assert_eq!(part.jumps[0].target_file, o);
    assert_eq!(part.jumps[0].target_func, func(&p, "jt", "o.h"));
    assert_eq!(part.self_cost(main), &[3]);
    assert_eq!(part.self_cost(cf), &[10]);
    assert_eq!(p.functions.len(), 4);
}

#[test]
fn object_ids_are_shared_by_ob_and_cob_and_cfi_cob_apply_to_one_cfn() {
    let p = load(&[
        "events: Ir",      // 1
        "ob=(1) prog",     // 2
        "fl=(1) a.c",      // 3
        "fn=(1) main",     // 4
        "1 1",             // 5
        "cob=(2) libc.so", // 6
        "cfi=(2) s.c",     // 7
        "cfn=(2) strlen",  // 8: in libc.so, s.c
        "calls=1 1",       // 9
        "1 7",             // 10
        "cfn=(3) helper",  // 11: back in prog, a.c
        "calls=1 5",       // 12
        "1 2",             // 13
        "ob=(2)",          // 14: libc.so
        "fl=(2)",          // 15: s.c
        "fn=(2)",          // 16
        "1 7",             // 17
        "ob=(1)",          // 18
        "fl=(1)",          // 19
        "fn=(3)",          // 20
        "5 2",             // 21
    ]);
    assert_clean(&p);
    let strlen = func_in(&p, "strlen", "s.c", "libc.so");
    let helper = func_in(&p, "helper", "a.c", "prog");
    let main = func_in(&p, "main", "a.c", "prog");
    assert_eq!(p.functions.len(), 3);
    let part = &p.parts[0];
    assert_eq!(part.calls[0].callee, strlen);
    assert_eq!(part.calls[1].callee, helper);
    assert_eq!(part.self_cost(strlen), &[7]);
    assert_eq!(part.self_cost(helper), &[2]);
    assert_eq!(part.self_cost(main), &[1]);
    assert_eq!(p.fn_object(strlen), "libc.so");
    assert_eq!(
        p.functions[strlen.index()].object,
        ObjId(p.objects.get("libc.so").unwrap())
    );
}

#[test]
fn function_ids_are_shared_by_fn_cfn_and_jfn() {
    let p = load(&[
        "events: Ir",  // 1
        "fn=(1) main", // 2
        "1 1",         // 3
        "cfn=(2) g",   // 4
        "calls=1 5",   // 5
        "2 3",         // 6
        "jfn=(2)",     // 7: g, defined by cfn=
        "jump=2 7",    // 8
        "*",           // 9
        "jfn=(3) h",   // 10
        "jump=1 9",    // 11
        "*",           // 12
        "fn=(2)",      // 13: g
        "5 3",         // 14
        "fn=(3)",      // 15: h, defined by jfn=
        "9 1",         // 16
    ]);
    assert_clean(&p);
    let g = func(&p, "g", "");
    let h = func(&p, "h", "");
    let part = &p.parts[0];
    assert_eq!(p.functions.len(), 3);
    assert_eq!(part.calls[0].callee, g);
    assert_eq!(part.jumps[0].target_func, g);
    assert_eq!(part.jumps[1].target_func, h);
    assert_eq!(part.self_cost(g), &[3]);
    assert_eq!(part.self_cost(h), &[1]);
}

#[test]
fn reference_before_definition_warns_and_uses_a_placeholder() {
    let p = load(&[
        "events: Ir",  // 1
        "fn=(9)",      // 2: never defined yet
        "1 5",         // 3
        "fn=(9) real", // 4
        "1 7",         // 5
        "fn=(9)",      // 6
        "1 1",         // 7
    ]);
    assert_eq!(diags(&p), vec![(2, Severity::Warning)]);
    assert_eq!(message_at(&p, 2), "name (9) used before it was defined");
    assert_eq!(p.skipped_lines, 0);
    assert_eq!(p.parts[0].self_cost(func(&p, "(9)", "")), &[5]);
    assert_eq!(p.parts[0].self_cost(func(&p, "real", "")), &[8]);
}

#[test]
fn name_id_beyond_64_bits_is_an_error() {
    let p = load(&[
        "events: Ir",                  // 1
        "fn=main",                     // 2
        "fn=(99999999999999999999) x", // 3
        "1 5",                         // 4
    ]);
    assert_eq!(diags(&p), vec![(3, Severity::Error)]);
    assert!(message_at(&p, 3).contains("64 bits"));
    assert_eq!(p.fn_names.get("x"), None);
    assert_eq!(p.skipped_lines, 1);
}

// ------------------------------------------------ subposition compression

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
    let got: Vec<u64> = p.parts[0].lines.iter().map(|l| l.line).collect();
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
    let part = &p.parts[0];
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
    let lines: Vec<u64> = p.parts[0].lines.iter().map(|l| l.line).collect();
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

// ------------------------------------------------------------------ calls

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
    let part = &p.parts[0];
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
    let part = &p.parts[0];
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
    assert!(p.parts[0].calls.is_empty());
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[11]);
    assert_eq!(p.parts[0].lines.len(), 2);
}

#[test]
fn unreadable_calls_count_is_an_error_and_its_cost_line_is_dropped() {
    let p = load(&["events: Ir", "fn=main", "cfn=g", "calls=x 5", "2 50", "3 1"]);
    assert_eq!(diags(&p), vec![(4, Severity::Error)]);
    assert!(p.parts[0].calls.is_empty());
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
    assert!(p.parts[0].calls.is_empty());
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[10]);

    // The same without the final newline.
    let p = load_str(&lines.join("\n"));
    assert_eq!(diags(&p), vec![(5, Severity::Warning)]);
    assert!(message_at(&p, 5).starts_with("file ends after `calls=`"));
    assert!(p.parts[0].calls.is_empty());
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
    let part = &p.parts[0];
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
    assert!(p.parts[0].calls.is_empty());
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
    let part = &p.parts[0];
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
    let files: Vec<FileId> = p.parts[0].lines.iter().map(|l| l.file).collect();
    let (a, x, y) = (file(&p, "a.c"), file(&p, "x.h"), file(&p, "y.h"));
    assert_eq!(files, vec![a, x, y, a]);
    assert_eq!(p.parts[0].self_cost(main), &[15]);
}

// ------------------------------------------------------------------ jumps

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
    let part = &p.parts[0];
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
    let part = &p.parts[0];
    assert_eq!(part.jumps.len(), 1);
    let j = part.jumps[0];
    assert_eq!(
        (j.line, j.target_line, j.taken, j.executed),
        (10, 20, 3, None)
    );
}

// ------------------------------------------------------------------ parts

#[test]
fn a_header_after_data_starts_a_new_part() {
    for header in [
        "part: 2",
        "pid: 7",
        "thread: 2",
        "positions: line",
        "events: Ir",
    ] {
        let p = load(&[
            "events: Ir", // 1
            "fn=main",    // 2
            "1 10",       // 3
            header,       // 4
            "fn=main",    // 5
            "1 5",        // 6
        ]);
        assert_clean(&p);
        assert_eq!(p.parts.len(), 2, "{header}");
        assert_eq!(p.parts[0].first_line, 1, "{header}");
        assert_eq!(p.parts[1].first_line, 4, "{header}");
        let main = func(&p, "main", "");
        assert_eq!(p.parts[0].self_cost(main), &[10], "{header}");
        assert_eq!(p.parts[1].self_cost(main), &[5], "{header}");
        assert_eq!(Analysis::new(&p).totals, vec![15], "{header}");
    }
    // Headers that describe the run do not.
    for header in ["cmd: x", "desc: Trigger: y", "creator: z"] {
        let p = load(&["events: Ir", "fn=main", "1 10", header, "1 5"]);
        assert_eq!(p.parts.len(), 1, "{header}");
        assert_eq!(
            p.parts[0].self_cost(func(&p, "main", "")),
            &[15],
            "{header}"
        );
    }
}

#[test]
fn combined_dumps_are_parts_that_declare_their_ids_again() {
    let p = load(&[
        "version: 1",      // 1
        "creator: cg",     // 2
        "part: 1",         // 3
        "positions: line", // 4
        "events: Ir",      // 5
        "summary: 11",     // 6
        "ob=(1) prog",     // 7
        "fl=(1) a.c",      // 8
        "fn=(1) main",     // 9
        "1 10",            // 10
        "cfn=(2) g",       // 11
        "calls=1 5",       // 12
        "2 1",             // 13
        "fn=(2)",          // 14
        "5 1",             // 15
        "totals: 11",      // 16
        "part: 2",         // 17
        "positions: line", // 18
        "events: Ir",      // 19
        "summary: 3",      // 20
        "ob=(1) prog",     // 21
        "fl=(1) a.c",      // 22
        "fn=(2) g",        // 23
        "5 3",             // 24
        "totals: 3",       // 25
    ]);
    assert_clean(&p);
    assert_eq!(p.parts.len(), 2);
    let (p1, p2) = (&p.parts[0], &p.parts[1]);
    assert_eq!((p1.number, p2.number), (Some(1), Some(2)));
    assert_eq!((p1.first_line, p2.first_line), (1, 17));
    assert_eq!((p1.totals.clone(), p1.totals_line), (Some(vec![11]), 16));
    assert_eq!((p2.summary.clone(), p2.summary_line), (Some(vec![3]), 20));
    let main = func_in(&p, "main", "a.c", "prog");
    let g = func_in(&p, "g", "a.c", "prog");
    assert_eq!(p.functions.len(), 2);
    assert_eq!(p1.self_cost(g), &[1]);
    assert_eq!(p2.self_cost(g), &[3]);
    assert!(p2.calls.is_empty());
    let all = Analysis::new(&p);
    assert_eq!(all.totals, vec![14]);
    assert_eq!(all.self_cost(g), &[4]);
    assert_eq!(all.inclusive(main), &[11]);
    assert_eq!(Analysis::with_parts(&p, &[false, true]).totals, vec![3]);
}

#[test]
fn xdebug_appended_files_and_calls_with_an_extra_field() {
    let p = load(&[
        "",                                   // 1
        "==== NEW PROFILING FILE ====",       // 2
        "version: 1",                         // 3
        "creator: xdebug 3.2.0",              // 4
        "cmd: a.php",                         // 5
        "part: 1",                            // 6
        "positions: line",                    // 7
        "",                                   // 8
        "events: Time_(10ns) Memory_(bytes)", // 9
        "",                                   // 10
        "fl=(1) php:internal",                // 11
        "fn=(1) php::strlen",                 // 12
        "3 5 0",                              // 13
        "",                                   // 14
        "fl=(2) a.php",                       // 15
        "fn=(2) {main}",                      // 16
        "1 10 100",                           // 17
        "cfl=(1)",                            // 18
        "cfn=(1)",                            // 19
        "calls=1 0 0",                        // 20
        "3 5 0",                              // 21
        "==== NEW PROFILING FILE ====",       // 22
        "version: 1",                         // 23
        "creator: xdebug 3.2.0",              // 24
        "cmd: a.php",                         // 25
        "part: 1",                            // 26
        "positions: line",                    // 27
        "events: Time_(10ns) Memory_(bytes)", // 28
        "fl=(1) a.php",                       // 29: IDs mean other names now
        "fn=(1) {main}",                      // 30
        "2 7 50",                             // 31
    ]);
    assert_clean(&p);
    assert_eq!(event_names(&p), vec!["Time_(10ns)", "Memory_(bytes)"]);
    assert_eq!(p.parts.len(), 2);
    assert_eq!(p.parts[1].first_line, 22);
    let main = func(&p, "{main}", "a.php");
    let strlen = func(&p, "php::strlen", "php:internal");
    assert_eq!(p.functions.len(), 2);
    let part = &p.parts[0];
    assert_eq!(part.self_cost(main), &[10, 100]);
    assert_eq!(part.self_cost(strlen), &[5, 0]);
    let c = part.calls[0];
    assert_eq!(
        (c.caller, c.callee, c.count, c.line, c.target_line),
        (main, strlen, 1, 3, 0)
    );
    assert_eq!(part.call_cost(0), &[5, 0]);
    assert_eq!(p.parts[1].self_cost(main), &[7, 50]);
    assert_eq!(Analysis::new(&p).totals, vec![22, 150]);
}

#[test]
fn parts_with_different_events_use_the_union_of_events() {
    let p = load(&[
        "events: Ir Dr", // 1
        "fn=main",       // 2
        "1 10 2",        // 3
        "events: Dr Dw", // 4
        "fn=main",       // 5
        "1 3 4",         // 6
    ]);
    assert_clean(&p);
    assert_eq!(event_names(&p), vec!["Ir", "Dr", "Dw"]);
    assert_eq!(p.parts[0].event_map, vec![0, 1]);
    assert_eq!(p.parts[1].event_map, vec![1, 2]);
    assert_eq!(Analysis::new(&p).totals, vec![10, 5, 4]);
}

#[test]
fn two_files_with_different_events_merge_them() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.cg");
    let b = dir.path().join("b.cg");
    std::fs::write(&a, text(&["events: Ir Dr", "fl=x.c", "fn=main", "1 10 2"])).unwrap();
    std::fs::write(
        &b,
        text(&[
            "events: Dr Dw",
            "fl=x.c",
            "fn=main",
            "1 3 4",
            "fn=g",
            "2 0 1",
        ]),
    )
    .unwrap();
    let p = load_paths(&[a.clone(), b.clone()], LoadOptions { siblings: false }).unwrap();
    assert_clean(&p);
    assert_eq!(
        p.sources,
        vec![a.display().to_string(), b.display().to_string()]
    );
    assert_eq!(event_names(&p), vec!["Ir", "Dr", "Dw"]);
    assert_eq!(p.parts.len(), 2);
    assert_eq!((p.parts[0].source, p.parts[1].source), (0, 1));
    assert_eq!(p.parts[0].event_map, vec![0, 1]);
    assert_eq!(p.parts[1].event_map, vec![1, 2]);
    let an = Analysis::new(&p);
    assert_eq!(an.totals, vec![10, 5, 5]);
    assert_eq!(an.self_cost(func(&p, "main", "x.c")), &[10, 5, 4]);
}

// --------------------------------------------------------- line handling

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
    assert_eq!(p.parts[0].call_cost(0), &[3, 0]);
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
    assert_eq!(p.parts[0].call_cost(0), &[3]);
}

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
    assert_eq!(p.parts[0].line_cost(0), &[10, 2]);
}

#[test]
fn fewer_costs_than_events_are_zero() {
    let p = load(&["events: Ir Dr Dw", "fn=main", "1 10", "2"]);
    assert_clean(&p);
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[10, 0, 0]);
    assert_eq!(p.parts[0].line_cost(1), &[0, 0, 0]);
}

#[test]
fn negative_costs_are_kept() {
    let p = load(&["events: Ir", "fn=main", "1 10", "2 -25"]);
    assert_clean(&p);
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[-15]);
}

#[test]
fn counters_beyond_64_bits_saturate_with_a_warning() {
    let p = load(&[
        "events: Ir Dr",            // 1
        "fn=main",                  // 2
        "1 99999999999999999999 5", // 3
        "2 9223372036854775807 1",  // 4: i64::MAX, no warning
    ]);
    assert_eq!(diags(&p), vec![(3, Severity::Warning)]);
    assert_eq!(message_at(&p, 3), "1 counter(s) beyond 64 bits saturated");
    // Sums saturate too.
    assert_eq!(p.parts[0].self_cost(func(&p, "main", "")), &[i64::MAX, 6]);
    assert_eq!(p.parts[0].line_cost(0), &[i64::MAX, 5]);
}

// ------------------------------------------------------ not a profile

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
    assert!(not_a_profile(b"").contains("events:"));
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

// ------------------------------------------------------------------ gzip

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
    assert_eq!(p.parts[0].calls, q.parts[0].calls);
    assert_eq!(p.parts[0].call_cost(0), &[7]);
    assert_eq!(p.parts[0].lines, q.parts[0].lines);
    assert_eq!(p.parts[0].line_costs, q.parts[0].line_costs);
    assert_eq!(diags(&p), vec![(10, Severity::Error)]);
    assert_eq!(diags(&p), diags(&q));
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
    let part = &p.parts[0];
    assert!(part.jumps.is_empty());
    let lines: Vec<u64> = part.lines.iter().map(|l| l.line).collect();
    assert_eq!(lines, vec![10, 11]);
}
