//! Comparing two big profiles (`--base`): the time and peak memory of
//! `cgtui report --base A B` against `cgtui report A` on generated
//! profiles of 500 MB each (two runs of one program: the same functions,
//! other costs), and on the real profiles in `bench-data/` when two are
//! there. Target: about twice one load, within the sum of the two files'
//! sizes in memory. Best of two runs of the release binary.
//!
//! Then `cgtui check --base A B --fail 'Ir>+0%'` both ways (one way the
//! total grew, and the rule fails and is explained) against the two loads
//! alone: issue 42's target is at most 1.5 times the two loads.
//!
//! `cargo build --release && cargo bench --bench diff`
//! (`CGTUI_BENCH_DIFF_MB=N` for another size).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/synth.rs"]
#[allow(dead_code)]
mod synth;

#[path = "support/measure.rs"]
mod measure;

use std::path::{Path, PathBuf};
use std::time::Duration;

fn best(args: &[&str]) -> (Duration, u64) {
    let runs: Vec<(Duration, u64)> = (0..2)
        .map(|_| measure::run(args).expect("cgtui runs"))
        .collect();
    let time = runs.iter().map(|r| r.0).min().unwrap();
    let peak = runs.iter().map(|r| r.1).max().unwrap();
    (time, peak)
}

/// The slower of `check` both ways, beside the two loads alone.
fn gate_row(a: &Path, b: &Path) {
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let best_of = |args: &[&str]| {
        (0..2)
            .map(|_| {
                measure::run_ending(args, &[0, 1])
                    .expect("cgtui check runs")
                    .0
            })
            .min()
            .unwrap()
    };
    let loads = best_of(&["report", "--limit", "1", a]) + best_of(&["report", "--limit", "1", b]);
    let rule = ["--fail", "Ir>+0%", "--fail", "Dr>+0%"];
    let ab = best_of(&[&["check", "--base", a, b][..], &rule].concat());
    let ba = best_of(&[&["check", "--base", b, a][..], &rule].concat());
    let gate = ab.max(ba);
    println!(
        "check (slower way) {:>6.2} s ({:.2} and {:.2}) | the two loads {:>6.2} s | {:.2}x",
        gate.as_secs_f64(),
        ab.as_secs_f64(),
        ba.as_secs_f64(),
        loads.as_secs_f64(),
        gate.as_secs_f64() / loads.as_secs_f64()
    );
}

fn row(a: &Path, b: &Path) {
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let size = |p: &str| std::fs::metadata(p).map_or(0, |m| m.len());
    let (one, one_peak) = best(&["report", "--limit", "1", b]);
    let (two, two_peak) = best(&["report", "--limit", "1", "--base", a, b]);
    let mb = |bytes: u64| bytes as f64 / 1e6;
    let files = size(a) + size(b);
    println!(
        "{:<30} {:>8.0} MB x2 | one: {:>6.2} s {:>7.0} MB | both: {:>6.2} s ({:.2}x) {:>7.0} MB ({:.2}x the two files)",
        Path::new(b).file_name().unwrap().to_string_lossy(),
        mb(size(b)),
        one.as_secs_f64(),
        mb(one_peak),
        two.as_secs_f64(),
        two.as_secs_f64() / one.as_secs_f64(),
        mb(two_peak),
        two_peak as f64 / files as f64,
    );
}

fn main() {
    if measure::release_binary().is_none() {
        eprintln!("build the release binary first: cargo build --release");
        std::process::exit(1);
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench-data");
    let _ = std::fs::create_dir_all(&dir);
    let mb: u64 = std::env::var("CGTUI_BENCH_DIFF_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let (a, b) = (
        dir.join(format!("synth-{mb}M-a.callgrind")),
        dir.join(format!("synth-{mb}M-b.callgrind")),
    );
    for (path, seed) in [(&a, 1), (&b, 2)] {
        if !path.exists() {
            synth::write(&path.to_string_lossy(), mb << 20, seed).expect("bench-data is writable");
        }
    }
    row(&a, &b);
    gate_row(&a, &b);
    let (x, y) = (
        dir.join("rustc-dump-instr.callgrind"),
        dir.join("rustc-nocompress.callgrind"),
    );
    if x.exists() && y.exists() {
        row(&x, &y);
        gate_row(&x, &y);
    }
}
