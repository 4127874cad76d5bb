//! `cgtui annotate` and the per-line numbers behind it (`analysis::source`),
//! against callgrind_annotate's `--auto=yes` annotation of the same files
//! (`tests/golden/auto/`, made by `tests/golden/make-annotations.sh`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use cgtui::analysis::{Analysis, source};
use cgtui::parse::{LoadOptions, load_paths};
use cgtui::profile::FnId;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Per annotated file: line -> costs, and (line, callee key) -> (count, costs).
#[derive(Default, Debug)]
struct FileAnnotation {
    lines: BTreeMap<u64, Vec<i64>>,
    calls: BTreeMap<(u64, String), (u64, Vec<i64>)>,
}

/// Takes `n` cost cells (`1,234`, `.`, each maybe followed by `( 1.2%)`).
fn cells(line: &str, n: usize) -> Option<(Vec<i64>, &str)> {
    let mut rest = line;
    let mut out = Vec::new();
    for _ in 0..n {
        rest = rest.trim_start();
        let end = rest.find(' ').unwrap_or(rest.len());
        let token = &rest[..end];
        out.push(if token == "." {
            0
        } else {
            token.replace(',', "").parse().ok()?
        });
        rest = &rest[end..];
        let t = rest.trim_start();
        if t.starts_with('(') {
            rest = &t[t.find(')')? + 1..];
        }
    }
    Some((out, rest.strip_prefix("  ").unwrap_or(rest.trim_start())))
}

fn parse_auto(text: &str) -> (Vec<String>, HashMap<String, FileAnnotation>) {
    let events: Vec<String> = text
        .lines()
        .find_map(|l| l.strip_prefix("Events shown:"))
        .unwrap()
        .split_whitespace()
        .map(String::from)
        .collect();
    let mut files: HashMap<String, FileAnnotation> = HashMap::new();
    let mut current: Option<String> = None;
    let mut next_line = 0;
    for line in text.lines() {
        if let Some(f) = line.strip_prefix("-- Auto-annotated source: ") {
            current = Some(f.trim().to_string());
            files.entry(f.trim().to_string()).or_default();
            next_line = 1; // a whole file starts without a `-- line` separator
            continue;
        }
        if line.starts_with("----") {
            continue;
        }
        if line.starts_with("The following files") || line.ends_with("events annotated") {
            current = None;
            continue;
        }
        if let Some(n) = line.strip_prefix("-- line ") {
            next_line = n.split_whitespace().next().unwrap().parse().unwrap();
            continue;
        }
        let Some(file) = &current else { continue };
        let Some((costs, rest)) = cells(line, events.len()) else {
            continue;
        };
        let entry = files.get_mut(file).unwrap();
        if let Some(call) = rest.trim_start().strip_prefix("=> ") {
            let (callee, count) = call.rsplit_once(" (").unwrap();
            let count = count
                .trim_end_matches("x)")
                .replace(',', "")
                .parse()
                .unwrap();
            entry
                .calls
                .insert((next_line - 1, callee.to_string()), (count, costs));
        } else {
            entry.lines.insert(next_line, costs);
            next_line += 1;
        }
    }
    (events, files)
}

fn auto_goldens() -> Vec<(PathBuf, PathBuf)> {
    let base = root().join("tests/golden/auto");
    let mut out = Vec::new();
    for dir in [base.clone(), base.join("threads"), base.join("dumps")] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "auto") {
                let rel = p.strip_prefix(&base).unwrap().with_extension("");
                out.push((p, root().join("samples").join(rel)));
            }
        }
    }
    out.sort();
    out
}

/// Every sample with a source of this repository (an `fl=` line naming
/// `samples/src/`) has its `--auto=yes` golden, as make-annotations.sh
/// makes them.
#[test]
fn auto_goldens_exist_for_the_samples_with_sources() {
    let samples = root().join("samples");
    let mut have: Vec<PathBuf> = auto_goldens().into_iter().map(|(_, s)| s).collect();
    have.sort();
    let mut wanted = Vec::new();
    for dir in [
        samples.clone(),
        samples.join("threads"),
        samples.join("dumps"),
    ] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let text = std::fs::read(&p).unwrap_or_default();
            let with_sources = text
                .split(|&b| b == b'\n')
                .any(|l| l.starts_with(b"fl=") && l.windows(12).any(|w| w == b"samples/src/"));
            if p.is_file() && with_sources {
                wanted.push(p);
            }
        }
    }
    wanted.sort();
    assert!(wanted.len() >= 30, "{} samples", wanted.len());
    assert_eq!(have, wanted, "run tests/golden/make-annotations.sh");
}

/// Every annotated line of every sample: our self cost (plus the `calls=0`
/// call costs that callgrind_annotate wrongly adds to the line of the call)
/// equals callgrind_annotate's, for every event; so do the `=>` call lines.
#[test]
fn per_line_costs_equal_callgrind_annotate() {
    let mut lines_checked = 0;
    for (golden, sample) in auto_goldens() {
        if sample.ends_with("branches-diff.cachegrind") {
            continue; // negative costs: callgrind_annotate prints them as 0
        }
        let (events, theirs) = parse_auto(&std::fs::read_to_string(&golden).unwrap());
        let profile = load_paths(
            std::slice::from_ref(&sample),
            LoadOptions {
                siblings: false,
                ..LoadOptions::default()
            },
        )
        .unwrap();
        let analysis = Analysis::new(&profile);
        let cols: Vec<usize> = events
            .iter()
            .map(|e| profile.events.index_of(e).unwrap())
            .collect();
        let pick = |row: &[i64]| cols.iter().map(|&c| row[c]).collect::<Vec<_>>();
        let all = source::collect(&profile, &analysis, |_| true);
        for (name, annotation) in &theirs {
            if !name.starts_with("samples/src/") {
                // Only sources this repository ships: others (a Python
                // library here) differ from machine to machine.
                continue;
            }
            let file = (0..profile.files.len() as u32)
                .find(|&i| profile.files.name(i) == name)
                .map(cgtui::profile::FileId)
                .unwrap();
            let rows = all.in_file(file);
            let mut ours: BTreeMap<u64, Vec<i64>> = BTreeMap::new();
            for l in &rows.lines {
                ours.insert(l.line, pick(&l.cost));
            }
            // Call sites per part: callgrind_annotate folds `calls=0` sites into
            // the line's self cost and lists only counted calls.
            let mut our_calls: BTreeMap<(u64, String, FnId), (u64, Vec<i64>)> = BTreeMap::new();
            for part in &profile.parts {
                let part = &part.decode(&profile);
                for (i, c) in part
                    .calls
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.file == file)
                {
                    let mut row = vec![0; analysis.width];
                    for (col, &v) in part.call_cost(i).iter().enumerate() {
                        row[part.event_map[col]] = v;
                    }
                    let costs = pick(&row);
                    let callee_file = profile.fn_file(c.callee);
                    let callee_file = if callee_file.is_empty() {
                        "???"
                    } else {
                        callee_file
                    };
                    let key = format!("{callee_file}:{}", profile.fn_name(c.callee));
                    let target = if c.count == 0 {
                        ours.entry(c.line).or_insert(vec![0; cols.len()])
                    } else {
                        let e = our_calls
                            .entry((c.line, key, c.caller))
                            .or_insert((0, vec![0; cols.len()]));
                        e.0 += c.count;
                        &mut e.1
                    };
                    for (a, b) in target.iter_mut().zip(costs) {
                        *a += b;
                    }
                }
            }
            let zero = vec![0; cols.len()];
            let differing: Vec<u64> = annotation
                .lines
                .iter()
                .filter(|(line, costs)| ours.get(line).unwrap_or(&zero) != *costs)
                .map(|(line, _)| *line)
                .collect();
            lines_checked += annotation.lines.len();
            if sample.ends_with("active-call.callgrind") && name.ends_with("active_call.c") {
                // A dump taken while calls are active: rows after `calls=` are
                // relative to the last plain cost line (`+2 45` / `-2 6` at
                // lines 7455-7456 are lines 24 and 20). callgrind_annotate moves
                // the position on the row after `calls=`, so it books costs on
                // the wrong lines; the file's total is the same.
                assert!(!differing.is_empty());
                let sum = |m: &BTreeMap<u64, Vec<i64>>| m.values().map(|c| c[0]).sum::<i64>();
                assert_eq!(sum(&ours), sum(&annotation.lines), "{name}");
                continue;
            }
            let shown: Vec<_> = differing
                .iter()
                .map(|l| (l, ours.get(l), &annotation.lines[l]))
                .collect();
            assert!(
                differing.is_empty(),
                "{}: {name}: {shown:?}",
                sample.display()
            );
            let n = annotation.lines.keys().max().copied().unwrap_or(0);
            for (line, costs) in &ours {
                if (1..=n).contains(line) && costs.iter().any(|&c| c != 0) {
                    assert!(
                        annotation.lines.contains_key(line),
                        "{}: {name}:{line} missing",
                        sample.display()
                    );
                }
            }
            // callgrind_annotate prints `=>` rows only for the first function
            // it saw calling from a line (`$func_of_line`), so where two
            // functions call from one line (fib and fib'2 with
            // --separate-recs) it shows one caller's calls; each of its rows
            // is one of ours, and lines with one caller match exactly.
            for ((line, callee), v) in &annotation.calls {
                let found = our_calls
                    .iter()
                    .any(|((l, c, _), ours)| l == line && c == callee && ours == v);
                assert!(
                    found,
                    "{}: {name}:{line}: call to {callee} {v:?}",
                    sample.display()
                );
            }
            for ((line, callee, caller), v) in &our_calls {
                let callers: std::collections::HashSet<FnId> = our_calls
                    .keys()
                    .filter(|(l, _, _)| l == line)
                    .map(|k| k.2)
                    .collect();
                if callers.len() == 1 {
                    let theirs = annotation.calls.get(&(*line, callee.clone()));
                    assert_eq!(
                        theirs,
                        Some(v),
                        "{}: {name}:{line} {callee} from {caller:?}",
                        sample.display()
                    );
                }
            }
        }
    }
    assert!(lines_checked > 1500, "{lines_checked}");
}

fn cgtui(args: &[&str]) -> (bool, String, String) {
    let out = Command::cargo_bin("cgtui")
        .unwrap()
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn inlined_code_is_annotated_in_its_header() {
    let (ok, out, _) = cgtui(&["annotate", "samples/inline.callgrind", "--function", "work"]);
    assert!(ok);
    assert!(
        out.contains("-- Function: work (samples/src/inline.c)"),
        "{out}"
    );
    // work()'s inlined helpers cost lines of inline_helpers.h, not of inline.c.
    let header = out
        .split("-- Source: samples/src/inline_helpers.h")
        .nth(1)
        .expect("header annotated");
    assert!(header.contains("return a * a + b;"), "{header}");
    let theirs =
        std::fs::read_to_string(root().join("tests/golden/auto/inline.callgrind.auto")).unwrap();
    let (_, files) = parse_auto(&theirs);
    let helper = &files["samples/src/inline_helpers.h"];
    let hot = helper.lines.iter().max_by_key(|(_, c)| c[0]).unwrap();
    assert!(hot.1[0] > 0);
}

#[test]
fn auto_mode_shows_call_lines_and_lists_missing_files_with_the_search_path() {
    let (ok, out, _) = cgtui(&["annotate", "samples/inline.callgrind", "--context", "1"]);
    assert!(ok);
    assert!(out.contains("=> samples/src/inline.c:work (1×)"), "{out}");
    assert!(out.contains("53,078"), "{out}");
    assert!(out.contains("-- line "), "separators");
    let missing = out.split("Source files not found").nth(1).unwrap();
    assert!(missing.contains("./elf/./elf/dl-lookup.c"));
    assert!(missing.contains("Searched: ., samples"), "{missing}");
}

#[test]
fn jumps_are_shown_where_the_profile_has_them() {
    let (ok, out, _) = cgtui(&[
        "annotate",
        "samples/jumps-lines.callgrind",
        "--function",
        "classify",
    ]);
    assert!(ok);
    assert!(
        out.contains("jcnd ") && out.contains(" taken to line "),
        "{out}"
    );
}

#[test]
fn moved_sources_are_found_with_source_root_and_include() {
    let dir = tempfile::tempdir().unwrap();
    let moved = crate::support::cli::moved_recursion_source(dir.path());
    let profile = root().join("samples/recursion.callgrind");
    let run = |extra: &[&str]| {
        let mut args = vec!["annotate", profile.to_str().unwrap(), "--function", "fib'2"];
        args.extend_from_slice(extra);
        let out = Command::cargo_bin("cgtui")
            .unwrap()
            .current_dir(dir.path())
            .args(&args)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let lost = run(&[]);
    assert!(
        lost.contains("source file samples/src/recursion.c not found"),
        "{lost}"
    );
    assert!(lost.contains("Costs by line (no source text)"), "{lost}");
    let rewrite = format!("samples/src={}", moved.display());
    let found = run(&["--source-root", &rewrite]);
    assert!(
        found.contains("return fib(n - 1) + fib(n - 2)") || found.contains("fib(n"),
        "{found}"
    );
    let found = run(&["-I", moved.to_str().unwrap()]);
    assert!(!found.contains("not found"), "{found}");
}

#[test]
fn a_source_newer_than_the_profile_is_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("samples/src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::copy(
        root().join("samples/recursion.callgrind"),
        dir.path().join("old.callgrind"),
    )
    .unwrap();
    let old = std::fs::File::options()
        .write(true)
        .open(dir.path().join("old.callgrind"))
        .unwrap();
    old.set_modified(std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000))
        .unwrap();
    std::fs::copy(
        root().join("samples/src/recursion.c"),
        src.join("recursion.c"),
    )
    .unwrap();
    let out = Command::cargo_bin("cgtui")
        .unwrap()
        .current_dir(dir.path())
        .args(["annotate", "old.callgrind", "--function", "fib'2"])
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(out.contains("is newer than the profile"), "{out}");
}

#[test]
fn instruction_profiles_list_addresses_lines_and_costs() {
    let (ok, out, _) = cgtui(&[
        "annotate",
        "samples/inline-instr.callgrind",
        "--function",
        "mix_main",
        "--instructions",
    ]);
    assert!(ok);
    let listing = out.split("-- Instructions of mix_main").nth(1).unwrap();
    let rows: Vec<&str> = listing
        .lines()
        .filter(|l| l.trim_start().starts_with("0x"))
        .collect();
    assert!(rows.len() >= 3, "{listing}");
    // The instruction costs of a function add up to its self cost.
    let profile = load_paths(
        &[root().join("samples/inline-instr.callgrind")],
        LoadOptions::default(),
    )
    .unwrap();
    let analysis = Analysis::new(&profile);
    let f = (0..profile.functions.len())
        .map(cgtui::profile::FnId::from_index)
        .find(|&f| profile.fn_name(f) == "mix_main")
        .unwrap();
    let sum: i64 = source::function_source(&profile, &analysis, f)
        .instrs
        .iter()
        .map(|i| i.cost[0])
        .sum();
    assert_eq!(sum, analysis.self_cost(f)[0]);
    let (_, line_only, _) = cgtui(&[
        "annotate",
        "samples/inline.callgrind",
        "--function",
        "mix_main",
        "--instructions",
    ]);
    assert!(line_only.contains("none (the profile has no `positions: instr`)"));
}

#[test]
fn report_json_lines_adds_per_line_costs_and_call_sites() {
    let (ok, out, _) = cgtui(&["report", "--json", "--lines", "samples/inline.callgrind"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let functions = v["functions"].as_array().unwrap();
    let work = functions.iter().find(|f| f["name"] == "work").unwrap();
    let lines = work["lines"].as_array().unwrap();
    let sum: i64 = lines
        .iter()
        .map(|l| l["self"]["Ir"].as_i64().unwrap())
        .sum();
    assert_eq!(sum, work["self"]["Ir"].as_i64().unwrap());
    assert!(
        lines
            .iter()
            .any(|l| l["file"] == "samples/src/inline_helpers.h"),
        "inlined lines keep their file"
    );
    let main = functions
        .iter()
        .find(|f| f["name"] == "main" && f["file"] == "samples/src/inline.c")
        .unwrap();
    let site = main["call_sites"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| functions[c["callee"].as_u64().unwrap() as usize]["name"] == "work")
        .unwrap();
    assert_eq!(site["count"], 1);
    assert_eq!(site["inclusive"]["Ir"], 53078);
    assert!(Path::new(&root().join("tests/golden/auto/inline.callgrind.auto")).exists());
}

/// `annotate --function F` of a profile file changed since it was loaded
/// (its per-line costs are read again from it): an error naming the file,
/// never an annotation without its lines.
#[test]
fn a_profile_changed_since_loading_is_an_error_not_an_empty_annotation() {
    use cgtui::annotate::{AnnotateOptions, annotate};
    use cgtui::locate::Locator;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.callgrind");
    let mut text = String::from("events: Ir\nfl=a.c\n");
    for i in 0..50 {
        text.push_str(&format!("fn=f{i}\n{} {}\n{} 1\n", i + 1, i + 2, i + 3));
    }
    std::fs::write(&path, &text).unwrap();
    // Loading (any size) keeps per-line costs in the file.
    let options = LoadOptions {
        siblings: false,
        plan: cgtui::parse::Plan {
            chunks: 2,
            threads: 2,
        },
    };
    let profile = load_paths(std::slice::from_ref(&path), options).unwrap();
    let analysis = Analysis::new(&profile);
    let f7 = (0..profile.functions.len())
        .map(|i| FnId(i as u32))
        .find(|&f| profile.fn_name(f) == "f7")
        .unwrap();
    let options = AnnotateOptions {
        events: vec![0],
        metrics: Vec::new(),
        min_denominator: cgtui::metric::DEFAULT_MIN_DENOMINATOR,
        context: 8,
        threshold: 100.0,
        functions: vec![f7],
        instructions: false,
    };
    assert!(annotate(&profile, &analysis, &Locator::default(), &options).is_ok());
    std::fs::write(&path, text.replace("fn=f7\n8 9", "fn=f7\n8 10")).unwrap();
    let modified = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let err = annotate(&profile, &analysis, &Locator::default(), &options).unwrap_err();
    let message = err.to_string();
    assert!(
        message.starts_with(&path.display().to_string()),
        "{message}"
    );
    assert!(message.contains("changed since it was loaded"), "{message}");
}

/// A profile with a self call (3 calls), mutual recursion (a and b) and a
/// call of unknown count (`calls=0`), on a source file of 9 lines.
fn recursive_profile(dir: &Path) -> PathBuf {
    let src = dir.join("r.c");
    let text: String = (1..=9).map(|i| format!("line {i}\n")).collect();
    std::fs::write(&src, text).unwrap();
    let profile = dir.join("r.callgrind");
    let s = src.display();
    std::fs::write(
        &profile,
        format!(
            "events: Ir\nfl={s}\nfn=f\n1 5\ncfn=f\ncalls=3 1\n2 100\ncfn=g\ncalls=0 5\n3 7\n\
             cfn=a\ncalls=1 6\n4 40\nfn=g\n5 7\nfn=a\n6 10\ncfn=b\ncalls=2 7\n7 30\n\
             fn=b\n7 10\ncfn=a\ncalls=1 6\n8 20\n"
        ),
    )
    .unwrap();
    profile
}

#[test]
fn recursive_call_lines_are_marked_and_unknown_counts_shown_as_question_marks() {
    let dir = tempfile::tempdir().unwrap();
    let profile = recursive_profile(dir.path());
    let p = profile.to_str().unwrap();
    let (ok, out, err) = cgtui(&["annotate", p, "--function", "f", "--function", "a"]);
    assert!(ok, "{err}");
    let src = dir.path().join("r.c").display().to_string();
    let call = |callee: &str, count: &str| {
        out.lines()
            .find(|l| l.contains(&format!("=> {src}:{callee} ({count}×)")))
            .unwrap_or_else(|| panic!("no call to {callee} ({count}×):\n{out}"))
    };
    const MARK: &str = "↻ recursive (cost includes nested calls)";
    // f calling f, and a calling b within the cycle {a, b}.
    assert!(call("f", "3").trim_start().starts_with("100"));
    assert!(call("f", "3").ends_with(MARK), "{out}");
    assert!(call("b", "2").ends_with(MARK), "{out}");
    // f calling g (count unknown) and a (outside f's cycle) are plain calls.
    assert!(call("g", "?").ends_with("(?×)"), "{out}");
    assert!(call("a", "1").ends_with("(1×)"), "{out}");
    assert!(!out.contains(" (0×)"), "{out}");
}

/// `annotate --base` of a change beyond 64 bits (a cost of -9e18, as
/// `cg_diff` writes them, against +9e18): the line's change is held at the
/// limit and written as the bound it is, with a note saying so, never as
/// the plain `+9,223,372,036,854,775,807` it printed before.
#[test]
fn a_change_beyond_64_bits_is_written_as_a_bound() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, main: &str| {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!("events: Ir\nfl=gone.c\nfn=main\n1 {main}\n2 3\n"),
        )
        .unwrap();
        path.to_str().unwrap().to_string()
    };
    let base = write("base", "-9000000000000000000");
    let new = write("new", "9000000000000000000");
    let (ok, out, err) = cgtui(&["annotate", "--base", &base, &new, "--function", "main"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    assert!(
        lines.contains(&">=+9,223,372,036,854,775,807  line 1"),
        "{out}"
    );
    assert!(lines.contains(&".  line 2"), "{out}");
    assert_eq!(
        out.matches("9,223,372,036,854,775,807").count(),
        out.matches(">=+9,223,372,036,854,775,807").count(),
        "{out}"
    );
    assert!(
        out.ends_with(
            "A change written >= or <= reached the 64-bit limit: it is at least that large.\n"
        ),
        "{out}"
    );
    // The other way round: the bound below.
    let (ok, out, _) = cgtui(&["annotate", "--base", &new, &base, "--function", "main"]);
    assert!(ok);
    assert!(
        out.contains("<=-9,223,372,036,854,775,808  line 1"),
        "{out}"
    );
    // A change that fits is written plainly, with no note.
    let small = write("small", "5");
    let (ok, out, _) = cgtui(&["annotate", "--base", &small, &new, "--function", "main"]);
    assert!(ok);
    assert!(out.contains("+8,999,999,999,999,999,995  line 1"), "{out}");
    assert!(!out.contains(">=") && !out.contains("64-bit"), "{out}");
}

/// Directories given with `-I` and the source path are the user's and the
/// profile's text: control characters in them are escaped on standard
/// output (as the browser shows them), never written raw.
#[test]
fn searched_directories_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("p.callgrind");
    std::fs::write(&profile, "events: Ir\nfl=src\x1b]0;t\x07.c\nfn=main\n1 5\n").unwrap();
    let include = dir.path().join("inc\x1b[2J\u{9b}31m\x07");
    std::fs::create_dir(&include).unwrap();
    let inc = include.to_str().unwrap();
    for args in [
        vec!["annotate", profile.to_str().unwrap(), "-I", inc],
        vec![
            "annotate",
            profile.to_str().unwrap(),
            "-I",
            inc,
            "--function",
            "main",
        ],
    ] {
        let (ok, out, err) = cgtui(&args);
        assert!(ok, "{err}");
        assert!(
            !out.contains(|c: char| c.is_control() && c != '\n'),
            "{out:?}"
        );
        assert!(out.contains("inc\\e[2J\\u{9b}31m\\x07"), "{out}");
        assert!(out.contains("src\\e]0;t\\x07.c"), "{out}");
    }
}
