//! Bytes written to the terminal per key, cgtui beside less, recorded from
//! a real pseudo-terminal: what a key costs on an SSH connection. Prints
//! the table README.md shows, on two profiles: `samples/cpp-names.callgrind`
//! (long C++ names) and a real profile of sqlite3 (short C names), made by
//! `scripts/make-sqlite-profile.sh` where valgrind and sqlite3 are found.
//! `cargo bench --bench keys`.

#[path = "../tests/support/tui.rs"]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod support;

use std::path::Path;
use support::Pty;

/// A profile and the search typed on it: its first character, then the
/// characters that narrow the results.
struct Case {
    file: &'static str,
    first: &'static str,
    narrowing: &'static str,
}

const CPP: Case = Case {
    file: "samples/cpp-names.callgrind",
    first: "v",
    narrowing: "ec",
};
const SQLITE: Case = Case {
    file: "bench-data/sqlite.callgrind",
    first: "s",
    narrowing: "qlite",
};

/// The most bytes any of `n` presses of `key` wrote.
fn most(pty: &mut Pty, key: &str, n: usize) -> usize {
    (0..n).map(|_| pty.bytes_for(key)).max().unwrap_or(0)
}

fn cgtui(case: &Case, size: (u16, u16)) -> Vec<(String, usize)> {
    let mut pty = Pty::spawn_with(case.file, size, &[]);
    pty.wait_for("Callees of");
    let repaint = pty.bytes_for("\x0c");
    pty.send("g");
    let within = most(&mut pty, "j", 5);
    for _ in 0..size.1 {
        pty.send("j");
    }
    let scroll = most(&mut pty, "j", 10);
    let open = pty.bytes_for("/");
    let first = pty.bytes_for(case.first);
    let typed: Vec<usize> = case
        .narrowing
        .chars()
        .map(|c| pty.bytes_for(&c.to_string()))
        .collect();
    let close = pty.bytes_for("\x1b");
    let help = pty.bytes_for("?");
    pty.send("\x1bq");
    pty.finish();
    let narrowing = |n: usize| {
        let mut sorted = typed.clone();
        sorted.sort_unstable();
        sorted[n.min(sorted.len() - 1)]
    };
    vec![
        ("`j` within the page".into(), within),
        ("`j` scrolling the list".into(), scroll),
        ("`/` (open search)".into(), open),
        ("first search character (fills the results)".into(), first),
        (
            "a narrowing search character, median".into(),
            narrowing((typed.len() - 1) / 2),
        ),
        (
            "a narrowing search character, most".into(),
            narrowing(typed.len()),
        ),
        ("Esc (close search)".into(), close),
        ("`?` (help)".into(), help),
        ("Ctrl-L (whole screen)".into(), repaint),
    ]
}

fn less(case: &Case, size: (u16, u16)) -> Vec<(String, usize)> {
    let line = format!("less -S {}", case.file);
    let mut pty = Pty::spawn_command(&line, size, &[("LESS", "")]);
    pty.wait_for("version: 1");
    let scroll = most(&mut pty, "j", 10);
    pty.send("q");
    pty.finish();
    vec![("`j` scrolling (less -S)".into(), scroll)]
}

/// The real sqlite3 profile, made if it is not there yet.
fn sqlite_profile() -> bool {
    Path::new(SQLITE.file).exists()
        || std::process::Command::new("scripts/make-sqlite-profile.sh")
            .status()
            .is_ok_and(|s| s.success())
}

fn main() {
    // `cargo bench` passes `--bench`; nothing to parse.
    let mut cases = vec![("cpp-names", CPP)];
    if sqlite_profile() {
        cases.push(("sqlite3", SQLITE));
    } else {
        eprintln!("no sqlite3 profile (scripts/make-sqlite-profile.sh needs valgrind and sqlite3)");
    }
    let columns: Vec<Vec<(String, usize)>> = cases
        .iter()
        .flat_map(|(_, case)| [(80, 24), (200, 60)].map(|size| (case, size)))
        .map(|(case, size)| {
            cgtui(case, size)
                .into_iter()
                .chain(less(case, size))
                .collect()
        })
        .collect();
    let heads: Vec<String> = cases
        .iter()
        .flat_map(|(name, _)| [format!("{name} 80x24"), format!("{name} 200x60")])
        .collect();
    println!("| key | {} |", heads.join(" | "));
    println!("|---{}|", "|---".repeat(heads.len()));
    for (row, (what, _)) in columns[0].iter().enumerate() {
        let figures: Vec<String> = columns.iter().map(|c| c[row].1.to_string()).collect();
        println!("| {what} | {} |", figures.join(" | "));
    }
}
