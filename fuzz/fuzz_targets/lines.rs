//! Bytes in, read as one line, and as the value after its `=`, by each of
//! the scanner's hand-written shortcuts and by the parser of the same line
//! kind: each shortcut must read what the parser reads, or decline.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(what) = cgtui::parse::shortcuts_agree(data) {
        panic!("a shortcut reads otherwise than the parser: {what}");
    }
});
