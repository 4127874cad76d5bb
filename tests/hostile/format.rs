//! The format reader against files made to mislead it (issue 16): derived
//! events that nest, odd line ends and byte order marks, every compression,
//! duplicate events, headers with more values than events, unknown versions,
//! sums at the counter's limit, files that change while they are read; and
//! from issue 10, the `summary:` of every Callgrind profile and the names
//! yappi declares up front.

use super::run::*;
use std::path::Path;
use std::time::Duration;

/// A small profile with a call, compressed below by the real tools
/// (`bzip2 -9`, `xz`, `zstd`): the bytes are theirs.
const PROFILE: &[u8] = b"events: Ir\nfn=main\n1 5\ncfn=g\ncalls=1 1\n1 3\nfn=g\n1 3\n";
const PROFILE_BZ2: &[u8] = b"\x42\x5a\x68\x39\x31\x41\x59\x26\x53\x59\x78\x42\xbf\x4a\x00\x00\x10\x5d\x80\x00\x10\x40\x00\x2a\x12\x00\x20\x2b\xa7\x1d\x00\x20\x00\x31\x40\xd3\x43\x23\x26\x20\xd2\x7a\x86\x80\x41\xbd\x46\x63\xf1\x77\x1f\xcc\x0a\xd6\xd6\x62\xdb\x17\x63\xbf\x26\x39\x00\x61\x41\xe8\x45\x26\x4b\x8f\xa9\x74\x5d\xc9\x14\xe1\x42\x41\xe1\x0a\xfd\x28";
const PROFILE_XZ: &[u8] = b"\xfd\x37\x7a\x58\x5a\x00\x00\x04\xe6\xd6\xb4\x46\x02\x00\x21\x01\x16\x00\x00\x00\x74\x2f\xe5\xa3\xe0\x00\x33\x00\x31\x5d\x00\x32\x9d\x88\xce\x91\x1e\x5a\x0e\xe3\xd7\x4d\x29\x6a\x01\xec\xee\xb1\xbb\xf4\xb4\x6c\xda\x77\x2b\x61\xbd\x1e\xa1\xad\x05\xd8\x4f\x50\x03\x9a\xc4\x14\xa3\xd1\xdd\x69\x68\x90\x07\xe4\xc2\x77\x5c\x00\x00\x00\x00\x00\x9c\xc4\x6e\xf3\x9e\x83\xa0\x8b\x00\x01\x4d\x34\xd6\x70\xe5\x44\x1f\xb6\xf3\x7d\x01\x00\x00\x00\x00\x04\x59\x5a";
const PROFILE_ZST: &[u8] = b"\x28\xb5\x2f\xfd\x24\x34\xa1\x01\x00\x65\x76\x65\x6e\x74\x73\x3a\x20\x49\x72\x0a\x66\x6e\x3d\x6d\x61\x69\x6e\x0a\x31\x20\x35\x0a\x63\x66\x6e\x3d\x67\x0a\x63\x61\x6c\x6c\x73\x3d\x31\x20\x31\x0a\x31\x20\x33\x0a\x66\x6e\x3d\x67\x0a\x31\x20\x33\x0a\x58\x20\x4a\xba";

fn samples() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/samples"))
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// The parts of the JSON that say what was loaded.
fn same_profile(a: &Loaded, b: &Loaded) {
    for key in ["totals", "functions", "calls", "events"] {
        assert_eq!(a.json[key], b.json[key], "{key}");
    }
}

// ------------------------------------------------------ case 10: derived

#[test]
fn derived_events_nested_forty_deep_in_linear_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("events: Ir\nevent: E1 = Ir\n");
    for k in 2..=40 {
        text += &format!("event: E{k} = E{} + E{}\n", k - 1, k - 1);
    }
    text += "fn=main\n1 3\n";
    let path = write(dir.path(), "nested.cg", text.as_bytes());
    let run = measured(
        &["report", "--json"],
        &path,
        Duration::from_secs(20),
        2 * GIB_KIB,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["totals"]["E40"], 3i64 << 39);
    assert!(run.peak_kib < 64 * MIB, "peak {} KiB", run.peak_kib);

    // 300 events, each the sum of all before it (291 KB): 256 are kept.
    let mut text = String::from("events: Ir\n");
    let mut before = vec!["Ir".to_string()];
    for k in 0..300 {
        text += &format!("event: S{k} = {}\n", before.join(" + "));
        before.push(format!("S{k}"));
    }
    text += "fn=main\n1 1\n";
    let path = write(dir.path(), "wide.cg", text.as_bytes());
    let run = measured(&["report"], &path, Duration::from_secs(20), 2 * GIB_KIB);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("more than 256 derived events"),
        "{}",
        run.stderr
    );
    assert!(run.peak_kib < 64 * MIB, "peak {} KiB", run.peak_kib);
}

#[test]
fn derived_events_that_use_themselves_or_unknown_ones_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "self.cg",
        b"events: Ir\nevent: X = X + Ir\nevent: Late = Y\nevent: Y = 2 Ir\nevent: U = Nope\nfn=main\n1 5\n",
    );
    let l = loads(&path);
    l.has(2, "error", "`X` is defined in terms of itself")
        .has(5, "error", "unknown event `Nope`");
    // A definition may use one further down.
    assert_eq!((l.total("Late"), l.total("Y")), (10, 10));
    assert!(l.json["totals"].get("X").is_none());
}

// ------------------------------------------- case 16: changed while reading

/// Cuts the file to half its size once the child has read a tenth of it.
fn truncated_while_loading(path: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let len = std::fs::metadata(path).unwrap().len();
    let child = std::process::Command::new(bin())
        .args(args)
        .arg(path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let io = format!("/proc/{}/io", child.id());
    let start = std::time::Instant::now();
    loop {
        let read = std::fs::read_to_string(&io)
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("rchar: ").map(|n| n.parse::<u64>().unwrap()))
            .unwrap_or(u64::MAX);
        if read > len / 10 || start.elapsed() > Duration::from_secs(30) {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_profile_cut_while_it_loads_is_an_error_not_a_wrong_total() {
    let dir = tempfile::tempdir().unwrap();
    // Plain: read on every core; CR-only line ends: read sequentially.
    for (name, cr) in [("big.cg", false), ("big-cr.cg", true)] {
        let path = dir.path().join(name);
        // A copy of the suite's 10 MB profile (a tenth of it is read long
        // before the load ends: it takes seconds unoptimised, a tenth of
        // a second optimised, and the test polls every millisecond).
        let big = crate::support::generated::instruction_level_10m();
        let ir = big.written.totals.iter().find(|t| t.0 == "Ir").unwrap().1;
        let mut text = std::fs::read(&big.path).unwrap();
        if cr {
            for b in &mut text {
                if *b == b'\n' {
                    *b = b'\r';
                }
            }
        }
        // The cut races with the load: a load that ended before it must
        // have read the whole file; one that did not must say so.
        let mut caught = 0;
        for _ in 0..3 {
            std::fs::write(&path, &text).unwrap();
            let (code, stdout, stderr) = truncated_while_loading(&path, &["report", "--json"]);
            if code == Some(0) {
                let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
                assert_eq!(
                    v["totals"]["Ir"].as_u64().map(u128::from),
                    Some(ir),
                    "{name}"
                );
                continue;
            }
            assert_eq!(code, Some(2), "{name}: {stderr}");
            assert!(stdout.is_empty(), "{name}");
            assert_eq!(
                stderr.trim_end(),
                format!(
                    "cgtui: {}: changed while reading (load it again once it is complete)",
                    path.display()
                )
            );
            caught += 1;
        }
        assert!(caught > 0, "{name}: every load ended before the cut");
    }
}

// ------------------------------------------------- case 21: CR line ends

const PLAIN: &str = "version: 1\nevents: Ir Dr\nsummary: 30 6\nfl=(1) a.c\nfn=(1) main\n10 5 1\n+1 3\ncfn=(2) g\ncalls=2 20\n* 20 4\nfn=(2)\n20 20 4\n-1 2 1\ntotals: 30 6\n";

#[test]
fn cr_only_line_ends_are_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    let lf = loads(&write(dir.path(), "lf.cg", PLAIN.as_bytes()));
    let cr = loads(&write(
        dir.path(),
        "cr.cg",
        PLAIN.replace('\n', "\r").as_bytes(),
    ));
    cr.clean();
    same_profile(&lf, &cr);
    assert_eq!(cr.total("Ir"), 30);
}

// ----------------------------------------------- case 22: said, not silent

#[test]
fn duplicate_events_extra_values_and_unknown_versions_are_warned() {
    let dir = tempfile::tempdir().unwrap();
    let l = loads(&write(
        dir.path(),
        "dup.cg",
        b"events: Ir Ir\nfn=main\n1 5 6\n",
    ));
    l.has(1, "warning", "`events:` names Ir more than once");
    // Its columns added together go beyond 64 bits: the sums stop at the
    // limit, in the JSON report's part totals too (found by fuzzing).
    let max = i64::MAX;
    let l = loads(&write(
        dir.path(),
        "dup-big.cg",
        format!("events: Ir Ir\nfn=main\n1 {max} {max}\n").as_bytes(),
    ));
    assert_eq!(
        l.json["parts"][0]["totals"]["Ir"], max,
        "{}",
        l.json["parts"]
    );
    let l = loads(&write(
        dir.path(),
        "extra.cg",
        b"version: 2\nevents: Ir\nsummary: 10 20 30\nfn=main\n1 10\ntotals: 10 99\n",
    ));
    l.has(
        1,
        "warning",
        "`version: 2` is not the version this reader knows",
    )
    .has(3, "warning", "`summary:` has 3 values for 1 event(s)")
    .has(6, "warning", "`totals:` has 2 values for 1 event(s)");
    assert_eq!(l.total("Ir"), 10);
}

#[test]
fn sums_at_the_counter_limit_say_so() {
    let dir = tempfile::tempdir().unwrap();
    // Two functions of i64::MAX: each is exact, their sum is not.
    let l = loads(&write(
        dir.path(),
        "sat.cg",
        b"events: Ir\nfn=main\n1 9223372036854775807\nfn=g\n1 9223372036854775807\n",
    ));
    assert!(
        l.stderr
            .contains("the costs of Ir add up beyond the signed 64-bit range"),
        "{}",
        l.stderr
    );
    // One function whose lines add up beyond it.
    let l = loads(&write(
        dir.path(),
        "sat1.cg",
        b"events: Ir\nfn=main\n1 9223372036854775807\n2 1\n",
    ));
    l.has(4, "warning", "the sum is saturated");
}

/// Sums the loader never makes: the parts of a profile summed (two dumps
/// of 5e18 each), and a derived event's formula (2 x 5e18), pass the
/// signed 64-bit range and saturate; each says so once per event, on
/// standard error and in the JSON, where before the report printed
/// 9,223,372,036,854,775,807 as the exact total. One part alone is exact.
#[test]
fn sums_of_parts_and_formulas_past_the_limit_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let warned = |l: &Loaded, message: &str| {
        let line = format!("{}: warning: {message}", l.path);
        assert_eq!(
            l.stderr.lines().filter(|s| *s == line).count(),
            1,
            "want {line:?} in:\n{}",
            l.stderr
        );
        assert!(
            l.diagnostics()
                .iter()
                .any(|d| d["file"] == l.path.as_str() && d["message"] == message),
            "{:#?}",
            l.json["diagnostics"]
        );
    };
    let parts = write(
        dir.path(),
        "parts.cg",
        b"events: Ir\nfn=main\n1 5000000000000000000\npart: 2\nfn=main\n1 5000000000000000000\n",
    );
    let l = loads(&parts);
    assert_eq!(l.total("Ir"), i64::MAX);
    warned(
        &l,
        "the costs of Ir of the parts selected add up beyond the signed 64-bit range: sums at the limit are saturated, not exact",
    );
    let one = super::run::cgtui(&["report", "--part", "1"], &parts, super::run::SMALL);
    assert_eq!((one.code, one.stderr.as_str()), (Some(0), ""));
    assert!(
        one.stdout
            .contains("5,000,000,000,000,000,000  Ir (program total)")
    );
    let l = loads(&write(
        dir.path(),
        "formula.cg",
        b"events: Ir\nevent: S = Ir + Ir\nfn=main\n1 5000000000000000000\n",
    ));
    assert_eq!(l.total("Ir"), 5_000_000_000_000_000_000);
    warned(
        &l,
        "the formula of S gives values beyond the signed 64-bit range: those at the limit are saturated, not exact",
    );
    assert!(!l.stderr.contains("costs of Ir"), "{}", l.stderr);
}

/// Call counts are 64-bit unsigned: one past i64::MAX is written whole by
/// the report and annotate (it printed 9,223,372,036,854,775,807).
#[test]
fn call_counts_past_i64_are_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "calls.cg",
        b"events: Ir\nfl=a.c\nfn=main\n1 1\ncfn=f\ncalls=18000000000000000000 1\n2 5\nfn=f\n1 5\n",
    );
    let l = loads(&path);
    l.clean();
    let f = l.text.lines().find(|x| x.ends_with(" f (a.c)")).unwrap();
    assert!(f.contains(" 18,000,000,000,000,000,000  f (a.c)"), "{f}");
    let a = super::run::cgtui(
        &["annotate", "--function", "main"],
        &path,
        super::run::SMALL,
    );
    assert_eq!(a.code, Some(0), "{}", a.stderr);
    assert!(
        a.stdout
            .contains("5  => a.c:f (18,000,000,000,000,000,000×)"),
        "{}",
        a.stdout
    );
}

// ------------------------------------------------ case 23: i64::MIN exact

#[test]
fn i64_min_in_a_diff_is_read_exactly_and_warnings_are_true() {
    let dir = tempfile::tempdir().unwrap();
    let l = loads(&write(
        dir.path(),
        "min.cg",
        b"events: Ir\nfn=main\n1 -9223372036854775808\n",
    ));
    l.clean();
    assert_eq!(l.total("Ir"), i64::MIN);
    // Above i64::MAX yet within 64 bits: the warning does not say "64 bits".
    let l = loads(&write(
        dir.path(),
        "above.cg",
        b"events: Ir\nfn=main\n1 9223372036854775808\n",
    ));
    l.has(3, "warning", "beyond the signed 64-bit range saturated");
    assert!(!l.stderr.contains("beyond 64 bits"), "{}", l.stderr);
}

// ----------------------------------------------- case 24: every format

#[test]
fn a_byte_order_mark_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let plain = loads(&write(dir.path(), "plain.cg", PROFILE));
    let bom = loads(&write(
        dir.path(),
        "bom.cg",
        &[b"\xef\xbb\xbf", PROFILE].concat(),
    ));
    bom.clean();
    same_profile(&plain, &bom);
}

#[test]
fn an_empty_events_line_is_named() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        &write(dir.path(), "empty.cg", b"events:\nfn=main\n1 5\n"),
        "the `events:` line (line 1) names no event",
    );
}

#[test]
fn bzip2_xz_and_zstd_read_like_gzip() {
    let dir = tempfile::tempdir().unwrap();
    let plain = loads(&write(dir.path(), "plain.cg", PROFILE));
    plain.clean();
    assert_eq!(plain.total("Ir"), 8);
    let gz = gzip(PROFILE);
    for (name, bytes) in [
        ("p.bz2", PROFILE_BZ2),
        ("p.xz", PROFILE_XZ),
        ("p.zst", PROFILE_ZST),
        ("p.gz", &gz[..]),
    ] {
        let l = loads(&write(dir.path(), name, bytes));
        l.clean();
        same_profile(&plain, &l);
    }
    // Streams one after another (`cat a.zst b.zst`) are one text.
    let l = loads(&write(
        dir.path(),
        "two.zst",
        &[PROFILE_ZST, PROFILE_ZST].concat(),
    ));
    assert_eq!(l.total("Ir"), 16);
}

#[test]
fn a_compressed_stream_followed_by_other_data_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let gz = gzip(PROFILE);
    refused(
        &write(dir.path(), "junk.gz", &[&gz[..], b"garbage\n"].concat()),
        "data after the end of the gzip stream",
    );
    refused(
        &write(
            dir.path(),
            "junk.zst",
            &[PROFILE_ZST, b"garbage\n"].concat(),
        ),
        "data after the end of the zstd stream",
    );
    for (name, bytes) in [("junk.bz2", PROFILE_BZ2), ("junk.xz", PROFILE_XZ)] {
        let path = write(dir.path(), name, &[bytes, b"garbage\n"].concat());
        let run = cgtui(&["report"], &path, SMALL);
        assert_eq!(run.code, Some(2), "{name}: {}", run.stderr);
    }
}

/// A bzip2 bomb (64 MiB of one byte in a few hundred bytes; the bound does
/// not depend on the size) is refused after its first 16 MiB line, as the
/// gzip one is.
#[test]
fn a_bzip2_bomb_is_refused_quickly() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.bz2");
    let file = std::fs::File::create(&path).unwrap();
    let mut enc = bzip2::write::BzEncoder::new(file, bzip2::Compression::best());
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..64 {
        enc.write_all(&chunk).unwrap();
    }
    enc.finish().unwrap();
    let run = measured(&["report"], &path, Duration::from_secs(30), 2 * GIB_KIB);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("line 1 is over"), "{}", run.stderr);
    assert!(run.peak_kib < 256 * MIB, "peak {} KiB", run.peak_kib);
}

// ------------------------------------------- issue 10: summary and yappi

#[test]
fn callgrinds_summary_above_the_cost_lines_is_not_a_warning() {
    // Every Callgrind profile: `summary:` counts the last instructions
    // before exit, which no cost line has. The total is the summary.
    let l = loads(&samples().join("cachesim.callgrind"));
    l.clean();
    assert_eq!(l.total("Ir"), 542_630);
    // `--cacheuse=yes`: the summary leaves out the last four events; they
    // are the sum of the cost lines, and nothing claims a summary of 0.
    let dir = tempfile::tempdir().unwrap();
    let l = loads(&write(
        dir.path(),
        "cacheuse.cg",
        b"events: Ir AcCost1 SpLoss1\nsummary: 12\nfn=main\n1 10 5 2\n",
    ));
    l.clean();
    assert_eq!(
        (l.total("Ir"), l.total("AcCost1"), l.total("SpLoss1")),
        (12, 5, 2)
    );
}

#[test]
fn yappis_declarations_are_not_functions() {
    let path = samples().join("yappi.callgrind");
    let l = loads(&path);
    // The functions of the file are its `fn=` lines followed by a line
    // other than `fn=` (the declarations come one after another).
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let used = lines
        .windows(2)
        .filter(|w| w[0].starts_with("fn=") && !w[1].starts_with("fn=") && !w[1].is_empty())
        .count();
    let functions = l.json["functions"].as_array().unwrap();
    assert_eq!(functions.len(), used);
    assert_eq!(functions.len(), 21);
    // Every one has cost, or calls, or callers: none is a bare declaration.
    let in_calls: std::collections::HashSet<u64> = l.json["calls"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| [c["caller"].as_u64().unwrap(), c["callee"].as_u64().unwrap()])
        .collect();
    for (id, f) in functions.iter().enumerate() {
        let has_cost = f["self"]["Ticks"] != 0 || f["inclusive"]["Ticks"] != 0;
        assert!(has_cost || in_calls.contains(&(id as u64)), "{f}");
    }
    // `dumps` is in json/__init__.py, not in the file declared before it.
    let dumps: Vec<_> = functions
        .iter()
        .filter(|f| f["name"].as_str().unwrap().starts_with("dumps "))
        .collect();
    assert_eq!(dumps.len(), 1);
    assert!(
        dumps[0]["file"]
            .as_str()
            .unwrap()
            .ends_with("json/__init__.py")
    );
}
