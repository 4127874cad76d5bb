//! Inline chains from DWARF (`addr2line`, over sections read on demand):
//! for each address, the functions inlined there, outermost first, and
//! the source position of the innermost. The sections read are bounded in
//! size; names are demangled as the rest of cgtui demangles them.

use super::object::{Unreadable, open, parse};
use addr2line::gimli;
use object::{Object, ObjectSection};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// DWARF sections larger than this together are not read.
pub const MAX_DWARF: u64 = 1 << 30;
/// Addresses looked up between two looks at the cancel flag.
const BATCH: usize = 512;

/// What DWARF says about one address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// The inlined functions, outermost first (empty: not inlined).
    pub chain: Vec<String>,
    /// The innermost source position (file, line), if DWARF has one.
    pub source: Option<(String, u64)>,
}

/// Why no inline chains were read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    /// The object has no `.debug_info`.
    NoDwarf,
    /// Its DWARF is larger than `MAX_DWARF`.
    TooLarge(u64),
    /// The object or its DWARF could not be read.
    Unreadable(String),
    /// The caller's flag asked to stop.
    Cancelled,
}

/// DWARF's places of `addrs`, one for each.
pub fn places(path: &Path, addrs: &[u64], cancel: &AtomicBool) -> Result<Vec<Place>, Missing> {
    let unreadable = |e: Unreadable| Missing::Unreadable(e.to_string());
    let cache = open(path).map_err(unreadable)?;
    let file = parse(&cache, path).map_err(unreadable)?;
    if file.section_by_name(".debug_info").is_none() {
        return Err(Missing::NoDwarf);
    }
    let size: u64 = file
        .sections()
        .filter(|s| s.name().is_ok_and(|n| n.starts_with(".debug_")))
        .map(|s| s.size())
        .fold(0, u64::saturating_add);
    if size > MAX_DWARF {
        return Err(Missing::TooLarge(size));
    }
    let endian = if file.is_little_endian() {
        gimli::RunTimeEndian::Little
    } else {
        gimli::RunTimeEndian::Big
    };
    let load = |id: gimli::SectionId| -> Result<gimli::EndianSlice<'_, gimli::RunTimeEndian>, ()> {
        // A section that cannot be read (compressed, cut) reads as empty.
        let data = file
            .section_by_name(id.name())
            .and_then(|s| s.data().ok())
            .unwrap_or(&[]);
        Ok(gimli::EndianSlice::new(data, endian))
    };
    let dwarf = gimli::Dwarf::load(load).map_err(|()| Missing::Unreadable(String::new()))?;
    let context = addr2line::Context::from_dwarf(dwarf)
        .map_err(|e| Missing::Unreadable(format!("{}: DWARF: {e}", path.display())))?;
    let mut out = Vec::with_capacity(addrs.len());
    for (i, &addr) in addrs.iter().enumerate() {
        if i % BATCH == 0 && cancel.load(Ordering::Relaxed) {
            return Err(Missing::Cancelled);
        }
        out.push(place(&context, addr));
    }
    Ok(out)
}

/// The place of one address; what DWARF cannot say is left out.
fn place<R: gimli::Reader>(context: &addr2line::Context<R>, addr: u64) -> Place {
    let mut names: Vec<String> = Vec::new();
    let mut source = None;
    let Ok(mut frames) = context.find_frames(addr).skip_all_loads() else {
        return Place::default();
    };
    while let Ok(Some(frame)) = frames.next() {
        if source.is_none()
            && let Some(l) = &frame.location
            && let (Some(file), Some(line)) = (l.file, l.line)
        {
            source = Some((file.to_string(), u64::from(line)));
        }
        let name = frame
            .function
            .as_ref()
            .and_then(|f| f.raw_name().ok().map(|n| n.into_owned()))
            .unwrap_or_else(|| "??".to_string());
        names.push(crate::symbols::demangle::demangle(&name).unwrap_or(name));
    }
    // Innermost first, ending with the function itself: its callers'
    // chain is the rest, outermost first.
    names.pop();
    names.reverse();
    Place {
        chain: names,
        source,
    }
}
