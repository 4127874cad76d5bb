//! The real binary in a pseudo-terminal: it starts on a sample, shows the
//! top function, searches, opens the source view, quits with `q`, exits 0,
//! and leaves the terminal as it found it (alternate screen left, cursor
//! shown, raw mode off); Ctrl-C and SIGTERM end it with 130 and 143; a long
//! load shows its progress and `q`, Esc and Ctrl-C abort it at once.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(unix)]

use crate::support::tools;
use crate::support::tui as support;

use cgtui::locate::Locator;
use cgtui::parse::{LoadOptions, load_paths};
use cgtui::tui::{App, Theme};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};
use support::{Pty, WaitStatus};

fn exited(status: WaitStatus, code: i32) {
    assert!(
        matches!(status, WaitStatus::Exited(_, c) if c == code),
        "{status:?}, expected exit status {code}"
    );
}

#[test]
fn starts_searches_shows_source_and_quits_cleanly() {
    let top = {
        let path = format!("{}/samples/recursion.callgrind", env!("CARGO_MANIFEST_DIR"));
        let profile = load_paths(&[path.into()], LoadOptions::default()).unwrap();
        let app = App::new(profile, Theme::plain_colors(), Locator::default());
        app.profile.fn_name(app.current.unwrap()).to_string()
    };
    let mut pty = Pty::spawn("samples/recursion.callgrind");
    pty.wait_for(&format!("Callers of {top}"));
    pty.send("/fib");
    pty.wait_for("/ fib");
    pty.wait_for("fib'2");
    pty.send("\r");
    pty.wait_for("Callers of fib");
    pty.send("s");
    pty.wait_for("Source of fib");
    pty.wait_for("return fib(n - 1) + fib(n - 2);");
    pty.send("q");
    exited(pty.finish(), 0);
    pty.assert_restored();
}

#[test]
fn sigterm_restores_the_terminal_and_exits_143() {
    let mut pty = Pty::spawn("samples/recursion.callgrind");
    pty.wait_for("Callees of");
    pty.kill("TERM");
    exited(pty.finish(), 143);
    pty.assert_restored();
}

#[test]
fn ctrl_c_quits_restores_the_terminal_and_exits_130() {
    let mut pty = Pty::spawn("samples/recursion.callgrind");
    pty.wait_for("Callees of");
    pty.send("\x03");
    exited(pty.finish(), 130);
    pty.assert_restored();
}

#[test]
fn load_errors_are_one_line_and_exit_2_before_any_screen() {
    let mut pty = Pty::spawn("samples/src/recursion.c");
    exited(pty.finish(), 2);
    let raw = String::from_utf8_lossy(&pty.raw);
    assert!(raw.contains("samples/src/recursion.c"), "{raw:?}");
    assert!(!raw.contains("\x1b[?1049h"), "{raw:?}");
}

/// A profile of about `mb` MB that takes seconds to load in a debug build:
/// one function with a cost line per line number, written in big blocks.
fn large_profile(dir: &Path, mb: usize) -> String {
    let path = dir.join("large.callgrind");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(file, "events: Ir Dr\nfl=big.c\nfn=main").unwrap();
    let mut block = String::new();
    for i in 0..100_000 {
        block.push_str(&format!("{} {} {}\n", 1 + i % 5000, 1 + i % 97, i % 7));
    }
    for _ in 0..(mb << 20) / block.len() {
        file.write_all(block.as_bytes()).unwrap();
    }
    file.flush().unwrap();
    path.display().to_string()
}

/// Starts cgtui reading a profile from a pipe that gives 3 MB and then
/// nothing more for a minute, and waits for the progress bar: a load that
/// lasts however fast the build and the machine.
fn loading(dir: &Path) -> Pty {
    let profile = large_profile(dir, 3);
    let fifo = dir.join("feed");
    let _ = std::fs::remove_file(&fifo);
    tools::require(&["mkfifo"]);
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let mut pty = Pty::spawn(&format!("- < '{}'", fifo.display()));
    std::thread::spawn(move || {
        // Opening blocks until cgtui's shell opens the other end.
        let mut feed = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        let _ = feed.write_all(&std::fs::read(&profile).unwrap());
        std::thread::sleep(Duration::from_secs(60));
    });
    pty.wait_for("loading ");
    pty.wait_for("MB");
    pty
}

#[test]
fn a_long_load_shows_progress_and_q_esc_ctrl_c_abort_it_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for (key, status) in [("q", 0), ("\x1b", 0), ("\x03", 130)] {
        let mut pty = loading(dir.path());
        let sent = Instant::now();
        pty.send(key);
        exited(pty.finish_within(Duration::from_secs(2)), status);
        assert!(
            sent.elapsed() < Duration::from_secs(1),
            "{:?}",
            sent.elapsed()
        );
        pty.assert_restored();
        // The bar is erased and the screen never opened.
        assert!(!pty.contents().contains("loading"), "{}", pty.contents());
        assert!(!String::from_utf8_lossy(&pty.raw).contains("\x1b[?1049h"));
    }
}

#[test]
fn a_signal_during_a_load_exits_with_its_status() {
    let dir = tempfile::tempdir().unwrap();
    for (sig, status) in [("TERM", 143), ("HUP", 129), ("INT", 130)] {
        let mut pty = loading(dir.path());
        pty.kill(sig);
        exited(pty.finish_within(Duration::from_secs(2)), status);
        pty.assert_restored();
    }
}

#[test]
fn a_load_that_finishes_erases_the_bar_and_opens_the_browser() {
    let dir = tempfile::tempdir().unwrap();
    let path = large_profile(dir.path(), 12);
    // From a slow pipe: half, a pause, the rest; the load takes over a
    // second however fast the build, and the bar counts the bytes read.
    let line = format!(
        "sh -c \"head -c 3000000 '{path}'; sleep 1; tail -c +3000001 '{path}'\" | '{}' -",
        env!("CARGO_BIN_EXE_cgtui")
    );
    let mut pty = Pty::spawn_command(&line, (80, 24), &[]);
    pty.wait_for("loading 3.0 MB");
    pty.wait_for("Callees of main");
    pty.send("q");
    exited(pty.finish(), 0);
    pty.assert_restored();
    // The bar was erased before the screen opened.
    let raw = String::from_utf8_lossy(&pty.raw);
    let screen = raw.find("\x1b[?1049h").unwrap();
    let erased = raw[..screen].rfind("\r\x1b[K").unwrap();
    let last_bar = raw[..screen].rfind("loading").unwrap();
    assert!(erased > last_bar);
}

#[test]
fn esc_and_a_key_read_together_are_two_keys() {
    let mut pty = Pty::spawn("samples/recursion.callgrind");
    pty.wait_for("Callees of");
    pty.send("/xyz");
    pty.wait_for("/ xyz");
    // Sent in one write: read as Alt-S, meant as Esc then S (sort by self).
    pty.send("\x1bS");
    pty.wait_for("Self▼");
    assert!(!pty.contents().contains("/ xyz"), "{}", pty.contents());
    pty.send("q");
    exited(pty.finish(), 0);
    pty.assert_restored();
}
