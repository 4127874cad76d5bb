//! Rules on two small profiles; every expected value is worked out by
//! hand from the profiles' lines.

use super::*;
use crate::analysis::Analysis;
use crate::analysis::diff::Comparison;
use crate::parse::load_reader;
use crate::profile::Profile;

fn load(lines: &[&str]) -> Profile {
    let text = lines.join("\n") + "\n";
    load_reader("t.cg", text.as_bytes()).unwrap()
}

/// main (line 1: 10 Ir) calls work (line 2) and tidy (line 3); work's
/// self cost is on lines 10 and 11; tidy's on line 20.
fn base() -> Profile {
    load(&[
        "events: Ir Dr D1mr",
        "fl=a.c",
        "fn=main",
        "1 10 0 0",
        "cfn=work",
        "calls=1 10",
        "2 1000 400 4",
        "cfn=tidy",
        "calls=1 20",
        "3 200 100 1",
        "fn=work",
        "10 600 200 2",
        "11 400 200 2",
        "fn=tidy",
        "20 200 100 1",
    ])
}

/// work grows by 300 Ir (line 11: +300), tidy shrinks by 50, and a new
/// function `extra` (line 30: 100 Ir) is called from main.
fn new() -> Profile {
    load(&[
        "events: Ir Dr D1mr",
        "fl=a.c",
        "fn=main",
        "1 10 0 0",
        "cfn=work",
        "calls=1 10",
        "2 1300 400 40",
        "cfn=tidy",
        "calls=1 20",
        "3 150 100 1",
        "cfn=extra",
        "calls=1 30",
        "4 100 0 0",
        "fn=work",
        "10 600 200 2",
        "11 700 200 38",
        "fn=tidy",
        "20 150 100 1",
        "fn=extra",
        "30 100 0 0",
    ])
}

struct Both {
    base: Profile,
    new: Profile,
    ab: Analysis,
    an: Analysis,
    comparison: Comparison,
}

fn both() -> Both {
    let (base, new) = (base(), new());
    let (ab, an) = (Analysis::new(&base), Analysis::new(&new));
    let comparison = Comparison::new((&base, &ab), (&new, &an), &MatchOptions::default());
    Both {
        base,
        new,
        ab,
        an,
        comparison,
    }
}

impl Both {
    fn compared(&self) -> Compared<'_> {
        Compared {
            base: &self.base,
            base_analysis: &self.ab,
            new: &self.new,
            analysis: &self.an,
            comparison: &self.comparison,
        }
    }

    fn run(&self, rule: &str) -> Result<Vec<Outcome>, RuleError> {
        let metrics = Metrics::new(&self.new.events, &[], 100.0).unwrap();
        self.run_with(rule, &metrics)
    }

    fn run_with(&self, rule: &str, metrics: &Metrics) -> Result<Vec<Outcome>, RuleError> {
        let c = self.compared();
        let r = resolve(
            &rule.parse().unwrap(),
            &c,
            metrics,
            &MatchOptions::default(),
        )?;
        check(&r, &c)
    }
}

#[test]
fn a_total_rule_fails_past_its_limit_and_holds_below_it() {
    let b = both();
    // Ir: base 10 + 1000 + 200 = 1210; new 10 + 1300 + 150 + 100 = 1560:
    // +350, 28.93% of the base.
    let o = &b.run("Ir>+28%").unwrap()[0];
    assert_eq!((o.base, o.new), (Amount::Exact(1210), Amount::Exact(1560)));
    assert_eq!(o.change, Amount::Exact(350));
    assert!(!o.holds);
    assert!(b.run("Ir>+29%").unwrap()[0].holds);
    assert!(!b.run("Ir>+349").unwrap()[0].holds);
    assert!(b.run("Ir>+350").unwrap()[0].holds);
}

#[test]
fn a_failed_rule_is_explained_by_the_largest_self_increases() {
    let b = both();
    let o = &b.run("Ir>+1%").unwrap()[0];
    let e = o.explanation.as_ref().unwrap();
    let c = b.compared();
    // Increases: work +300, extra +100 (400 in all); 80% is 320, so both
    // are listed (300 alone is 75%). Decrease: tidy -50.
    let names: Vec<&str> = e.increases.iter().map(|x| c.names(x.pair).0).collect();
    assert_eq!(names, ["work", "extra"]);
    assert_eq!(e.increase, Some(Amount::Exact(400)));
    assert_eq!(e.covered, Some(Amount::Exact(400)));
    assert_eq!(e.grown, 2);
    assert_eq!(e.increases[0].line, Some(("a.c".to_string(), 11)));
    assert_eq!(e.increases[1].line, Some(("a.c".to_string(), 30)));
    assert_eq!(e.decreases.len(), 1);
    assert_eq!(c.names(e.decreases[0].pair).0, "tidy");
    assert_eq!(e.decreases[0].change, Amount::Exact(-50));
    assert_eq!(e.share(), Some(100.0));
}

#[test]
fn a_function_rule_checks_its_inclusive_cost_and_what_it_reaches() {
    let b = both();
    // work's inclusive Ir: 1000 -> 1300, +30%.
    let o = &b.run("fn:work Ir>+20%").unwrap()[0];
    assert_eq!((o.base, o.new), (Amount::Exact(1000), Amount::Exact(1300)));
    let e = o.explanation.as_ref().unwrap();
    // work calls nothing: only its own increase explains it.
    assert!(e.reachable_only);
    assert_eq!(e.increases.len(), 1);
    assert!(e.decreases.is_empty());
    assert!(b.run("fn:work Ir>+30%").unwrap()[0].holds);
    // A function of the new profile only grows from zero: past any
    // percentage, not past an amount above its cost.
    assert!(!b.run("fn:extra Ir>+1000%").unwrap()[0].holds);
    assert!(b.run("fn:extra Ir>+100").unwrap()[0].holds);
    // tidy shrank.
    assert!(b.run("fn:tidy Ir>+0%").unwrap()[0].holds);
}

#[test]
fn a_rate_rule_is_in_points_and_explained_by_its_numerator() {
    let b = both();
    // D1mrRate = D1mr / Dr on the totals: base 5 / 500 = 1%, new 41 / 500
    // = 8.2%: +7.2 points.
    let o = &b.run("D1mrRate>+7pp").unwrap()[0];
    assert_eq!(o.base, Amount::Real(0.01));
    assert!(!o.holds);
    assert!(b.run("D1mrRate>+7.3pp").unwrap()[0].holds);
    let e = o.explanation.as_ref().unwrap();
    assert_eq!(e.measure.as_deref(), Some("D1mr"));
    // work's D1mr self: 4 -> 40.
    assert_eq!(e.increases[0].change, Amount::Exact(36));
    assert!(
        b.run("D1mrRate>+1")
            .unwrap_err()
            .0
            .contains("percentage points")
    );
    assert!(b.run("Ir>+1pp").unwrap_err().0.contains("rates only"));
}

#[test]
fn a_user_formula_is_a_measure() {
    let b = both();
    let def: crate::metric::Definition = "cost=Ir + 10 D1mr".parse().unwrap();
    let metrics = Metrics::new(&b.new.events, &[def], 100.0).unwrap();
    // base 1210 + 50 = 1260; new 1560 + 410 = 1970: +710.
    let o = &b.run_with("cost>+700", &metrics).unwrap()[0];
    assert_eq!(o.change, Amount::Exact(710));
    assert!(!o.holds);
    assert!(b.run_with("cost>+710", &metrics).unwrap()[0].holds);
}

#[test]
fn unknown_events_and_functions_are_errors_not_passes() {
    let b = both();
    let e = b.run("Bc>+1%").unwrap_err().0;
    assert!(e.contains("no event or metric `Bc`"), "{e}");
    assert!(e.contains("Ir, Dr, D1mr"), "{e}");
    let e = b.run("fn:wor Ir>+1%").unwrap_err().0;
    assert!(e.contains("no function `wor`"), "{e}");
    assert!(e.contains("names containing it: work"), "{e}");
}

#[test]
fn an_event_of_the_new_profile_only_cannot_be_compared() {
    let base = load(&["events: Ir", "fl=a.c", "fn=main", "1 10"]);
    let new = load(&["events: Ir Dr", "fl=a.c", "fn=main", "1 10 5"]);
    let (ab, an) = (Analysis::new(&base), Analysis::new(&new));
    let comparison = Comparison::new((&base, &ab), (&new, &an), &MatchOptions::default());
    let c = Compared {
        base: &base,
        base_analysis: &ab,
        new: &new,
        analysis: &an,
        comparison: &comparison,
    };
    let metrics = Metrics::new(&new.events, &[], 100.0).unwrap();
    let rule = "Dr>+1%".parse().unwrap();
    let e = resolve(&rule, &c, &metrics, &MatchOptions::default()).unwrap_err();
    assert!(e.0.contains("the base has no event `Dr`"), "{}", e.0);
}

#[test]
fn a_blank_rate_is_an_error() {
    let b = both();
    // Dr is 500 on each side: below a minimum of 1,000 the rate is blank.
    let metrics = Metrics::new(&b.new.events, &[], 1000.0).unwrap();
    let e = b.run_with("D1mrRate>+1pp", &metrics).unwrap_err().0;
    assert!(e.contains("no value in the base"), "{e}");
}
