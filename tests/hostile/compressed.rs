//! Compressed profiles as the real tools write them (issue 37): gzip,
//! bzip2, xz, zstd and pzstd (a skippable frame before each frame), each
//! alone, as streams one after another (`cat a.zst b.zst`), in several
//! blocks, and with xz's stream padding; then each cut short, corrupt,
//! or followed by other data, refused in one line that names the file and
//! says what is wrong with which format; a zstd window over 128 MiB; and
//! zstd and xz bombs refused in bounded memory. The files are made here,
//! from a committed sample, by the tools themselves: a tool that is
//! missing fails the test, named.

use super::run::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A format, and the tool and arguments that compress standard input to
/// standard output in it.
struct Tool {
    format: &'static str,
    ext: &'static str,
    command: &'static str,
    args: &'static [&'static str],
}

const TOOLS: [Tool; 5] = [
    Tool {
        format: "gzip",
        ext: "gz",
        command: "gzip",
        args: &["-c"],
    },
    Tool {
        format: "bzip2",
        ext: "bz2",
        command: "bzip2",
        args: &["-c"],
    },
    Tool {
        format: "xz",
        ext: "xz",
        command: "xz",
        args: &["-c"],
    },
    Tool {
        format: "zstd",
        ext: "zst",
        command: "zstd",
        args: &["-q", "-c"],
    },
    Tool {
        format: "zstd",
        ext: "pz.zst",
        command: "pzstd",
        args: &["-q", "-p", "2", "-c"],
    },
];

/// The committed sample: a real Callgrind profile of 150 KB.
fn sample() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/rust-names.callgrind");
    std::fs::read(path).unwrap()
}

/// What `command ARGS` writes given `input`, and whether it succeeded;
/// a command that cannot be run fails the test, named.
fn run_tool(command: &str, args: &[&str], input: &[u8]) -> (bool, Vec<u8>) {
    let mut child = Command::new(command)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("`{command}` makes or checks this test's files and could not be run: {e}")
        });
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        // A tool that refuses its input stops reading it: not an error here.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (out.status.success(), out.stdout)
}

/// `input` compressed by `tool`.
fn compressed(tool: &Tool, extra: &[&str], input: &[u8]) -> Vec<u8> {
    let args = [tool.args, extra].concat();
    let (ok, out) = run_tool(tool.command, &args, input);
    assert!(ok, "`{} {}` failed", tool.command, args.join(" "));
    out
}

/// Whether the format's own decompressor reads `bytes` without an error.
fn tool_reads(tool: &Tool, bytes: &[u8]) -> bool {
    let command = if tool.command == "pzstd" {
        "zstd"
    } else {
        tool.command
    };
    run_tool(command, &["-d", "-c"], bytes).0
}

/// The parts of the JSON that say what was loaded.
fn same_profile(a: &Loaded, b: &Loaded) {
    for key in ["totals", "functions", "calls", "events"] {
        assert_eq!(a.json[key], b.json[key], "{} and {}: {key}", a.path, b.path);
    }
}

#[test]
fn every_tool_and_every_framing_reads_as_the_plain_text() {
    let dir = tempfile::tempdir().unwrap();
    let one = sample();
    // Three times the sample: its text is copied to a file, as a large
    // profile's is (a short one stays in memory).
    let three = [&one[..], &one, &one].concat();
    let plain = loads(&write(dir.path(), "three.cg", &three));
    assert_eq!(plain.json["parts"].as_array().unwrap().len(), 3);
    for tool in &TOOLS {
        let whole = compressed(tool, &[], &three);
        let l = loads(&write(dir.path(), &format!("whole.{}", tool.ext), &whole));
        same_profile(&plain, &l);
        // Streams one after another, as `cat a b c` makes them.
        let alone = compressed(tool, &[], &one);
        let streams = [&alone[..], &alone, &alone].concat();
        assert!(tool_reads(tool, &streams), "{}", tool.command);
        let l = loads(&write(dir.path(), &format!("cat.{}", tool.ext), &streams));
        same_profile(&plain, &l);
    }
    // pzstd starts with a skippable frame (0x184D2A50, little-endian).
    let pz = compressed(&TOOLS[4], &[], &one);
    assert_eq!(pz[..4], [0x50, 0x2a, 0x4d, 0x18]);
    // A zstd frame between skippable ones.
    let zst = compressed(&TOOLS[3], &[], &one);
    let mixed = [&pz[..], &zst, &pz].concat();
    same_profile(&plain, &loads(&write(dir.path(), "mixed.zst", &mixed)));
    // Several blocks in one stream: xz's, and bzip2's of 100 kB.
    let blocks = compressed(&TOOLS[2], &["-T2", "--block-size=64KiB"], &three);
    same_profile(&plain, &loads(&write(dir.path(), "blocks.xz", &blocks)));
    let blocks = compressed(&TOOLS[1], &["-1"], &three);
    same_profile(&plain, &loads(&write(dir.path(), "blocks.bz2", &blocks)));
    // xz streams with padding (zero bytes in fours) between and after.
    let xz = compressed(&TOOLS[2], &[], &one);
    let padded = [&xz[..], &[0; 4], &xz, &[0; 8], &xz, &[0; 4]].concat();
    assert!(tool_reads(&TOOLS[2], &padded));
    same_profile(&plain, &loads(&write(dir.path(), "padded.xz", &padded)));
}

/// `cgtui: FILE: the FORMAT stream ...`, exactly, from both reports.
fn refused_saying(path: &Path, what: &str) {
    let message = refused(path, what);
    assert_eq!(
        message.trim_end(),
        format!("cgtui: {}: {what}", path.display())
    );
}

#[test]
fn cut_corrupt_or_followed_by_junk_each_format_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let one = sample();
    let three = [&one[..], &one, &one].concat();
    let at = |name: &str, tool: &Tool, bytes: &[u8]| -> PathBuf {
        write(dir.path(), &format!("{name}.{}", tool.ext), bytes)
    };
    for tool in &TOOLS {
        let whole = compressed(tool, &[], &three);
        let name = tool.format;
        let cut = format!("the {name} stream ends before its end (the file is cut?)");
        // Cut in the middle, in the last bytes (a trailer), and after the
        // magic bytes alone; the tool itself refuses each.
        for (what, len) in [("half", whole.len() / 2), ("end", whole.len() - 1)] {
            let bytes = &whole[..len];
            assert!(!tool_reads(tool, bytes), "{} reads {what}", tool.command);
            refused_saying(&at(&format!("cut-{what}"), tool, bytes), &cut);
        }
        let magic_len = if name == "bzip2" {
            4
        } else {
            6.min(whole.len())
        };
        let magic = &whole[..magic_len];
        refused_saying(&at("magic-only", tool, magic), &cut);
        // Bytes flipped in the middle.
        let mut corrupt = whole.clone();
        let mid = corrupt.len() / 2;
        for b in &mut corrupt[mid..mid + 16] {
            *b ^= 0x55;
        }
        assert!(!tool_reads(tool, &corrupt), "{} reads it", tool.command);
        let message = refused(&at("corrupt", tool, &corrupt), "corrupt");
        assert!(
            message.contains(&format!(": the {name} stream is corrupt (")),
            "{message}"
        );
        assert_eq!(message.trim_end().lines().count(), 1);
        // Other data after the last stream.
        let junk = [&whole[..], b"garbage\n"].concat();
        let after = format!("data after the end of the {name} stream");
        refused_saying(&at("junk", tool, &junk), &after);
    }
    // xz's padding must come in fours.
    let xz = compressed(&TOOLS[2], &[], &one);
    let padded = [&xz[..], &[0; 3]].concat();
    assert!(!tool_reads(&TOOLS[2], &padded));
    refused_saying(
        &write(dir.path(), "padded.xz", &padded),
        "the xz stream is corrupt (3 zero bytes after a stream, not a multiple of 4)",
    );
}

/// As the gzip and bzip2 ones: 64 MiB of one byte, no line end, in a few
/// kilobytes; refused after its first 16 MiB line, in bounded memory.
#[test]
fn zstd_and_xz_bombs_are_refused_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let line = vec![b'x'; 64 << 20];
    for tool in [&TOOLS[2], &TOOLS[3]] {
        let bomb = compressed(tool, &[], &line);
        assert!(bomb.len() < 1 << 20, "{} bytes", bomb.len());
        let path = write(dir.path(), &format!("bomb.{}", tool.ext), &bomb);
        let run = measured(&["report"], &path, Duration::from_secs(30), 2 * GIB_KIB);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(run.stderr.contains("line 1 is over"), "{}", run.stderr);
        assert!(run.peak_kib < 256 * MIB, "peak {} KiB", run.peak_kib);
    }
}

/// A zstd frame whose window is over 128 MiB (`zstd --long=28` of a
/// stream) is refused as `zstd -d` refuses it without `--memory`.
#[test]
fn a_zstd_window_over_128_mib_is_refused_as_zstd_refuses_it() {
    let dir = tempfile::tempdir().unwrap();
    let long = compressed(&TOOLS[3], &["--long=28"], &sample());
    assert!(!tool_reads(&TOOLS[3], &long));
    refused_saying(
        &write(dir.path(), "long.zst", &long),
        "the zstd stream needs a window over 128 MiB to decode, more than is allowed",
    );
}

/// A profile of about 1.1 MB in one part, its text parsed in chunks
/// while it is still being decompressed (issue 37 point 7), with a line
/// that is no profile line three quarters in: each format loads to what
/// the plain file does, with the same message at the same line, and each
/// cut in the middle is refused as cut, not loaded as far as it goes.
#[test]
fn a_large_profile_parsed_while_it_is_decompressed_loads_as_the_plain_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = b"events: Ir Dr\nfl=big.c\n".to_vec();
    let mut bad_line = 0;
    for i in 0..24_000 {
        let f = format!(
            "fn=f{i}\n{} {i} 3\ncfn=f{}\ncalls=2 9\n4 5 6\n",
            i % 90 + 1,
            i + 1
        );
        text.extend_from_slice(f.as_bytes());
        if i == 18_000 {
            text.extend_from_slice(b"this is no profile line\n");
            bad_line = 2 + 5 * (i + 1) + 1;
        }
    }
    let plain = loads(&write(dir.path(), "big.cg", &text));
    let message = "not a profile line: `this is no profile line`";
    plain.has(bad_line, "error", message);
    assert_eq!(plain.diagnostics().len(), 1);
    let said = |l: &Loaded| l.stderr.replacen(&l.path, "FILE", 1);
    for tool in &TOOLS {
        let whole = compressed(tool, &[], &text);
        let l = loads(&write(dir.path(), &format!("big.{}", tool.ext), &whole));
        same_profile(&plain, &l);
        l.has(bad_line, "error", message);
        assert_eq!(said(&l), said(&plain), "{}", tool.ext);
        let cut = &whole[..whole.len() / 2];
        let name = tool.format;
        refused_saying(
            &write(dir.path(), &format!("big-cut.{}", tool.ext), cut),
            &format!("the {name} stream ends before its end (the file is cut?)"),
        );
    }
}
