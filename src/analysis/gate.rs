//! `cgtui check`: rules over a comparison (`--base OLD NEW`) that a CI
//! job fails on. A rule is resolved against both profiles (an event or
//! metric both can compute, a function of either), then checked on the
//! totals or the function's inclusive cost; a rule that fails is explained
//! by the functions whose self cost grew most (`culprits`). Plain data for
//! `report::gate`; must not import `tui`.

mod culprits;
pub mod rule;

pub use culprits::{Culprit, Explanation, SOUGHT_SHARE};
pub use rule::{Limit, Rule};

use super::diff::{Compared, MatchOptions, Side, rewrite::apply_all};
use crate::metric::formula::Expr;
use crate::metric::{Metric, Metrics, Origin};
use crate::profile::Cost;

/// Why a rule cannot be checked (exit status 2, never a pass).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleError(pub String);

/// A value of a measure: exact where the measure sums events times whole
/// numbers, else a real number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Amount {
    Exact(i128),
    Real(f64),
}

impl Amount {
    pub fn as_f64(self) -> f64 {
        match self {
            Amount::Exact(v) => v as f64,
            Amount::Real(v) => v,
        }
    }

    /// `new - base`, exact where both are.
    pub fn minus(new: Amount, base: Amount) -> Amount {
        match (new, base) {
            (Amount::Exact(n), Amount::Exact(b)) => match n.checked_sub(b) {
                Some(d) => Amount::Exact(d),
                None => Amount::Real(n as f64 - b as f64),
            },
            _ => Amount::Real(new.as_f64() - base.as_f64()),
        }
    }

    fn is_zero(self) -> bool {
        self.as_f64() == 0.0
    }
}

/// What a rule measures, on each side's own event columns.
#[derive(Clone, Debug)]
pub struct Measure {
    /// Resolved against the new profile's events.
    pub new: Metric,
    /// The same formula over the base's event columns.
    pub base: Metric,
    /// What ranks the functions that explain a change: the measure where
    /// it adds up over functions, a quotient's numerator where that does
    /// (a rate's change is explained by its misses), else nothing.
    pub culprit: Option<(Metric, Metric)>,
    pub min_denominator: f64,
}

impl Measure {
    /// The measure's value on a row of one side's columns.
    pub fn value(&self, side: Side, row: &[Cost]) -> Option<Amount> {
        let m = match side {
            Side::Base => &self.base,
            Side::New => &self.new,
        };
        amount(m, row, self.min_denominator)
    }

    /// The measure is a rate (shown as a percentage).
    pub fn percent(&self) -> bool {
        self.new.percent
    }

    /// The name of what ranks the culprits (`D1mr` for `D1mrRate`).
    pub fn culprit_name(&self) -> Option<&str> {
        self.culprit.as_ref().map(|(m, _)| m.name.as_str())
    }
}

fn amount(m: &Metric, row: &[Cost], min_denominator: f64) -> Option<Amount> {
    if let Some(v) = m.exact(row) {
        return Some(Amount::Exact(v));
    }
    m.value(row, min_denominator).map(Amount::Real)
}

/// A rule resolved against the two profiles.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub rule: Rule,
    pub measure: Measure,
    /// The pairs of `fn:NAME` (every function of that name), or none for
    /// the total.
    pub functions: Option<Vec<usize>>,
}

/// Resolves `rule`: its event or metric among `metrics` (the new
/// profile's, with the user's formulas), made of events both profiles
/// have; its function among the pairs, by the name either profile gives
/// it or by the name `--mod-funcname` makes of it.
pub fn resolve(
    rule: &Rule,
    c: &Compared<'_>,
    metrics: &Metrics,
    matching: &MatchOptions,
) -> Result<Resolved, RuleError> {
    let err = |why: String| RuleError(format!("rule `{}`: {why}", rule.text));
    let common: Vec<&str> = (c.comparison.events.iter())
        .map(|e| e.name.as_str())
        .collect();
    let Some(new) = metrics
        .index_of(&rule.metric)
        .map(|i| metrics.get(i).clone())
    else {
        let only_base = c.base.events.index_of(&rule.metric).is_some();
        return Err(err(if only_base {
            format!(
                "the new profile has no event `{}` (only the base has it)",
                rule.metric
            )
        } else {
            format!(
                "no event or metric `{}` in these profiles (events of both: {}; metrics: {})",
                rule.metric,
                common.join(", "),
                (metrics.list.iter())
                    .filter(|m| !matches!(m.origin, Origin::Event(_)))
                    .map(|m| m.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }));
    };
    let base = on_base_columns(&new, c).map_err(|event| {
        err(format!(
            "the base has no event `{event}`, so `{}` cannot be compared",
            rule.metric
        ))
    })?;
    match (rule.limit, new.percent) {
        (Limit::Amount(_), true) => {
            return Err(err(format!(
                "`{}` is a rate: give its growth in percentage points (`{}>+0.5pp`) or percent",
                rule.metric, rule.metric
            )));
        }
        (Limit::Points(_), false) => {
            return Err(err(format!(
                "`{}` is not a rate: percentage points (`pp`) apply to rates only",
                rule.metric
            )));
        }
        _ => {}
    }
    let culprit = culprit_expr(&new.expr).and_then(|expr| {
        let mut n = new.clone();
        (n.expr, n.percent, n.linear) = (expr, false, true);
        n.name = culprit_name(&n.expr, c).unwrap_or_else(|| new.name.clone());
        let b = on_base_columns(&n, c).ok()?;
        Some((n, b))
    });
    let measure = Measure {
        new,
        base,
        culprit,
        min_denominator: metrics.min_denominator,
    };
    let functions = match &rule.function {
        None => None,
        Some(name) => {
            let pairs = pairs_named(c, name, matching);
            if pairs.is_empty() {
                return Err(err(format!(
                    "no function `{name}` in either profile{}",
                    similar(c, name)
                )));
            }
            Some(pairs)
        }
    };
    Ok(Resolved {
        rule: rule.clone(),
        measure,
        functions,
    })
}

/// `m` over the base's columns; `Err` names an event the base lacks.
fn on_base_columns(m: &Metric, c: &Compared<'_>) -> Result<Metric, String> {
    let mut events = Vec::new();
    m.events(&mut events);
    let column = |e: usize| c.comparison.events.iter().find(|x| x.new == e);
    if let Some(&missing) = events.iter().find(|&&e| column(e).is_none()) {
        let name = c.new.events.events.get(missing).map(|e| e.name.clone());
        return Err(name.unwrap_or_else(|| format!("#{missing}")));
    }
    let mut base = m.clone();
    base.expr = remap(&m.expr, &|e| column(e).map_or(e, |x| x.base));
    if let Origin::Event(e) = m.origin {
        base.origin = Origin::Event(column(e).map_or(e, |x| x.base));
    }
    Ok(base)
}

fn remap(e: &Expr, to: &dyn Fn(usize) -> usize) -> Expr {
    match e {
        Expr::Event(i) => Expr::Event(to(*i)),
        Expr::Neg(x) => Expr::Neg(Box::new(remap(x, to))),
        Expr::Binary(op, a, b) => Expr::Binary(*op, Box::new(remap(a, to)), Box::new(remap(b, to))),
        other => other.clone(),
    }
}

/// What ranks culprits: `e` where it adds up, else a quotient's numerator
/// where that does.
fn culprit_expr(e: &Expr) -> Option<Expr> {
    use crate::metric::formula::Op;
    if e.is_linear() && e.uses_events() {
        return Some(e.clone());
    }
    match e {
        Expr::Binary(Op::Div, a, _) if a.is_linear() && a.uses_events() => Some((**a).clone()),
        _ => None,
    }
}

/// The event's name where the culprits' measure is one event.
fn culprit_name(e: &Expr, c: &Compared<'_>) -> Option<String> {
    match e {
        Expr::Event(i) => c.new.events.events.get(*i).map(|e| e.name.clone()),
        _ => None,
    }
}

/// The pairs of functions named `name` on either side (before or after
/// the rewrites of `--mod-funcname`).
fn pairs_named(c: &Compared<'_>, name: &str, matching: &MatchOptions) -> Vec<usize> {
    let is = |profile: &crate::profile::Profile, f| {
        let n = profile.fn_name(f);
        n == name || apply_all(&matching.mod_funcname, n) == name
    };
    (0..c.comparison.pairs.len())
        .filter(|&p| {
            let pair = c.comparison.pairs[p];
            pair.new.is_some_and(|f| is(c.new, f)) || pair.base.is_some_and(|f| is(c.base, f))
        })
        .collect()
}

/// `; did you mean ...` with up to five names that contain `name`.
fn similar(c: &Compared<'_>, name: &str) -> String {
    let mut found: Vec<&str> = (0..c.comparison.pairs.len())
        .map(|p| c.names(p).0)
        .filter(|n| n.contains(name))
        .collect();
    found.sort_unstable();
    found.dedup();
    if found.is_empty() {
        return String::new();
    }
    let more = if found.len() > 5 { ", ..." } else { "" };
    found.truncate(5);
    format!(" (names containing it: {}{more})", found.join(", "))
}

/// One rule checked on one subject (the total, or one function).
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The pair of the function checked; `None` for the total.
    pub function: Option<usize>,
    pub base: Amount,
    pub new: Amount,
    pub change: Amount,
    pub holds: bool,
    /// Why a failed rule failed (`None` where it holds).
    pub explanation: Option<Explanation>,
}

/// Checks a resolved rule: one outcome for the total, or one per function
/// of the name. A value that cannot be computed (a rate whose denominator
/// is below `--min-denominator`) is an error, not a pass.
pub fn check(r: &Resolved, c: &Compared<'_>) -> Result<Vec<Outcome>, RuleError> {
    let m = &r.measure;
    let subjects: Vec<Option<usize>> = match &r.functions {
        None => vec![None],
        Some(pairs) => pairs.iter().map(|&p| Some(p)).collect(),
    };
    let mut out = Vec::new();
    for subject in subjects {
        let side_value = |side: Side| -> Result<Amount, RuleError> {
            let (analysis, f) = match side {
                Side::Base => (
                    c.base_analysis,
                    subject.map(|p| c.comparison.function(p, side)),
                ),
                Side::New => (c.analysis, subject.map(|p| c.comparison.function(p, side))),
            };
            let row = match f {
                None => &analysis.totals[..],
                Some(None) => return Ok(Amount::Exact(0)),
                Some(Some(f)) => analysis.inclusive(f),
            };
            m.value(side, row).ok_or_else(|| {
                let which = match side {
                    Side::Base => "base",
                    Side::New => "new profile",
                };
                RuleError(format!(
                    "rule `{}`: `{}` has no value in the {which} (a denominator below --min-denominator {})",
                    r.rule.text, m.new.name, m.min_denominator
                ))
            })
        };
        let (base, new) = (side_value(Side::Base)?, side_value(Side::New)?);
        let change = Amount::minus(new, base);
        let holds = !exceeds(r.rule.limit, base, change);
        let explanation = (!holds).then(|| culprits::explain(c, m, subject, r.functions.is_some()));
        out.push(Outcome {
            function: subject,
            base,
            new,
            change,
            holds,
            explanation,
        });
    }
    Ok(out)
}

/// Whether `change` from `base` grows past `limit`. A growth from zero
/// exceeds every percentage.
pub fn exceeds(limit: Limit, base: Amount, change: Amount) -> bool {
    let d = change.as_f64();
    match limit {
        Limit::Amount(n) => d > n,
        Limit::Points(p) => d * 100.0 > p,
        Limit::Percent(_) if base.is_zero() => d > 0.0,
        Limit::Percent(p) => d * 100.0 > p * base.as_f64().abs(),
    }
}

/// The change as a percentage of the base (`None` from a base of 0).
pub fn percent_of_base(base: Amount, change: Amount) -> Option<f64> {
    (!base.is_zero()).then(|| change.as_f64() * 100.0 / base.as_f64().abs())
}

#[cfg(test)]
mod tests;
