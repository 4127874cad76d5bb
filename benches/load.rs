//! Load throughput and peak memory (issues 4 and 18), on generated profiles
//! of 10 MB and 100 MB (1 GB with `CGTUI_BENCH_BIG=1`), on generated
//! profiles of many functions (50k, 300k and 1M functions at 20, 110 and
//! 500 MB, and 5M tiny functions) and on real profiles placed in
//! `bench-data/*.callgrind` (see `scripts/make-real-profile.sh`).
//!
//! `cargo bench --bench load` (a plain harness: prints a table).
//!
//! Throughput: the best of several in-process loads (read + parse + model +
//! `Analysis`, i.e. inclusive costs), from a warm page cache, on every core
//! (the chunks must not give up on these files) and with each body in one
//! chunk (one thread, in the file's order, as where chunks give up),
//! beside the floor of any loader: finding the lines (memchr over the file).
//! `wc -l` on the same file is timed beside it.
//! Exactness: the totals loaded must equal what the generator wrote. Peak
//! memory: the release binary runs `cgtui report` on the file in a child
//! process whose VmHWM is read from /proc while it runs, beside the least
//! this design could take on the file (`model_floor`).

#[path = "support/synth.rs"]
mod synth;

#[path = "support/measure.rs"]
#[allow(dead_code)]
mod measure;

use cgtui::analysis::Analysis;
use cgtui::parse::{LoadOptions, Plan, load_parallel, load_paths};
use cgtui::profile::Interner;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn data_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench-data");
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// Loads `path` `runs` times, cut as `plan` says; returns the best time
/// and the analysis totals.
fn time_load(path: &Path, runs: usize, plan: Plan) -> (Duration, Vec<i64>, Vec<String>) {
    let mut best = Duration::MAX;
    let mut totals = Vec::new();
    let mut names = Vec::new();
    let options = LoadOptions {
        siblings: false,
        plan,
    };
    for _ in 0..runs {
        let start = Instant::now();
        let profile = match load_paths(&[path.to_path_buf()], options) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        let analysis = Analysis::new(&profile);
        best = best.min(start.elapsed());
        totals = analysis.totals.clone();
        names = profile
            .events
            .events
            .iter()
            .map(|e| e.name.clone())
            .collect();
    }
    (best, totals, names)
}

/// Peak resident memory of `cgtui report` on `path`, in bytes.
fn peak_memory(path: &Path) -> Option<u64> {
    let path = path.to_str()?;
    measure::run(&["report", "--limit", "1", path]).map(|(_, peak)| peak)
}

/// The least peak memory `cgtui report` could have on `path` with this
/// design: what it takes on the smallest bundled sample (its code, the C
/// library, start-up), plus the model no report can do without, and
/// nothing else: the text of every name, each function's name, file and
/// object ids (12 bytes), its self and inclusive costs, and each call edge
/// (caller, callee, count: 16 bytes, and its costs), every cost in 8 bytes
/// (the design's fixed-width 64-bit costs). No index to find a name, no
/// list of callers, no buffer to read with, no sorted order.
fn model_floor(path: &Path) -> Option<u64> {
    let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/recursion.callgrind");
    // The most of a few runs: one of a few milliseconds can end between
    // two samples of its memory.
    let start_up = (0..5)
        .filter_map(|_| measure::run(&["report", "--limit", "1", sample.to_str()?]))
        .map(|(_, peak)| peak)
        .max()?;
    let options = LoadOptions {
        siblings: false,
        plan: Plan::automatic(),
    };
    let profile = load_paths(&[path.to_path_buf()], options).ok()?;
    let analysis = Analysis::new(&profile);
    let text = |names: &Interner| {
        (0..names.len() as u32)
            .map(|i| names.name(i).len())
            .sum::<usize>()
    };
    let names = text(&profile.fn_names) + text(&profile.files) + text(&profile.objects);
    let functions = profile.functions.len() * (12 + 8 * analysis.width);
    let parts: usize = (profile.parts.iter())
        .map(|p| 8 * p.rows() * p.width() + p.edges.len() * (16 + 8 * p.width()))
        .sum();
    Some(start_up + (names + functions + parts) as u64)
}

/// The best time of `wc -l` on `path`.
fn time_wc(path: &Path, runs: usize) -> Option<Duration> {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            let out = std::process::Command::new("wc")
                .arg("-l")
                .arg(path)
                .output()
                .ok()?;
            out.status.success().then(|| start.elapsed())
        })
        .min()
        .flatten()
}

/// The best time to find every line of `path` (the floor of any loader).
fn time_lines(path: &Path, runs: usize) -> Duration {
    let mut best = Duration::MAX;
    let mut buf = vec![0u8; 1 << 20];
    for _ in 0..runs {
        let start = Instant::now();
        let mut lines = 0;
        if let Ok(mut file) = std::fs::File::open(path) {
            while let Ok(n @ 1..) = file.read(&mut buf) {
                lines += memchr::memchr_iter(b'\n', &buf[..n]).count();
            }
        }
        std::hint::black_box(lines);
        best = best.min(start.elapsed());
    }
    best
}

/// The best time to put the function names of `path` into one `Interner`
/// (hashing each and finding its slot in a table of all of them), on one
/// core: work any loader does once per distinct name, in the order the
/// names first come, whatever the bytes around them.
fn time_names(path: &Path, runs: usize) -> (usize, Duration) {
    let options = LoadOptions {
        siblings: false,
        plan: Plan::automatic(),
    };
    let Ok(profile) = load_paths(&[path.to_path_buf()], options) else {
        return (0, Duration::ZERO);
    };
    let names = &profile.fn_names;
    let all: Vec<&str> = (0..names.len() as u32).map(|i| names.name(i)).collect();
    let bytes = all.iter().map(|n| n.len()).sum();
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        let mut interner = Interner::default();
        interner.reserve(all.len(), bytes, all.len());
        for name in &all {
            std::hint::black_box(interner.intern(name));
        }
        best = best.min(start.elapsed());
    }
    (all.len(), best)
}

fn row(name: &str, path: &Path, runs: usize) -> (Vec<i64>, Vec<String>) {
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let plan = Plan::automatic();
    if let Ok(Err(why)) = load_parallel(&[path.to_path_buf()], plan) {
        eprintln!("{name}: the chunks gave up: {why}");
        std::process::exit(1);
    }
    let (best, totals, names) = time_load(path, runs, plan);
    let (one_chunk, one_totals, _) = time_load(path, runs.min(2), Plan::one_chunk());
    assert_eq!(totals, one_totals, "{name}: cut or not, the same totals");
    let floor = time_lines(path, runs);
    let wc = time_wc(path, runs).map_or("n/a".to_string(), |d| format!("{:.3} s", d.as_secs_f64()));
    let mb = bytes as f64 / 1e6;
    let rate = |d: Duration| mb / d.as_secs_f64();
    let memory = |m: Option<u64>| {
        m.map_or("n/a (build --release first)".to_string(), |m| {
            format!("{:.1} MB ({:.2}x)", m as f64 / 1e6, m as f64 / bytes as f64)
        })
    };
    println!(
        "{name:<24} {mb:>8.1} MB {:>7.3} s {:>6.0} MB/s {:>7.3} s {:>6.0} MB/s {:>6.0} MB/s {wc:>8}   {:<18}   {}",
        best.as_secs_f64(),
        rate(best),
        one_chunk.as_secs_f64(),
        rate(one_chunk),
        rate(floor),
        memory(peak_memory(path)),
        memory(model_floor(path)),
    );
    (totals, names)
}

/// The load of `path` on 1, 2, 4 and 8 threads, as many chunks at least:
/// how it scales with cores, and what more threads than cores cost.
fn threads_row(name: &str, path: &Path, runs: usize) {
    let mb = std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1e6);
    let cells: Vec<String> = [1, 2, 4, 8]
        .iter()
        .map(|&threads| {
            let plan = Plan {
                chunks: threads,
                threads,
            };
            let (best, _, _) = time_load(path, runs, plan);
            format!(
                "{threads}: {:.3} s {:.0} MB/s",
                best.as_secs_f64(),
                mb / best.as_secs_f64()
            )
        })
        .collect();
    println!("{name:<24} {}", cells.join("   "));
}

/// What the generator writes.
enum Shape {
    /// Instruction-level, 9 events, about 4 KB a function (`synth::write`).
    Instr(u64),
    /// This many functions in about this many bytes (`synth::write_many`).
    Many(u64, u64),
    /// This many `fn=fN` / `1 1` blocks (`synth::write_tiny`).
    Tiny(u64),
}

fn main() {
    // cargo passes `--bench`; any other argument filters by name.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let mut shapes = vec![
        ("synth-10M", Shape::Instr(10 << 20), 5),
        ("synth-100M", Shape::Instr(100 << 20), 3),
        ("synth-many-50k", Shape::Many(50_000, 20_000_000), 3),
        ("synth-many-300k", Shape::Many(300_000, 110_000_000), 3),
        ("synth-many-1M", Shape::Many(1_000_000, 500_000_000), 2),
        ("synth-tiny-5M", Shape::Tiny(5_000_000), 2),
    ];
    if std::env::var_os("CGTUI_BENCH_BIG").is_some() {
        shapes.push(("synth-1G", Shape::Instr(1 << 30), 2));
    }
    println!(
        "{:<24} {:>11} {:>22} {:>22} {:>11} {:>8}   {:<18}   model floor",
        "profile", "size", "load", "one chunk", "line floor", "wc -l", "peak memory"
    );
    for (name, shape, runs) in shapes {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let path = data_dir().join(format!("{name}.callgrind"));
        let out = path.to_string_lossy();
        let written = match shape {
            Shape::Instr(size) => synth::write(&out, size, 1),
            Shape::Many(functions, size) => synth::write_many(&out, functions, size, 1),
            Shape::Tiny(functions) => synth::write_tiny(&out, functions),
        };
        let written = match written {
            Ok(w) => w,
            Err(e) => {
                eprintln!("cannot write {}: {e}", path.display());
                std::process::exit(1);
            }
        };
        // The file just written goes to disk before the timing, not during it.
        if let Ok(file) = std::fs::File::open(&path) {
            let _ = file.sync_all();
        }
        let (totals, names) = row(name, &path, runs);
        let (distinct, interning) = time_names(&path, runs);
        println!(
            "{:<24} ({} bytes, {} functions, totals checked; its {distinct} names \
             interned alone, one core: {:.3} s, {:.0} MB/s of the file)",
            "",
            written.bytes,
            written.functions,
            interning.as_secs_f64(),
            written.bytes as f64 / 1e6 / interning.as_secs_f64()
        );
        for (event, expected) in &written.totals {
            let got = names.iter().position(|n| n == event).map(|i| totals[i]);
            assert_eq!(
                got.map(i128::from),
                Some(*expected as i128),
                "{name}: total of {event}"
            );
        }
    }
    let mut real: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let n = p
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            n.ends_with(".callgrind") && !n.starts_with("synth-")
        })
        .collect();
    real.sort();
    for path in &real {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        row(&name, path, 3);
    }
    if filter.as_deref().is_none_or(|f| "threads".contains(f)) {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        println!("\nthreads (load on 1, 2, 4 and 8 threads; this machine has {cores} cores)");
        let shapes = ["synth-100M.callgrind", "synth-many-300k.callgrind"];
        let files = (shapes.iter().map(|n| data_dir().join(n)))
            .chain(real.iter().cloned())
            .filter(|p| p.metadata().is_ok_and(|m| m.len() > 10 << 20));
        for path in files {
            let name = path.file_name().map(|n| n.to_string_lossy().to_string());
            threads_row(&name.unwrap_or_default(), &path, 3);
        }
        println!();
    }
}
