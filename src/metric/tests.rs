use super::*;
use crate::profile::Event;

fn events(names: &[&str]) -> EventTable {
    EventTable {
        events: names
            .iter()
            .map(|n| Event {
                name: n.to_string(),
                long_name: None,
                formula: None,
            })
            .collect(),
    }
}

const CACHE: &[&str] = &[
    "Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw",
];

fn user(defs: &[&str]) -> Vec<Definition> {
    defs.iter().map(|d| d.parse().unwrap()).collect()
}

#[test]
fn a_cache_profile_has_kcachegrinds_sums_and_the_rates() {
    let m = Metrics::of_events(&events(CACHE));
    let names: Vec<&str> = m.list.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        &names[CACHE.len()..],
        [
            "L1m",
            "LLm",
            "CEst",
            "I1MissRate",
            "D1mrRate",
            "D1mwRate",
            "LLMissRate",
            "IPC"
        ]
    );
    // Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
    let row = [10_000, 30, 3, 4_000, 200, 20, 2_000, 100, 10];
    let v = |name: &str| m.value(m.index_of(name).unwrap(), &row);
    assert_eq!(v("L1m"), Some(330.0));
    assert_eq!(v("LLm"), Some(33.0));
    // Ir + 10 L1m + 100 LLm (no Bm, Ge or L2m: left out, as KCachegrind does).
    assert_eq!(v("CEst"), Some(10_000.0 + 3_300.0 + 3_300.0));
    assert_eq!(v("D1mrRate"), Some(0.05));
    assert_eq!(v("LLMissRate"), Some(33.0 / 16_000.0));
    assert_eq!(v("IPC"), Some(10_000.0 / 16_600.0));
    let cest = &m.list[m.index_of("CEst").unwrap()];
    assert!(cest.linear && !cest.percent);
    assert_eq!(cest.exact(&row), Some(16_600));
    let rate = &m.list[m.index_of("D1mrRate").unwrap()];
    assert!(!rate.linear && rate.percent);
    assert_eq!(rate.exact(&row), None);
}

#[test]
fn an_instruction_profile_has_no_builtin_metric() {
    let m = Metrics::of_events(&events(&["Ir"]));
    assert_eq!(m.list.len(), 1);
    // Branches only: Bm and CEst = Ir + 10 Bm, and the mispredict rates.
    let m = Metrics::of_events(&events(&["Ir", "Bc", "Bcm", "Bi", "Bim"]));
    let names: Vec<&str> = m.list[5..].iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Bm", "CEst", "BcmRate", "BimRate", "IPC"]);
}

#[test]
fn a_rate_below_the_minimum_count_is_blank() {
    let m = Metrics::new(&events(CACHE), &[], 1000.0).unwrap();
    let i = m.index_of("D1mwRate").unwrap();
    let mut row = [10_000, 30, 3, 4_000, 200, 20, 999, 100, 10];
    assert_eq!(m.value(i, &row), None);
    row[6] = 1000;
    assert_eq!(m.value(i, &row), Some(0.1));
    row[6] = 0;
    let m = Metrics::new(&events(CACHE), &[], 0.0).unwrap();
    assert_eq!(m.value(i, &row), None, "division by zero is blank");
}

#[test]
fn user_formulas_name_events_builtins_and_earlier_metrics() {
    let defs = user(&["miss=D1mr/Dr", "pct = 100 * miss", "w=(Ir - 2*Dr) / 2"]);
    let m = Metrics::new(&events(CACHE), &defs, 1000.0).unwrap();
    let row = [10_000, 30, 3, 4_000, 200, 20, 2_000, 100, 10];
    let v = |name: &str| m.value(m.index_of(name).unwrap(), &row);
    assert_eq!(v("miss"), Some(0.05));
    assert_eq!(v("pct"), Some(5.0));
    assert_eq!(v("w"), Some(1_000.0));
    assert!(m.list[m.index_of("w").unwrap()].linear);
    assert_eq!(m.list[m.index_of("w").unwrap()].exact(&row), None);
    // A user's metric of a built-in's name replaces it.
    let m = Metrics::new(&events(CACHE), &user(&["CEst=Ir"]), 1000.0).unwrap();
    let cest: Vec<_> = m.list.iter().filter(|m| m.name == "CEst").collect();
    assert_eq!(cest.len(), 1);
    assert_eq!(cest[0].origin, Origin::User);
}

#[test]
fn errors_say_what_is_wrong_and_where() {
    let err = |defs: &[&str]| {
        Metrics::new(&events(&["Ir", "Dr"]), &user(defs), 1000.0)
            .unwrap_err()
            .0
    };
    let e = err(&["x=Ir + Drr"]);
    assert!(e.contains("no event or metric `Drr`"), "{e}");
    assert!(e.contains("column 6 of `Ir + Drr`"), "{e}");
    assert!(e.contains("it has: Ir, Dr"), "{e}");
    assert!(err(&["Ir=Dr"]).contains("has an event of that name"));
    assert!(err(&["x=Ir", "x=Dr"]).contains("defined twice"));
    // A later metric is not known to an earlier one.
    assert!(err(&["x=y", "y=Ir"]).contains("no event or metric `y`"));
    // Each using the one before twice: 2^20 terms, refused.
    let chain: Vec<String> = std::iter::once("m0=Ir".to_string())
        .chain((1..20).map(|i| format!("m{i}=m{} + m{}", i - 1, i - 1)))
        .collect();
    let chain: Vec<&str> = chain.iter().map(String::as_str).collect();
    assert!(err(&chain).contains("grows past"));
    for (text, want) in [
        ("x", "expected NAME=FORMULA"),
        ("1x=Ir", "cannot name a metric"),
        ("x=Ir +", "column 5 of the formula `Ir +`"),
        ("x=(Ir", "column 1 of the formula `(Ir`"),
    ] {
        let e = text.parse::<Definition>().unwrap_err();
        assert!(e.contains(want), "{text}: {e}");
    }
}

#[test]
fn values_read_as_their_kind() {
    let defs = user(&["half=Ir / 2", "tiny=Ir / 1e7", "x=Dr/Ir"]);
    let m = Metrics::new(&events(CACHE), &defs, 1000.0).unwrap();
    let row = [1_234_567, 30, 3, 4_000, 200, 20, 2_000, 100, 10];
    let text = |name: &str| m.get(m.index_of(name).unwrap()).text(&row, 1000.0);
    assert_eq!(text("Ir"), "1,234,567");
    assert_eq!(text("L1m"), "330");
    assert_eq!(text("D1mrRate"), "5.00%");
    assert_eq!(text("D1mwRate"), "5.00%");
    assert_eq!(text("half"), "617,284");
    assert_eq!(text("tiny"), "0.123");
    assert_eq!(text("x"), "0.00324");
    assert_eq!(text("IPC"), "0.995");
    assert_eq!(m.get(m.index_of("x").unwrap()).text(&[0; 9], 1000.0), "");
}

#[test]
fn sums_become_derived_events_and_quotients_do_not() {
    let mut table = events(CACHE);
    let defs = user(&["w=2 * (Ir - Dr)", "q=Ir/Dr", "h=Ir / 2"]);
    add_sums_as_events(&mut table, &defs).unwrap();
    let added: Vec<&str> = table.events[CACHE.len()..]
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(added, ["L1m", "LLm", "CEst", "w"]);
    let mut row = vec![10_000, 30, 3, 4_000, 200, 20, 2_000, 100, 10, 0, 0, 0, 0];
    table.derive(&mut row);
    assert_eq!(&row[CACHE.len()..], [330, 33, 16_600, 12_000]);
}

/// A comparison's cell: a sum's change exact and signed, a rate's the
/// difference of the two rates in percentage points, blank where a side
/// is blank (a denominator under the minimum).
#[test]
fn a_change_is_exact_for_sums_and_in_points_for_rates() {
    let m = Metrics::of_events(&events(CACHE));
    let get = |name| m.get(m.index_of(name).unwrap());
    // Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
    let base = [10_000, 5, 1, 2_000, 20, 2, 1_000, 10, 1];
    let new = [9_000, 5, 1, 2_000, 50, 2, 1_000, 10, 1];
    // L1m = I1mr + D1mr + D1mw: 35 -> 65.
    assert_eq!(get("L1m").change_text(&base, &new, 1000.0), "+30");
    assert_eq!(get("Ir").change_text(&base, &new, 1000.0), "-1,000");
    assert_eq!(get("Ir").change_text(&base, &base, 1000.0), "0");
    // D1mrRate = D1mr / Dr: 1.00% -> 2.50%.
    assert_eq!(get("D1mrRate").change_text(&base, &new, 1000.0), "+1.50pp");
    assert_eq!(get("D1mrRate").change_text(&new, &base, 1000.0), "-1.50pp");
    let change = get("D1mrRate").change(&base, &new, 1000.0).unwrap();
    assert!((change - 0.015).abs() < 1e-12, "{change}");
    // Below the minimum denominator one side is blank, so is the change.
    assert_eq!(get("D1mrRate").change_text(&base, &new, 5000.0), "");
}
