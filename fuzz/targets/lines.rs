//! Bytes in, read as one line, and as the value after its `=`, by each of
//! the scanner's hand-written shortcuts and by the parser of the same line
//! kind: each shortcut must read what the parser reads, or decline.

/// The target: never panics on any `data` (see the module doc).
pub fn run(data: &[u8]) {
    if let Err(what) = cgtui::parse::shortcuts_agree(data) {
        panic!("a shortcut reads otherwise than the parser: {what}");
    }
}
