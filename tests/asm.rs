//! `cgtui annotate --asm` on real binaries: `samples/src/asm_hash.c` built
//! here with the system compiler (`-O2 -g`, and stripped) and profiled
//! with `valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes`.
//! The listing is checked against the profile (`report`'s self cost),
//! objdump's own listing of the function, the program's loop counts and
//! `addr2line -i`; then against a missing object, a missing objdump, a
//! stripped and a changed object.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tools::require;
use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The programs and their profiles, made once per run.
struct Built {
    dir: PathBuf,
    binary: PathBuf,
    profile: PathBuf,
    stripped_profile: PathBuf,
}

fn run(command: &mut std::process::Command) {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        require(&["gcc", "valgrind", "objdump", "addr2line"]);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("asm");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let source = root().join("samples/src/asm_hash.c");
        for (name, strip) in [("hash", false), ("hash-stripped", true)] {
            let mut cc = std::process::Command::new("gcc");
            cc.args(["-O2", "-g", "-o"])
                .arg(dir.join(name))
                .arg(&source);
            if strip {
                cc.arg("-s");
            }
            run(&mut cc);
            run(std::process::Command::new("valgrind")
                .args([
                    "-q",
                    "--tool=callgrind",
                    "--dump-instr=yes",
                    "--collect-jumps=yes",
                ])
                .arg(format!(
                    "--callgrind-out-file={}",
                    dir.join(format!("{name}.callgrind")).display()
                ))
                .arg(dir.join(name))
                .arg("4096")
                .stdout(std::process::Stdio::null()));
        }
        Built {
            binary: dir.join("hash"),
            profile: dir.join("hash.callgrind"),
            stripped_profile: dir.join("hash-stripped.callgrind"),
            dir,
        }
    })
}

/// Status, standard output and standard error of `cgtui ARGS`.
fn cgtui(args: &[&str], path: Option<&str>) -> (Option<i32>, String, String) {
    let mut command = Command::cargo_bin("cgtui").unwrap();
    command.current_dir(root()).args(args);
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let out = command.output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The one function of `--asm --json` output.
fn only_function(json: &str) -> Value {
    let v: Value = serde_json::from_str(json).unwrap();
    let functions = v["functions"].as_array().unwrap();
    assert_eq!(functions.len(), 1, "{json}");
    functions[0].clone()
}

fn instructions(function: &Value) -> &Vec<Value> {
    function["instructions"].as_array().unwrap()
}

fn address(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// The sum of the instructions' `Ir`.
fn ir_sum(function: &Value) -> i64 {
    instructions(function)
        .iter()
        .map(|i| i["self"]["Ir"].as_i64().unwrap())
        .sum()
}

/// `report --json`'s self `Ir` of the function named `name`.
fn report_self(profile: &Path, name: &str) -> i64 {
    let (status, out, err) = cgtui(&["report", "--json", profile.to_str().unwrap()], None);
    assert_eq!(status, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let f = (v["functions"].as_array().unwrap().iter())
        .find(|f| f["name"] == name)
        .unwrap();
    f["self"]["Ir"].as_i64().unwrap()
}

/// `annotate --asm --json --function NAME PROFILE [more]`.
fn asm_json(profile: &Path, name: &str, more: &[&str], path: Option<&str>) -> (Value, String) {
    let mut args = vec![
        "annotate",
        "--asm",
        "--json",
        "--function",
        name,
        profile.to_str().unwrap(),
    ];
    args.extend_from_slice(more);
    let (status, out, err) = cgtui(&args, path);
    assert_eq!(status, Some(0), "{err}");
    (only_function(&out), err)
}

#[test]
fn costs_jumps_and_inline_chains_match_the_profile_objdump_and_addr2line() {
    let b = built();
    let (f, err) = asm_json(&b.profile, "build_index", &[], None);
    assert_eq!(err, "", "no note for a fresh object with DWARF");
    assert_eq!(f["object"], b.binary.to_str().unwrap());
    assert_eq!(ir_sum(&f), report_self(&b.profile, "build_index"));
    let rows = instructions(&f);
    // Every instruction of the function, as objdump lists it itself.
    let objdump = std::process::Command::new("objdump")
        .args(["-d", "--disassemble=build_index"])
        .arg(&b.binary)
        .output()
        .unwrap();
    let expected: Vec<u64> = String::from_utf8(objdump.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let (a, _) = l.trim_start().split_once(":\t")?;
            u64::from_str_radix(a, 16).ok()
        })
        .collect();
    let ours: Vec<u64> = rows.iter().map(|i| address(&i["address"])).collect();
    assert_eq!(ours, expected);
    assert!(rows.iter().all(|i| !i["text"].as_str().unwrap().is_empty()));
    // The two loops' backward jumps, with the counts the program makes:
    // 4096 bytes, 8 per outer iteration.
    let mut backward: Vec<(u64, Value)> = Vec::new();
    for i in rows {
        for j in i["jumps"].as_array().unwrap() {
            if address(&j["target"]) <= address(&i["address"]) {
                backward.push((j["executed"].as_u64().unwrap(), j["taken"].clone()));
                assert!(ours.contains(&address(&j["target"])), "{j}");
            }
        }
    }
    backward.sort_by_key(|b| b.0);
    assert_eq!(
        backward,
        vec![(512, Value::from(511)), (4096, Value::from(3584))]
    );
    // Inline chains as `addr2line -i` gives them.
    let chains = addr2line_chains(&b.binary, &ours);
    let mut inlined = 0;
    for i in rows {
        let mut names = chains[&address(&i["address"])].clone();
        assert_eq!(names.pop().as_deref(), Some("build_index"), "{i}");
        names.reverse();
        let ours: Vec<String> = serde_json::from_value(i["inline"].clone()).unwrap();
        assert_eq!(ours, names, "{i}");
        inlined += usize::from(ours == ["hash_bytes", "mix"]);
    }
    assert!(
        inlined >= 2,
        "mix's xor and multiply are inlined in hash_bytes"
    );
}

/// `addr2line -a -i -f`'s functions for each address: innermost first,
/// the function itself last.
fn addr2line_chains(binary: &Path, addrs: &[u64]) -> BTreeMap<u64, Vec<String>> {
    let mut addr2line = std::process::Command::new("addr2line");
    addr2line.args(["-a", "-i", "-f", "-e"]).arg(binary);
    for a in addrs {
        addr2line.arg(format!("{a:#x}"));
    }
    let text = String::from_utf8(addr2line.output().unwrap().stdout).unwrap();
    let mut chains: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let mut current = 0;
    for line in text.lines() {
        if let Some(hex) = line.strip_prefix("0x") {
            current = u64::from_str_radix(hex, 16).unwrap();
            chains.insert(current, Vec::new());
        } else if !line.contains(':') {
            // A function name (the file:line lines have a colon).
            chains.get_mut(&current).unwrap().push(line.to_string());
        }
    }
    chains
}

/// `report --json --inlined`: build_index's self cost by the innermost
/// function addr2line names at each costed address, adding up to it.
#[test]
fn report_inlined_breaks_self_cost_down_as_addr2line_does() {
    let b = built();
    let (f, _) = asm_json(&b.profile, "build_index", &[], None);
    let costed: Vec<(u64, i64)> = (instructions(&f).iter())
        .map(|i| (address(&i["address"]), i["self"]["Ir"].as_i64().unwrap()))
        .filter(|&(_, c)| c > 0)
        .collect();
    let addrs: Vec<u64> = costed.iter().map(|c| c.0).collect();
    let chains = addr2line_chains(&b.binary, &addrs);
    let mut expected: BTreeMap<(String, bool), i64> = BTreeMap::new();
    for (a, c) in costed {
        let chain = &chains[&a];
        *expected
            .entry((chain[0].clone(), chain.len() > 1))
            .or_default() += c;
    }
    let (status, out, err) = cgtui(
        &["report", "--json", "--inlined", b.profile.to_str().unwrap()],
        None,
    );
    assert_eq!(status, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let entry = (v["functions"].as_array().unwrap().iter())
        .find(|f| f["name"] == "build_index")
        .unwrap();
    let shares = entry["inlined"].as_array().unwrap();
    let ours: BTreeMap<(String, bool), i64> = shares
        .iter()
        .map(|s| {
            let key = (
                s["name"].as_str().unwrap().to_string(),
                s["inlined"] == true,
            );
            (key, s["self"]["Ir"].as_i64().unwrap())
        })
        .collect();
    assert_eq!(ours, expected);
    assert!(ours.contains_key(&("mix".to_string(), true)), "{ours:?}");
    let sum: i64 = ours.values().sum();
    assert_eq!(sum, entry["self"]["Ir"].as_i64().unwrap());
    // Costliest first.
    let order: Vec<i64> = shares
        .iter()
        .map(|s| s["self"]["Ir"].as_i64().unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] >= w[1]), "{order:?}");
}

#[test]
fn text_shows_counts_backward_jumps_and_inline_chains() {
    let b = built();
    let (status, out, err) = cgtui(
        &[
            "annotate",
            "--asm",
            "--function",
            "build_index",
            b.profile.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(status, Some(0), "{err}");
    assert!(out.contains("-- Assembly of build_index ("), "{out}");
    assert!(
        out.contains("jcnd ↑ 0x") && out.contains(" taken 3,584 of 4,096 (87.50%), backward"),
        "{out}"
    );
    assert!(out.contains("taken 511 of 512 (99.80%), backward"), "{out}");
    assert!(out.contains("[inlined: hash_bytes > mix]"), "{out}");
    assert!(out.contains("asm_hash.c:"), "source positions: {out}");
    // main's call of build_index, with its inclusive cost and count.
    let (_, main, _) = cgtui(
        &[
            "annotate",
            "--asm",
            "--function",
            "main",
            b.profile.to_str().unwrap(),
        ],
        None,
    );
    let ir = report_self(&b.profile, "build_index");
    let line = (main.lines())
        .find(|l| l.contains("=> build_index (1×)"))
        .unwrap();
    assert!(
        line.contains(&cgtui::format::thousands(ir)),
        "{ir} in {line}"
    );
}

#[test]
fn a_moved_object_is_named_with_where_it_was_looked_for_then_found() {
    let b = built();
    let dir = tempfile::tempdir().unwrap();
    let moved = dir.path().join("moved.callgrind");
    let text = std::fs::read_to_string(&b.profile).unwrap();
    let old = format!("{}/", b.dir.display());
    std::fs::write(&moved, text.replace(&old, "/nonexistent/build/")).unwrap();
    let (f, err) = asm_json(&moved, "build_index", &[], None);
    assert!(
        err.contains("object /nonexistent/build/hash not found (tried: /nonexistent/build/hash"),
        "{err}"
    );
    assert!(err.contains("--object-root OLD=NEW"), "{err}");
    assert!(instructions(&f).iter().all(|i| i["text"] == ""));
    assert_eq!(ir_sum(&f), report_self(&b.profile, "build_index"));
    let root = format!("/nonexistent/build={}", b.dir.display());
    let (f, err) = asm_json(&moved, "build_index", &["--object-root", &root], None);
    assert_eq!(err, "");
    assert!(instructions(&f).iter().all(|i| i["text"] != ""));
}

#[test]
fn without_objdump_the_costs_are_listed_and_it_is_said() {
    let b = built();
    let (f, err) = asm_json(&b.profile, "build_index", &[], Some(""));
    assert!(err.contains("cannot run objdump"), "{err}");
    assert!(err.contains("install binutils"), "{err}");
    assert!(instructions(&f).iter().all(|i| i["text"] == ""));
    assert_eq!(ir_sum(&f), report_self(&b.profile, "build_index"));
}

#[test]
fn a_stripped_object_is_said_to_be_and_its_costs_still_add_up() {
    let b = built();
    // No symbols: callgrind names the function by its address.
    let (status, out, _) = cgtui(
        &["report", "--json", b.stripped_profile.to_str().unwrap()],
        None,
    );
    assert_eq!(status, Some(0));
    let v: Value = serde_json::from_str(&out).unwrap();
    let hottest = (v["functions"].as_array().unwrap().iter())
        .filter(|f| f["object"].as_str().unwrap().ends_with("/hash-stripped"))
        .max_by_key(|f| f["self"]["Ir"].as_i64().unwrap())
        .unwrap();
    let name = hottest["name"].as_str().unwrap();
    let (f, err) = asm_json(&b.stripped_profile, name, &[], None);
    assert!(err.contains("hash-stripped has no symbol"), "{err}");
    assert!(err.contains("hash-stripped has no DWARF"), "{err}");
    assert_eq!(ir_sum(&f), hottest["self"]["Ir"].as_i64().unwrap());
    let costed: Vec<&Value> = (instructions(&f).iter())
        .filter(|i| i["self"]["Ir"].as_i64().unwrap() > 0)
        .collect();
    assert!(costed.iter().all(|i| i["text"] != ""), "{f}");
    assert!(
        instructions(&f)
            .iter()
            .all(|i| i["inline"] == Value::Array(vec![]))
    );
}

#[test]
fn a_changed_object_is_detected() {
    let b = built();
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("changed.callgrind");
    let text = std::fs::read_to_string(&b.profile).unwrap();
    let object = dir.path().join("hash");
    std::fs::write(
        &profile,
        text.replace(b.binary.to_str().unwrap(), object.to_str().unwrap()),
    )
    .unwrap();
    // Rebuilt without optimisation after the profile was made.
    run(std::process::Command::new("gcc")
        .args(["-O0", "-g", "-o"])
        .arg(&object)
        .arg(root().join("samples/src/asm_hash.c")));
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&object)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let (f, err) = asm_json(&profile, "build_index", &[], None);
    assert!(err.contains("is newer than the profile"), "{err}");
    assert!(
        err.contains("do not start an instruction") || err.contains("outside its code"),
        "{err}"
    );
    assert_eq!(ir_sum(&f), report_self(&b.profile, "build_index"));
}

#[test]
fn nothing_to_show_is_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("lines.callgrind");
    std::fs::write(&profile, "events: Ir\nob=/bin/app\nfl=a.c\nfn=f\n3 10\n").unwrap();
    let (status, out, err) = cgtui(&["annotate", "--asm", profile.to_str().unwrap()], None);
    assert_eq!(status, Some(2), "{out}");
    assert_eq!(
        err,
        "cgtui: --asm: nothing to show: f: the profile has no per-instruction costs (record with valgrind --dump-instr=yes)\n"
    );
}

/// The committed sample reads with its committed binary, with no note:
/// the docs' screens of the listing are made from it.
#[test]
fn the_committed_sample_matches_its_binary() {
    require(&["objdump"]);
    let (status, out, err) = cgtui(
        &[
            "annotate",
            "--asm",
            "--function",
            "build_index",
            "--object-root",
            "/tmp/cgtui-samples=samples/src",
            "samples/asm-hash.callgrind",
        ],
        None,
    );
    assert_eq!((status, err.as_str()), (Some(0), ""));
    assert!(out.contains("-- read from samples/src/asm-hash"), "{out}");
    assert!(
        out.contains("taken 3,584 of 4,096 (87.50%), backward"),
        "{out}"
    );
    assert!(out.contains("[inlined: hash_bytes > mix]"), "{out}");
}
