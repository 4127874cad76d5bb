//! Bytes in, written to a file, loaded by the chunk reader in one chunk and
//! in several (2 to 7), and by the sequential loader: where the chunk reader
//! does not give up, all must give the same profile (names, functions, self
//! costs, calls, totals, diagnostics and every per-line record read again
//! from the file), or the same error.

#![no_main]

use cgtui::parse::{LoadOptions, Plan, load_parallel, load_paths};
use cgtui::profile::{Detail, Profile};
use libfuzzer_sys::fuzz_target;

fn shape(p: &Profile) -> String {
    let parts: Vec<String> = p
        .parts
        .iter()
        .map(|original| {
            let records = original.decode(p);
            let mut part = original.clone();
            part.detail = Detail::default();
            format!(
                "{part:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                records.lines,
                records.line_costs,
                records.calls,
                records.call_costs,
                records.jumps,
                records.error
            )
        })
        .collect();
    let names = |i: &cgtui::profile::Interner| -> Vec<String> {
        (0..i.len() as u32).map(|n| i.name(n).to_string()).collect()
    };
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{parts:?}",
        names(&p.files),
        names(&p.objects),
        names(&p.fn_names),
        p.functions,
        p.diagnostics,
        p.events,
    )
}

fuzz_target!(|data: &[u8]| {
    let Ok(dir) = tempfile_dir() else { return };
    let path = dir.join("fuzz.callgrind");
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let options = LoadOptions {
        siblings: false,
        parallel: None,
    };
    let sequential = load_paths(std::slice::from_ref(&path), options);
    // One chunk, and as many as the input's length picks (2 to 7): the
    // chunk reader must give the same profile however the body is cut.
    let chunked = |chunks| {
        let plan = Plan { chunks, threads: 2 };
        load_parallel(std::slice::from_ref(&path), plan)
    };
    let sequential = sequential.map(|p| shape(&p)).map_err(|e| e.to_string());
    for chunks in [1, 2 + data.len() % 6] {
        // Giving up is allowed (`load_paths` then reads otherwise); a
        // profile or an error must be the sequential loader's.
        let chunked = match chunked(chunks) {
            Ok(Err(_gave_up)) => continue,
            Ok(Ok(p)) => Ok(shape(&p)),
            Err(e) => Err(e.to_string()),
        };
        assert_eq!(sequential, chunked, "{chunks} chunks");
    }
    let _ = std::fs::remove_dir_all(&dir);
});

/// A directory of this process's own under the system's temporary one.
fn tempfile_dir() -> std::io::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("cgtui-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
