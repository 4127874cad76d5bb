//! Groups of functions (`report --group-by`): on every sample each
//! function is in exactly one group and a group's self cost is the sum of
//! its functions'; by object and by file the sums equal those read from
//! the profile's lines by a small reader of its own here; classes and
//! modules on the C++ and Rust samples.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::cli;

use cli::{root, stdout_of};
use serde_json::Value;
use std::collections::BTreeMap;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

fn samples() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join("samples"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".callgrind") || n.ends_with(".cachegrind"))
        .map(|n| format!("samples/{n}"))
        .collect();
    out.sort();
    out
}

#[test]
fn groups_partition_the_functions_and_sum_their_self_costs() {
    for file in samples() {
        for kind in ["object", "file", "class", "module", "none"] {
            let v = json(&["report", "--json", "--group-by", kind, &file]);
            let functions = v["functions"].as_array().unwrap();
            let mut seen = vec![0; functions.len()];
            for g in v["groups"].as_array().unwrap() {
                let members: Vec<usize> = g["functions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| i.as_u64().unwrap() as usize)
                    .collect();
                for (event, total) in g["self"].as_object().unwrap() {
                    let sum: i64 = members
                        .iter()
                        .map(|&i| functions[i]["self"][event].as_i64().unwrap())
                        .sum();
                    assert_eq!(
                        total.as_i64(),
                        Some(sum),
                        "{file} {kind} {} {event}",
                        g["name"]
                    );
                    let incl = g["inclusive"][event].as_i64().unwrap();
                    assert!(
                        incl.abs() >= sum.abs() || v["totals"][event].as_i64().unwrap() < 0,
                        "{file} {kind} {}",
                        g["name"]
                    );
                }
                for i in members {
                    seen[i] += 1;
                }
            }
            assert!(
                seen.iter().all(|&n| n == 1),
                "{file} {kind}: every function in one group"
            );
        }
    }
}

/// Self cost per object and per file of a callgrind file's first event,
/// read from its lines: `ob=`/`fl=`/`fn=` with name compression, `fi=` and
/// `fe=` (which do not change the function's file), call lines skipped.
fn sums_from_lines(text: &str) -> (BTreeMap<String, i64>, BTreeMap<String, i64>) {
    let mut names: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut name = |kind: &str, value: &str| -> String {
        let value = value.trim();
        if let Some(rest) = value.strip_prefix('(') {
            let (id, tail) = rest.split_once(')').unwrap();
            let tail = tail.trim();
            let key = (kind.to_string(), id.to_string());
            if tail.is_empty() {
                return names[&key].clone();
            }
            names.insert(key, tail.to_string());
            return tail.to_string();
        }
        value.to_string()
    };
    let positions = text
        .lines()
        .find_map(|l| l.strip_prefix("positions:"))
        .map_or(1, |p| p.split_whitespace().count());
    let (mut ob, mut fl) = (String::new(), String::new());
    let (mut fn_ob, mut fn_fl) = (String::new(), String::new());
    let (mut by_ob, mut by_fl) = (BTreeMap::new(), BTreeMap::new());
    let mut skip_next = false;
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("ob=") {
            ob = name("ob", v);
        } else if let Some(v) = line.strip_prefix("fl=") {
            fl = name("fl", v);
        } else if let Some(v) = line.strip_prefix("fi=").or(line.strip_prefix("fe=")) {
            name("fl", v);
        } else if let Some(v) = line.strip_prefix("fn=") {
            name("fn", v);
            (fn_ob, fn_fl) = (ob.clone(), fl.clone());
        } else if let Some(v) = line.strip_prefix("cob=") {
            name("ob", v);
        } else if let Some(v) = line.strip_prefix("cfi=").or(line.strip_prefix("cfl=")) {
            name("fl", v);
        } else if let Some(v) = line.strip_prefix("cfn=") {
            name("fn", v);
        } else if line.starts_with("calls=") {
            skip_next = true;
        } else if line.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c)) {
            if std::mem::take(&mut skip_next) {
                continue;
            }
            let cost: i64 = line
                .split_whitespace()
                .nth(positions)
                .map_or(0, |c| c.parse().unwrap());
            *by_ob.entry(fn_ob.clone()).or_insert(0) += cost;
            *by_fl.entry(fn_fl.clone()).or_insert(0) += cost;
        }
    }
    (by_ob, by_fl)
}

#[test]
fn object_and_file_sums_equal_the_profiles_lines() {
    for file in [
        "samples/recursion.callgrind",
        "samples/cpp-names.callgrind",
        "samples/rust-names.callgrind",
        "samples/inline.callgrind",
    ] {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let (by_ob, by_fl) = sums_from_lines(&text);
        for (kind, expected) in [("object", by_ob), ("file", by_fl)] {
            let v = json(&["report", "--json", "--group-by", kind, file]);
            let event = v["events"][0].as_str().unwrap().to_string();
            let got: BTreeMap<String, i64> = v["groups"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| {
                    (
                        g["name"].as_str().unwrap().to_string(),
                        g["self"][&event].as_i64().unwrap(),
                    )
                })
                .filter(|(_, v)| *v != 0)
                .collect();
            let expected: BTreeMap<String, i64> = expected
                .into_iter()
                .filter(|(_, v)| *v != 0)
                .map(|(k, v)| (if k.is_empty() { "???".to_string() } else { k }, v))
                .collect();
            assert_eq!(got, expected, "{file} by {kind}");
        }
    }
}

fn members(file: &str, kind: &str, group: &str) -> Vec<String> {
    let v = json(&["report", "--json", "--group-by", kind, file]);
    let functions = v["functions"].as_array().unwrap();
    let g = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == group)
        .unwrap_or_else(|| panic!("{file}: no {kind} {group}"));
    g["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            functions[i.as_u64().unwrap() as usize]["name"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn classes_and_modules_of_the_cpp_and_rust_samples() {
    let cpp = "samples/cpp-names.callgrind";
    let vec3 = members(cpp, "class", "geo::detail::Vec<double, 3>");
    assert!(
        vec3.iter()
            .any(|n| n.starts_with("geo::detail::Vec<double, 3>::operator+")),
        "{vec3:?}"
    );
    let acc = members(cpp, "class", "(anonymous namespace)::Accumulator");
    assert!(
        acc.iter()
            .all(|n| n.starts_with("(anonymous namespace)::Accumulator::")),
        "{acc:?}"
    );
    assert!(acc.len() >= 2, "{acc:?}");
    let ns = members(cpp, "class", "geo::detail");
    assert!(
        ns.iter().any(|n| n.contains("geo::detail::operator<<")),
        "{ns:?}"
    );
    let rust = "samples/rust-names.callgrind";
    let module = members(rust, "module", "rust_names");
    for f in [
        "rust_names::fib",
        "rust_names::largest",
        "rust_names::total_area",
    ] {
        assert!(module.iter().any(|n| n == f), "{f} in {module:?}");
    }
    let circle = members(rust, "module", "rust_names::shapes::Circle");
    assert!(circle.iter().any(|n| n.ends_with("::area")), "{circle:?}");
}

#[test]
fn the_text_report_lists_groups_before_the_functions() {
    let text = stdout_of(&[
        "report",
        "--group-by",
        "object",
        "samples/recursion.callgrind",
    ]);
    let groups = text.find("  object\n").expect("the groups' header");
    let functions = text.find("function (file) [object]").unwrap();
    assert!(groups < functions, "{text}");
    assert!(text.contains("libc.so.6"), "{text}");
    let e = cli::error_of(&[
        "report",
        "--group-by",
        "colour",
        "samples/recursion.callgrind",
    ]);
    assert!(e.contains("object, file, class, module, none"), "{e}");
}

#[test]
fn focus_and_ignore_pick_functions_by_name() {
    let file = "samples/cpp-names.callgrind";
    let rows = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["report", "--threshold", "100"];
        all.extend_from_slice(args);
        all.push(file);
        let text = stdout_of(&all);
        text.lines()
            .skip_while(|l| !l.contains("function (file) [object]"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .map(String::from)
            .collect()
    };
    let vector = rows(&["--focus", "vector"]);
    assert!(
        vector.len() > 20 && vector.iter().all(|r| r.contains("vector")),
        "{vector:?}"
    );
    let without = rows(&["--focus", "vector", "--ignore", "push_back|iterator"]);
    assert!(without.len() < vector.len());
    assert!(
        without
            .iter()
            .all(|r| !r.contains("push_back") && !r.contains("iterator"))
    );
    let e = cli::error_of(&["report", "--focus", "(", file]);
    assert!(e.contains("--focus"), "{e}");
}
