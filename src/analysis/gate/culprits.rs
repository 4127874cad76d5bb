//! Why a rule failed: the functions whose self cost grew most, taken until
//! they make `SOUGHT_SHARE` percent of all the growth (so a regression
//! spread over many functions is not summed up by one name), each with the
//! source line whose cost grew most, and the largest decreases beside
//! them. For `fn:NAME` only the functions NAME reaches through its calls
//! (in either profile) are looked at.

use super::{Amount, Measure};
use crate::analysis::Analysis;
use crate::analysis::diff::{Compared, Side};
use crate::analysis::source::function_lines;
use crate::metric::Metric;
use crate::profile::FnId;
use rustc_hash::FxHashMap as HashMap;

/// The increases listed make at least this percentage of the whole
/// increase (or `MAX_INCREASES` are listed).
pub const SOUGHT_SHARE: f64 = 80.0;
/// At most this many increases are listed.
const MAX_INCREASES: usize = 10;
/// At most this many decreases are listed.
const MAX_DECREASES: usize = 5;

/// One function's self cost in both profiles.
#[derive(Clone, Debug)]
pub struct Culprit {
    /// Index into the comparison's pairs.
    pub pair: usize,
    pub base: Amount,
    pub new: Amount,
    pub change: Amount,
    /// The source line (file, line) whose cost grew most, for an increase.
    pub line: Option<(String, u64)>,
}

/// The functions that explain a change.
#[derive(Clone, Debug, Default)]
pub struct Explanation {
    /// What ranks them (`None`: the measure does not add up over
    /// functions, and nothing is listed).
    pub measure: Option<String>,
    /// Only functions the rule's function reaches were looked at.
    pub reachable_only: bool,
    /// The sum of every increase looked at.
    pub increase: Option<Amount>,
    /// The sum of the increases listed.
    pub covered: Option<Amount>,
    /// How many functions grew in all.
    pub grown: usize,
    pub increases: Vec<Culprit>,
    pub decreases: Vec<Culprit>,
}

impl Explanation {
    /// The share of the whole increase the listed ones make, in percent.
    pub fn share(&self) -> Option<f64> {
        let (all, listed) = (self.increase?.as_f64(), self.covered?.as_f64());
        (all > 0.0).then(|| listed * 100.0 / all)
    }
}

/// The functions that explain `m`'s change: all of them, or those
/// `subject` reaches.
pub fn explain(
    c: &Compared<'_>,
    m: &Measure,
    subject: Option<usize>,
    reachable_only: bool,
) -> Explanation {
    let Some((on_new, on_base)) = &m.culprit else {
        return Explanation::default();
    };
    let scope = subject.filter(|_| reachable_only).map(|p| reachable(c, p));
    let value = |metric: &Metric, a: &Analysis, f: Option<FnId>| {
        f.and_then(|f| super::amount(metric, a.self_cost(f), m.min_denominator))
            .unwrap_or(Amount::Exact(0))
    };
    let mut changed: Vec<Culprit> = Vec::new();
    for pair in 0..c.comparison.pairs.len() {
        if scope.as_ref().is_some_and(|s| !s[pair]) {
            continue;
        }
        let base = value(
            on_base,
            c.base_analysis,
            c.comparison.function(pair, Side::Base),
        );
        let new = value(on_new, c.analysis, c.comparison.function(pair, Side::New));
        let change = Amount::minus(new, base);
        if change.as_f64() != 0.0 {
            changed.push(Culprit {
                pair,
                base,
                new,
                change,
                line: None,
            });
        }
    }
    let by_size = |x: &Culprit, y: &Culprit| {
        y.change
            .as_f64()
            .abs()
            .total_cmp(&x.change.as_f64().abs())
            .then_with(|| c.names(x.pair).cmp(&c.names(y.pair)))
    };
    changed.sort_by(by_size);
    let (mut grown, mut shrunk): (Vec<Culprit>, Vec<Culprit>) =
        changed.into_iter().partition(|x| x.change.as_f64() > 0.0);
    let increase = sum(grown.iter().map(|x| x.change));
    let wanted = increase.as_f64() * SOUGHT_SHARE / 100.0;
    let mut covered = Amount::Exact(0);
    let count = grown.len();
    let mut listed = 0;
    for x in &grown {
        if listed >= MAX_INCREASES || (listed > 0 && covered.as_f64() >= wanted) {
            break;
        }
        covered = sum([covered, x.change]);
        listed += 1;
    }
    grown.truncate(listed);
    for x in &mut grown {
        x.line = hottest_line(c, (on_base, on_new), x.pair, m.min_denominator);
    }
    shrunk.truncate(MAX_DECREASES);
    Explanation {
        measure: Some(on_new.name.clone()),
        reachable_only,
        increase: Some(increase),
        covered: Some(covered),
        grown: count,
        increases: grown,
        decreases: shrunk,
    }
}

fn sum(values: impl IntoIterator<Item = Amount>) -> Amount {
    values
        .into_iter()
        .fold(Amount::Exact(0), |acc, v| match (acc, v) {
            (Amount::Exact(a), Amount::Exact(b)) => a
                .checked_add(b)
                .map_or(Amount::Real(a as f64 + b as f64), Amount::Exact),
            _ => Amount::Real(acc.as_f64() + v.as_f64()),
        })
}

/// The pairs that pair `from` reaches through calls in either profile
/// (itself included), as flags by pair.
fn reachable(c: &Compared<'_>, from: usize) -> Vec<bool> {
    let mut seen = vec![false; c.comparison.pairs.len()];
    seen[from] = true;
    for (side, a) in [(Side::Base, c.base_analysis), (Side::New, c.analysis)] {
        let mut visited = vec![false; a.function_count()];
        let mut stack: Vec<FnId> = c.comparison.function(from, side).into_iter().collect();
        while let Some(f) = stack.pop() {
            if std::mem::replace(&mut visited[f.index()], true) {
                continue;
            }
            seen[c.comparison.pair_of(side, f)] = true;
            for e in a.callees(f) {
                let callee = a.edges[e as usize].callee;
                if !visited[callee.index()] {
                    stack.push(callee);
                }
            }
        }
    }
    seen
}

/// The line of pair `pair` whose cost of the measure grew most (lines of
/// the base function's own file are read as the new function's, whose
/// folder may differ); `None` where no line with a number grew.
fn hottest_line(
    c: &Compared<'_>,
    (on_base, on_new): (&Metric, &Metric),
    pair: usize,
    min_denominator: f64,
) -> Option<(String, u64)> {
    let mut lines: HashMap<(&str, u64), f64> = HashMap::default();
    let value = |m: &Metric, row: &[i64]| {
        super::amount(m, row, min_denominator).map_or(0.0, Amount::as_f64)
    };
    let new_fn = c.comparison.function(pair, Side::New);
    if let Some(f) = new_fn {
        let rows = function_lines(c.new, c.analysis, f);
        for l in rows.lines.iter().filter(|l| l.line > 0) {
            *lines.entry((c.new.file_name(l.file), l.line)).or_default() += value(on_new, &l.cost);
        }
    }
    if let Some(b) = c.comparison.function(pair, Side::Base) {
        let own = c.base.functions[b.index()].file;
        let rows = function_lines(c.base, c.base_analysis, b);
        for l in rows.lines.iter().filter(|l| l.line > 0) {
            let file = match new_fn {
                Some(f) if l.file == own => c.new.fn_file(f),
                _ => c.base.file_name(l.file),
            };
            *lines.entry((file, l.line)).or_default() -= value(on_base, &l.cost);
        }
    }
    (lines.into_iter())
        .filter(|&(_, d)| d > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
        .map(|((file, line), _)| (file.to_string(), line))
}
