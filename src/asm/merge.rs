//! Puts a listing together: the profile's per-address rows, the object's
//! extent of the function, objdump's instructions and DWARF's places, with
//! the checks that say when they do not fit together.

use super::inline::{self, Missing};
use super::objdump::{self, Failure, MAX_RANGE, Runner};
use super::object;
use super::{AsmOptions, CallOut, Cancelled, Instruction, JumpOut, Listing, Note};
use crate::analysis::source::FunctionSource;
use crate::locate::UNKNOWN_FILE;
use crate::profile::{FnId, Profile};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Interns source file names and inline chains of a listing.
struct Interner {
    files: HashMap<String, u32>,
    chains: HashMap<Vec<String>, u32>,
}

impl Interner {
    /// The names `listing` holds already.
    fn of(listing: &Listing) -> Interner {
        let index = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
        Interner {
            files: (listing.files.iter().enumerate())
                .map(|(i, f)| (f.clone(), index(i)))
                .collect(),
            chains: (listing.chains.iter().enumerate())
                .skip(1)
                .map(|(i, c)| (c.clone(), index(i)))
                .collect(),
        }
    }

    fn file(&mut self, listing: &mut Listing, name: &str) -> u32 {
        if let Some(&i) = self.files.get(name) {
            return i;
        }
        let i = u32::try_from(listing.files.len()).unwrap_or(u32::MAX);
        listing.files.push(name.to_string());
        self.files.insert(name.to_string(), i);
        i
    }

    fn chain(&mut self, listing: &mut Listing, chain: Vec<String>) -> u32 {
        if chain.is_empty() {
            return 0;
        }
        if let Some(&i) = self.chains.get(&chain) {
            return i;
        }
        let i = u32::try_from(listing.chains.len()).unwrap_or(u32::MAX);
        listing.chains.push(chain.clone());
        self.chains.insert(chain, i);
        i
    }
}

/// The listing of `f` from its profile rows `rows`, without inline chains
/// (`add_places` adds them, for several listings of an object at once),
/// and the object file it read, if it could.
pub fn build(
    profile: &Profile,
    f: FnId,
    rows: FunctionSource,
    options: &AsmOptions,
    cancel: &AtomicBool,
    deadline: Instant,
) -> Result<(Listing, Option<PathBuf>), Cancelled> {
    let name = profile.fn_object(f).to_string();
    let mut listing = Listing {
        function: f,
        object: name.clone(),
        chains: vec![Vec::new()],
        ..Listing::default()
    };
    let mut interner = Interner {
        files: HashMap::new(),
        chains: HashMap::new(),
    };
    if let Some(e) = &rows.error {
        listing.notes.push(Note::Unreadable(e.clone()));
    }
    if rows.instrs.is_empty() {
        if !rows.lines.is_empty() {
            listing.notes.push(Note::NoInstructions);
        }
        return Ok((listing, None));
    }
    let width = rows.instrs[0].cost.len();
    let mut at: BTreeMap<u64, Instruction> = BTreeMap::new();
    let blank = |addr: u64| Instruction {
        addr,
        text: String::new(),
        cost: vec![0; width],
        source: None,
        inline: 0,
        jumps: Vec::new(),
        calls: Vec::new(),
    };
    for r in rows.instrs {
        let mut i = blank(r.addr);
        let file = profile.file_name(r.file);
        if r.line != 0 && !file.is_empty() && file != UNKNOWN_FILE {
            i.source = Some((interner.file(&mut listing, file), r.line));
        }
        i.cost = r.cost;
        at.insert(r.addr, i);
    }
    for j in rows.instr_jumps {
        let (executed, taken) = match j.executed {
            Some(executed) => (executed, Some(j.taken)),
            None => (j.taken, None),
        };
        at.entry(j.addr)
            .or_insert_with(|| blank(j.addr))
            .jumps
            .push(JumpOut {
                target: j.target_addr,
                target_func: j.target_func,
                executed,
                taken,
            });
    }
    for c in rows.instr_calls {
        at.entry(c.addr)
            .or_insert_with(|| blank(c.addr))
            .calls
            .push(CallOut {
                callee: c.callee,
                count: c.count,
                inclusive: c.inclusive,
            });
    }
    let profiled: Vec<u64> = at.keys().copied().collect();
    let path = read_object(
        profile,
        &name,
        &profiled,
        options,
        cancel,
        deadline,
        &mut at,
        &mut listing,
    )?;
    listing.instructions = at.into_values().collect();
    Ok((listing, path))
}

/// Adds DWARF's inline chains (and the source positions the profile does
/// not give) to `listings`, all read from the object `path`, in one pass
/// over its DWARF.
pub fn add_places(
    path: &Path,
    listings: &mut [&mut Listing],
    cancel: &AtomicBool,
) -> Result<(), Cancelled> {
    let mut addrs: Vec<u64> = (listings.iter())
        .flat_map(|l| l.instructions.iter().map(|i| i.addr))
        .collect();
    addrs.sort_unstable();
    addrs.dedup();
    let places = match inline::places(path, &addrs, cancel) {
        Ok(places) => places,
        Err(missing) => {
            for l in listings.iter_mut() {
                let object = l.object.clone();
                l.notes.push(match missing.clone() {
                    Missing::Cancelled => return Err(Cancelled),
                    Missing::NoDwarf => Note::NoDwarf { object },
                    Missing::TooLarge(bytes) => Note::DwarfTooLarge {
                        object,
                        bytes,
                        limit: inline::MAX_DWARF,
                    },
                    Missing::Unreadable(why) => Note::DwarfUnreadable { object, why },
                });
            }
            return Ok(());
        }
    };
    for l in listings.iter_mut() {
        let listing: &mut Listing = l;
        let mut interner = Interner::of(listing);
        let mut instructions = std::mem::take(&mut listing.instructions);
        for i in &mut instructions {
            let Ok(at) = addrs.binary_search(&i.addr) else {
                continue;
            };
            let Some(place) = places.get(at) else {
                continue;
            };
            i.inline = interner.chain(listing, place.chain.clone());
            if i.source.is_none()
                && let Some((file, line)) = &place.source
            {
                i.source = Some((interner.file(listing, file), *line));
            }
        }
        listing.instructions = instructions;
    }
    Ok(())
}

/// Finds and disassembles the object, adding its instructions to `at`;
/// the path read, if any.
#[allow(clippy::too_many_arguments)]
fn read_object(
    profile: &Profile,
    name: &str,
    profiled: &[u64],
    options: &AsmOptions,
    cancel: &AtomicBool,
    deadline: Instant,
    at: &mut BTreeMap<u64, Instruction>,
    listing: &mut Listing,
) -> Result<Option<PathBuf>, Cancelled> {
    let width = profiled
        .first()
        .and_then(|a| at.get(a))
        .map_or(0, |i| i.cost.len());
    if name.is_empty() || name == UNKNOWN_FILE {
        listing.notes.push(Note::NoObjectName);
        return Ok(None);
    }
    let path = match object::locate(&options.objects, name) {
        Ok(path) => path,
        Err(tried) => {
            listing.notes.push(Note::NotFound {
                name: name.to_string(),
                tried,
            });
            return Ok(None);
        }
    };
    listing.object_path = Some(path.clone());
    let facts = match object::facts(&path, profiled) {
        Ok(facts) => facts,
        Err(e) => {
            listing.notes.push(Note::Unreadable(e.to_string()));
            return Ok(None);
        }
    };
    let in_code = |a: u64| facts.code.iter().any(|&(s, e)| s <= a && a < e);
    let outside: Vec<u64> = profiled.iter().copied().filter(|&a| !in_code(a)).collect();
    if let Some(&first) = outside.first() {
        listing.notes.push(Note::OutsideCode {
            object: name.to_string(),
            count: outside.len(),
            first,
        });
    }
    let inside: Vec<u64> = profiled.iter().copied().filter(|&a| in_code(a)).collect();
    let ranges = ranges(name, &facts, &inside, listing);
    let runner = Runner {
        program: &options.objdump,
        cancel,
        deadline,
    };
    let (lines, failure) = runner.disassemble(&path, &ranges);
    let complete = failure.is_none();
    match failure {
        Some(Failure::Cancelled) => return Err(Cancelled),
        Some(Failure::Missing(why) | Failure::Failed(why) | Failure::Cut(why)) => {
            listing.notes.push(Note::Objdump(why));
        }
        None => {}
    }
    let disassembled = lines.len();
    for l in lines {
        at.entry(l.addr)
            .or_insert_with(|| Instruction {
                addr: l.addr,
                text: String::new(),
                cost: vec![0; width],
                source: None,
                inline: 0,
                jumps: Vec::new(),
                calls: Vec::new(),
            })
            .text = l.text;
    }
    // A costed address inside what objdump read that is no instruction of it.
    if complete && disassembled > 0 {
        let covered = |a: u64| ranges.iter().any(|&(s, e)| s <= a && a < e);
        let misplaced: Vec<u64> = inside
            .iter()
            .copied()
            .filter(|&a| covered(a) && at.get(&a).is_some_and(|i| i.text.is_empty()))
            .collect();
        if let Some(&first) = misplaced.first() {
            listing.notes.push(Note::NotAtInstruction {
                object: name.to_string(),
                count: misplaced.len(),
                first,
            });
        }
    }
    // A modification time says little alone (a copy or a checkout makes
    // any file newer), so it only backs a mismatch found above.
    let mismatch = (listing.notes.iter())
        .any(|n| matches!(n, Note::OutsideCode { .. } | Note::NotAtInstruction { .. }));
    if mismatch && newer_than_profile(profile, &path) {
        listing.notes.push(Note::Newer(path.clone()));
    }
    Ok(Some(path))
}

/// The ranges to disassemble: the symbols holding the costed addresses
/// (the whole function, costed or not), and clusters around the costed
/// addresses no symbol holds; clusters only where the symbols are missing
/// or too wide.
fn ranges(
    name: &str,
    facts: &object::Facts,
    inside: &[u64],
    listing: &mut Listing,
) -> Vec<(u64, u64)> {
    let held = |a: u64| facts.symbols.iter().any(|&(s, e)| s <= a && a < e);
    let width: u64 = facts
        .symbols
        .iter()
        .map(|&(s, e)| e - s)
        .fold(0, u64::saturating_add);
    let (mut out, loose): (Vec<(u64, u64)>, Vec<u64>) = if facts.symbols.is_empty() {
        if !inside.is_empty() {
            listing.notes.push(Note::NoSymbol {
                object: name.to_string(),
            });
        }
        (Vec::new(), inside.to_vec())
    } else if width > MAX_RANGE {
        listing.notes.push(Note::TooWide {
            object: name.to_string(),
            bytes: width,
            limit: MAX_RANGE >> 10,
        });
        (Vec::new(), inside.to_vec())
    } else {
        let loose = inside.iter().copied().filter(|&a| !held(a)).collect();
        (facts.symbols.clone(), loose)
    };
    let (clusters, refused) = objdump::clusters(&loose);
    out.extend(clusters);
    listing.notes.extend(refused.into_iter().map(Note::Refused));
    out.sort_unstable();
    out
}

/// The object was modified after the newest profile file.
fn newer_than_profile(profile: &Profile, path: &Path) -> bool {
    let newest = profile
        .sources
        .iter()
        .filter_map(|s| std::fs::metadata(s).and_then(|m| m.modified()).ok())
        .max();
    let object = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    matches!((newest, object), (Some(p), Some(o)) if o > p)
}
