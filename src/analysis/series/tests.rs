//! Three small runs joined; expected values worked out from their lines.

use super::*;
use crate::parse::load_reader;

fn load(lines: &[&str]) -> Profile {
    let text = lines.join("\n") + "\n";
    load_reader("t.cg", text.as_bytes()).unwrap()
}

/// main and f; then g appears; then f is gone and g grows. Run 1 has an
/// event (Dr) the others lack.
fn runs() -> Vec<Profile> {
    vec![
        load(&["events: Ir", "fl=a.c", "fn=main", "1 10", "fn=f", "2 100"]),
        load(&[
            "events: Ir Dr",
            "fl=a.c",
            "fn=main",
            "1 10 1",
            "fn=f",
            "2 120 1",
            "fn=g",
            "3 5 1",
        ]),
        load(&["events: Ir", "fl=a.c", "fn=main", "1 12", "fn=g", "3 50"]),
    ]
}

fn joined(profiles: &[Profile]) -> (Vec<Analysis>, Series) {
    let analyses: Vec<Analysis> = profiles.iter().map(Analysis::new).collect();
    let runs: Vec<Run<'_>> = profiles.iter().zip(&analyses).collect();
    let series = Series::new(&runs, &MatchOptions::default());
    (analyses, series)
}

#[test]
fn functions_are_rows_across_runs_with_zeros_where_absent() {
    let profiles = runs();
    let (analyses, s) = joined(&profiles);
    let runs: Vec<Run<'_>> = profiles.iter().zip(&analyses).collect();
    assert_eq!(s.len(), 3);
    let by_name = |name: &str| {
        (0..s.len())
            .find(|&r| {
                let (i, f) = s.first_present(r).unwrap();
                profiles[i].fn_name(f) == name
            })
            .unwrap()
    };
    assert_eq!(s.costs(&runs, by_name("main"), 0, false), [10, 10, 12]);
    assert_eq!(s.costs(&runs, by_name("f"), 0, false), [100, 120, 0]);
    assert_eq!(s.costs(&runs, by_name("g"), 0, false), [0, 5, 50]);
    assert_eq!(s.function(by_name("f"), 2), None);
    assert_eq!(s.totals(&runs, 0), [110, 135, 62]);
    // Last step: f -120, g +45, main +2.
    let order: Vec<&str> = s
        .ranked(&runs, 0, false)
        .into_iter()
        .map(|r| {
            let (i, f) = s.first_present(r).unwrap();
            profiles[i].fn_name(f)
        })
        .collect();
    assert_eq!(order, ["f", "g", "main"]);
}

#[test]
fn events_of_some_runs_only_are_left_out_with_the_runs_having_them() {
    let profiles = runs();
    let (_, s) = joined(&profiles);
    assert_eq!(s.events.len(), 1);
    assert_eq!(s.events[0].name, "Ir");
    assert_eq!(s.events[0].columns, [0, 0, 0]);
    assert_eq!(s.left_out, [("Dr".to_string(), vec![1])]);
}

#[test]
fn a_series_of_one_run_is_its_profile() {
    let profiles = vec![runs().remove(0)];
    let (analyses, s) = joined(&profiles);
    let runs: Vec<Run<'_>> = profiles.iter().zip(&analyses).collect();
    assert_eq!(s.len(), 2);
    assert_eq!(s.totals(&runs, 0), [110]);
    assert_eq!(s.ranked(&runs, 0, false).len(), 2);
}
