//! Folded stacks (`cgtui report --folded`): the time to write them for the
//! real profiles in `bench-data/*.callgrind` (see
//! `scripts/make-real-profile.sh`) and a generated 100 MB one, split into
//! loading, finding the stacks and writing them, beside the whole command
//! as a user runs it (the release binary, output to /dev/null). Each
//! figure is the best of three; the lines' values must add up to the
//! event's total.
//!
//! `cargo build --release && cargo bench --bench folded` (a plain harness).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/synth.rs"]
#[allow(dead_code)] // the totals it reports are checked by the load bench
mod synth;

use cgtui::analysis::Analysis;
use cgtui::parse::{LoadOptions, Plan, load_paths};
use cgtui::report::{DEFAULT_PATHS, FoldedOptions, folded};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 3;

fn best<T>(mut run: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        let value = run();
        best = best.min(start.elapsed());
        out = Some(value);
    }
    (best, out.expect("RUNS > 0"))
}

/// The whole command, as a user runs it; `None` without a release build.
fn command(path: &Path) -> Option<Duration> {
    let exe = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/cgtui");
    exe.exists().then(|| {
        best(|| {
            let status = Command::new(&exe)
                .args(["report", "--folded"])
                .arg(path)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("cgtui runs");
            assert!(status.success(), "cgtui report --folded {}", path.display());
        })
        .0
    })
}

fn row(path: &Path) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let mb = std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1e6);
    let options = LoadOptions {
        siblings: false,
        plan: Plan::automatic(),
    };
    let (load, (profile, analysis)) = best(|| {
        let profile = load_paths(&[path.to_path_buf()], options).expect("the profile loads");
        let analysis = Analysis::new(&profile);
        (profile, analysis)
    });
    let options = FoldedOptions {
        event: 0,
        min: 0.0,
        max_paths: DEFAULT_PATHS,
        max_depth: folded::DEFAULT_DEPTH,
    };
    let (fold, stacks) = best(|| folded::stacks(&analysis, options));
    let (write, text) = best(|| {
        let mut out = Vec::new();
        folded::write(&profile, &stacks, &mut out).expect("writes to memory");
        out
    });
    let text = String::from_utf8_lossy(&text);
    let sum: i128 = text
        .lines()
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<i128>().ok())
        .sum();
    assert_eq!(
        sum,
        i128::from(analysis.totals[0]),
        "{name}: the lines add up to the total"
    );
    let whole = command(path).map_or("n/a (build --release first)".into(), |d| {
        format!("{:.3} s", d.as_secs_f64())
    });
    println!(
        "{name:<28} {mb:>7.1} MB {:>7} lines {:>8.3} s {:>8.3} s {:>8.3} s   {whole}",
        text.lines().count(),
        load.as_secs_f64(),
        fold.as_secs_f64(),
        write.as_secs_f64(),
    );
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench-data");
    let _ = std::fs::create_dir_all(&dir);
    let synthetic = dir.join("synth-100M.callgrind");
    if !synthetic.exists() {
        let written = synth::write(&synthetic.to_string_lossy(), 100 << 20, 1)
            .expect("bench-data is writable");
        eprintln!(
            "wrote {} ({} functions)",
            synthetic.display(),
            written.functions
        );
    }
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let n = p
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            n.ends_with(".callgrind") && (!n.starts_with("synth-") || n == "synth-100M.callgrind")
        })
        .collect();
    paths.sort();
    println!(
        "{:<28} {:>10} {:>13} {:>10} {:>10} {:>10}   whole command",
        "profile", "size", "", "load", "stacks", "write"
    );
    for path in paths {
        row(&path);
    }
}
