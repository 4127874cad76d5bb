//! The `load` target: its body is `fuzz/targets/load.rs`, which the test
//! suite also runs (tests/fuzz_targets.rs), so it is built and linted there.

#![no_main]

#[path = "../targets/load.rs"]
mod target;

libfuzzer_sys::fuzz_target!(|data: &[u8]| target::run(data));
