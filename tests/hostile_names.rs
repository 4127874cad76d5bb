//! Hostile names and many small parts, through the real binary and the
//! browser's `App`: names whose demangling would take gigabytes
//! (`symbols::demangle` stops at its limit and shows them mangled,
//! marked), names whose scope is asked of many unclosed brackets, and
//! files of a hundred thousand tiny parts. Each must cost what its bytes
//! cost: the runs are timed and their memory measured, with bounds far
//! above what they take (a debug build on a busy machine) and far below
//! what the inputs cost before.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::hostile::run;
use crate::support::tui;

use run::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// C++: `f(X<int, int>, X<that, that, that>, ...)`, 18 levels each naming
/// the one before three times: 244 bytes for about 7 GB of text.
const CPP_BOMB: &str = "_Z1f1XIiiES_IS0_S0_S0_ES_IS1_S1_S1_ES_IS2_S2_S2_ES_IS3_S3_S3_ES_IS4_S4_S4_ES_IS5_S5_S5_ES_IS6_S6_S6_ES_IS7_S7_S7_ES_IS8_S8_S8_ES_IS9_S9_S9_ES_ISA_SA_SA_ES_ISB_SB_SB_ES_ISC_SC_SC_ES_ISD_SD_SD_ES_ISE_SE_SE_ES_ISF_SF_SF_ES_ISG_SG_SG_ES_ISH_SH_SH_E";

/// Rust v0: `a::fNNN::<(i32, i32), (that, that), ...>`, 16 levels of
/// back-references (`B<offset>_`), each naming the one before twice: 159
/// bytes for the megabyte rustc-demangle stops at by itself. `n` (below
/// 1000) makes the names differ; it is as long in each, so that the
/// offsets hold.
fn rust_bomb(n: usize) -> String {
    fn base62(mut n: usize) -> String {
        const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        if n == 0 {
            return "_".into();
        }
        n -= 1;
        let mut s = Vec::new();
        loop {
            s.push(DIGITS[n % 62]);
            n /= 62;
            if n == 0 {
                break;
            }
        }
        s.reverse();
        s.push(b'_');
        String::from_utf8(s).unwrap()
    }
    // Offsets are counted from after `_R`.
    let mut body = format!("INvC1a4f{n:03}");
    let mut before = body.len();
    body.push_str("TllE");
    for _ in 0..16 {
        let at = body.len();
        let back = format!("B{}", base62(before));
        body.push_str(&format!("T{back}{back}E"));
        before = at;
    }
    format!("_R{body}E")
}

fn write_profile(dir: &Path, file: &str, names: &[String]) -> PathBuf {
    let mut text = String::from("events: Ir\n");
    for name in names {
        text.push_str(&format!("fn={name}\n1 1\n"));
    }
    write(dir, file, text.as_bytes())
}

fn six_hundred_rust_bombs() -> Vec<String> {
    (0..600).map(rust_bomb).collect()
}

#[test]
fn the_rust_bomb_is_the_one_the_unit_test_knows() {
    assert_eq!(
        rust_bomb(0),
        "_RINvC1a4f000TllETBa_Ba_ETBe_Be_ETBm_Bm_ETBu_Bu_ETBC_BC_ETBK_BK_ETBS_BS_ETB10_B10_ETB18_B18_ETB1i_B1i_ETB1s_B1s_ETB1C_B1C_ETB1M_B1M_ETB1W_B1W_ETB26_B26_ETB2g_B2g_EE"
    );
}

/// Before: the C++ name aborted `report --demangle` and `--group-by class`
/// (SIGABRT at 611 MiB, "memory allocation of 1073741824 bytes failed");
/// the 600 Rust names made 572 MiB of output at a peak of 581 MiB. Now
/// each is shown mangled, marked, said once on stderr, in a few MiB.
#[test]
fn names_that_demangle_to_gigabytes_are_shown_mangled() {
    let dir = tempfile::tempdir().unwrap();
    let cpp = write_profile(
        dir.path(),
        "cpp.callgrind",
        &[CPP_BOMB.to_string(), "main".into()],
    );
    let rust = write_profile(dir.path(), "rust.callgrind", &six_hundred_rust_bombs());
    for (file, count) in [(&cpp, 1), (&rust, 600)] {
        for args in [
            &["report", "--demangle", "--threshold", "100"][..],
            &["report", "--group-by", "class"],
            &["report", "--json", "--demangle"],
        ] {
            let run = measured(args, file, SMALL, 2 * GIB_KIB);
            assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
            assert!(
                run.peak_kib < 64 * MIB,
                "{args:?}: peak {} KiB",
                run.peak_kib
            );
            // The names as written and a line each: far from a megabyte a name.
            assert!(
                run.stdout.len() < 1 << 20,
                "{args:?}: {} bytes",
                run.stdout.len()
            );
            let note = format!("cgtui: {count} name(s) too long to demangle: shown mangled");
            assert_eq!(
                run.stderr.matches(&note).count(),
                1,
                "{args:?}: {}",
                run.stderr
            );
            if args[1] != "--group-by" {
                let marked = if args[1] == "--json" {
                    format!("\"name\": \"{CPP_BOMB} [too long to demangle]\"")
                } else {
                    format!("{CPP_BOMB} [too long to demangle]")
                };
                assert_eq!(file == &cpp, run.stdout.contains(&marked), "{}", run.stdout);
                assert_eq!(
                    run.stdout.matches(" [too long to demangle]").count(),
                    count,
                    "{args:?}"
                );
            }
        }
    }
}

/// Before: the browser died while loading (exit 134, a backtrace in the
/// raw terminal). Now it opens, with the names marked and the count on
/// the status line.
#[test]
fn the_browser_opens_on_names_that_demangle_to_gigabytes() {
    let mut names = six_hundred_rust_bombs();
    names.push(CPP_BOMB.into());
    let mut text = String::from("events: Ir\n");
    for (i, name) in names.iter().enumerate() {
        text.push_str(&format!("fn={name}\n1 {}\n", i + 1));
    }
    let start = Instant::now();
    let mut app = tui::text_app(&text);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(20), "{took:?}");
    let buf = tui::render(&mut app, 200, 24);
    let screen = tui::text(&buf);
    assert!(
        screen.contains("601 name(s) too long to demangle"),
        "{screen}"
    );
    // The costliest function first: the C++ name, as written and marked.
    assert!(screen.contains(&CPP_BOMB[..100]), "{screen}");
    assert!(screen.contains("[too long to demangle]"), "{screen}");
    assert_eq!(
        app.message.as_deref(),
        Some("601 name(s) too long to demangle: shown mangled and marked")
    );
    // Grouped by class, the names too long have no scope.
    use cgtui::analysis::groups::{Grouping, Membership, UNKNOWN};
    let members = Membership::new(&app.profile, Grouping::Class);
    assert_eq!(members.names, [UNKNOWN]);
}

/// Before: `--group-by class` on a name of 300 KB of unclosed `(` ran past
/// 20 s (each bracket read on to the name's end); the text report folds
/// nothing, but the browser's `T` does the same reading for `<`.
#[test]
fn grouping_a_name_of_unclosed_brackets_costs_its_length() {
    let dir = tempfile::tempdir().unwrap();
    let n = 300_000;
    let names = [
        format!("a::{}", "(".repeat(n)),
        format!("b{}", "<b".repeat(n / 2)),
        format!("c::f{}", "()".repeat(n / 2)),
    ];
    let path = write_profile(dir.path(), "brackets.callgrind", &names);
    let run = measured(
        &["report", "--group-by", "class"],
        &path,
        SMALL,
        2 * GIB_KIB,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.elapsed < Duration::from_secs(10), "{:?}", run.elapsed);
    // `a::(((...` is in `a`, `b<b<b...` (never closed) has no scope,
    // `c::f()()...` is in `c`.
    for group in ["a", "???", "c"] {
        assert!(
            run.stdout
                .lines()
                .any(|l| l.ends_with(&format!("  {group}"))),
            "{group}: {}",
            &run.stdout[..run.stdout.len().min(2000)]
        );
    }
}

/// `part:` sections of a few lines each, `n` of them; or (`parts`
/// false) the same lines in one part, its `part:` lines comments.
fn tiny_parts(n: usize, parts: bool) -> String {
    let mut text = String::from("# callgrind format\nversion: 1\ncreator: x\nevents: Ir\n");
    let part = if parts { "part:" } else { "#art:" };
    for p in 1..=n {
        text.push_str(&format!("{part} {p}\nfn=main\n1 1\n"));
    }
    text
}

/// Before: 100,000 parts in 3 MiB took 18 s (a release build): each part
/// read 64 KiB for its header, looked for the next section among all of
/// them, and took two threads and three opens of the file. Now a small
/// part is read on the loading thread, its header as far as the next
/// section, which is found by halving. Debug build on this busy machine:
/// 10,000 parts took 12.5 s (5.9 s of CPU) before, 5.4 s (1.6 s) now,
/// and 30,000 would take 37 s before; the same lines in one part take
/// a tenth of a second. A small part's body is now scanned from the
/// bytes read with its header, and one thread alone notifies no one: 100,000
/// parts (2.4 MB) in 0.89 s where they took 1.88 s (release build, beside
/// two fuzzers), one `read` and one `lseek` a part where there were also an
/// open, a close, a second `read` and `lseek` and two futex calls.
#[test]
fn many_tiny_parts_cost_what_their_bytes_cost() {
    let dir = tempfile::tempdir().unwrap();
    let n = 30_000;
    let path = write(
        dir.path(),
        "parts.callgrind",
        tiny_parts(n, true).as_bytes(),
    );
    let one = write(dir.path(), "one.callgrind", tiny_parts(n, false).as_bytes());
    let run = measured(
        &["report", "--json"],
        &path,
        Duration::from_secs(120),
        2 * GIB_KIB,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.elapsed < Duration::from_secs(30), "{:?}", run.elapsed);
    assert!(run.peak_kib < 256 * MIB, "peak {} KiB", run.peak_kib);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["totals"]["Ir"], n);
    assert_eq!(json["parts"].as_array().map(Vec::len), Some(n));
    // The same lines in one part: the same total.
    let base = measured(&["report", "--json"], &one, SMALL, 2 * GIB_KIB);
    let json: serde_json::Value = serde_json::from_str(&base.stdout).unwrap();
    assert_eq!(json["totals"]["Ir"], n);
}

/// Memory grows with the parts as their content does, not more: a part
/// of a function and a cost (24 bytes of text) costs under 1 KiB at the
/// peak of `report --json` (the part, its detail's places and its row),
/// measured as the slope between two sizes, so that what every load
/// costs is left out. Before: 4.2 KB a part (100,000 parts peaked at 428
/// MB): every part's JSON was one tree of values before any was written
/// (now one at a time, as functions), each part's detail kept its own
/// copy of the file's path and name and room for a state most parts do
/// not start from, each part had empty call tables of its own, and the
/// table of parts doubled as it grew (now toward the file's count of
/// sections). Release build: 100,000 parts peak at 85 MB (from 428),
/// `report` (text) at 85 MB (from 116).
#[test]
fn memory_per_part_is_bounded_by_its_content() {
    let dir = tempfile::tempdir().unwrap();
    let peak = |n: usize| {
        let path = write(
            dir.path(),
            &format!("parts-{n}.callgrind"),
            tiny_parts(n, true).as_bytes(),
        );
        let run = measured(&["report", "--json"], &path, SMALL * 3, 2 * GIB_KIB);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(json["parts"].as_array().map(Vec::len), Some(n));
        assert_eq!(json["totals"]["Ir"], n);
        run.peak_kib
    };
    let (few, many) = (2_000, 32_000);
    let (low, high) = (peak(few), peak(many));
    let per_part = (high.saturating_sub(low) * 1024) / (many - few) as u64;
    assert!(
        per_part < 1024,
        "{per_part} bytes a part ({low} KiB for {few} parts, {high} KiB for {many})"
    );
}

/// Before: every part kept its own copy of the name tables as they stood
/// at its end, so a file of `n` compressed names then `n` parts that use
/// one of them took memory as `n` squared: 200 KB (5,000 of each) peaked
/// at 120 MiB, this one (10,000) at about 450 MiB. The parts of a
/// section now share its tables.
#[test]
fn parts_share_their_sections_name_tables() {
    let dir = tempfile::tempdir().unwrap();
    let n = 10_000;
    let mut text = String::from("events: Ir\npart: 1\n");
    for i in 0..n {
        text.push_str(&format!("fn=({i}) f{i}\n1 1\n"));
    }
    for p in 2..=n + 1 {
        text.push_str(&format!("part: {p}\nfn=(1)\n1 1\n"));
    }
    let path = write(dir.path(), "names.callgrind", text.as_bytes());
    let run = measured(&["report", "--json"], &path, SMALL, 2 * GIB_KIB);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.peak_kib < 96 * MIB, "peak {} KiB", run.peak_kib);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let f1 = json["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "f1")
        .unwrap();
    assert_eq!(f1["self"]["Ir"], n + 1);
}
