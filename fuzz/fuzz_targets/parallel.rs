//! Bytes in, written to a file, loaded by the sequential loader and by the
//! parallel one cut into three chunks: where the parallel one does not give
//! up, both must give the same profile (names, functions, self costs, calls,
//! totals, diagnostics and every per-line record read again from the file).

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
    let plan = Plan {
        chunks: 3,
        threads: 2,
    };
    if let (Ok(seq), Ok(Ok(par))) = (sequential, load_parallel(std::slice::from_ref(&path), plan)) {
        assert_eq!(shape(&seq), shape(&par));
    }
    let _ = std::fs::remove_dir_all(&dir);
});

/// A directory of this process's own under the system's temporary one.
fn tempfile_dir() -> std::io::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("cgtui-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
