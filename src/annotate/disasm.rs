//! Disassembly from `objdump`, when it and the object file are here. The
//! result only decorates the per-instruction costs; any failure gives none.
//! objdump is asked only for the address ranges that have costs, each of
//! bounded width: its output is about 80 bytes per byte of code.

use std::collections::HashMap;
use std::process::Command;

/// Costed addresses closer than this share one objdump range.
const GAP: u64 = 4096;
/// Bytes past the last costed address of a range (the longest x86 instruction is 15).
const TAIL: u64 = 16;
/// The widest range disassembled (far more than any function's hot code).
pub const MAX_RANGE: u64 = 256 << 10;
/// At most this many objdump runs per function.
pub const MAX_RANGES: usize = 64;

/// `[start, stop)` address ranges covering `addrs` (sorted), or why a range
/// is not disassembled.
pub fn ranges(addrs: &[u64]) -> (Vec<(u64, u64)>, Vec<String>) {
    let mut spans: Vec<(u64, u64)> = Vec::new();
    for &a in addrs {
        match spans.last_mut() {
            Some(last) if a >= last.1 && a - last.1 <= GAP => last.1 = a,
            _ => spans.push((a, a)),
        }
    }
    let mut out = Vec::new();
    let mut refused = Vec::new();
    for (first, last) in spans {
        let Some(stop) = last.checked_add(TAIL) else {
            refused.push(format!(
                "no disassembly at {first:#x}: the range wraps past 2^64"
            ));
            continue;
        };
        if stop - first > MAX_RANGE {
            refused.push(format!(
                "no disassembly of {first:#x}..{stop:#x}: {} bytes, more than the {} KiB limit",
                stop - first,
                MAX_RANGE >> 10
            ));
        } else if out.len() == MAX_RANGES {
            refused.push(format!(
                "no disassembly from {first:#x} on: more than {MAX_RANGES} address ranges"
            ));
            break;
        } else {
            out.push((first, stop));
        }
    }
    (out, refused)
}

/// Address -> instruction text for the `[start, stop)` ranges of `object`.
pub fn disassemble(object: &str, ranges: &[(u64, u64)]) -> HashMap<u64, String> {
    let mut map = HashMap::new();
    if object.is_empty() || !std::path::Path::new(object).is_file() {
        return map;
    }
    for &(start, stop) in ranges {
        let output = Command::new("objdump")
            .args([
                "-d",
                "--no-show-raw-insn",
                "-C",
                &format!("--start-address={start:#x}"),
                &format!("--stop-address={stop:#x}"),
                object,
            ])
            .output();
        let Ok(output) = output else { return map };
        if !output.status.success() {
            continue;
        }
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            // "    1139:\tmov    %edi,%eax"
            let Some((addr, text)) = line.trim_start().split_once(":\t") else {
                continue;
            };
            if let Ok(a) = u64::from_str_radix(addr.trim(), 16) {
                map.insert(a, text.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_costed_addresses_only() {
        let (r, refused) = ranges(&[0x1000, 0x1004, 0x1800, 0x40_1000]);
        assert_eq!(r, vec![(0x1000, 0x1810), (0x40_1000, 0x40_1010)]);
        assert!(refused.is_empty());
        let (r, refused) = ranges(&[u64::MAX - 4]);
        assert!(r.is_empty());
        assert!(refused[0].contains("wraps past 2^64"), "{refused:?}");
        let dense: Vec<u64> = (0..200u64).map(|i| i * 4000).collect();
        let (r, refused) = ranges(&dense);
        assert!(r.is_empty());
        assert!(
            refused[0].contains("more than the 256 KiB limit"),
            "{refused:?}"
        );
    }
}
