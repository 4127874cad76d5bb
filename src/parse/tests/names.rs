//! Name compression: `(id) name` definitions and `(id)` references, and
//! which position specs share an ID space.

use super::*;
use crate::profile::ObjId;

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
    let part = &p.parts[0].decode(&p);
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
    let part = &p.parts[0].decode(&p);
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
    let part = &p.parts[0].decode(&p);
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
    let part = &p.parts[0].decode(&p);
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
