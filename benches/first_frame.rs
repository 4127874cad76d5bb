//! The browser's first frame: from starting `cgtui FILE` in a terminal (a
//! pseudo-terminal of 120x30) until the flat profile's header is drawn,
//! on bundled samples and on the files of `bench-data/` that exist: the
//! load benchmark writes most; `synth-500M.callgrind` (issue 14: 500 MB
//! within 0.7 s) is `cargo run --release --example synth -- --size 500M
//! --out bench-data/synth-500M.callgrind`. The release binary is what
//! runs: build it first.
//!
//! `cargo bench --bench first_frame` (a plain harness: prints a table).

#[path = "support/measure.rs"]
#[allow(dead_code)]
mod measure;

use expectrl::Session;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// What the first frame shows: the flat profile's header.
const DRAWN: &[u8] = b"Incl";
/// Longer than this is a failure, not a figure.
const LIMIT: Duration = Duration::from_secs(30);

/// Seconds from the start of `cgtui FILE` until its first frame.
fn first_frame(binary: &Path, file: &Path) -> Option<Duration> {
    let mut cmd = Command::new(binary);
    cmd.arg(file).env("TERM", "xterm-256color");
    let start = Instant::now();
    let mut session = Session::spawn(cmd).ok()?;
    session.get_process_mut().set_window_size(120, 30).ok()?;
    let mut seen = Vec::new();
    let mut buf = [0u8; 65536];
    let drawn = loop {
        match session.try_read(&mut buf) {
            Ok(0) => break None,
            Ok(n) => {
                seen.extend_from_slice(&buf[..n]);
                if seen.windows(DRAWN.len()).any(|w| w == DRAWN) {
                    break Some(start.elapsed());
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if start.elapsed() > LIMIT {
                    break None;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            Err(_) => break None,
        }
    };
    let pid = session.get_process().pid().as_raw().to_string();
    let _ = Command::new("kill").args(["-KILL", &pid]).status();
    let _ = session.get_process_mut().wait();
    drawn
}

fn main() {
    let Some(binary) = measure::release_binary() else {
        eprintln!("build the release binary first: cargo build --release");
        std::process::exit(1);
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let samples =
        ["recursion.callgrind", "cpp-names.callgrind"].map(|n| root.join("samples").join(n));
    let data = [
        "sqlite.callgrind",
        "rustc-dump-instr.callgrind",
        "rustc-cacheuse.callgrind",
        "synth-100M.callgrind",
        "synth-many-300k.callgrind",
        "synth-500M.callgrind",
        "synth-many-1M.callgrind",
    ]
    .map(|n| root.join("bench-data").join(n));
    println!(
        "{:<28} {:>10} {:>12} {:>12}",
        "profile", "size", "best", "median"
    );
    for file in samples.iter().chain(&data).filter(|f| f.exists()) {
        let bytes = std::fs::metadata(file).map_or(0, |m| m.len());
        let runs = if bytes > 100 << 20 { 3 } else { 7 };
        let mut times: Vec<Duration> = (0..runs)
            .filter_map(|_| first_frame(&binary, file))
            .collect();
        times.sort();
        let name = file.file_name().map(|n| n.to_string_lossy().to_string());
        match (times.first(), times.get(times.len() / 2)) {
            (Some(best), Some(median)) => println!(
                "{:<28} {:>7.1} MB {:>10.3} s {:>10.3} s",
                name.unwrap_or_default(),
                bytes as f64 / 1e6,
                best.as_secs_f64(),
                median.as_secs_f64()
            ),
            _ => println!("{:<28} no first frame", name.unwrap_or_default()),
        }
    }
}
