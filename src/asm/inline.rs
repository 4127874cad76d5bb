//! Inline chains from DWARF (`addr2line`, over sections read on demand):
//! for each address, the functions inlined there, outermost first, and
//! the source position of the innermost. The sections read are bounded in
//! size; names are demangled as the rest of cgtui demangles them.

use super::object::{Unreadable, open, parse};
use addr2line::gimli;
use object::{Object, ObjectSection};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

/// DWARF sections larger than this together are not read.
pub const MAX_DWARF: u64 = 1 << 30;
/// Addresses looked up between two looks at the cancel flag.
const BATCH: usize = 512;
/// The deepest nesting of DWARF entries read: addr2line reads inlined
/// functions recursively, so a hostile object nesting millions of them
/// would overflow the stack (a background thread has 2 MiB). Compilers
/// nest tens.
const MAX_DEPTH: isize = 512;

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
    match shallow_enough(path, &dwarf) {
        Ok(true) => {}
        Ok(false) => {
            return Err(Missing::Unreadable(format!(
                "{}: DWARF entries nested more than {MAX_DEPTH} deep",
                path.display()
            )));
        }
        Err(e) => {
            return Err(Missing::Unreadable(format!(
                "{}: DWARF: {e}",
                path.display()
            )));
        }
    }
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

/// Whether no entry of `dwarf` is nested deeper than `MAX_DEPTH`; the
/// answer is kept per file (path, size, modification time), as the whole
/// of `.debug_info` is read for it.
fn shallow_enough<R: gimli::Reader>(
    path: &Path,
    dwarf: &gimli::Dwarf<R>,
) -> Result<bool, gimli::Error> {
    type Key = (std::path::PathBuf, u64, Option<std::time::SystemTime>);
    static KNOWN: OnceLock<Mutex<HashMap<Key, bool>>> = OnceLock::new();
    let meta = std::fs::metadata(path).ok();
    let key: Key = (
        path.to_path_buf(),
        meta.as_ref().map_or(0, std::fs::Metadata::len),
        meta.and_then(|m| m.modified().ok()),
    );
    let known = KNOWN.get_or_init(Mutex::default);
    if let Some(&answer) = known
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
    {
        return Ok(answer);
    }
    let answer = max_depth(dwarf, MAX_DEPTH)? <= MAX_DEPTH;
    known
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(key, answer);
    Ok(answer)
}

/// The deepest nesting of entries in `dwarf`'s units, read no further
/// than the first entry deeper than `limit`.
fn max_depth<R: gimli::Reader>(
    dwarf: &gimli::Dwarf<R>,
    limit: isize,
) -> Result<isize, gimli::Error> {
    let mut deepest = 0;
    let mut units = dwarf.units();
    while let Some(header) = units.next()? {
        let abbreviations = header.abbreviations(&dwarf.debug_abbrev)?;
        let mut entries = header.entries_raw(&abbreviations, None)?;
        while !entries.is_empty() {
            deepest = deepest.max(entries.next_depth());
            if deepest > limit {
                return Ok(deepest);
            }
            if let Some(abbreviation) = entries.read_abbreviation()? {
                entries.skip_attributes(abbreviation.attributes())?;
            }
        }
    }
    Ok(deepest)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A DWARF 4 unit of `n` lexical blocks, each inside the one before.
    fn nested(n: usize) -> (Vec<u8>, Vec<u8>) {
        // Abbreviation 1: DW_TAG_lexical_block, with children, no attributes.
        let abbrev = vec![1, 0x0b, 1, 0, 0, 0];
        let mut body = vec![4, 0, 0, 0, 0, 0, 8]; // version 4, abbrev offset 0, 8-byte addresses
        body.extend(std::iter::repeat_n(1u8, n));
        body.extend(std::iter::repeat_n(0u8, n));
        let mut info = u32::try_from(body.len()).unwrap().to_le_bytes().to_vec();
        info.extend(body);
        (info, abbrev)
    }

    fn depth_of(n: usize, limit: isize) -> isize {
        let (info, abbrev) = nested(n);
        let dwarf = gimli::Dwarf::load(|id| {
            let data: &[u8] = match id {
                gimli::SectionId::DebugInfo => &info,
                gimli::SectionId::DebugAbbrev => &abbrev,
                _ => &[],
            };
            Ok::<_, gimli::Error>(gimli::EndianSlice::new(data, gimli::LittleEndian))
        })
        .unwrap();
        max_depth(&dwarf, limit).unwrap()
    }

    #[test]
    fn nesting_is_measured_and_the_scan_stops_past_the_limit() {
        // Entries at depths 0 to 9; the empty entry ending the innermost
        // one's children is at depth 10.
        assert_eq!(depth_of(10, MAX_DEPTH), 10);
        // A million levels: stops at the first one past the limit.
        assert_eq!(depth_of(1_000_000, MAX_DEPTH), MAX_DEPTH + 1);
    }
}
