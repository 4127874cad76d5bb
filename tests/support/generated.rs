//! Generated profiles that several tests read, each written once per run
//! of the suite: the generator runs unoptimised here (1.7 s of CPU for
//! 10 MB), reading the file back takes milliseconds. The files live in
//! the target directory's scratch folder under a name made of their
//! parameters, and are written again by every run (the generator may have
//! changed since the last one); a test that changes one works on a copy.

use super::synth::{self, Written};
use std::path::PathBuf;
use std::sync::OnceLock;

/// A generated profile and what the generator says it holds.
pub struct Generated {
    pub path: PathBuf,
    pub written: Written,
}

/// `synth::write`'s instruction-level profile of 10 MiB (seed 3): 2,560
/// functions, each with its per-line, call and jump records.
pub fn instruction_level_10m() -> &'static Generated {
    static FILE: OnceLock<Generated> = OnceLock::new();
    FILE.get_or_init(|| {
        generate("synth-10M-seed3.callgrind", |out| {
            synth::write(out, 10 << 20, 3)
        })
    })
}

/// Writes `name` with `write` (to a name of this process first, then
/// renamed, so that another run of the suite never reads half a file).
fn generate(name: &str, write: impl Fn(&str) -> std::io::Result<Written>) -> Generated {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    let partial = dir.join(format!("{name}.{}", std::process::id()));
    let written = write(partial.to_str().unwrap()).unwrap();
    std::fs::rename(&partial, &path).unwrap();
    Generated { path, written }
}
