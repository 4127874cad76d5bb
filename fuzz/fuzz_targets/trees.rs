//! The `trees` target: its body is `fuzz/targets/trees.rs`, which the test
//! suite also runs (tests/fuzz_targets.rs), so it is built and linted there.

#![no_main]

#[path = "../targets/trees.rs"]
mod target;

libfuzzer_sys::fuzz_target!(|data: &[u8]| target::run(data));
