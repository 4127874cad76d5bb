//! The instruction listing of one function: every instruction of its
//! extent in its object (objdump's text), each with its self cost from the
//! profile's per-address records, its source position, the jumps and calls
//! made from it and its inline chain from DWARF. `annotate --asm` prints
//! it; the browser's assembly view is meant to be a view over it.
//!
//! `listing` is plain, blocking work meant for a background thread: it
//! checks a cancel flag between objdump's output lines and between DWARF
//! look-ups, and its result is owned data a caller can keep per function
//! (`Cache`). What cannot be read (no object, no objdump, a stripped or
//! changed object) becomes a `Note`, and the costs are listed all the
//! same: every costed address is one instruction row, so the rows add up
//! exactly to the function's self cost. Must not import `tui`.

mod inline;
pub mod inlined;
mod merge;
mod notes;
pub mod objdump;
pub mod object;

pub use notes::Note;

use crate::analysis::Analysis;
use crate::analysis::source::function_source;
use crate::locate::Locator;
use crate::profile::{Cost, FnId, Profile};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Where objects are looked for and how they are read.
#[derive(Clone, Debug)]
pub struct AsmOptions {
    /// `--object-root OLD=NEW` rewrites (`rewrites`) and the directories
    /// of the profiles (`profile_dirs`), where an object is looked for by
    /// its file name last.
    pub objects: Locator,
    /// The disassembler program.
    pub objdump: PathBuf,
    /// Read inline chains from DWARF.
    pub inline: bool,
    /// The longest a function's disassembly may take.
    pub time_limit: Duration,
}

impl Default for AsmOptions {
    fn default() -> Self {
        AsmOptions {
            objects: Locator::default(),
            objdump: PathBuf::from("objdump"),
            inline: true,
            time_limit: Duration::from_secs(60),
        }
    }
}

/// A jump (`jump=`/`jcnd=`) from an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpOut {
    pub target: u64,
    /// The function the profile names at the target.
    pub target_func: FnId,
    /// Times the jump instruction was executed (for `jump=`, its count).
    pub executed: u64,
    /// Times a conditional jump was taken; `None` for an unconditional one.
    pub taken: Option<u64>,
}

impl JumpOut {
    /// A jump to itself or to an earlier address (a loop's back edge).
    pub fn backward(&self, from: u64) -> bool {
        self.target <= from
    }
}

/// Calls from an instruction to one callee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallOut {
    pub callee: FnId,
    /// 0: the profile gives no count.
    pub count: u64,
    /// The calls' inclusive cost, in the analysis's columns.
    pub inclusive: Vec<Cost>,
}

/// One instruction (or a costed address objdump gave no instruction at).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub addr: u64,
    /// objdump's text, spaces collapsed; empty where not disassembled.
    pub text: String,
    /// Self cost in the analysis's columns (zero where the profile has none).
    pub cost: Vec<Cost>,
    /// Source position: an index into `Listing::files` and a line (the
    /// profile's for a costed address, else DWARF's).
    pub source: Option<(u32, u64)>,
    /// An index into `Listing::chains` (0: not inlined, or unknown).
    pub inline: u32,
    pub jumps: Vec<JumpOut>,
    pub calls: Vec<CallOut>,
}

impl Instruction {
    /// The profile has a cost at this address.
    pub fn costed(&self) -> bool {
        self.cost.iter().any(|&c| c != 0)
    }
}

/// One function's instructions and what stood in the way of reading them.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    pub function: FnId,
    /// The object as the profile names it.
    pub object: String,
    /// The file read for it.
    pub object_path: Option<PathBuf>,
    /// In address order, one per address.
    pub instructions: Vec<Instruction>,
    /// Inline chains, outermost first; entry 0 is the empty chain.
    pub chains: Vec<Vec<String>>,
    /// Source file names of `Instruction::source`.
    pub files: Vec<String>,
    /// Why the listing is incomplete or may be wrong, in the order found.
    pub notes: Vec<Note>,
}

impl Listing {
    /// The inline chain of `i`, outermost first.
    pub fn inline_of(&self, i: &Instruction) -> &[String] {
        self.chains
            .get(i.inline as usize)
            .map_or(&[][..], Vec::as_slice)
    }

    /// The source file and line of `i`, if known.
    pub fn source_of(&self, i: &Instruction) -> Option<(&str, u64)> {
        let (file, line) = i.source?;
        Some((self.files.get(file as usize)?.as_str(), line))
    }

    /// The instructions' self costs summed (the function's self cost).
    pub fn total(&self, width: usize) -> Vec<Cost> {
        let mut sum: Vec<Cost> = vec![0; width];
        for i in &self.instructions {
            for (s, &c) in sum.iter_mut().zip(&i.cost) {
                *s = s.saturating_add(c);
            }
        }
        sum
    }

    /// Whether anything at all can be shown: a cost or an instruction.
    pub fn is_empty(&self) -> bool {
        self.instructions.is_empty()
    }
}

/// The caller's flag asked to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

/// The listing of `f`: blocking; stops with `Cancelled` soon after
/// `cancel` is set.
pub fn listing(
    profile: &Profile,
    analysis: &Analysis,
    f: FnId,
    options: &AsmOptions,
    cancel: &AtomicBool,
) -> Result<Listing, Cancelled> {
    let mut all = listings(profile, analysis, &[f], options, cancel)?;
    Ok(all.pop().unwrap_or_default())
}

/// The listings of `functions`, in order: as `listing` for each, with the
/// DWARF of each object read once for all its functions (for a 65 MB
/// binary, reading it again per function took most of the time).
pub fn listings(
    profile: &Profile,
    analysis: &Analysis,
    functions: &[FnId],
    options: &AsmOptions,
    cancel: &AtomicBool,
) -> Result<Vec<Listing>, Cancelled> {
    let mut out = Vec::with_capacity(functions.len());
    let mut by_object: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for &f in functions {
        let rows = function_source(profile, analysis, f);
        let deadline = Instant::now() + options.time_limit;
        let (listing, read) = merge::build(profile, f, rows, options, cancel, deadline)?;
        if let Some(path) = read {
            by_object.entry(path).or_default().push(out.len());
        }
        out.push(listing);
    }
    if options.inline {
        for (path, indexes) in by_object {
            let mut chosen: Vec<&mut Listing> = (out.iter_mut().enumerate())
                .filter(|(i, _)| indexes.binary_search(i).is_ok())
                .map(|(_, l)| l)
                .collect();
            merge::add_places(&path, &mut chosen, cancel)?;
        }
    }
    Ok(out)
}

/// Listings kept per function, up to a number of instructions in all (the
/// oldest go first): the browser keeps a function's disassembly while it
/// runs without holding every function it ever showed.
#[derive(Debug, Default)]
pub struct Cache {
    kept: HashMap<FnId, Arc<Listing>>,
    order: Vec<FnId>,
    instructions: usize,
}

/// Instructions kept by a `Cache` (a few MB for 2^20).
const CACHE_INSTRUCTIONS: usize = 1 << 20;

impl Cache {
    pub fn get(&self, f: FnId) -> Option<Arc<Listing>> {
        self.kept.get(&f).cloned()
    }

    /// Keeps `listing`, letting the oldest go while over the bound.
    pub fn insert(&mut self, listing: Arc<Listing>) {
        let f = listing.function;
        if let Some(old) = self.kept.insert(f, listing.clone()) {
            self.instructions -= old.instructions.len();
            self.order.retain(|&g| g != f);
        }
        self.instructions += listing.instructions.len();
        self.order.push(f);
        while self.instructions > CACHE_INSTRUCTIONS && self.order.len() > 1 {
            let oldest = self.order.remove(0);
            if let Some(gone) = self.kept.remove(&oldest) {
                self.instructions -= gone.instructions.len();
            }
        }
    }
}

#[cfg(test)]
mod tests;
