//! Hostile input through the real binary: every case runs `cgtui report FILE`
//! and `cgtui report --json FILE` with a time limit, and checks the exit
//! status (0: loaded, with diagnostics; 2: not a profile), the message
//! (`FILE:LINE:` where one line is to blame) and that nothing panicked.
//! Big inputs (a 100 MB line, a 10 GB sparse file, a gzip bomb, a call chain
//! and a cycle of a million functions, small files that would multiply
//! memory) are made in a temporary directory by `hostile/big.rs`; those runs
//! are also measured: wall time and peak memory of the child. Compressed
//! files, whole, in many streams, cut, corrupt or followed by junk, are
//! made by the real tools in `hostile/compressed.rs`.
//!
//! Inputs that fuzzing (`fuzz/`, see its README) finds failing are to be kept
//! here as byte literals naming the target that found them; the runs so far
//! found none.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "hostile/big.rs"]
mod big;
#[path = "hostile/cli_edge.rs"]
mod cli_edge;
#[path = "hostile/compare.rs"]
mod compare;
#[path = "hostile/compressed.rs"]
mod compressed;
#[path = "hostile/format.rs"]
mod format;
use crate::support::graphs;
#[path = "hostile/reads.rs"]
mod reads;
#[path = "hostile/run.rs"]
pub mod run;
#[path = "hostile/trees.rs"]
mod trees;

use assert_cmd::Command;
use run::*;
use std::path::Path;

// ------------------------------------------------- not a profile at all

/// An empty file says so (issue 40: it read as a text file did), plain
/// or compressed; a blank line is no longer empty.
#[test]
fn empty_file() {
    let dir = tempfile::tempdir().unwrap();
    refused(&write(dir.path(), "empty", b""), ": the file is empty");
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast())
        .finish()
        .unwrap();
    refused(&write(dir.path(), "empty.gz", &gz), ": the file is empty");
    refused(&write(dir.path(), "blank", b"\n"), "no `events:` line");
}

/// A file that is no profile says what it found instead (issue 40): the
/// first line that is no profile's, quoted and escaped, plain or
/// compressed, in a small file and in one large enough to be read in
/// parallel chunks.
#[test]
fn text_that_is_no_profile_is_quoted() {
    let dir = tempfile::tempdir().unwrap();
    let html = b"\n# a comment\n<html><body>\x1b]0;x</body></html>\n";
    refused(
        &write(dir.path(), "page.html", html),
        "no `events:` line; line 3 is binary data (3c 68 74 6d 6c 3e 3c 62 …)",
    );
    let text = b"Dear reader,\nthis is a letter.\n";
    refused(
        &write(dir.path(), "letter", text),
        "no `events:` line; line 1 is `Dear reader,`",
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, text).unwrap();
    refused(
        &write(dir.path(), "letter.gz", &gz.finish().unwrap()),
        "line 1 is `Dear reader,`",
    );
    let long: Vec<u8> = "what is this? ".repeat(6).into_bytes();
    refused(
        &write(dir.path(), "long", &long),
        "line 1 is `what is this? what is this? what is this…`",
    );
    // 5 MB of words: the chunks say it as one reader does.
    let words: Vec<u8> = "hello there, world\n".repeat(250_000).into_bytes();
    refused(
        &write(dir.path(), "words", &words),
        "; line 1 is `hello there, world`",
    );
}

#[test]
fn binary_data() {
    let dir = tempfile::tempdir().unwrap();
    // The start of an ELF file, then bytes with NULs and newlines in them.
    let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0\x3e\0".to_vec();
    elf.extend(noise(7, 64 << 10).iter().map(|&b| match b {
        0..64 => 0,
        64..72 => b'\n',
        _ => b,
    }));
    // What it is instead: its first bytes, in hexadecimal (issue 40).
    refused(
        &write(dir.path(), "prog", &elf),
        "; line 1 is binary data (7f 45 4c 46 02 01 01 00 …)",
    );
    // A gzip header on garbage, and a real gzip profile cut in half.
    let mut gz = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
    gz.extend(noise(8, 4096));
    refused(&write(dir.path(), "bad.gz", &gz), "deflate");
    let real =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/recursion.callgrind.gz"))
            .unwrap();
    // (Everything before the cut is thrown away with it: a truncated gzip
    // profile could load as far as it goes, as a truncated plain one does.)
    refused(
        &write(dir.path(), "cut.gz", &real[..real.len() / 2]),
        "the gzip stream ends before its end (the file is cut?)",
    );
}

#[test]
fn random_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 1..=8 {
        let bytes = noise(seed, 1 << 20);
        let path = write(dir.path(), &format!("random-{seed}"), &bytes);
        refused(&path, "not a callgrind");
    }
}

#[test]
fn a_directory() {
    let dir = tempfile::tempdir().unwrap();
    refused(dir.path(), "is a directory");
}

#[test]
fn a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    refused(&dir.path().join("nothing-here"), "No such file");
}

fn running_as_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .and_then(|l| l.split_whitespace().nth(2))
        == Some("0")
}

#[test]
fn no_permission() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = write(dir.path(), "secret.cg", b"events: Ir\nfn=main\n1 5\n");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    if !running_as_root() {
        refused(&path, "Permission denied");
        return;
    }
    // Root reads a mode-000 file anyway, so the run is `nobody`'s, from a
    // copy of the binary in the 0755 folder (the build folder may be out
    // of nobody's reach).
    use std::os::unix::process::CommandExt;
    let exe = dir.path().join("cgtui");
    std::fs::copy(bin(), &exe).unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    for json in [false, true] {
        let mut cmd = std::process::Command::new(&exe);
        // As root, std drops the supplementary groups along with the ids.
        cmd.uid(65534).gid(65534).arg("report");
        if json {
            cmd.arg("--json");
        }
        cmd.arg(&path);
        let out = Command::from_std(cmd).timeout(SMALL).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(out.stdout.is_empty());
        assert_eq!(
            stderr.trim_end(),
            format!("cgtui: {}: Permission denied (os error 13)", path.display())
        );
    }
}

// ------------------------------------------------ broken or odd profiles

#[test]
fn truncated_mid_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "cut.cg",
        b"events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=g\ncal",
    );
    let l = loads(&path);
    l.has(6, "error", "not a profile line: `cal`").has(
        6,
        "warning",
        "file ends in the middle of a line",
    );
    assert_eq!(l.total("Ir"), 5);
    assert!(l.stderr.contains("1 line(s) skipped"), "{}", l.stderr);
}

#[test]
fn truncated_right_after_calls() {
    let dir = tempfile::tempdir().unwrap();
    // Cut inside `calls=` ...
    let path = write(
        dir.path(),
        "cut1.cg",
        b"events: Ir\nfn=main\n1 5\ncfn=g\ncalls=",
    );
    loads(&path)
        .has(5, "error", "cannot read `calls=` count")
        .has(5, "warning", "file ends after `calls=`");
    // ... and after the whole `calls=` line, before its cost line.
    let path = write(
        dir.path(),
        "cut2.cg",
        b"events: Ir\nfn=main\n1 5\ncfn=g\ncalls=2 10\n",
    );
    let l = loads(&path);
    l.has(
        5,
        "warning",
        "file ends after `calls=` without its cost line",
    );
    assert_eq!(l.self_cost("main", "Ir"), 5);
    assert_eq!(l.json["calls"].as_array().unwrap().len(), 0);
}

#[test]
fn compressed_name_never_defined() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "undef.cg",
        b"events: Ir\nob=(4)\nfl=(3)\nfn=(1)\n1 5\ncfn=(2)\ncalls=1 1\n1 3\nfn=(2)\n1 3\n",
    );
    let l = loads(&path);
    for (line, id) in [(2, 4), (3, 3), (4, 1), (6, 2)] {
        l.has(
            line,
            "warning",
            &format!("name ({id}) used before it was defined"),
        );
    }
    let f = l.function("(1)");
    assert_eq!(
        (f["file"].as_str(), f["object"].as_str()),
        (Some("(3)"), Some("(4)"))
    );
    assert_eq!(l.self_cost("(1)", "Ir"), 5);
    assert_eq!(f["inclusive"]["Ir"], 8);
}

#[test]
fn relative_positions_below_zero() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "below.cg",
        b"positions: instr line\nevents: Ir\nfn=main\n0x10 10 1\n-0x11 * 2\n* -11 4\ncfn=g\ncalls=1 -0x20 *\n* * 8\njump=1 * -99\n* *\n+1 +1 16\n",
    );
    let l = loads(&path);
    l.has(5, "error", "below zero")
        .has(6, "error", "below zero")
        .has(8, "error", "below zero")
        .has(10, "error", "below zero");
    // Only the two good cost lines count; the call's row is not self cost.
    assert_eq!(l.self_cost("main", "Ir"), 17);
    assert_eq!(l.json["calls"].as_array().unwrap().len(), 0);
}

#[test]
fn counters_beyond_64_bits() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "big.cg",
        b"events: Ir Dr\nfn=main\n1 99999999999999999999999 1\n2 0x1ffffffffffffffff 1\n3 18446744073709551615\n4 9223372036854775807 1\nfn=g\n5 9223372036854775807\n",
    );
    let l = loads(&path);
    for line in [3, 4, 5] {
        l.has(
            line,
            "warning",
            "1 counter(s) beyond the signed 64-bit range saturated",
        );
    }
    assert_eq!(l.self_cost("main", "Ir"), i64::MAX);
    assert_eq!(l.self_cost("main", "Dr"), 3);
    assert_eq!(l.total("Ir"), i64::MAX);
}

#[test]
fn invalid_utf8_in_names() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "utf8.cg",
        b"events: I\xffr\nob=\xfe\xfe\nfl=(1) \xc3(.c\nfn=(1) ma\xffin\n1 5\ncfn=(2) \xed\xa0\x80\ncalls=1 1\n1 2\nfn=(2)\n1 2\nbad\xff line\n",
    );
    let l = loads(&path);
    l.has(11, "error", "not a profile line: `bad\u{fffd} line`");
    let main = l.function("ma\u{fffd}in");
    assert_eq!(main["file"], "\u{fffd}(.c");
    assert_eq!(main["object"], "\u{fffd}\u{fffd}");
    assert_eq!(main["self"]["I\u{fffd}r"], 5);
    assert_eq!(main["inclusive"]["I\u{fffd}r"], 7);
    assert_eq!(l.self_cost("\u{fffd}\u{fffd}\u{fffd}", "I\u{fffd}r"), 2);
    assert!(l.text.contains("ma\u{fffd}in"), "{}", l.text);
}

#[test]
fn more_cost_columns_than_events() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "cols.cg",
        b"events: Ir\nfn=main\n1 5 6 7\ncfn=g\ncalls=1 1\n1 3 4\nfn=g\n1 3\n",
    );
    let l = loads(&path);
    l.has(3, "warning", "3 counters but 1 events")
        .has(6, "warning", "2 counters but 1 events");
    assert_eq!(l.total("Ir"), 8);
    assert_eq!(l.function("main")["inclusive"]["Ir"], 8);
}

#[test]
fn events_line_after_cost_lines_starts_a_part() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "late.cg",
        b"events: Ir\nfn=main\n1 5\nevents: Ir Dr\n1 7 3\n",
    );
    let l = loads(&path);
    l.clean();
    assert_eq!(l.json["parts"].as_array().unwrap().len(), 2);
    assert_eq!((l.total("Ir"), l.total("Dr")), (12, 3));
    assert_eq!(l.json["parts"][0]["totals"]["Ir"], 5);
    assert_eq!(l.json["parts"][1]["totals"]["Dr"], 3);
}

/// A small profile with calls, names, relative positions and a summary.
const PLAIN: &str = "# callgrind format\nversion: 1\nevents: Ir Dr\nsummary: 30 6\nfl=(1) a.c\nfn=(1) main\n10 5 1\n+1 3\ncfn=(2) g\ncalls=2 20\n* 20 4\nfn=(2)\n20 20 4\n-1 2 1\ntotals: 30 6\n";

#[test]
fn crlf_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    let lf = loads(&write(dir.path(), "lf.cg", PLAIN.as_bytes()));
    let crlf = loads(&write(
        dir.path(),
        "crlf.cg",
        PLAIN.replace('\n', "\r\n").as_bytes(),
    ));
    crlf.clean();
    lf.clean();
    for key in ["totals", "functions", "calls", "events"] {
        assert_eq!(lf.json[key], crlf.json[key], "{key}");
    }
    assert_eq!(crlf.function("main")["inclusive"]["Ir"], 28);
}

#[test]
fn no_final_newline() {
    let dir = tempfile::tempdir().unwrap();
    let l = loads(&write(
        dir.path(),
        "nonl.cg",
        PLAIN.trim_end_matches('\n').as_bytes(),
    ));
    l.clean();
    assert_eq!(l.total("Ir"), 30);
    // The last line is a cost line this time.
    let text = "events: Ir\nfn=main\n1 5\n2 7";
    let l = loads(&write(dir.path(), "nonl2.cg", text.as_bytes()));
    l.clean();
    assert_eq!(l.total("Ir"), 12);
}

#[test]
fn ids_beyond_64_bits() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "ids.cg",
        b"events: Ir\nob=(99999999999999999999) o\nfl=(18446744073709551616) f.c\nfn=(1) main\n1 5\ncfn=(0x1ffffffffffffffff) g\ncalls=1 1\n1 2\nfn=(340282366920938463463374607431768211456)\n2 3\n",
    );
    let l = loads(&path);
    for line in [2, 3, 6, 9] {
        l.has(line, "error", "name ID does not fit in 64 bits");
    }
    // The IDs at the edge of 64 bits are fine.
    let path = write(
        dir.path(),
        "edge.cg",
        b"events: Ir\nfn=(18446744073709551615) main\n1 5\nfn=(0xffffffffffffffff)\n1 1\n",
    );
    let l = loads(&path);
    l.clean();
    assert_eq!(l.self_cost("main", "Ir"), 6);
}

/// Escape sequences in a profile (`\x1b[2J` clears the screen, OSC sequences
/// retitle the window) must not reach the terminal raw: not from header
/// fields, event or function names on standard output, nor from the text
/// quoted in diagnostics on standard error.
#[test]
fn control_characters_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "esc.cg",
        b"creator: a\x1b[2Jb\ncmd: c\x1b]0;x\x07d\npositions: in\x1b[2Jstr\nevents: I\x1br\nevent: I\x1br : long\x1b[2J\npid: 1\x1b[2J\nsummary: 1\x1b[2J\nevent: S = I\x1b[2Jr x\nfl=\x1b[2Jfile\nfn=evil\x1b]0;pwned\x07\x08\n1 5\ncfn=g\ncalls=1 \x1b[2J\n1 1\nbad\x1b[2J line\n",
    );
    let text = cgtui(&["report"], &path, SMALL);
    assert_eq!(text.code, Some(0), "{}", text.stderr);
    let raw = |s: &str| s.chars().any(|c| c.is_control() && c != '\n');
    assert!(!raw(&text.stdout), "{:?}", text.stdout);
    assert!(!raw(&text.stderr), "{:?}", text.stderr);
    let json = cgtui(&["report", "--json"], &path, SMALL);
    assert_eq!(json.code, Some(0), "{}", json.stderr);
    assert!(!raw(&json.stderr), "{:?}", json.stderr);
    // JSON escapes them and keeps the names as they are.
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["creator"], "a\u{1b}[2Jb");
}

/// `cg_diff` writes negative costs. A function's inclusive cost is then not
/// "the larger of" its own and its callers' figures: with no calls at all
/// (every Cachegrind file) it is its self cost, negative or not.
#[test]
fn negative_costs_keep_their_inclusive_cost() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "neg.cg",
        b"events: Ir\nfn=main\n1 10\nfn=g\n1 -20\n",
    );
    let l = loads(&path);
    l.clean();
    assert_eq!(l.total("Ir"), -10);
    assert_eq!(l.function("g")["inclusive"]["Ir"], -20);
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/branches-diff.cachegrind");
    let l = loads(&sample);
    let wrong: Vec<_> = l.json["functions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["self"] != f["inclusive"])
        .map(|f| (&f["name"], &f["self"]["Ir"], &f["inclusive"]["Ir"]))
        .collect();
    assert!(wrong.is_empty(), "(name, self Ir, inclusive Ir): {wrong:?}");
}
