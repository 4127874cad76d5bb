//! The fuzz targets' bodies (`fuzz/targets/`, see `fuzz/README.md`) run
//! on their seeds here: the samples whole and cut (load, report, parallel,
//! their lines for `lines`), and bytes from a fixed pseudo-random sequence
//! (keys, trees). So every target is built, linted and checked by
//! `cargo test`; cargo-fuzz then searches beyond the seeds.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../fuzz/targets/keys.rs"]
mod keys;
#[path = "../fuzz/targets/lines.rs"]
mod lines;
#[path = "../fuzz/targets/load.rs"]
mod load;
#[path = "../fuzz/targets/parallel.rs"]
mod parallel;
#[path = "../fuzz/targets/report.rs"]
mod report;
#[path = "../fuzz/targets/trees.rs"]
mod trees;

use std::path::PathBuf;

/// Every profile of `samples/` (plain text; the `.gz` is read by `load`
/// as a file), whole where it is small, and its first 2 KB.
fn sample_seeds() -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut seeds = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.to_string_lossy();
        if !path.is_file() || name.ends_with(".md") || name.ends_with(".sh") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        seeds.push(bytes[..bytes.len().min(2048)].to_vec());
        if bytes.len() <= 64 << 10 {
            seeds.push(bytes);
        }
    }
    assert!(seeds.len() > 40, "{} seeds", seeds.len());
    seeds
}

/// `n` inputs of up to `max` bytes, drawn from `alphabet` by xorshift.
fn random_seeds(n: usize, max: usize, alphabet: &[u8]) -> Vec<Vec<u8>> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n)
        .map(|_| {
            let len = (next() % (max as u64 + 1)) as usize;
            (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect()
        })
        .collect()
}

#[test]
fn load_report_and_parallel_on_the_samples() {
    for seed in sample_seeds() {
        load::run(&seed);
        report::run(&seed);
        parallel::run(&seed);
    }
    // The targets write their input to a directory of this process.
    for prefix in ["cgtui-fuzz-load-", "cgtui-fuzz-"] {
        let dir = std::env::temp_dir().join(format!("{prefix}{}", std::process::id()));
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn lines_on_every_line_of_the_samples() {
    for seed in sample_seeds() {
        for line in seed.split(|&b| b == b'\n') {
            lines::run(line);
        }
    }
}

#[test]
fn keys_on_escape_sequences_cut_anywhere() {
    // Cut counts and places, delays, introducers, and the bytes of keys,
    // reports and control strings.
    let alphabet = b"\x00\x07\x18\x1b\x1b\x1b[[[O<;;0123456789MmABD~Pq\\]\x90\x9b\x9c\x9d\xc3\xa9 ";
    for seed in random_seeds(3000, 48, alphabet) {
        keys::run(&seed);
    }
}

#[test]
fn trees_on_random_graphs() {
    let alphabet: Vec<u8> = (0..=255).collect();
    // 24 graphs: each takes 0.4 s unoptimised, and cargo-fuzz runs the
    // target on millions (fuzz/README.md); 40 took 15.5 s of the suite.
    for seed in random_seeds(24, 160, &alphabet) {
        trees::run(&seed);
    }
}
