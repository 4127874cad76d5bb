//! How the browser ends, and with which exit status: `q` 0, Ctrl-C 130,
//! SIGHUP 129, SIGTERM 143 (128 + the signal, as shells report a process
//! killed by it), whether loading or browsing; or with a `BrowseError`
//! that `main` prints (status 2). Signals only set a number here; the loops
//! that watch it restore the terminal on their own thread and return the
//! status, and a watchdog thread ends the process when they cannot (the
//! terminal is gone): the only `process::exit` of the library.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Why the browser could not run; `main` prints it on one line.
#[derive(Debug, thiserror::Error)]
pub enum BrowseError {
    #[error("no FILE given and no callgrind.out.* in the current directory")]
    NoProfile,
    #[error(transparent)]
    Load(#[from] crate::parse::LoadError),
    /// No `/dev/tty` (`setsid`, `ssh host cgtui f` without `-t`, cron).
    #[error(
        "the browser needs a terminal (/dev/tty: {0}); `cgtui report FILE` prints the profile without one"
    )]
    NoTerminal(std::io::Error),
    #[error("{what}: {source}")]
    Io {
        what: &'static str,
        source: std::io::Error,
    },
    #[error("the loading thread stopped unexpectedly")]
    LoaderPanicked,
    /// The terminal failed while browsing (the message of its error chain).
    #[error("the terminal: {0}")]
    Terminal(String),
}

/// Exit status of `q` (and Esc while loading).
pub const QUIT: u8 = 0;
/// Exit status of Ctrl-C, the key or SIGINT.
pub const INTERRUPTED: u8 = 128 + 2;

/// The exit status for a process ended by signal `sig`.
pub fn for_signal(sig: i32) -> u8 {
    u8::try_from(128 + sig).unwrap_or(INTERRUPTED)
}

/// The last of SIGINT, SIGTERM and SIGHUP received, if any.
#[derive(Clone)]
pub struct Signals(Arc<AtomicUsize>);

impl Signals {
    /// Catches SIGINT, SIGTERM and SIGHUP from now on.
    pub fn install() -> std::io::Result<Signals> {
        let got = Arc::new(AtomicUsize::new(0));
        for sig in [
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGHUP,
        ] {
            signal_hook::flag::register_usize(sig, got.clone(), sig as usize)?;
        }
        Ok(Signals(got))
    }

    /// The exit status for the signal received, if one was.
    pub fn status(&self) -> Option<u8> {
        match self.0.load(Ordering::Relaxed) {
            0 => None,
            sig => Some(for_signal(i32::try_from(sig).unwrap_or(2))),
        }
    }
}

/// How often the watchdog looks at the terminal and the signals, and how
/// long it lets the loops finish on their own.
const WATCH: Duration = Duration::from_millis(500);
const GRACE: Duration = Duration::from_secs(1);

/// The safety net behind the loops: `input` sees a hang-up itself (its
/// blocking read ends), but crossterm's own reader, still used by earlier
/// versions of cgtui, never returned from `event::poll` once the terminal was gone
/// (crossterm issue #793), and a loop may be stuck elsewhere (a write to a
/// terminal that no longer drains). This thread ends the process when the
/// terminal is gone (exit status 129, as for SIGHUP) or when a signal asked
/// to stop and the loops did not within a second (128 + the signal). There
/// is no terminal left to restore in the first case; in the second it
/// restores what it can.
pub fn spawn_watchdog(signals: Signals) {
    let spawned = std::thread::Builder::new()
        .name("terminal-watchdog".into())
        .spawn(move || {
            loop {
                std::thread::sleep(WATCH);
                let gone = crossterm::terminal::size().is_err();
                if gone || signals.status().is_some() {
                    std::thread::sleep(GRACE);
                    if !gone {
                        let _ = ratatui::try_restore();
                        let _ = crossterm::execute!(std::io::stdout(), crossterm::cursor::Show);
                    }
                    let status = match signals.status() {
                        Some(s) if !gone => s,
                        _ => for_signal(signal_hook::consts::SIGHUP),
                    };
                    std::process::exit(status.into());
                }
            }
        });
    // Without the watchdog cgtui still works; only a dropped terminal is not noticed.
    drop(spawned);
}
