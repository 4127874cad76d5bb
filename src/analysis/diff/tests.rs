//! Matching and joining two small profiles; every expected value is
//! worked out by hand.

use super::extend_with_base;
use super::rewrite::Rewrite;
use super::*;
use crate::parse::load_reader;

fn load(lines: &[&str]) -> Profile {
    let text = lines.join("\n") + "\n";
    load_reader("t.cg", text.as_bytes()).unwrap()
}

fn names(base: &Profile, new: &Profile, c: &Comparison) -> Vec<(String, String)> {
    let name = |p: &Profile, f: Option<FnId>| f.map_or("-".into(), |f| p.fn_name(f).to_string());
    c.pairs
        .iter()
        .map(|p| (name(base, p.base), name(new, p.new)))
        .collect()
}

fn compare(base: &Profile, new: &Profile, options: &MatchOptions) -> Comparison {
    let (ab, an) = (Analysis::new(base), Analysis::new(new));
    Comparison::new((base, &ab), (new, &an), options)
}

#[test]
fn a_profile_compared_with_itself_changes_nothing() {
    let p = load(&[
        "events: Ir Dr",
        "fl=a.c",
        "fn=main",
        "1 10 1",
        "cfn=f",
        "calls=2 1",
        "1 30 3",
        "fn=f",
        "1 30 3",
    ]);
    let a = Analysis::new(&p);
    let c = Comparison::new((&p, &a), (&p, &a), &MatchOptions::default());
    assert_eq!(c.events.len(), 2);
    assert!(c.left_out.is_empty());
    assert!(c.pairs.iter().all(|p| p.base == p.new && p.new.is_some()));
    for pair in 0..c.pairs.len() {
        for ev in 0..2 {
            assert_eq!(
                c.self_cost(&a, Side::Base, pair, ev),
                c.self_cost(&a, Side::New, pair, ev)
            );
        }
    }
    assert_eq!(c.calls.len(), 1);
    assert_eq!(c.call(&a, Side::Base, 0, 0), (2, 30));
    assert_eq!(c.call(&a, Side::New, 0, 0), (2, 30));
}

#[test]
fn functions_of_one_side_are_added_or_removed_with_zeros_on_the_other() {
    let base = load(&["events: Ir", "fl=a.c", "fn=main", "1 10", "fn=old", "1 5"]);
    let new = load(&["events: Ir", "fl=a.c", "fn=main", "1 7", "fn=fresh", "1 9"]);
    let c = compare(&base, &new, &MatchOptions::default());
    assert_eq!(
        names(&base, &new, &c),
        [
            ("main".into(), "main".into()),
            ("-".into(), "fresh".into()),
            ("old".into(), "-".into())
        ]
    );
    let (ab, an) = (Analysis::new(&base), Analysis::new(&new));
    assert_eq!(c.self_cost(&ab, Side::Base, 1, 0), 0);
    assert_eq!(c.self_cost(&an, Side::New, 1, 0), 9);
    assert_eq!(c.self_cost(&ab, Side::Base, 2, 0), 5);
    assert_eq!(c.self_cost(&an, Side::New, 2, 0), 0);
}

#[test]
fn build_folders_and_objects_do_not_stop_a_match() {
    // The same program built in two folders: files match by their last
    // component, `parse` exists in two objects and the object decides.
    let base = load(&[
        "events: Ir",
        "ob=/build/1/app",
        "fl=/build/1/src/main.c",
        "fn=main",
        "1 1",
        "fl=/build/1/src/util.h",
        "fn=parse",
        "1 2",
        "ob=/build/1/libutil.so",
        "fn=parse",
        "1 3",
    ]);
    let new = load(&[
        "events: Ir",
        "ob=/build/2/libutil.so",
        "fl=/build/2/src/util.h",
        "fn=parse",
        "1 30",
        "ob=/build/2/app",
        "fn=parse",
        "1 20",
        "fl=/build/2/src/main.c",
        "fn=main",
        "1 10",
    ]);
    let c = compare(&base, &new, &MatchOptions::default());
    let obj = |p: &Profile, f: Option<FnId>| {
        f.map(|f| p.fn_object(f).rsplit('/').next().unwrap().to_string())
    };
    assert_eq!(c.pairs.len(), 3, "every function matched");
    for p in &c.pairs {
        assert_eq!(obj(&base, p.base), obj(&new, p.new));
        assert_eq!(base.fn_name(p.base.unwrap()), new.fn_name(p.new.unwrap()));
    }
}

#[test]
fn rewrites_make_renamed_functions_and_files_match() {
    let base = load(&["events: Ir", "fl=prog1.c", "fn=work_v1", "1 10"]);
    let new = load(&["events: Ir", "fl=prog2.c", "fn=work_v2", "1 12"]);
    let plain = compare(&base, &new, &MatchOptions::default());
    assert_eq!(plain.pairs.len(), 2, "no match without rewrites");
    let options = MatchOptions {
        mod_filename: vec![Rewrite::parse("s/prog[0-9]/progN/").unwrap()],
        mod_funcname: vec![Rewrite::parse("s/_v[0-9]+$//").unwrap()],
    };
    let c = compare(&base, &new, &options);
    assert_eq!(
        names(&base, &new, &c),
        [("work_v1".into(), "work_v2".into())]
    );
}

#[test]
fn events_of_one_side_are_left_out() {
    let base = load(&["events: Ir Dr", "fn=main", "1 10 4"]);
    let new = load(&["events: Dw Ir", "fn=main", "1 3 12"]);
    let c = compare(&base, &new, &MatchOptions::default());
    assert_eq!(
        c.events,
        [CommonEvent {
            name: "Ir".into(),
            base: 0,
            new: 1
        }]
    );
    assert_eq!(
        c.left_out,
        [("Dr".into(), Side::Base), ("Dw".into(), Side::New)]
    );
    let (ab, an) = (Analysis::new(&base), Analysis::new(&new));
    assert_eq!(c.self_cost(&ab, Side::Base, 0, 0), 10);
    assert_eq!(c.self_cost(&an, Side::New, 0, 0), 12);
}

#[test]
fn calls_of_either_side_are_joined() {
    let base = load(&[
        "events: Ir",
        "fn=main",
        "1 1",
        "cfn=a",
        "calls=1 1",
        "1 5",
        "fn=a",
        "1 5",
    ]);
    let new = load(&[
        "events: Ir",
        "fn=main",
        "1 1",
        "cfn=b",
        "calls=3 1",
        "1 6",
        "cfn=a",
        "calls=2 1",
        "1 8",
        "fn=a",
        "1 8",
        "fn=b",
        "1 6",
    ]);
    let c = compare(&base, &new, &MatchOptions::default());
    let (ab, an) = (Analysis::new(&base), Analysis::new(&new));
    type Seen = (String, (u64, Cost), (u64, Cost));
    let mut seen: Vec<Seen> = (0..c.calls.len())
        .map(|i| {
            let callee = c.function(c.calls[i].callee, Side::New).unwrap();
            (
                new.fn_name(callee).to_string(),
                c.call(&ab, Side::Base, i, 0),
                c.call(&an, Side::New, i, 0),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [("a".into(), (1, 5), (2, 8)), ("b".into(), (0, 0), (3, 6))]
    );
}

#[test]
fn the_difference_is_an_analysis_of_changes_with_each_sides_inclusive_costs() {
    let base = load(&[
        "events: Ir",
        "fn=main",
        "1 10",
        "cfn=a",
        "calls=1 1",
        "1 50",
        "fn=a",
        "1 50",
        "fn=old",
        "1 7",
    ]);
    let mut new = load(&[
        "events: Ir",
        "fn=main",
        "1 12",
        "cfn=a",
        "calls=4 1",
        "1 30",
        "fn=a",
        "1 30",
    ]);
    let ab = Analysis::new(&base);
    let c = Comparison::new(
        (&base, &ab),
        (&new, &Analysis::new(&new)),
        &MatchOptions::default(),
    );
    extend_with_base(&mut new, &base, &c);
    assert_eq!(new.functions.len(), c.pairs.len());
    let old = new
        .find_function("old", "", "")
        .expect("old is added to the new profile");
    assert_eq!(old.index(), 2, "after the new profile's own functions");
    let an = Analysis::new(&new);
    let d = Analysis::difference(&ab, &an, &c);
    let main = new.find_function("main", "", "").unwrap();
    let a = new.find_function("a", "", "").unwrap();
    // main: self 10 -> 12, inclusive 60 -> 42; a: 50 -> 30; old: 7 -> gone.
    assert_eq!(d.self_cost(main), [2]);
    assert_eq!(d.inclusive(main), [-18]);
    assert_eq!(d.self_cost(a), [-20]);
    assert_eq!(d.self_cost(old), [-7]);
    assert_eq!(d.inclusive(old), [-7]);
    assert_eq!(d.totals, [42 - 67]);
    assert!(d.is_signed(0));
    let call = d.callees(main).get(0).unwrap() as usize;
    assert_eq!((d.edges[call].callee, d.edges[call].count), (a, 4));
    assert_eq!(d.edge_cost(call), [-20]);
}
