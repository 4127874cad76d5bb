//! Loading before the browser opens: the default file, a background load
//! (reading, then the app's indexes) with a progress bar on stderr when it
//! takes more than 0.2 s, during which `q`, Esc and Ctrl-C abort at once,
//! and the diagnostics printed (at most `SHOWN`) before the alternate
//! screen.

use super::app::App;
use super::exit::{self, BrowseError, Signals};
use super::input;
use super::keymap::Key;
use crate::parse::{self, FileSet, LoadOptions};
use crate::profile::Profile;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Diagnostics printed before the rest are only counted.
const SHOWN: usize = 20;
/// Loads shorter than this show no progress line.
const QUIET: Duration = Duration::from_millis(200);
/// How often the bar is redrawn (keys are answered at once).
const TICK: Duration = Duration::from_millis(50);

/// The newest `callgrind.out.*` in the current directory, as KCachegrind
/// opens (its siblings come with it: the empty base file of a per-thread
/// set loads the set).
pub fn newest_profile() -> Result<PathBuf, BrowseError> {
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    let entries = std::fs::read_dir(".").map_err(|source| BrowseError::Io {
        what: "reading the current directory",
        source,
    })?;
    for entry in entries {
        let Ok(entry) = entry else { continue };
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with("callgrind.out") {
            continue;
        }
        let Ok(meta) = entry.metadata() else { continue };
        let time = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
        if meta.is_file() && best.as_ref().is_none_or(|(t, _)| time > *t) {
            best = Some((time, entry.path()));
        }
    }
    match best {
        Some((_, path)) => Ok(path),
        None => Err(BrowseError::NoProfile),
    }
}

/// How a load ended.
pub enum Loaded {
    Done(Box<App>),
    /// The user or a signal stopped it: exit with this status.
    Aborted(u8),
}

/// What the loader thread is at.
const READING: u8 = 0;
const PREPARING: u8 = 1;

/// Loads the files of `set` and makes the app (`make`) in a thread. After
/// `QUIET` a progress bar goes to stderr (a terminal), and `q`, Esc and
/// Ctrl-C abort; a signal aborts at any time. Prints the diagnostics when
/// done.
pub fn load(
    set: FileSet,
    options: LoadOptions,
    signals: &Signals,
    input: &mut input::Terminal,
    make: impl FnOnce(Profile) -> Result<App, BrowseError> + Send + 'static,
) -> Result<Loaded, BrowseError> {
    let done = Arc::new(AtomicU64::new(0));
    let total = Arc::new(AtomicU64::new(0));
    let phase = Arc::new(AtomicU8::new(READING));
    let finished = Arc::new(AtomicBool::new(false));
    let (d, t, ph, f) = (done.clone(), total.clone(), phase.clone(), finished.clone());
    let waker = input.waker();
    let worker = std::thread::spawn(move || {
        let app = parse::load_set(&set, options, &mut |bytes, of| {
            d.store(bytes, Ordering::Relaxed);
            t.store(of.unwrap_or(0), Ordering::Relaxed);
        })
        .map_err(BrowseError::from)
        .and_then(|profile| {
            ph.store(PREPARING, Ordering::Relaxed);
            make(profile)
        });
        // Seen at once, not at the next tick.
        f.store(true, Ordering::Release);
        waker.wake();
        app
    });
    let start = Instant::now();
    let mut bar = Bar::default();
    while !finished.load(Ordering::Acquire) && !worker.is_finished() {
        if let Some(status) = signals.status() {
            bar.close();
            return Ok(Loaded::Aborted(status));
        }
        if start.elapsed() > QUIET && !bar.shown && std::io::stderr().is_terminal() {
            bar.open();
        }
        if bar.shown {
            let what = match phase.load(Ordering::Relaxed) {
                READING => Some((done.load(Ordering::Relaxed), total.load(Ordering::Relaxed))),
                _ => None,
            };
            bar.draw(what);
        }
        if let Some(status) = bar.wait_for_key(input, TICK) {
            bar.close();
            return Ok(Loaded::Aborted(status));
        }
    }
    bar.close();
    let app = match worker.join() {
        Ok(result) => result?,
        Err(_) => return Err(BrowseError::LoaderPanicked),
    };
    if let Some(joined) = &app.diff {
        print_diagnostics(&joined.base);
    }
    print_diagnostics(&app.profile);
    Ok(Loaded::Done(Box::new(app)))
}

/// The progress bar on stderr, with the terminal in raw mode (when it
/// can be) so that single keys arrive.
#[derive(Default)]
struct Bar {
    shown: bool,
    raw: bool,
}

impl Bar {
    fn open(&mut self) {
        self.shown = true;
        self.raw = crossterm::terminal::enable_raw_mode().is_ok();
    }

    /// `Some((done, total))` while reading, `None` while preparing.
    fn draw(&self, what: Option<(u64, u64)>) {
        let cols = crossterm::terminal::size().map_or(80, |(c, _)| c as usize);
        let line = bar_line(what, self.raw, cols);
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{line}\x1b[K");
        let _ = err.flush();
    }

    /// Waits up to `tick` for a key; the exit status if it aborts. Ctrl-Z
    /// (or SIGTSTP) stops the process with the terminal as it was, and the
    /// bar comes back after `fg`; without a shell to resume it, nothing.
    fn wait_for_key(&mut self, input: &mut input::Terminal, tick: Duration) -> Option<u8> {
        let keys = input.keys(Some(tick), Duration::ZERO);
        if input.gone() {
            return Some(exit::for_signal(signal_hook::consts::SIGHUP));
        }
        let asked = input.suspend() || (self.raw && keys.contains(&Key::Ctrl('z')));
        if asked && super::job::can_suspend().is_ok() {
            let shown = self.shown;
            self.close();
            input::stop_job();
            if shown {
                self.open();
            }
        }
        if !self.raw {
            // Typed ahead in the terminal's own mode: for the browser.
            input.unread(keys);
            return None;
        }
        keys.iter().find_map(|k| match k {
            Key::Ctrl('c') => Some(exit::INTERRUPTED),
            Key::Char('q') | Key::Esc => Some(exit::QUIT),
            _ => None,
        })
    }

    /// Erases the bar and leaves raw mode.
    fn close(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
            let _ = std::io::stderr().flush();
            self.shown = false;
        }
        if self.raw {
            let _ = crossterm::terminal::disable_raw_mode();
            self.raw = false;
        }
    }
}

/// The progress line for a terminal `cols` wide, never wider (a wrapped
/// line could not be erased): the hint goes first, then the bar shrinks.
fn bar_line(what: Option<(u64, u64)>, raw: bool, cols: usize) -> String {
    let room = cols.saturating_sub(1);
    let mb = |b: u64| b as f64 / 1e6;
    let hint = if raw { "   q: cancel" } else { "" };
    let (head, numbers) = match what {
        Some((done, total)) if total > 0 => (
            "loading [",
            format!("] {:.1} of {:.1} MB", mb(done), mb(total)),
        ),
        Some((done, _)) => ("loading ", format!("{:.1} MB", mb(done))),
        None => ("loaded; indexing the functions", String::new()),
    };
    let bar_w = match what {
        Some((_, total)) if total > 0 => {
            let fixed = head.len() + numbers.len();
            if fixed + 30 + hint.len() <= room {
                30
            } else {
                room.saturating_sub(fixed).min(30)
            }
        }
        _ => 0,
    };
    let bar = match what {
        Some((done, total)) if total > 0 => {
            let filled = (done.min(total) as u128 * bar_w as u128 / total as u128) as usize;
            format!("{}{}", "#".repeat(filled), " ".repeat(bar_w - filled))
        }
        _ => String::new(),
    };
    let mut line = format!("{head}{bar}{numbers}");
    if line.len() + hint.len() <= room {
        line.push_str(hint);
    }
    line.chars().take(room).collect()
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.close();
    }
}

fn print_diagnostics(profile: &Profile) {
    let mut err = std::io::stderr().lock();
    for d in profile.diagnostics.iter().take(SHOWN) {
        let _ = writeln!(err, "{}", crate::format::printable(&d.to_string()));
    }
    let more = profile.diagnostics.len().saturating_sub(SHOWN);
    if more > 0 {
        let _ = writeln!(err, "... and {more} more diagnostics");
    }
}

#[cfg(test)]
mod tests {
    use super::bar_line;

    #[test]
    fn the_bar_fits_the_terminal() {
        let full = bar_line(Some((50_000_000, 200_000_000)), true, 80);
        assert_eq!(
            full,
            "loading [#######                       ] 50.0 of 200.0 MB   q: cancel"
        );
        assert_eq!(
            bar_line(Some((50_000_000, 200_000_000)), true, 40),
            "loading [###         ] 50.0 of 200.0 MB"
        );
        for cols in [0, 1, 10, 39, 40, 79, 80, 200] {
            for what in [Some((1, 2)), Some((5, 0)), None] {
                assert!(bar_line(what, true, cols).chars().count() < cols.max(1));
            }
        }
        assert_eq!(bar_line(None, false, 80), "loaded; indexing the functions");
    }
}
