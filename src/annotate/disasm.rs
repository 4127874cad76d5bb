//! Disassembly from `objdump`, when it and the object file are here. The
//! result only decorates the per-instruction costs; any failure gives none.

use std::collections::HashMap;
use std::process::Command;

/// Address -> instruction text for `[start, stop)` of `object`.
pub fn disassemble(object: &str, start: u64, stop: u64) -> HashMap<u64, String> {
    let mut map = HashMap::new();
    if object.is_empty() || !std::path::Path::new(object).is_file() {
        return map;
    }
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
        return map;
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
    map
}
