//! Reads callgrind_annotate's text output (the golden files) into numbers.

use std::collections::HashMap;

/// One `file:function` row: its costs in the golden's event order.
pub type Costs = Vec<i64>;

#[derive(Debug, Default)]
pub struct Annotate {
    /// `Events shown:` order.
    pub events: Vec<String>,
    pub totals: Costs,
    /// `file:function` -> self (or, in a tree file, inclusive) cost.
    pub functions: HashMap<String, Costs>,
    /// Tree files only: (caller key, callee key) -> (count, cost), from `>` rows.
    pub calls: HashMap<(String, String), (u64, Costs)>,
}

/// Splits a row into its numbers and the text after them. `.` is zero;
/// `(12.3%)` annotations are skipped.
fn numbers(line: &str) -> (Costs, &str) {
    let mut out = Vec::new();
    let mut rest = line.trim_start();
    loop {
        let end = rest.find(' ').unwrap_or(rest.len());
        let token = &rest[..end];
        let value = if token == "." {
            Some(0)
        } else if !token.is_empty()
            && token
                .trim_start_matches('-')
                .starts_with(|c: char| c.is_ascii_digit())
            && token
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '-')
        {
            token.replace(',', "").parse().ok()
        } else {
            None
        };
        let Some(v) = value else { return (out, rest) };
        out.push(v);
        rest = rest[end..].trim_start();
        if rest.starts_with('(') {
            let close = rest.find(')').map_or(rest.len(), |i| i + 1);
            rest = rest[close..].trim_start();
        }
    }
}

/// `file:function (12x) [object]` -> (`file:function`, count). The object
/// is a path, `???` or nothing: a name may end in brackets of its own
/// (`[clone .isra.0]`), which callgrind_annotate prints without an object
/// where it has none for the function.
fn key_and_count(text: &str) -> (String, u64) {
    let mut s = text.trim_end();
    if let Some(open) = s.rfind(" [")
        && let Some(object) = s[open + 2..].strip_suffix(']')
        && (object.is_empty() || object == "???" || object.starts_with('/'))
    {
        s = &s[..open];
    }
    let mut count = 0;
    if s.ends_with("x)")
        && let Some(open) = s.rfind(" (")
        && let Ok(n) = s[open + 2..s.len() - 2].replace(',', "").parse()
    {
        count = n;
        s = &s[..open];
    }
    (s.to_string(), count)
}

pub fn parse(text: &str) -> Annotate {
    let mut a = Annotate::default();
    let mut in_functions = false;
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(ev) = line.strip_prefix("Events shown:") {
            a.events = ev.split_whitespace().map(String::from).collect();
        } else if line.contains("PROGRAM TOTALS") {
            a.totals = numbers(line).0;
        } else if line.ends_with("file:function") {
            in_functions = true;
        } else if in_functions && !line.starts_with("----") && !line.trim().is_empty() {
            let (costs, rest) = numbers(line);
            if costs.is_empty() {
                continue;
            }
            if let Some(callee) = rest.strip_prefix("> ") {
                let (key, count) = key_and_count(callee.trim_start());
                if let Some(caller) = &current {
                    let e = a
                        .calls
                        .entry((caller.clone(), key))
                        .or_insert((0, vec![0; costs.len()]));
                    e.0 += count;
                    for (x, y) in e.1.iter_mut().zip(&costs) {
                        *x += y;
                    }
                }
            } else if let Some(me) = rest.strip_prefix("* ") {
                let (key, _) = key_and_count(me.trim_start());
                a.functions.insert(key.clone(), costs);
                current = Some(key);
            } else if rest.starts_with("< ") {
                // Callers repeat what the callers' own blocks say as callees.
            } else {
                let (key, _) = key_and_count(rest);
                a.functions.insert(key, costs);
            }
        } else if line.trim().is_empty() {
            current = None;
        }
    }
    a
}

#[test]
fn reads_rows() {
    let (n, rest) = numbers("88,118 (16.24%)  .   0  9 ( 0.68%)  a.c:main [obj]");
    assert_eq!(n, vec![88118, 0, 0, 9]);
    assert_eq!(rest, "a.c:main [obj]");
    assert_eq!(
        key_and_count("a.c:fib'2 (1,970x) [/x/y]"),
        ("a.c:fib'2".to_string(), 1970)
    );
    assert_eq!(
        key_and_count("a.c:operator[]"),
        ("a.c:operator[]".to_string(), 0)
    );
}
