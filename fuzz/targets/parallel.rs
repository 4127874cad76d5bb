//! Bytes in, written to a file, loaded with each body in one chunk, read in
//! the file's order, and cut into several (2 to 7): where the chunks do not
//! give up, both must give the same profile (names, functions, self costs,
//! calls, totals, diagnostics and every per-line record read again from the
//! file), or the same error; one chunk never gives up.

use cgtui::parse::{Plan, load_parallel};
use cgtui::profile::{Detail, Profile};

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

/// The target: never panics on any `data` (see the module doc).
pub fn run(data: &[u8]) {
    let Ok(dir) = tempfile_dir() else { return };
    let path = dir.join("fuzz.callgrind");
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let load = |chunks| {
        let plan = Plan { chunks, threads: 2 };
        load_parallel(std::slice::from_ref(&path), plan)
    };
    let whole = match load(1) {
        Ok(Err(why)) => panic!("one chunk gave up: {why}"),
        Ok(Ok(p)) => Ok(shape(&p)),
        Err(e) => Err(e.to_string()),
    };
    // As many chunks as the input's length picks: the same profile however
    // the body is cut. Giving up is allowed (one chunk then reads it).
    let chunks = 2 + data.len() % 6;
    let cut = match load(chunks) {
        Ok(Err(_gave_up)) => None,
        Ok(Ok(p)) => Some(Ok(shape(&p))),
        Err(e) => Some(Err(e.to_string())),
    };
    if let Some(cut) = cut {
        assert_eq!(whole, cut, "{chunks} chunks");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory of this process's own under the system's temporary one.
fn tempfile_dir() -> std::io::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("cgtui-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
