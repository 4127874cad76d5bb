//! A rule of `cgtui check --fail RULE` as written: `EVENT>+P%`,
//! `EVENT>+N`, `RATE>+Npp` and `fn:NAME EVENT>+P%`. This reads the text
//! only; which event, metric or function it names is decided against the
//! two profiles (`gate::resolve`).

/// How much growth a rule allows before it fails.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// More than this percentage of the base's value.
    Percent(f64),
    /// More than this amount (of the event, or of the metric's value).
    Amount(f64),
    /// More than this many percentage points (a rate).
    Points(f64),
}

impl Limit {
    /// The limit as written in a rule: `+2%`, `+1,000`, `+0.5pp`.
    pub fn text(&self) -> String {
        match *self {
            Limit::Percent(p) => format!("+{}%", short(p)),
            Limit::Amount(n) if n.fract() == 0.0 && n.abs() < 9e15 => {
                format!("+{}", crate::format::thousands(n as i64))
            }
            Limit::Amount(n) => format!("+{}", short(n)),
            Limit::Points(p) => format!("+{}pp", short(p)),
        }
    }
}

/// A number without trailing zeros (`2`, `0.5`).
fn short(v: f64) -> String {
    format!("{v}")
}

/// One `--fail` rule, parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// The rule as the user wrote it (trimmed), to name it in the output.
    pub text: String,
    /// `fn:NAME`: the function whose inclusive cost is checked; `None`
    /// checks the total.
    pub function: Option<String>,
    /// The event or metric the rule measures.
    pub metric: String,
    pub limit: Limit,
}

/// What a rule looks like, for errors.
const FORMS: &str = "EVENT>+P%, EVENT>+N, RATE>+Npp or fn:NAME EVENT>+P%";

impl std::str::FromStr for Rule {
    type Err = String;

    fn from_str(text: &str) -> Result<Rule, String> {
        let text = text.trim();
        let bad = |why: &str| format!("`{text}`: {why} (a rule is {FORMS})");
        // The condition is the last `>`: a C++ name may hold others.
        let Some(at) = text.rfind('>') else {
            return Err(bad("no `>`"));
        };
        let (left, right) = (text[..at].trim_end(), text[at + 1..].trim());
        let limit = limit(right).map_err(|why| bad(&why))?;
        let (function, metric) = match left.strip_prefix("fn:") {
            Some(rest) => {
                let Some(space) = rest.trim_end().rfind(char::is_whitespace) else {
                    return Err(bad("`fn:NAME` needs an event after the name"));
                };
                let name = rest[..space].trim();
                if name.is_empty() {
                    return Err(bad("`fn:` needs a function's name"));
                }
                (Some(name.to_string()), rest[space..].trim())
            }
            None => (None, left),
        };
        if !crate::metric::formula::is_name(metric) {
            return Err(bad(&format!(
                "`{metric}` is not the name of an event or a metric"
            )));
        }
        Ok(Rule {
            text: text.to_string(),
            function,
            metric: metric.to_string(),
            limit,
        })
    }
}

/// `+2%`, `+1000`, `+1_000`, `+0.5pp` (the `+` may be left out).
fn limit(text: &str) -> Result<Limit, String> {
    let body = text.strip_prefix('+').unwrap_or(text).trim_start();
    let (number, kind): (&str, fn(f64) -> Limit) = if let Some(n) = body.strip_suffix("pp") {
        (n, Limit::Points)
    } else if let Some(n) = body.strip_suffix('%') {
        (n, Limit::Percent)
    } else {
        (body, Limit::Amount)
    };
    let digits: String = number.trim().chars().filter(|&c| c != '_').collect();
    match digits.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 && !digits.starts_with(['+', '-']) => Ok(kind(v)),
        _ => Err(format!(
            "the limit `{text}` is not a growth from 0 up (`+2%`, `+1000`, `+0.5pp`)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> Rule {
        text.parse().unwrap()
    }

    #[test]
    fn the_three_forms_parse() {
        assert_eq!(
            rule("Ir>+2%"),
            Rule {
                text: "Ir>+2%".into(),
                function: None,
                metric: "Ir".into(),
                limit: Limit::Percent(2.0),
            }
        );
        assert_eq!(rule("Ir > +1_000").limit, Limit::Amount(1000.0));
        assert_eq!(rule("D1mrRate>+0.5pp").limit, Limit::Points(0.5));
        assert_eq!(rule("CEst>3%").limit, Limit::Percent(3.0));
        let f = rule("fn:main Ir>+10%");
        assert_eq!(f.function.as_deref(), Some("main"));
        assert_eq!(f.metric, "Ir");
    }

    #[test]
    fn a_function_name_may_hold_spaces_and_angle_brackets() {
        let f = rule("fn:std::vector<int>::push_back(int const&) Ir>+1%");
        assert_eq!(
            f.function.as_deref(),
            Some("std::vector<int>::push_back(int const&)")
        );
        assert_eq!(
            rule("fn:(below main) Ir>+1%").function.as_deref(),
            Some("(below main)")
        );
    }

    #[test]
    fn bad_rules_say_what_a_rule_is() {
        for bad in [
            "Ir",
            "Ir>",
            "Ir>+x%",
            "Ir>-2%",
            "Ir>+inf",
            "Ir>+NaN%",
            ">+2%",
            "fn:main>+2%",
            "fn: Ir>+2%",
            "I r>+2%",
        ] {
            let e = bad.parse::<Rule>().unwrap_err();
            assert!(e.contains("a rule is EVENT>+P%"), "{bad}: {e}");
        }
    }

    #[test]
    fn limits_are_written_back_as_given() {
        assert_eq!(Limit::Percent(2.0).text(), "+2%");
        assert_eq!(Limit::Amount(12345.0).text(), "+12,345");
        assert_eq!(Limit::Points(0.5).text(), "+0.5pp");
    }
}
