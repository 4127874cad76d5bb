//! Disassembly with `objdump` (binutils), the one place cgtui runs it: as
//! KCachegrind and perf do, so that every architecture binutils knows is
//! read the same way. objdump's output is streamed: a cancel flag is
//! checked between lines (and while objdump is silent), and the bytes read,
//! the time taken and the address ranges asked for are all bounded.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Costed addresses closer than this share one range (`clusters`).
const GAP: u64 = 4096;
/// Bytes past the last costed address of a cluster (the longest x86
/// instruction is 15).
const TAIL: u64 = 16;
/// The widest range disassembled: far more than any function's code
/// (a 10,000-instruction function is about 40 KiB on x86).
pub const MAX_RANGE: u64 = 256 << 10;
/// At most this many ranges (objdump runs) per function.
pub const MAX_RANGES: usize = 64;
/// objdump's output read per function (it writes about 40 bytes an
/// instruction here; 256 KiB of code is under 8 MiB).
const MAX_OUTPUT: usize = 32 << 20;
/// How often a silent objdump is checked for cancellation and time.
const POLL: Duration = Duration::from_millis(20);

/// One instruction as objdump writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub addr: u64,
    /// The instruction, its spaces collapsed (`mov %edi,%eax`).
    pub text: String,
}

/// Why disassembly gave nothing or stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// objdump could not be started (not installed, or not on `PATH`).
    Missing(String),
    /// objdump ran and failed; the first line it wrote to standard error.
    Failed(String),
    /// More output than `MAX_OUTPUT` or longer than the time limit: the
    /// lines before are kept.
    Cut(String),
    /// The caller's flag asked to stop.
    Cancelled,
}

/// `[start, stop)` ranges around clusters of costed `addrs` (sorted): what
/// can be disassembled when no symbol gives the function's extent. The
/// second list says why a cluster is left out.
pub fn clusters(addrs: &[u64]) -> (Vec<(u64, u64)>, Vec<String>) {
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

/// How objdump is run.
#[derive(Clone, Debug)]
pub struct Runner<'a> {
    /// The program (`objdump`, looked up on `PATH`).
    pub program: &'a Path,
    /// Checked between output lines; set: the run stops with `Cancelled`.
    pub cancel: &'a AtomicBool,
    /// The whole disassembly of a function stops when this passes.
    pub deadline: Instant,
}

impl Runner<'_> {
    /// The instructions of `object` in the `[start, stop)` ranges, in
    /// address order, and why some are missing.
    pub fn disassemble(
        &self,
        object: &Path,
        ranges: &[(u64, u64)],
    ) -> (Vec<Line>, Option<Failure>) {
        let mut lines = Vec::new();
        let mut budget = MAX_OUTPUT;
        for &(start, stop) in ranges.iter().take(MAX_RANGES) {
            if let Err(failure) = self.run(object, start, stop, &mut budget, &mut lines) {
                lines.sort_by_key(|l| l.addr);
                lines.dedup_by_key(|l| l.addr);
                return (lines, Some(failure));
            }
        }
        lines.sort_by_key(|l| l.addr);
        lines.dedup_by_key(|l| l.addr);
        (lines, None)
    }

    fn run(
        &self,
        object: &Path,
        start: u64,
        stop: u64,
        budget: &mut usize,
        lines: &mut Vec<Line>,
    ) -> Result<(), Failure> {
        let mut child = Command::new(self.program)
            .args([
                "-d",
                "-C",
                "-w",
                "--no-show-raw-insn",
                &format!("--start-address={start:#x}"),
                &format!("--stop-address={stop:#x}"),
            ])
            .arg(object)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                Failure::Missing(format!(
                    "cannot run {}: {e} (install binutils)",
                    self.program.display()
                ))
            })?;
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            stop_child(&mut child);
            return Err(Failure::Failed("objdump's output could not be read".into()));
        };
        // Standard error on its own thread, so that objdump never blocks on
        // a full pipe; only its start is kept.
        let errors = std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut stderr = stderr;
            let _ = (&mut stderr).take(4096).read_to_end(&mut kept);
            let _ = std::io::copy(&mut stderr, &mut std::io::sink());
            String::from_utf8_lossy(&kept).into_owned()
        });
        // Lines come through a small channel, so that a silent objdump is
        // still checked for cancellation and time.
        let (send, receive) = mpsc::sync_channel::<Vec<u8>>(256);
        let reader = std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if send.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let outcome = loop {
            if self.cancel.load(Ordering::Relaxed) {
                break Err(Failure::Cancelled);
            }
            if Instant::now() > self.deadline {
                break Err(Failure::Cut(
                    "objdump took too long: the disassembly is cut".into(),
                ));
            }
            match receive.recv_timeout(POLL) {
                Ok(line) => {
                    *budget = budget.saturating_sub(line.len());
                    if *budget == 0 {
                        break Err(Failure::Cut(format!(
                            "objdump wrote more than {} MiB: the disassembly is cut",
                            MAX_OUTPUT >> 20
                        )));
                    }
                    if let Some(l) = parse_line(&line) {
                        lines.push(l);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
            }
        };
        if outcome.is_err() {
            stop_child(&mut child);
        }
        drop(receive);
        let _ = reader.join();
        let status = child.wait();
        let stderr = errors.join().unwrap_or_default();
        outcome?;
        match status {
            Ok(s) if s.success() => Ok(()),
            _ => {
                let first = stderr.lines().next().unwrap_or("no message").trim();
                Err(Failure::Failed(format!("objdump failed: {first}")))
            }
        }
    }
}

/// Ends a child this module started (by its own handle, never by name).
fn stop_child(child: &mut Child) {
    let _ = child.kill();
}

/// `    11f0:\tcmp    $0x7,%esi` -> (0x11f0, `cmp $0x7,%esi`); headers,
/// symbol lines and blank lines give nothing.
fn parse_line(line: &[u8]) -> Option<Line> {
    let line = String::from_utf8_lossy(line);
    let (addr, text) = line.trim_start().split_once(":\t")?;
    let addr = u64::from_str_radix(addr.trim(), 16).ok()?;
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    Some(Line { addr, text })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clusters_cover_costed_addresses_only() {
        let (r, refused) = clusters(&[0x1000, 0x1004, 0x1800, 0x40_1000]);
        assert_eq!(r, vec![(0x1000, 0x1810), (0x40_1000, 0x40_1010)]);
        assert!(refused.is_empty());
        let (r, refused) = clusters(&[u64::MAX - 4]);
        assert!(r.is_empty());
        assert!(refused[0].contains("wraps past 2^64"), "{refused:?}");
        let dense: Vec<u64> = (0..200u64).map(|i| i * 4000).collect();
        let (r, refused) = clusters(&dense);
        assert!(r.is_empty());
        assert!(
            refused[0].contains("more than the 256 KiB limit"),
            "{refused:?}"
        );
    }

    #[test]
    fn instruction_lines_are_parsed_and_others_skipped() {
        assert_eq!(
            parse_line(b"    11f0:\tcmp    $0x7,%esi\n"),
            Some(Line {
                addr: 0x11f0,
                text: "cmp $0x7,%esi".into()
            })
        );
        assert_eq!(parse_line(b"00000000000011f0 <build_index>:\n"), None);
        assert_eq!(parse_line(b"Disassembly of section .text:\n"), None);
        assert_eq!(parse_line(b"\n"), None);
        assert_eq!(parse_line(b"  zz:\tnop\n"), None);
    }

    #[test]
    fn a_missing_objdump_is_named() {
        let cancel = AtomicBool::new(false);
        let runner = Runner {
            program: Path::new("/nonexistent/objdump"),
            cancel: &cancel,
            deadline: Instant::now() + Duration::from_secs(60),
        };
        let (lines, failure) = runner.disassemble(Path::new("/bin/sh"), &[(0, 16)]);
        assert!(lines.is_empty());
        match failure {
            Some(Failure::Missing(m)) => assert!(m.contains("/nonexistent/objdump"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    /// A program that writes forever and never ends is stopped by the flag.
    #[test]
    fn a_cancelled_run_stops_a_program_that_never_ends() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("slow-objdump");
        std::fs::write(&script, "#!/bin/sh\nwhile :; do echo '  10:\tnop'; done\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let cancel = std::sync::Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let worker = std::thread::spawn(move || {
            let runner = Runner {
                program: &script,
                cancel: &flag,
                deadline: Instant::now() + Duration::from_secs(600),
            };
            runner.disassemble(Path::new("/bin/sh"), &[(0, 16)])
        });
        cancel.store(true, Ordering::Relaxed);
        let (_, failure) = worker.join().unwrap();
        assert_eq!(failure, Some(Failure::Cancelled));
    }
}
