//! Loading before the browser opens: the default file, a background load
//! with a progress line on stderr when it takes more than 0.2 s, and the
//! diagnostics printed (at most `SHOWN`) before the alternate screen.

use crate::cli::LoadArgs;
use crate::parse::{self, LoadOptions};
use crate::profile::Profile;
use color_eyre::eyre::{Result, WrapErr, bail};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Diagnostics printed before the rest are only counted.
const SHOWN: usize = 20;
/// Loads shorter than this show no progress line.
const QUIET: Duration = Duration::from_millis(200);

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

/// Loads `files` in a thread, showing progress, then prints diagnostics.
pub fn load(files: &[PathBuf], args: &LoadArgs) -> Result<Profile> {
    let options = LoadOptions {
        siblings: !args.no_siblings,
    };
    let done = Arc::new(AtomicU64::new(0));
    let total = Arc::new(AtomicU64::new(0));
    let (d, t) = (done.clone(), total.clone());
    let paths = files.to_vec();
    let worker = std::thread::spawn(move || {
        parse::load_paths_with_progress(&paths, options, &mut |bytes, of| {
            d.store(bytes, Ordering::Relaxed);
            t.store(of.unwrap_or(0), Ordering::Relaxed);
        })
    });
    let start = Instant::now();
    let show = std::io::stderr().is_terminal();
    let mut shown = false;
    while !worker.is_finished() {
        std::thread::sleep(Duration::from_millis(50));
        if show && start.elapsed() > QUIET {
            shown = true;
            progress(done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
        }
    }
    if shown {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
    let profile = match worker.join() {
        Ok(result) => result?,
        Err(_) => bail!("the loader thread panicked"),
    };
    print_diagnostics(&profile);
    Ok(profile)
}

fn progress(done: u64, total: u64) {
    const WIDTH: usize = 30;
    let mb = |b: u64| b as f64 / 1e6;
    let line = if total > 0 {
        let filled = (done.min(total) as u128 * WIDTH as u128 / total as u128) as usize;
        format!(
            "\rloading [{}{}] {:.1} of {:.1} MB",
            "#".repeat(filled),
            " ".repeat(WIDTH - filled),
            mb(done),
            mb(total)
        )
    } else {
        format!("\rloading {:.1} MB", mb(done))
    };
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "{line}");
    let _ = err.flush();
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
