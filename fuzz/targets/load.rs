//! Bytes in, written to a file and loaded as `cgtui` loads a file (cut
//! into chunks, then in one chunk where they give up), its analysis made:
//! a profile with diagnostics or a load error out, never a panic, a hang
//! or unbounded memory.

use cgtui::analysis::Analysis;
use cgtui::parse::{LoadOptions, load_paths};

/// The target: never panics on any `data` (see the module doc).
pub fn run(data: &[u8]) {
    let dir = std::env::temp_dir().join(format!("cgtui-fuzz-load-{}", std::process::id()));
    let path = dir.join("fuzz.callgrind");
    if std::fs::create_dir_all(&dir).is_err() || std::fs::write(&path, data).is_err() {
        return;
    }
    let options = LoadOptions {
        siblings: false,
        ..LoadOptions::default()
    };
    if let Ok(profile) = load_paths(std::slice::from_ref(&path), options) {
        let _ = Analysis::new(&profile);
    }
}
