//! Why an instruction listing is incomplete or may not match the profile:
//! one line each, naming the object (and where it was looked for), so the
//! browser can show it in a line and `annotate --asm` on standard error.

use std::path::PathBuf;

/// Something a listing's reader must know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Note {
    #[error("the profile has no per-instruction costs (record with valgrind --dump-instr=yes)")]
    NoInstructions,
    #[error("the profile names no object file for this function: no disassembly")]
    NoObjectName,
    #[error("object {name} not found (tried: {}); use --object-root OLD=NEW", list(.tried))]
    NotFound { name: String, tried: Vec<PathBuf> },
    #[error("{0}")]
    Unreadable(String),
    #[error("{} is newer than the profile: its instructions may not be the ones profiled", .0.display())]
    Newer(PathBuf),
    #[error(
        "{count} costed address(es) of {object}, the first {first:#x}, are outside its code: it changed since the profile?"
    )]
    OutsideCode {
        object: String,
        count: usize,
        first: u64,
    },
    #[error(
        "{count} costed address(es), the first {first:#x}, do not start an instruction of {object}: it changed since the profile?"
    )]
    NotAtInstruction {
        object: String,
        count: usize,
        first: u64,
    },
    #[error(
        "{object} has no symbol for these addresses (stripped?): only the code around the costed addresses is disassembled"
    )]
    NoSymbol { object: String },
    #[error(
        "the function spans {bytes} bytes in {object}, more than the {limit} KiB shown: only the code around the costed addresses is disassembled"
    )]
    TooWide {
        object: String,
        bytes: u64,
        limit: u64,
    },
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Objdump(String),
    #[error("{object} has no DWARF debug information: no inline chains")]
    NoDwarf { object: String },
    #[error("the DWARF of {object} is {} MiB, more than the {} MiB read: no inline chains", .bytes >> 20, .limit >> 20)]
    DwarfTooLarge {
        object: String,
        bytes: u64,
        limit: u64,
    },
    #[error("inline chains of {object} not read: {why}")]
    DwarfUnreadable { object: String, why: String },
}

fn list(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}
