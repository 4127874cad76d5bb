//! Loading before the browser opens: the default file, a background load
//! (reading, then the app's indexes) with a progress bar on stderr when it
//! takes more than 0.2 s, during which `q`, Esc and Ctrl-C abort at once,
//! and the diagnostics printed (at most `SHOWN`) before the alternate
//! screen.

use super::app::App;
use super::exit::{self, Signals};
use crate::cli::LoadArgs;
use crate::parse::{self, LoadOptions};
use crate::profile::Profile;
use color_eyre::eyre::{Result, WrapErr, bail};
use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Diagnostics printed before the rest are only counted.
const SHOWN: usize = 20;
/// Loads shorter than this show no progress line.
const QUIET: Duration = Duration::from_millis(200);
/// How often the bar is redrawn (keys are answered at once).
const TICK: Duration = Duration::from_millis(50);

/// The newest `callgrind.out.*` in the current directory, as KCachegrind
/// opens.
pub fn newest_profile() -> Result<PathBuf> {
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for entry in std::fs::read_dir(".").wrap_err("reading the current directory")? {
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
        None => bail!("no FILE given and no callgrind.out.* in the current directory"),
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

/// Loads `files` and makes the app (`make`) in a thread. After `QUIET`
/// a progress bar goes to stderr (a terminal), and `q`, Esc and Ctrl-C
/// abort; a signal aborts at any time. Prints the diagnostics when done.
pub fn load(
    files: &[PathBuf],
    args: &LoadArgs,
    signals: &Signals,
    make: impl FnOnce(Profile) -> App + Send + 'static,
) -> Result<Loaded> {
    let options = LoadOptions {
        siblings: !args.no_siblings,
    };
    let done = Arc::new(AtomicU64::new(0));
    let total = Arc::new(AtomicU64::new(0));
    let phase = Arc::new(AtomicU8::new(READING));
    let (d, t, ph) = (done.clone(), total.clone(), phase.clone());
    let paths = files.to_vec();
    let worker = std::thread::spawn(move || {
        let profile = parse::load_paths_with_progress(&paths, options, &mut |bytes, of| {
            d.store(bytes, Ordering::Relaxed);
            t.store(of.unwrap_or(0), Ordering::Relaxed);
        })?;
        ph.store(PREPARING, Ordering::Relaxed);
        Ok::<_, parse::LoadError>(make(profile))
    });
    let start = Instant::now();
    let mut bar = Bar::default();
    while !worker.is_finished() {
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
        if let Some(status) = bar.wait_for_key(TICK) {
            bar.close();
            return Ok(Loaded::Aborted(status));
        }
    }
    bar.close();
    let app = match worker.join() {
        Ok(result) => result?,
        Err(_) => bail!("the loader thread panicked"),
    };
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
        const WIDTH: usize = 30;
        let mb = |b: u64| b as f64 / 1e6;
        let hint = if self.raw { "   q: cancel" } else { "" };
        let line = match what {
            Some((done, total)) if total > 0 => {
                let filled = (done.min(total) as u128 * WIDTH as u128 / total as u128) as usize;
                format!(
                    "loading [{}{}] {:.1} of {:.1} MB{hint}",
                    "#".repeat(filled),
                    " ".repeat(WIDTH - filled),
                    mb(done),
                    mb(total)
                )
            }
            Some((done, _)) => format!("loading {:.1} MB{hint}", mb(done)),
            None => format!("loaded; indexing the functions{hint}"),
        };
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{line}\x1b[K");
        let _ = err.flush();
    }

    /// Waits up to `tick` for a key; the exit status if it aborts.
    fn wait_for_key(&self, tick: Duration) -> Option<u8> {
        if !self.raw {
            std::thread::sleep(tick);
            return None;
        }
        let deadline = Instant::now() + tick;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if !event::poll(left).unwrap_or(false) {
                return None;
            }
            if let Ok(Event::Key(k)) = event::read()
                && k.kind == KeyEventKind::Press
            {
                match k.code {
                    KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => {
                        return Some(exit::INTERRUPTED);
                    }
                    KeyCode::Char('q') | KeyCode::Esc => return Some(exit::QUIT),
                    _ => {}
                }
            }
        }
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
