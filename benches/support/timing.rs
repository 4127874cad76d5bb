//! Times closures in-process: each case is run once to warm up and size
//! its samples, then `samples` times a batch of iterations that fills
//! about 50 ms (at least one); prints the fastest, median and slowest
//! time of one iteration. In place of criterion, whose statistics and
//! plots the tables do not use and whose 14 crates every `cargo clippy
//! --all-targets` built.
//!
//! `cargo bench --bench NAME -- WORDS` runs only the cases whose name
//! holds one of the words.

use std::fmt::Display;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// How long one sample runs, about.
const SAMPLE: Duration = Duration::from_millis(50);

/// Cases printed under one title.
pub struct Group {
    title: String,
    samples: usize,
    filters: Vec<String>,
}

/// What a case's closure is given: it times `iters` iterations.
pub struct Bencher {
    iters: u64,
    elapsed: Duration,
}

impl Bencher {
    /// Times `iters` calls of `f`.
    pub fn iter<R>(&mut self, mut f: impl FnMut() -> R) {
        let start = Instant::now();
        for _ in 0..self.iters {
            black_box(f());
        }
        self.elapsed = start.elapsed();
    }

    /// `f(iters)` runs that many iterations and returns the time of the
    /// part it measured (set-up between iterations left out).
    pub fn iter_custom(&mut self, mut f: impl FnMut(u64) -> Duration) {
        self.elapsed = f(self.iters);
    }
}

impl Group {
    pub fn new(title: impl Display, samples: usize) -> Group {
        // cargo passes `--bench`; the other words filter.
        let filters = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with("--"))
            .collect();
        println!("{title}");
        Group {
            title: title.to_string(),
            samples: samples.max(1),
            filters,
        }
    }

    pub fn bench_function(&mut self, name: impl Display, mut f: impl FnMut(&mut Bencher)) {
        let name = name.to_string();
        let full = format!("{}/{name}", self.title);
        if !self.filters.is_empty() && !self.filters.iter().any(|w| full.contains(w.as_str())) {
            return;
        }
        let mut b = Bencher {
            iters: 1,
            elapsed: Duration::ZERO,
        };
        f(&mut b);
        let one = b.elapsed.max(Duration::from_nanos(1));
        b.iters = (SAMPLE.as_nanos() / one.as_nanos()).clamp(1, 1_000_000) as u64;
        let mut times: Vec<Duration> = (0..self.samples)
            .map(|_| {
                f(&mut b);
                b.elapsed / b.iters as u32
            })
            .collect();
        times.sort();
        println!(
            "  {name:<60} [{:>10.3?} {:>10.3?} {:>10.3?}]  fastest, median, slowest of {} x {}",
            times[0],
            times[times.len() / 2],
            times[times.len() - 1],
            self.samples,
            b.iters,
        );
    }
}
