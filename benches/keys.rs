//! Bytes written to the terminal per key, cgtui beside less and htop,
//! recorded from a real pseudo-terminal: what a key costs on an SSH
//! connection. Prints the table benches/README.md shows, on two profiles:
//! `samples/cpp-names.callgrind` (long C++ names) and a real profile of
//! sqlite3 (short C names), made by
//! `scripts/make-sqlite-profile.sh` where valgrind and sqlite3 are found.
//! `cargo bench --bench keys`.

#[path = "../tests/support/tui.rs"]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod support;

use std::time::Duration;
use support::Pty;

/// A profile and the search typed on it: its first character, then the
/// characters that narrow the results.
struct Case {
    file: &'static str,
    first: &'static str,
    narrowing: &'static str,
}

/// Where `support::sqlite_profile` makes the sqlite3 profile.
const SQLITE_FILE: &str = "bench-data/sqlite.callgrind";

/// How long nothing comes before an answer is taken as whole.
const QUIET: Duration = Duration::from_millis(400);

const CPP: Case = Case {
    file: "samples/cpp-names.callgrind",
    first: "v",
    narrowing: "ec",
};
const SQLITE: Case = Case {
    file: SQLITE_FILE,
    first: "s",
    narrowing: "qlite",
};

/// A floor of what any program must write to go from `before` to
/// `after`, moving rows only as a terminal can (scrolls, inserted and
/// deleted lines: rows that stay keep their order): each row of `after`
/// comes from a row of `before` it was moved onto, at most one each, in
/// order, or is written afresh, and costs the bytes of its non-blank
/// characters that differ from that row at the same columns. Erasing and
/// moving are free here, and a run of one character costs one (`CSI n
/// b` repeats it): the floor is lower than what can be done, never higher.
fn new_text(before: &[Vec<String>], after: &[Vec<String>]) -> usize {
    let unsent = |old: Option<&Vec<String>>, new: &[String]| -> usize {
        let mut last: Option<&String> = None;
        let mut bytes = 0;
        for (x, n) in new.iter().enumerate() {
            let sent = old.is_none_or(|o| o.get(x) != Some(n)) && !n.trim().is_empty();
            if sent && last != Some(n) {
                bytes += n.len();
            }
            last = sent.then_some(n);
        }
        bytes
    };
    // least[i][j]: the floor for after[j..] from before[i..].
    let (n, m) = (before.len(), after.len());
    let mut least = vec![vec![0usize; m + 1]; n + 1];
    for j in (0..m).rev() {
        least[n][j] = least[n][j + 1] + unsent(None, &after[j]);
    }
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            least[i][j] = (least[i + 1][j])
                .min(least[i][j + 1] + unsent(None, &after[j]))
                .min(least[i + 1][j + 1] + unsent(Some(&before[i]), &after[j]));
        }
    }
    least[0][0]
}

/// Bytes written for `key`, and the floor of what it had to write.
fn with_floor(pty: &mut Pty, key: &str) -> (usize, usize) {
    pty.settle(QUIET);
    let before = pty.texts();
    let bytes = pty.bytes_until_quiet(key, QUIET);
    let floor = new_text(&before, &pty.texts());
    assert!(
        floor <= bytes,
        "{key:?}: a floor of {floor} above the {bytes} written"
    );
    (bytes, floor)
}

/// The most bytes any of `n` presses of `key` wrote, each counted until
/// quiet (less marks no frames).
fn most(pty: &mut Pty, key: &str, n: usize) -> usize {
    (0..n)
        .map(|_| pty.bytes_until_quiet(key, QUIET))
        .max()
        .unwrap_or(0)
}

/// The bytes of `n` presses of `j` one by one, each with the panes that
/// follow it once it rests (two frames), sorted.
fn each_j(pty: &mut Pty, n: usize) -> Vec<usize> {
    pty.settle(QUIET);
    let mut bytes: Vec<usize> = (0..n)
        .map(|_| pty.bytes_for_frames("j", 2, QUIET))
        .collect();
    bytes.sort_unstable();
    bytes
}

/// Bytes a key of twenty `key`s 33 ms apart (a key held down, as
/// auto-repeat sends it), the answer to the last included.
fn held(pty: &mut Pty, key: &str) -> usize {
    pty.settle(QUIET);
    pty.bytes_for_run(&[key; 20], Duration::from_millis(33), QUIET) / 20
}

fn cgtui(case: &Case, size: (u16, u16)) -> Vec<(String, usize)> {
    let mut pty = Pty::spawn_with(case.file, size, &[]);
    pty.wait_for("Callees of");
    let repaint = pty.bytes_for("\x0c");
    pty.send("g");
    let alone = each_j(&mut pty, 9);
    // The first frame of a `j`: the list's rows, the panes held.
    let start = pty.raw.len();
    pty.bytes_for_frames("j", 2, QUIET);
    let list = pty.raw[start..]
        .windows(8)
        .position(|w| w == b"\x1b[?2026l")
        .map_or(0, |at| at + 8);
    let within = *alone.last().unwrap_or(&0);
    let held = held(&mut pty, "j");
    for _ in 0..size.1 {
        pty.send("j");
    }
    let scroll = *each_j(&mut pty, 10).last().unwrap_or(&0);
    let open = pty.bytes_for("/");
    let first = with_floor(&mut pty, case.first);
    let typed: Vec<(usize, usize)> = case
        .narrowing
        .chars()
        .map(|c| with_floor(&mut pty, &c.to_string()))
        .collect();
    let close = pty.bytes_for("\x1b");
    let help = pty.bytes_for("?");
    pty.send("\x1bq");
    pty.finish();
    // The n-th fewest bytes, with its floor.
    let narrowing = |n: usize| {
        let mut sorted = typed.clone();
        sorted.sort_unstable();
        sorted[n.min(sorted.len() - 1)]
    };
    let median = narrowing((typed.len() - 1) / 2);
    let most = narrowing(typed.len());
    vec![
        (
            "`j` alone, median (the list, then the panes)".into(),
            alone[alone.len() / 2],
        ),
        ("… its first frame (the list)".into(), list),
        ("`j` held (20 keys, 33 ms apart), a key".into(), held),
        ("`j` within the page, most".into(), within),
        ("`j` scrolling the list".into(), scroll),
        ("`/` (open search)".into(), open),
        ("first search character (fills the results)".into(), first.0),
        ("… new text it shows (the floor)".into(), first.1),
        ("a narrowing search character, median".into(), median.0),
        ("… new text it shows (the floor)".into(), median.1),
        ("a narrowing search character, most".into(), most.0),
        ("… new text it shows (the floor)".into(), most.1),
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

/// htop 3.2.2's Down beside cgtui's `j`: alone (median of nine) and
/// held, Down and Up in turn so a container's few processes do not run
/// out; counted until quiet (htop marks no frames).
fn htop(size: (u16, u16)) -> Vec<(String, usize)> {
    let mut pty = Pty::spawn_command("htop -d 100", size, &[]);
    pty.wait_for("PID");
    pty.settle(QUIET);
    let keys = ["\x1bOB", "\x1bOA"];
    let mut alone: Vec<usize> = (0..9)
        .map(|i| pty.bytes_until_quiet(keys[i % 2], QUIET))
        .collect();
    alone.sort_unstable();
    let run: Vec<&str> = keys.iter().copied().cycle().take(20).collect();
    let held = pty.bytes_for_run(&run, Duration::from_millis(33), QUIET) / 20;
    pty.send("q");
    pty.finish();
    vec![
        ("htop's Down alone, median".into(), alone[4]),
        ("htop's Down held, a key".into(), held),
    ]
}

fn has(tool: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn main() {
    // `cargo bench` passes `--bench`; nothing to parse.
    let mut cases = vec![("cpp-names", CPP)];
    if support::sqlite_profile() == Some(SQLITE_FILE) {
        cases.push(("sqlite3", SQLITE));
    } else {
        eprintln!("no sqlite3 profile (scripts/make-sqlite-profile.sh needs valgrind and sqlite3)");
    }
    let columns: Vec<Vec<(String, usize)>> = cases
        .iter()
        .flat_map(|(_, case)| [(80, 24), (200, 60)].map(|size| (case, size)))
        .map(|(case, size)| {
            let mut rows = cgtui(case, size);
            rows.extend(less(case, size));
            if has("htop") {
                rows.extend(htop(size));
            }
            rows
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
