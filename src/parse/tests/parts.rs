//! Parts: a header after data starts a new one; combined dumps, xdebug's
//! appended files, several files and their events.

use super::*;
use crate::analysis::Analysis;
use crate::parse::{LoadOptions, load_paths};

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
    assert!(p2.decode(&p).calls.is_empty());
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
    let part = &p.parts[0].decode(&p);
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
    assert_eq!(*p.parts[0].event_map, [0, 1]);
    assert_eq!(*p.parts[1].event_map, [1, 2]);
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
    let p = load_paths(
        &[a.clone(), b.clone()],
        LoadOptions {
            siblings: false,
            ..LoadOptions::default()
        },
    )
    .unwrap();
    assert_clean(&p);
    assert_eq!(
        p.sources,
        vec![a.display().to_string(), b.display().to_string()]
    );
    assert_eq!(event_names(&p), vec!["Ir", "Dr", "Dw"]);
    assert_eq!(p.parts.len(), 2);
    assert_eq!((p.parts[0].source, p.parts[1].source), (0, 1));
    assert_eq!(*p.parts[0].event_map, [0, 1]);
    assert_eq!(*p.parts[1].event_map, [1, 2]);
    let an = Analysis::new(&p);
    assert_eq!(an.totals, vec![10, 5, 5]);
    assert_eq!(an.self_cost(func(&p, "main", "x.c")), &[10, 5, 4]);
}

#[test]
fn a_stray_file_of_the_set_is_skipped_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("callgrind.out.7-01");
    std::fs::write(&good, text(&["pid: 7", "events: Ir", "fn=main", "1 5"])).unwrap();
    // Of the same run (its `pid:`), but no profile.
    std::fs::write(
        dir.path().join("callgrind.out.7-02"),
        format!("pid: 7\n{}", "garbage\n".repeat(30)),
    )
    .unwrap();
    let p = load_paths(std::slice::from_ref(&good), LoadOptions::default()).unwrap();
    assert_eq!(Analysis::new(&p).totals, vec![5]);
    let skipped: Vec<_> = p
        .diagnostics
        .iter()
        .filter(|d| d.message.starts_with("skipped"))
        .collect();
    assert_eq!(skipped.len(), 1, "{:#?}", p.diagnostics);
    assert!(skipped[0].file.ends_with("callgrind.out.7-02"));
    // Named explicitly, it is still an error.
    let bad = dir.path().join("callgrind.out.7-02");
    let named = load_paths(
        &[good, bad],
        LoadOptions {
            siblings: false,
            ..LoadOptions::default()
        },
    );
    assert!(matches!(
        named,
        Err(crate::parse::LoadError::NotAProfile { .. })
    ));
}
