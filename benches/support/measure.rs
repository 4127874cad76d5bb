//! Runs the release binary and measures it: wall time and peak resident
//! memory (VmHWM, read from /proc while it runs).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The release binary, if built.
pub fn release_binary() -> Option<PathBuf> {
    let exe = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/cgtui");
    exe.exists().then_some(exe)
}

/// Runs `cgtui ARGS` (output discarded): its wall time and peak memory in
/// bytes; `None` if it cannot run or fails.
pub fn run(args: &[&str]) -> Option<(Duration, u64)> {
    run_ending(args, &[0])
}

/// `run`, where any of the exit statuses `ok` is a success (`cgtui
/// check` ends with 1 when a rule fails).
pub fn run_ending(args: &[&str], ok: &[i32]) -> Option<(Duration, u64)> {
    let start = Instant::now();
    let mut child = Command::new(release_binary()?)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        // Until it runs cgtui, the child is this process (its memory).
        if let Ok(text) = std::fs::read_to_string(&status)
            && text.lines().any(|l| l == "Name:\tcgtui")
            && let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kb * 1024);
        }
        if let Ok(Some(exit)) = child.try_wait() {
            let fine = exit.code().is_some_and(|c| ok.contains(&c));
            return fine.then(|| (start.elapsed(), peak));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
