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
    #[error(transparent)]
    Incomparable(#[from] crate::cli_support::Incomparable),
    #[error(transparent)]
    Metric(#[from] crate::metric::MetricError),
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

/// How long the watchdog lets the loops finish on their own.
const GRACE: Duration = Duration::from_secs(1);

/// The safety net behind the loops: a loop may be stuck where it cannot
/// see a signal (a write to a terminal that no longer drains). This thread
/// sleeps until SIGINT, SIGTERM or SIGHUP arrives (the input reader raises
/// SIGHUP itself when the terminal goes away), then gives the loops a
/// second to end on their own; if they have not, it restores what it can
/// and ends the process with 128 + the signal. It never wakes otherwise.
pub fn spawn_watchdog(signals: Signals) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut caught) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        // Without the watchdog cgtui still works; only a stuck loop is not ended.
        return;
    };
    let spawned = std::thread::Builder::new()
        .name("terminal-watchdog".into())
        .spawn(move || {
            if let Some(sig) = caught.forever().next() {
                std::thread::sleep(GRACE);
                super::screen::restore();
                let status = signals.status().unwrap_or_else(|| for_signal(sig));
                std::process::exit(status.into());
            }
        });
    drop(spawned);
}
