//! Metrics: what a column can show. Every event of the profile is one;
//! KCachegrind's derived events (`L1m`, `LLm`, `Bm`, `CEst`...) and the
//! usual rates (miss rates, mispredict rate, instructions per cycle) are
//! others where the profile has their events; and the user's formulas
//! (`--metric NAME=EXPR`). A metric's value for a row of costs is its
//! formula on that row, so a rate's inclusive value is its inclusive
//! numerator over its inclusive denominator. Must not import `tui`.

pub mod formula;

use crate::profile::{Cost, EventTable};
use formula::{Expr, Op};

/// A rate whose denominator is below this count is blank by default.
pub const DEFAULT_MIN_DENOMINATOR: f64 = 1000.0;

/// A resolved formula may hold at most this many terms (a chain of
/// metrics each using the one before twice would double at each step).
const MAX_NODES: usize = 10_000;

/// At most this many user metrics.
pub const MAX_USER: usize = 64;

/// A user's `NAME=EXPR`, as the command line or the configuration gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    pub name: String,
    pub formula: String,
    /// The formula parsed (syntax checked when the definition was read).
    pub expr: Expr,
}

impl std::str::FromStr for Definition {
    type Err = String;

    /// `NAME=EXPR`; an error says where the formula goes wrong.
    fn from_str(text: &str) -> Result<Self, String> {
        let Some((name, formula)) = text.split_once('=') else {
            return Err("expected NAME=FORMULA (e.g. `miss=D1mr/Dr`)".into());
        };
        let name = name.trim();
        if !formula::is_name(name) {
            return Err(format!(
                "`{name}` cannot name a metric: letters, digits and `_`, not starting with a digit"
            ));
        }
        let formula = formula.trim();
        let expr = formula::parse(formula).map_err(|e| {
            format!(
                "column {} of the formula `{formula}`: {}",
                e.column, e.message
            )
        })?;
        Ok(Definition {
            name: name.to_string(),
            formula: formula.to_string(),
            expr,
        })
    }
}

/// Where a metric comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// An event column of the profile (raw, or derived by the profile's
    /// own `event:` line).
    Event(usize),
    /// One of KCachegrind's derived events or a usual rate.
    Builtin,
    /// `--metric` or the configuration file.
    User,
}

/// One metric, resolved against a profile's events.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    pub name: String,
    /// The formula as written (empty for an event).
    pub formula: String,
    /// What it says, for the chooser and the docs.
    pub description: String,
    pub origin: Origin,
    /// The formula over the profile's event columns.
    pub expr: Expr,
    /// A sum of events times constants: it adds up like an event.
    pub linear: bool,
    /// Shown as a percentage (a rate).
    pub percent: bool,
}

impl Metric {
    /// The value on a row of event columns: `None` is blank (see
    /// `Expr::eval`).
    pub fn value(&self, row: &[Cost], min_denominator: f64) -> Option<f64> {
        match self.origin {
            Origin::Event(i) => row.get(i).map(|&c| c as f64),
            _ => self.expr.eval(row, min_denominator),
        }
    }

    /// The value on `row` as a column shows it: a whole number with
    /// thousands separators, a rate as a percentage, another quotient with
    /// three significant digits or more; blank as "".
    pub fn text(&self, row: &[Cost], min_denominator: f64) -> String {
        if let Some(v) = self.exact(row) {
            return crate::format::wide_thousands(v);
        }
        match self.value(row, min_denominator) {
            None => String::new(),
            Some(v) if self.percent => format!("{}%", number_text(v * 100.0)),
            Some(v) => number_text(v),
        }
    }

    /// The change from `base` to `new` as a comparison's column shows it:
    /// exact and signed where the metric adds up like an event, else the
    /// difference of the two values (a rate's in percentage points,
    /// `pp`); blank where either side is blank.
    pub fn change_text(&self, base: &[Cost], new: &[Cost], min_denominator: f64) -> String {
        if let (Some(b), Some(n)) = (self.exact(base), self.exact(new)) {
            return crate::format::wide_signed_thousands(n - b);
        }
        match self.change(base, new, min_denominator) {
            None => String::new(),
            Some(v) if self.percent => format!("{}pp", signed(number_text(v * 100.0))),
            Some(v) => signed(number_text(v)),
        }
    }

    /// The value on `new` less the value on `base`; `None` where either
    /// is blank.
    pub fn change(&self, base: &[Cost], new: &[Cost], min_denominator: f64) -> Option<f64> {
        Some(self.value(new, min_denominator)? - self.value(base, min_denominator)?)
    }

    /// Adds the event columns the metric is computed from to `out`.
    pub fn events(&self, out: &mut Vec<usize>) {
        match self.origin {
            Origin::Event(i) => out.push(i),
            _ => self.expr.events(out),
        }
    }

    /// The exact value where the formula is a sum of events times whole
    /// numbers (events, `L1m`, `CEst`...): no rounding of long counters.
    pub fn exact(&self, row: &[Cost]) -> Option<i128> {
        exact(&self.expr, row)
    }
}

/// `v` with three significant digits or more, thousands separated.
pub fn number_text(v: f64) -> String {
    let a = v.abs();
    if a >= 999.5 {
        return crate::format::wide_thousands(v.round() as i128);
    }
    let decimals = if a >= 99.95 {
        0
    } else if a >= 9.995 {
        1
    } else if a >= 0.9995 || a == 0.0 {
        2
    } else {
        // Three significant digits of a small number, at most 9 places.
        (2 - a.log10().floor() as i32).clamp(2, 9) as usize
    };
    format!("{v:.decimals$}")
}

/// A number's text with its sign: `+` before a positive one.
pub fn signed(text: String) -> String {
    match text.strip_prefix('-') {
        Some(_) => text,
        None if text.bytes().all(|b| b == b'0' || b == b'.') => text,
        None => format!("+{text}"),
    }
}

fn exact(e: &Expr, row: &[Cost]) -> Option<i128> {
    match e {
        Expr::Number(v) if v.fract() == 0.0 && v.abs() < 1e30 => Some(*v as i128),
        Expr::Event(i) => row.get(*i).map(|&c| c as i128),
        Expr::Neg(x) => exact(x, row)?.checked_neg(),
        Expr::Binary(Op::Add, a, b) => exact(a, row)?.checked_add(exact(b, row)?),
        Expr::Binary(Op::Sub, a, b) => exact(a, row)?.checked_sub(exact(b, row)?),
        Expr::Binary(Op::Mul, a, b) => exact(a, row)?.checked_mul(exact(b, row)?),
        _ => None,
    }
}

/// How a built-in metric is made and shown.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A sum of events: a term whose event the profile lacks is left out,
    /// as KCachegrind does; offered where it is more than a copy of one.
    Sum,
    /// A quotient shown as a percentage; offered where all its events are.
    Rate,
    /// A quotient shown as a number; offered where all its events are.
    Ratio,
}

/// KCachegrind's derived events (its `GlobalConfig::knownFormula`) and
/// the rates: `(name, formula, description, kind)`.
const BUILTIN: &[(&str, &str, &str, Kind)] = &[
    ("L1m", "I1mr + D1mr + D1mw", "L1 miss sum", Kind::Sum),
    ("L2m", "I2mr + D2mr + D2mw", "L2 miss sum", Kind::Sum),
    (
        "LLm",
        "ILmr + DLmr + DLmw",
        "last-level miss sum",
        Kind::Sum,
    ),
    ("Bm", "Bim + Bcm", "mispredicted branches", Kind::Sum),
    (
        "CEst",
        "Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m + 100 LLm",
        "cycle estimation",
        Kind::Sum,
    ),
    (
        "I1MissRate",
        "I1mr / Ir",
        "L1 instruction miss rate",
        Kind::Rate,
    ),
    (
        "D1mrRate",
        "D1mr / Dr",
        "L1 data read miss rate",
        Kind::Rate,
    ),
    (
        "D1mwRate",
        "D1mw / Dw",
        "L1 data write miss rate",
        Kind::Rate,
    ),
    (
        "LLMissRate",
        "LLm / (Ir + Dr + Dw)",
        "last-level misses per access",
        Kind::Rate,
    ),
    (
        "BcmRate",
        "Bcm / Bc",
        "conditional branch mispredict rate",
        Kind::Rate,
    ),
    (
        "BimRate",
        "Bim / Bi",
        "indirect branch mispredict rate",
        Kind::Rate,
    ),
    (
        "IPC",
        "Ir / CEst",
        "instructions per estimated cycle",
        Kind::Ratio,
    ),
];

/// Why a metric could not be made (exit status 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MetricError(pub String);

/// The metrics of one profile: its events first, then the built-in ones
/// it has the events for, then the user's.
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    pub list: Vec<Metric>,
    /// A denominator that depends on events and is smaller than this
    /// makes a blank.
    pub min_denominator: f64,
}

impl Metrics {
    /// The events and the built-in metrics there are events for.
    pub fn of_events(events: &EventTable) -> Metrics {
        let mut list: Vec<Metric> = events
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| Metric {
                name: e.name.clone(),
                formula: String::new(),
                description: e.long_name.clone().unwrap_or_default(),
                origin: Origin::Event(i),
                expr: Expr::Event(i),
                linear: true,
                percent: false,
            })
            .collect();
        for &(name, text, description, kind) in BUILTIN {
            let Ok(parsed) = formula::parse(text) else {
                continue;
            };
            if list.iter().any(|m| m.name == name) {
                continue;
            }
            let expr = match kind {
                Kind::Sum => resolve_present_terms(&parsed, &list),
                Kind::Rate | Kind::Ratio => resolve(&parsed, &list).ok(),
            };
            if let Some(expr) = expr {
                list.push(Metric {
                    name: name.to_string(),
                    formula: text.to_string(),
                    description: description.to_string(),
                    origin: Origin::Builtin,
                    linear: expr.is_linear(),
                    percent: kind == Kind::Rate,
                    expr,
                });
            }
        }
        Metrics {
            list,
            min_denominator: DEFAULT_MIN_DENOMINATOR,
        }
    }

    /// `of_events` and the user's definitions, in order (one may use those
    /// before it); a user's metric of a built-in's name replaces it.
    pub fn new(
        events: &EventTable,
        user: &[Definition],
        min_denominator: f64,
    ) -> Result<Metrics, MetricError> {
        if user.len() > MAX_USER {
            return Err(MetricError(format!("at most {MAX_USER} metrics")));
        }
        let Metrics { mut list, .. } = Self::of_events(events);
        list.retain(|m| m.origin != Origin::Builtin || !user.iter().any(|d| d.name == m.name));
        let taken = |list: &[Metric], name: &str| list.iter().any(|m| m.name == name);
        for d in user {
            if taken(&list[..events.len()], &d.name) {
                return Err(MetricError(format!(
                    "metric `{}`: the profile has an event of that name",
                    d.name
                )));
            }
            if list[events.len()..]
                .iter()
                .any(|m| m.origin == Origin::User && m.name == d.name)
            {
                return Err(MetricError(format!("metric `{}` is defined twice", d.name)));
            }
            let expr = resolve(&d.expr, &list).map_err(|e| {
                MetricError(match e {
                    Unresolved::Name(n) => {
                        let at = d.formula.find(&n).map_or(1, |i| i + 1);
                        format!(
                            "metric `{}`: no event or metric `{n}` in this profile (column {at} of `{}`; it has: {})",
                            d.name,
                            d.formula,
                            list.iter()
                                .map(|m| m.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    }
                    Unresolved::TooLarge => format!(
                        "metric `{}`: the formula grows past {MAX_NODES} terms with the metrics it names",
                        d.name
                    ),
                })
            })?;
            list.push(Metric {
                name: d.name.clone(),
                formula: d.formula.clone(),
                description: String::new(),
                origin: Origin::User,
                linear: expr.is_linear(),
                percent: false,
                expr,
            });
        }
        Ok(Metrics {
            list,
            min_denominator,
        })
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.list.iter().position(|m| m.name == name)
    }

    pub fn get(&self, i: usize) -> &Metric {
        &self.list[i]
    }

    /// Metric `i`'s value on a row of event columns.
    pub fn value(&self, i: usize, row: &[Cost]) -> Option<f64> {
        self.list[i].value(row, self.min_denominator)
    }

    /// The names, for an error that lists what there is.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.list.iter().map(|m| m.name.as_str()).collect();
        names.join(", ")
    }
}

/// Adds the metrics that sum events times whole numbers (KCachegrind's
/// derived events that the events allow, and such user formulas) to
/// `events` as derived events: every view then shows and sorts by them as
/// by an event (`e`), as KCachegrind lists its derived event types among
/// the others. Quotients are left out: they are not sums.
pub fn add_sums_as_events(events: &mut EventTable, user: &[Definition]) -> Result<(), MetricError> {
    let metrics = Metrics::new(events, user, DEFAULT_MIN_DENOMINATOR)?;
    let room = crate::parse::MAX_DERIVED.saturating_sub(events.len() - events.raw_count());
    let new: Vec<crate::profile::Event> = (metrics.list.iter())
        .filter(|m| !matches!(m.origin, Origin::Event(_)))
        .filter_map(|m| {
            let factors = raw_factors(&m.expr, events)?;
            let formula = (factors.iter().enumerate())
                .filter(|&(_, &f)| f != 0)
                .map(|(event, &factor)| crate::profile::DerivedTerm { factor, event })
                .collect();
            Some(crate::profile::Event {
                name: m.name.clone(),
                long_name: (!m.description.is_empty()).then(|| m.description.clone()),
                formula: Some(formula),
            })
        })
        .take(room)
        .collect();
    events.events.extend(new);
    Ok(())
}

/// One whole factor per raw event where `e` is such a sum (a derived event
/// of the profile stands for its own terms); `None` otherwise.
fn raw_factors(e: &Expr, events: &EventTable) -> Option<Vec<i64>> {
    let raw = events.raw_count();
    let scale = |v: Vec<i64>, k: i64| -> Option<Vec<i64>> {
        v.into_iter().map(|x| x.checked_mul(k)).collect()
    };
    match e {
        Expr::Event(i) if *i < raw => {
            let mut v = vec![0; raw];
            v[*i] = 1;
            Some(v)
        }
        Expr::Event(i) => {
            let mut v = vec![0i64; raw];
            for t in events.events.get(*i)?.formula.as_ref()? {
                v[t.event] = v[t.event].checked_add(t.factor)?;
            }
            Some(v)
        }
        Expr::Neg(x) => scale(raw_factors(x, events)?, -1),
        Expr::Binary(op @ (Op::Add | Op::Sub), a, b) => {
            let (a, b) = (raw_factors(a, events)?, raw_factors(b, events)?);
            let sign = if *op == Op::Add { 1 } else { -1 };
            a.iter()
                .zip(&b)
                .map(|(x, y)| x.checked_add(y.checked_mul(sign)?))
                .collect()
        }
        Expr::Binary(Op::Mul, a, b) => match (whole(a), whole(b)) {
            (Some(k), _) => scale(raw_factors(b, events)?, k),
            (_, Some(k)) => scale(raw_factors(a, events)?, k),
            _ => None,
        },
        _ => None,
    }
}

/// A whole-number constant.
fn whole(e: &Expr) -> Option<i64> {
    match e {
        Expr::Number(v) if v.fract() == 0.0 && v.abs() < 9e15 => Some(*v as i64),
        Expr::Neg(x) => whole(x)?.checked_neg(),
        _ => None,
    }
}

enum Unresolved {
    Name(String),
    TooLarge,
}

/// `e` with every name replaced by its metric's formula over event columns.
fn resolve(e: &Expr, metrics: &[Metric]) -> Result<Expr, Unresolved> {
    let out = match e {
        Expr::Number(_) | Expr::Event(_) => e.clone(),
        Expr::Name(n) => match metrics.iter().rev().find(|m| &m.name == n) {
            Some(m) => m.expr.clone(),
            None => return Err(Unresolved::Name(n.clone())),
        },
        Expr::Neg(x) => Expr::Neg(Box::new(resolve(x, metrics)?)),
        Expr::Binary(op, a, b) => Expr::Binary(
            *op,
            Box::new(resolve(a, metrics)?),
            Box::new(resolve(b, metrics)?),
        ),
    };
    if out.size() > MAX_NODES {
        return Err(Unresolved::TooLarge);
    }
    Ok(out)
}

/// A built-in sum with only the terms whose names resolve, as KCachegrind
/// does; `None` where fewer than two are left (a copy of one event, or
/// nothing).
fn resolve_present_terms(e: &Expr, metrics: &[Metric]) -> Option<Expr> {
    let mut terms = Vec::new();
    flatten_sum(e, &mut terms);
    let kept: Vec<Expr> = terms
        .into_iter()
        .filter_map(|t| resolve(t, metrics).ok())
        .collect();
    if kept.len() < 2 {
        return None;
    }
    kept.into_iter()
        .reduce(|a, b| Expr::Binary(Op::Add, Box::new(a), Box::new(b)))
}

fn flatten_sum<'a>(e: &'a Expr, terms: &mut Vec<&'a Expr>) {
    match e {
        Expr::Binary(Op::Add, a, b) => {
            flatten_sum(a, terms);
            flatten_sum(b, terms);
        }
        _ => terms.push(e),
    }
}

#[cfg(test)]
mod tests;
