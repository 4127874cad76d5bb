//! `cgtui check`'s output: each rule's verdict, and for a failed one the
//! functions that explain it, as text (a CI log), Markdown (a pull
//! request's comment: tables) or JSON (scripts; its schema is in
//! docs/check.md, change both together).

use crate::analysis::diff::Compared;
use crate::analysis::gate::{
    Amount, Culprit, Explanation, Limit, Outcome, Resolved, SOUGHT_SHARE, percent_of_base,
};
use crate::format::{printable, terminal_text, wide_signed_thousands, wide_thousands};
use crate::metric::{number_text, signed};
use serde_json::{Value, json};
use std::fmt::Write;

/// A rule and what checking it found.
#[derive(Clone, Debug)]
pub struct Checked {
    pub rule: Resolved,
    pub outcomes: Vec<Outcome>,
}

/// How many outcomes failed.
pub fn failures(checked: &[Checked]) -> usize {
    let outcomes = checked.iter().flat_map(|c| &c.outcomes);
    outcomes.filter(|o| !o.holds).count()
}

/// A value of the rule's measure: a rate as a percentage.
fn value_text(percent: bool, v: Amount) -> String {
    match v {
        Amount::Real(v) if percent => format!("{}%", number_text(v * 100.0)),
        Amount::Exact(v) => wide_thousands(v),
        Amount::Real(v) => number_text(v),
    }
}

/// A change of the rule's measure: a rate's in percentage points.
fn change_text(percent: bool, v: Amount) -> String {
    match v {
        Amount::Real(v) if percent => format!("{}pp", signed(number_text(v * 100.0))),
        Amount::Exact(v) => wide_signed_thousands(v),
        Amount::Real(v) => signed(number_text(v)),
    }
}

/// `(+28.93%)` where the base is not 0, `(new)` where it is.
fn relative(base: Amount, change: Amount) -> String {
    match percent_of_base(base, change) {
        Some(p) => format!("{}%", signed(format!("{p:.2}"))),
        None if change.as_f64() > 0.0 => "from 0".into(),
        None => "0".into(),
    }
}

/// What an outcome is about: `the total Ir`, `work's inclusive Ir`.
fn subject(c: &Compared<'_>, r: &Resolved, o: &Outcome) -> String {
    match o.function {
        None => format!("the total {}", r.measure.new.name),
        Some(p) => format!(
            "{}'s inclusive {}",
            printable(c.names(p).0),
            r.measure.new.name
        ),
    }
}

/// `name (file)`, `name (file:line)` for a culprit.
fn place(c: &Compared<'_>, x: &Culprit) -> String {
    let (name, file, _) = c.names(x.pair);
    let at = match &x.line {
        Some((f, l)) => format!("{}:{l}", printable(f)),
        None => printable(file).into_owned(),
    };
    let mark = match (
        c.comparison.pairs[x.pair].base,
        c.comparison.pairs[x.pair].new,
    ) {
        (None, _) => " new",
        (_, None) => " gone",
        _ => "",
    };
    if at.is_empty() {
        format!("{}{mark}", printable(name))
    } else {
        format!("{}{mark} ({at})", printable(name))
    }
}

/// A culprit's share of the whole increase, in percent.
fn share(e: &Explanation, x: &Culprit) -> Option<f64> {
    let all = e.increase?.as_f64();
    (all > 0.0).then(|| x.change.as_f64() * 100.0 / all)
}

/// The sentence before a failed rule's list of increases (`function`:
/// the name of the function a rule checks).
fn summary(e: &Explanation, function: Option<&str>) -> Option<String> {
    let measure = e.measure.as_deref()?;
    let (Some(increase), Some(share)) = (e.increase, e.share()) else {
        return Some(format!("No function's self {measure} grew."));
    };
    let within = match function {
        Some(name) if e.reachable_only => format!(" in {} and what it calls", printable(name)),
        _ => String::new(),
    };
    Some(format!(
        "{} of the {} function(s) whose self {measure} grew{within} make {share:.1}% of the increase ({} of {}; listed until {SOUGHT_SHARE:.0}%):",
        e.increases.len(),
        crate::format::thousands(i64::try_from(e.grown).unwrap_or(i64::MAX)),
        change_text(false, e.covered.unwrap_or(Amount::Exact(0))),
        change_text(false, increase),
    ))
}

fn files(c: &Compared<'_>) -> [String; 2] {
    let of = |p: &crate::profile::Profile| {
        let loaded: Vec<_> = p.loaded_sources().map(printable).collect();
        loaded.join(", ")
    };
    [of(c.base), of(c.new)]
}

fn headline(checked: &[Checked]) -> String {
    let all: usize = checked.iter().map(|c| c.outcomes.len()).sum();
    match failures(checked) {
        0 => format!("all {all} rule(s) hold"),
        n => format!("{n} of {all} rule(s) failed"),
    }
}

/// The text a CI log shows.
pub fn text(c: &Compared<'_>, checked: &[Checked]) -> String {
    let mut out = String::new();
    let [base, new] = files(c);
    let _ = writeln!(out, "cgtui check: {}", headline(checked));
    let _ = writeln!(out, "Base:    {base}");
    let _ = writeln!(out, "New:     {new}");
    for ch in checked {
        let percent = ch.rule.measure.percent();
        for o in &ch.outcomes {
            out.push('\n');
            let verdict = if o.holds { "pass" } else { "FAIL" };
            let _ = writeln!(
                out,
                "{verdict}  {}: {} {} -> {} ({}, {}), limit {}",
                printable(&ch.rule.rule.text),
                subject(c, &ch.rule, o),
                value_text(percent, o.base),
                value_text(percent, o.new),
                change_text(percent, o.change),
                relative(o.base, o.change),
                ch.rule.rule.limit.text(),
            );
            if let Some(e) = &o.explanation {
                explain_text(&mut out, c, e, o.function.map(|p| c.names(p).0));
            }
        }
    }
    terminal_text(out)
}

fn explain_text(out: &mut String, c: &Compared<'_>, e: &Explanation, function: Option<&str>) {
    let Some(line) = summary(e, function) else {
        let _ = writeln!(
            out,
            "      (this measure does not add up over functions: no breakdown)"
        );
        return;
    };
    let _ = writeln!(out, "      {line}");
    let row = |out: &mut String, x: &Culprit, share: String| {
        let _ = writeln!(
            out,
            "      {:>16} {:>16} {:>16} {share:>7}  {}",
            value_text(false, x.base),
            value_text(false, x.new),
            change_text(false, x.change),
            place(c, x)
        );
    };
    if !e.increases.is_empty() {
        let _ = writeln!(
            out,
            "      {:>16} {:>16} {:>16} {:>7}  function (file:line)",
            "base", "new", "change", "share"
        );
    }
    for x in &e.increases {
        row(
            out,
            x,
            share(e, x).map_or(String::new(), |s| format!("{s:.1}%")),
        );
    }
    if !e.decreases.is_empty() {
        let _ = writeln!(out, "      The largest decreases:");
        for x in &e.decreases {
            row(out, x, String::new());
        }
    }
}

/// Text as a Markdown code span: fenced by more backticks than it holds,
/// `|` escaped for a table's cell.
fn code(text: &str) -> String {
    let text = printable(text).replace('|', "\\|");
    let longest = (text.split(|ch| ch != '`'))
        .map(str::len)
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Markdown for a pull request's comment: a table of the rules, then a
/// table of the functions behind each failed one.
pub fn markdown(c: &Compared<'_>, checked: &[Checked]) -> String {
    let mut out = String::new();
    let [base, new] = files(c);
    let _ = writeln!(out, "### cgtui check: {}\n", headline(checked));
    let _ = writeln!(out, "Base {}, new {}.\n", code(&base), code(&new));
    out.push_str("| | rule | measured | base | new | change | limit |\n");
    out.push_str("|---|---|---|---:|---:|---:|---:|\n");
    for ch in checked {
        let percent = ch.rule.measure.percent();
        for o in &ch.outcomes {
            let what = match o.function {
                None => format!("total {}", ch.rule.measure.new.name),
                Some(p) => format!(
                    "{} inclusive {}",
                    code(c.names(p).0),
                    ch.rule.measure.new.name
                ),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {what} | {} | {} | {} ({}) | {} |",
                if o.holds { "pass" } else { "**FAIL**" },
                code(&ch.rule.rule.text),
                value_text(percent, o.base),
                value_text(percent, o.new),
                change_text(percent, o.change),
                relative(o.base, o.change),
                ch.rule.rule.limit.text(),
            );
        }
    }
    for ch in checked {
        for o in ch.outcomes.iter().filter(|o| !o.holds) {
            let Some(e) = &o.explanation else { continue };
            let _ = writeln!(
                out,
                "\n#### {}: {}\n",
                code(&ch.rule.rule.text),
                subject(c, &ch.rule, o)
            );
            let Some(line) = summary(e, o.function.map(|p| c.names(p).0)) else {
                out.push_str("This measure does not add up over functions: no breakdown.\n");
                continue;
            };
            let _ = writeln!(out, "{line}\n");
            if !e.increases.is_empty() {
                out.push_str("| function | line | base | new | change | share |\n");
                out.push_str("|---|---|---:|---:|---:|---:|\n");
                for x in &e.increases {
                    let s = share(e, x).map_or(String::new(), |s| format!("{s:.1}%"));
                    md_row(&mut out, c, x, Some(&s));
                }
            }
            if !e.decreases.is_empty() {
                out.push_str("\nThe largest decreases:\n\n");
                out.push_str("| function | file | base | new | change |\n");
                out.push_str("|---|---|---:|---:|---:|\n");
                for x in &e.decreases {
                    md_row(&mut out, c, x, None);
                }
            }
        }
    }
    out
}

/// A culprit's row; `share` makes a last column (the increases').
fn md_row(out: &mut String, c: &Compared<'_>, x: &Culprit, share: Option<&str>) {
    let (name, file, _) = c.names(x.pair);
    let at = match &x.line {
        Some((f, l)) => code(&format!("{f}:{l}")),
        None if file.is_empty() => String::new(),
        None => code(file),
    };
    let mark = match (
        c.comparison.pairs[x.pair].base,
        c.comparison.pairs[x.pair].new,
    ) {
        (None, _) => " (new)",
        (_, None) => " (gone)",
        _ => "",
    };
    let _ = write!(
        out,
        "| {}{mark} | {at} | {} | {} | {} |",
        code(name),
        value_text(false, x.base),
        value_text(false, x.new),
        change_text(false, x.change),
    );
    match share {
        Some(s) => {
            let _ = writeln!(out, " {s} |");
        }
        None => out.push('\n'),
    }
}

/// A number for JSON: exact where it fits 64 bits.
fn number(v: Amount) -> Value {
    match v {
        Amount::Exact(v) => i64::try_from(v).map_or_else(|_| json!(v as f64), Value::from),
        Amount::Real(v) => json!(v),
    }
}

fn limit_json(limit: Limit) -> Value {
    match limit {
        Limit::Percent(p) => json!({ "percent": p }),
        Limit::Amount(n) => json!({ "amount": n }),
        Limit::Points(p) => json!({ "points": p }),
    }
}

fn culprit_json(c: &Compared<'_>, e: &Explanation, x: &Culprit) -> Value {
    let (name, file, object) = c.names(x.pair);
    let p = c.comparison.pairs[x.pair];
    json!({
        "name": name,
        "file": file,
        "object": object,
        "line": x.line.as_ref().map(|(f, l)| json!({ "file": f, "line": l })),
        "base": number(x.base),
        "new": number(x.new),
        "change": number(x.change),
        "share": if x.change.as_f64() > 0.0 { share(e, x).map(Value::from) } else { None },
        "in_base": p.base.is_some(),
        "in_new": p.new.is_some(),
    })
}

/// The JSON document for scripts.
pub fn json(c: &Compared<'_>, checked: &[Checked]) -> Value {
    let sources = |p: &crate::profile::Profile| -> Vec<String> {
        p.loaded_sources().map(str::to_owned).collect()
    };
    let mut rules = Vec::new();
    for ch in checked {
        for o in &ch.outcomes {
            let function = o.function.map(|p| {
                let (name, file, object) = c.names(p);
                json!({ "name": name, "file": file, "object": object })
            });
            let explanation = o.explanation.as_ref().map(|e| {
                json!({
                    "measure": e.measure,
                    "reachable_only": e.reachable_only,
                    "sought_share": SOUGHT_SHARE,
                    "increase": e.increase.map(number),
                    "listed": e.covered.map(number),
                    "share": e.share(),
                    "grown": e.grown,
                    "increases": e.increases.iter().map(|x| culprit_json(c, e, x)).collect::<Vec<_>>(),
                    "decreases": e.decreases.iter().map(|x| culprit_json(c, e, x)).collect::<Vec<_>>(),
                })
            });
            rules.push(json!({
                "rule": ch.rule.rule.text,
                "metric": ch.rule.measure.new.name,
                "function": function,
                "holds": o.holds,
                "base": number(o.base),
                "new": number(o.new),
                "change": number(o.change),
                "change_percent": percent_of_base(o.base, o.change),
                "limit": limit_json(ch.rule.rule.limit),
                "explanation": explanation,
            }));
        }
    }
    let failed = failures(checked);
    json!({
        "status": if failed == 0 { "pass" } else { "fail" },
        "failed": failed,
        "base": { "files": sources(c.base), "cmd": c.base.meta.cmd },
        "new": { "files": sources(c.new), "cmd": c.new.meta.cmd },
        "rules": rules,
    })
}

#[cfg(test)]
mod tests {
    use super::code;

    #[test]
    fn names_become_code_spans_that_markdown_cannot_break() {
        assert_eq!(code("main"), "`main`");
        // A pipe would end a table's cell; backticks the span.
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(code("f`g``h"), "```f`g``h```");
        assert_eq!(code("`x"), "`` `x ``");
        // Control characters are escaped, never written raw.
        assert_eq!(code("a\u{1b}[2Jb"), "`a\\e[2Jb`");
    }
}
