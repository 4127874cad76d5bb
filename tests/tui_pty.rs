//! The real binary in a pseudo-terminal: it starts on a sample, shows the
//! top function, searches, opens the source view, quits with `q`, exits 0,
//! and leaves the terminal as it found it (alternate screen left, cursor
//! shown). The output goes through a terminal emulator (vt100) so the
//! checks see the screen, not ratatui's partial redraws.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(unix)]

use cgtui::locate::Locator;
use cgtui::parse::{LoadOptions, load_paths};
use cgtui::tui::{App, Theme};
use expectrl::process::unix::WaitStatus;
use std::process::Command;
use std::time::{Duration, Instant};

type Session = expectrl::session::OsSession;

/// A running cgtui, everything it wrote, and the screen it drew.
struct Pty {
    session: Session,
    raw: Vec<u8>,
    screen: vt100::Parser,
}

impl Pty {
    fn spawn(args: &str) -> Pty {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!(
                "stty rows 24 cols 80; exec '{}' {args}",
                env!("CARGO_BIN_EXE_cgtui")
            ))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("TERM", "xterm-256color")
            .env_remove("NO_COLOR");
        Pty {
            session: expectrl::Session::spawn(cmd).unwrap(),
            raw: Vec::new(),
            screen: vt100::Parser::new(24.try_into().unwrap(), 80.try_into().unwrap(), 0),
        }
    }

    /// Reads what is available; false at end of output.
    fn pump(&mut self) -> bool {
        let mut buf = [0u8; 8192];
        match self.session.try_read(&mut buf) {
            Ok(0) => false,
            Ok(n) => {
                self.raw.extend_from_slice(&buf[..n]);
                self.screen.process(&buf[..n]);
                true
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(10));
                true
            }
            Err(_) => false,
        }
    }

    /// Waits until the screen shows `text`.
    fn wait_for(&mut self, text: &str) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if self.screen.screen().contents().contains(text) {
                return;
            }
            if !self.pump() {
                break;
            }
        }
        panic!(
            "screen never showed {text:?}:\n{}",
            self.screen.screen().contents()
        );
    }

    fn send(&mut self, keys: &str) {
        use std::io::Write;
        self.session.write_all(keys.as_bytes()).unwrap();
        self.session.flush().unwrap();
    }

    /// Reads to the end and returns the exit status.
    fn finish(&mut self) -> WaitStatus {
        let start = Instant::now();
        while self.pump() && start.elapsed() < Duration::from_secs(20) {}
        self.session.get_process().wait().unwrap()
    }

    fn assert_restored(&self) {
        let raw = String::from_utf8_lossy(&self.raw);
        let leave = raw
            .rfind("\x1b[?1049l")
            .expect("alternate screen never left");
        let enter = raw
            .rfind("\x1b[?1049h")
            .expect("alternate screen never entered");
        assert!(leave > enter);
        let shown = raw.rfind("\x1b[?25h").expect("cursor never shown");
        let hidden = raw.rfind("\x1b[?25l").unwrap_or(0);
        assert!(shown > hidden, "cursor left hidden");
        assert!(!self.screen.screen().alternate_screen());
        assert!(!self.screen.screen().hide_cursor());
    }
}

#[test]
fn starts_searches_shows_source_and_quits_cleanly() {
    let top = {
        let path = format!("{}/samples/recursion.callgrind", env!("CARGO_MANIFEST_DIR"));
        let profile = load_paths(&[path.into()], LoadOptions::default()).unwrap();
        let app = App::new(profile, Theme { color: true }, Locator::default());
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
    let status = pty.finish();
    assert!(matches!(status, WaitStatus::Exited(_, 0)), "{status:?}");
    pty.assert_restored();
}

#[test]
fn sigterm_restores_the_terminal() {
    let mut pty = Pty::spawn("samples/recursion.callgrind");
    pty.wait_for("Callees of");
    let pid = pty.session.get_process().pid();
    Command::new("kill")
        .arg("-TERM")
        .arg(pid.to_string())
        .status()
        .unwrap();
    let status = pty.finish();
    assert!(matches!(status, WaitStatus::Exited(_, 0)), "{status:?}");
    pty.assert_restored();
}

#[test]
fn ctrl_c_quits_and_restores_the_terminal() {
    let mut pty = Pty::spawn("samples/recursion.callgrind");
    pty.wait_for("Callees of");
    pty.send("\x03");
    let status = pty.finish();
    assert!(matches!(status, WaitStatus::Exited(_, 0)), "{status:?}");
    pty.assert_restored();
}

#[test]
fn load_errors_are_one_line_and_exit_2_before_any_screen() {
    let mut pty = Pty::spawn("samples/src/recursion.c");
    let status = pty.finish();
    assert!(matches!(status, WaitStatus::Exited(_, 2)), "{status:?}");
    let raw = String::from_utf8_lossy(&pty.raw);
    assert!(raw.contains("samples/src/recursion.c"), "{raw:?}");
    assert!(!raw.contains("\x1b[?1049h"), "{raw:?}");
}
