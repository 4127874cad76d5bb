//! Bytes in, a profile with diagnostics or a load error out: never a panic,
//! a hang or unbounded memory.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = cgtui::parse::load_reader("fuzz.cg", data);
});
