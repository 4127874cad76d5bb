//! Shared helpers for the TUI tests: build an `App` from a sample or from
//! profile text, drive it with key strings, render it with `TestBackend`;
//! and `Pty`, the real binary in a pseudo-terminal seen through a terminal
//! emulator (vt100), so checks see the screen, not ratatui's partial
//! redraws.

#![allow(dead_code)]
use cgtui::locate::Locator;
use cgtui::parse::{LoadOptions, load_paths, load_reader};
use cgtui::tui::{App, Theme, draw, parse_keys};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use std::path::PathBuf;

/// The real profile of sqlite3 the bytes-per-key figures are measured
/// on (`bench-data/sqlite.callgrind`, relative to the crate), made by
/// `scripts/make-sqlite-profile.sh` (valgrind on the system's sqlite3,
/// a few seconds) where it is not there yet; `None` if it cannot be made.
pub fn sqlite_profile() -> Option<&'static str> {
    const FILE: &str = "bench-data/sqlite.callgrind";
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let made = root.join(FILE).exists()
        || std::process::Command::new(root.join("scripts/make-sqlite-profile.sh"))
            .stdout(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
    made.then_some(FILE)
}

pub fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

/// An app on `samples/NAME` (its siblings too), in colour, 80x24.
pub fn sample_app(name: &str) -> App {
    let profile = load_paths(&[sample(name)], LoadOptions::default()).unwrap();
    let mut app = App::new(profile, Theme::plain_colors(), Locator::default());
    app.resize(80, 24);
    app
}

/// An app on the comparison of `samples/BASE` with `samples/NEW`
/// (`cgtui --base BASE NEW`), in colour, 80x24.
pub fn comparison_app(base: &str, new: &str) -> App {
    let load = |name| load_paths(&[sample(name)], LoadOptions::default()).unwrap();
    let options = cgtui::analysis::diff::MatchOptions::default();
    let mut app = App::comparing(
        load(new),
        load(base),
        &options,
        Theme::plain_colors(),
        Locator::default(),
    );
    app.resize(80, 24);
    app
}

/// An app on a profile given as text.
pub fn text_app(text: &str) -> App {
    let profile = load_reader("test.callgrind", text.as_bytes()).unwrap();
    let mut app = App::new(profile, Theme::plain_colors(), Locator::default());
    app.resize(80, 24);
    app
}

/// Presses the keys of `keys` (`"/fib<Enter><Tab>"` style).
pub fn press(app: &mut App, keys: &str) {
    for key in parse_keys(keys) {
        app.key(key);
    }
}

/// Draws the app at `w`x`h`; returns the buffer.
pub fn render(app: &mut App, w: u16, h: u16) -> Buffer {
    app.resize(w, h);
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| draw(app, f)).unwrap();
    terminal.backend().buffer().clone()
}

/// The buffer's text, one line per row, trailing spaces cut.
pub fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The current function's name.
pub fn current(app: &App) -> String {
    app.current
        .map(|f| app.name(f).into_owned())
        .unwrap_or_default()
}

/// Names along the back history.
pub fn history(app: &App) -> Vec<String> {
    app.back
        .iter()
        .map(|p| app.name(p.func).into_owned())
        .collect()
}

/// Row `y` of the buffer as text.
pub fn row(buf: &Buffer, y: u16) -> String {
    (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
}

#[cfg(unix)]
#[allow(unused_imports)]
pub use pty::{Pty, WaitStatus};

#[cfg(unix)]
mod pty {
    pub use expectrl::process::unix::WaitStatus;
    use std::process::Command;
    use std::time::{Duration, Instant};

    type Session = expectrl::session::OsSession;

    /// Synchronized output (DEC mode 2026), set and reset: cgtui writes
    /// each frame inside it, so a test knows when a frame is whole.
    const SYNC: &[u8] = b"\x1b[?2026";

    /// A running cgtui, everything it wrote, and the screen it drew.
    pub struct Pty {
        pub session: Session,
        pub raw: Vec<u8>,
        pub screen: vt100::Parser,
        /// Frames written whole so far, whether one is being written, and
        /// where in `raw` the count stopped looking.
        pub frames: usize,
        in_frame: bool,
        counted: usize,
    }

    impl Pty {
        /// `cgtui ARGS` (shell words) at 80x24, in the crate's directory.
        pub fn spawn(args: &str) -> Pty {
            Pty::spawn_with(args, (80, 24), &[])
        }

        /// `cgtui ARGS` at `size` (columns, rows) with extra environment.
        pub fn spawn_with(args: &str, size: (u16, u16), env: &[(&str, &str)]) -> Pty {
            let cgtui = format!("'{}' {args}", env!("CARGO_BIN_EXE_cgtui"));
            Pty::spawn_command(&cgtui, size, env)
        }

        /// A shell command line at `size` (columns, rows), in the crate's
        /// directory, with extra environment (`less FILE`, say).
        pub fn spawn_command(line: &str, (cols, rows): (u16, u16), env: &[(&str, &str)]) -> Pty {
            let mut cmd = Command::new("sh");
            cmd.arg("-c")
                .arg(format!("stty rows {rows} cols {cols} echo; exec {line}"))
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .env("TERM", "xterm-256color")
                .env_remove("NO_COLOR");
            for (k, v) in env {
                cmd.env(k, v);
            }
            let mut session = expectrl::Session::spawn(cmd).unwrap();
            // The spawn sets 80x24 from this side after the fork, which can
            // come after the child's `stty` on a busy machine: set again.
            session
                .get_process_mut()
                .set_window_size(cols, rows)
                .unwrap();
            Pty {
                session,
                raw: Vec::new(),
                screen: vt100::Parser::new(
                    rows.max(1).try_into().unwrap(),
                    cols.max(1).try_into().unwrap(),
                    0,
                ),
                frames: 0,
                in_frame: false,
                counted: 0,
            }
        }

        pub fn pid(&self) -> i32 {
            self.session.get_process().pid().as_raw()
        }

        /// Reads what is available; false at end of output.
        pub fn pump(&mut self) -> bool {
            let mut buf = [0u8; 8192];
            match self.session.try_read(&mut buf) {
                Ok(0) => false,
                Ok(n) => {
                    self.raw.extend_from_slice(&buf[..n]);
                    self.screen.process(&buf[..n]);
                    self.count_frames();
                    true
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_millis(5));
                    true
                }
                Err(_) => false,
            }
        }

        fn count_frames(&mut self) {
            let mark = SYNC.len() + 1;
            while let Some(at) = self.raw[self.counted..]
                .windows(mark)
                .position(|w| w.starts_with(SYNC) && matches!(w[mark - 1], b'h' | b'l'))
            {
                let end = self.counted + at + mark;
                if self.raw[end - 1] == b'l' {
                    self.frames += 1;
                    self.in_frame = false;
                } else {
                    self.in_frame = true;
                }
                self.counted = end;
            }
            self.counted = self.counted.max(self.raw.len().saturating_sub(mark - 1));
        }

        /// Reads the rest of a frame being written, if one is.
        pub fn finish_frame(&mut self) {
            let start = Instant::now();
            while self.in_frame && start.elapsed() < Duration::from_secs(30) && self.pump() {}
        }

        /// Waits up to `limit` for the frame after the `seen`th to be
        /// written whole; false if none came (a key that changes nothing
        /// writes nothing).
        pub fn frame_after(&mut self, seen: usize, limit: Duration) -> bool {
            let start = Instant::now();
            while self.frames <= seen && start.elapsed() < limit {
                if !self.pump() {
                    break;
                }
            }
            self.frames > seen
        }

        /// Sends `keys` and waits up to `limit` for the frame they draw.
        pub fn send_for_frame(&mut self, keys: &str, limit: Duration) -> bool {
            let seen = self.frames;
            self.send(keys);
            self.frame_after(seen, limit)
        }

        /// Reads for `d`, or until the output ends.
        pub fn pump_for(&mut self, d: Duration) {
            let start = Instant::now();
            while start.elapsed() < d && self.pump() {}
        }

        pub fn contents(&self) -> String {
            self.screen.screen().contents()
        }

        /// `each` of every cell, row by row, as the emulator holds them.
        fn rows_of<T>(&self, each: impl Fn(&vt100::Cell) -> T) -> Vec<Vec<T>> {
            let screen = self.screen.screen();
            let (rows, cols) = screen.size();
            let (rows, cols): (u16, u16) = (rows.into(), cols.into());
            (0..rows)
                .map(|y| {
                    (0..cols)
                        .filter_map(|x| screen.cell(y, x))
                        .map(&each)
                        .collect()
                })
                .collect()
        }

        /// Every row's cells, text only.
        pub fn texts(&self) -> Vec<Vec<String>> {
            self.rows_of(|c| c.contents().to_string())
        }

        /// Every row's cells with their colours and attributes as they
        /// look (a blank is a blank, written or erased; its foreground,
        /// bold and italic show only where it is underlined or reversed).
        pub fn cells(&self) -> Vec<String> {
            self.rows_of(|c| {
                let text = if c.has_contents() { c.contents() } else { " " };
                let shows_fg = text != " " || c.underline() || c.inverse();
                format!(
                    "{text}{:?}{:?}{}{}{}{}|",
                    shows_fg.then(|| c.fgcolor()),
                    c.bgcolor(),
                    u8::from(shows_fg && c.bold()),
                    u8::from(c.underline()),
                    u8::from(c.inverse()),
                    u8::from(shows_fg && c.italic())
                )
            })
            .into_iter()
            .map(|row| row.concat())
            .collect()
        }

        /// Waits until the screen shows `text`.
        pub fn wait_for(&mut self, text: &str) {
            self.wait_until(|screen| screen.contains(text), "never showed", text);
        }

        /// Waits until the screen no longer shows `text`.
        pub fn wait_gone(&mut self, text: &str) {
            self.wait_until(|screen| !screen.contains(text), "still shows", text);
        }

        /// Reads until `done` holds of the screen's text (for up to 30 s).
        fn wait_until(&mut self, done: impl Fn(&str) -> bool, failed: &str, text: &str) {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(30) {
                if done(&self.contents()) {
                    self.finish_frame();
                    return;
                }
                if !self.pump() {
                    break;
                }
            }
            panic!("screen {failed} {text:?}:\n{}", self.contents());
        }

        pub fn send(&mut self, keys: &str) {
            use std::io::Write;
            self.session.write_all(keys.as_bytes()).unwrap();
            self.session.flush().unwrap();
        }

        /// Reads until nothing more arrives for `quiet`.
        pub fn settle(&mut self, quiet: Duration) {
            let mut last = self.raw.len();
            let mut since = Instant::now();
            while since.elapsed() < quiet {
                if !self.pump() {
                    return;
                }
                if self.raw.len() != last {
                    last = self.raw.len();
                    since = Instant::now();
                }
            }
        }

        /// Sends `keys` and returns how many bytes the program wrote in
        /// answer: the frame they draw (waited for up to 5 s).
        pub fn bytes_for(&mut self, keys: &str) -> usize {
            let before = self.raw.len();
            assert!(
                self.send_for_frame(keys, Duration::from_secs(5)),
                "{keys:?} drew nothing"
            );
            self.raw.len() - before
        }

        /// Sends `keys` and returns how many bytes the program wrote in
        /// answer until `quiet` passed with nothing more: every frame they
        /// draw, the panes that follow a resting selection included. Works
        /// for any program (htop marks no frames), so both are measured
        /// alike.
        pub fn bytes_until_quiet(&mut self, keys: &str, quiet: Duration) -> usize {
            let before = self.raw.len();
            self.send(keys);
            let start = Instant::now();
            while self.raw.len() == before && start.elapsed() < Duration::from_secs(5) {
                if !self.pump() {
                    break;
                }
            }
            assert!(self.raw.len() > before, "{keys:?} drew nothing");
            self.settle(quiet);
            self.raw.len() - before
        }

        /// Sends `keys`, waits for the `frames` they draw (each up to 10
        /// s), then until `quiet` passed with nothing more; the bytes
        /// written in answer. For cgtui, whose frames say when they end.
        pub fn bytes_for_frames(&mut self, keys: &str, frames: usize, quiet: Duration) -> usize {
            let (before, seen) = (self.raw.len(), self.frames);
            self.send(keys);
            for n in 0..frames {
                assert!(
                    self.frame_after(seen + n, Duration::from_secs(10)),
                    "{keys:?} drew {n} frames, not {frames}"
                );
            }
            self.settle(quiet);
            self.raw.len() - before
        }

        /// Sends each of `keys` `every` apart, as a key held down repeats,
        /// and returns the bytes written in answer until `quiet` passed
        /// with nothing more.
        pub fn bytes_for_run(&mut self, keys: &[&str], every: Duration, quiet: Duration) -> usize {
            let before = self.raw.len();
            for key in keys {
                self.send(key);
                self.pump_for(every);
            }
            self.settle(quiet);
            self.raw.len() - before
        }

        /// Sets the terminal's size (the kernel sends SIGWINCH).
        pub fn resize(&mut self, cols: u16, rows: u16) {
            self.session
                .get_process_mut()
                .set_window_size(cols, rows)
                .unwrap();
            self.screen
                .screen_mut()
                .set_size(rows.try_into().unwrap(), cols.try_into().unwrap());
        }

        /// Sends signal `sig` (a `kill` name like `TERM`) to cgtui.
        pub fn kill(&self, sig: &str) {
            let status = Command::new("kill")
                .arg(format!("-{sig}"))
                .arg(self.pid().to_string())
                .status()
                .unwrap();
            assert!(status.success());
        }

        /// Reads to the end and returns the exit status, failing after
        /// `limit`.
        pub fn finish_within(&mut self, limit: Duration) -> WaitStatus {
            let start = Instant::now();
            while self.pump() {
                assert!(
                    start.elapsed() < limit,
                    "still running after {limit:?}:\n{}",
                    self.contents()
                );
            }
            self.session.get_process().wait().unwrap()
        }

        /// Reads to the end and returns the exit status.
        pub fn finish(&mut self) -> WaitStatus {
            self.finish_within(Duration::from_secs(30))
        }

        /// The alternate screen left after it was entered (if it was), the
        /// cursor shown, raw mode's output processing back (a newline
        /// returns the carriage).
        pub fn assert_restored(&self) {
            let raw = String::from_utf8_lossy(&self.raw);
            if let Some(enter) = raw.rfind("\x1b[?1049h") {
                let leave = raw
                    .rfind("\x1b[?1049l")
                    .expect("alternate screen never left");
                assert!(leave > enter, "alternate screen not left");
                let shown = raw.rfind("\x1b[?25h").expect("cursor never shown");
                let hidden = raw.rfind("\x1b[?25l").unwrap_or(0);
                assert!(shown > hidden, "cursor left hidden");
            }
            assert!(!self.screen.screen().alternate_screen());
            assert!(!self.screen.screen().hide_cursor());
            assert!(
                self.session.get_process().get_echo().unwrap(),
                "raw mode left on (no echo)"
            );
        }
    }
}
