//! One annotated source file: cost columns, the line's text, call and jump
//! lines under it, context and `-- line N --` separators, and the costs that
//! have no line in the file.

use super::AnnotateOptions;
use crate::analysis::Analysis;
use crate::analysis::source::FunctionSource;
use crate::asm::objdump;
use crate::format::{printable, thousands, wide_thousands};
use crate::locate::{Locator, NotFound, UNKNOWN_FILE};
use crate::profile::{Cost, FileId, FnId, Profile};
use crate::source_text::{self, Excerpt, Wanted};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::time::SystemTime;

/// Address -> instruction text of `object` in `ranges`, where it and
/// objdump are here (else none: the costs are listed without text).
fn disassemble(object: &str, ranges: &[(u64, u64)]) -> std::collections::HashMap<u64, String> {
    let path = std::path::Path::new(object);
    if object.is_empty() || !path.is_file() {
        return std::collections::HashMap::new();
    }
    let never = std::sync::atomic::AtomicBool::new(false);
    let runner = objdump::Runner {
        program: std::path::Path::new("objdump"),
        cancel: &never,
        deadline: std::time::Instant::now() + std::time::Duration::from_secs(60),
    };
    let (lines, _) = runner.disassemble(path, ranges);
    lines.into_iter().map(|l| (l.addr, l.text)).collect()
}

pub struct Context<'a> {
    pub profile: &'a Profile,
    pub analysis: &'a Analysis,
    pub options: &'a AnnotateOptions,
    pub newest_profile: Option<SystemTime>,
    /// Costs are changes (`--base`): gains get a `+`.
    pub signed: bool,
    /// A change held at a 64-bit limit was written (as a bound).
    pub bound_shown: std::cell::Cell<bool>,
}

/// Source text kept for one file's annotation, whatever `--context` asks.
const MAX_SHOWN: usize = 64 << 20;

pub fn rule() -> String {
    "-".repeat(80)
}

/// A call count; `?` where the profile gives none (`calls=0`).
fn count_text(count: u64) -> String {
    if count == 0 {
        "?".to_string()
    } else {
        wide_thousands(count.into())
    }
}

impl Context<'_> {
    /// The chosen event and metric columns of a row, as text; `.` for
    /// zero and for a blank metric.
    fn cells(&self, row: &[Cost]) -> Vec<String> {
        let events = self
            .options
            .events
            .iter()
            .map(|&e| match row.get(e).copied().unwrap_or(0) {
                0 => ".".to_string(),
                c if self.signed => {
                    let bound = crate::format::change_bound(c);
                    self.bound_shown
                        .set(self.bound_shown.get() || !bound.is_empty());
                    format!("{bound}{}", crate::format::signed_thousands(c))
                }
                c => thousands(c),
            });
        let metrics =
            self.options
                .metrics
                .iter()
                .map(|m| match m.text(row, self.options.min_denominator) {
                    t if t.is_empty() || t == "0" => ".".to_string(),
                    t => t,
                });
        events.chain(metrics).collect()
    }

    fn columns(&self) -> usize {
        self.options.events.len() + self.options.metrics.len()
    }

    fn header(&self) -> String {
        let events = (self.options.events.iter())
            .map(|&e| printable(&self.profile.events.events[e].name).into_owned());
        let metrics = (self.options.metrics.iter()).map(|m| printable(&m.name).into_owned());
        events.chain(metrics).collect::<Vec<_>>().join(" ")
    }

    /// Writes one file's annotation; a file not found is remembered in `missing`
    /// and its per-line costs are listed without the text.
    pub fn file(
        &self,
        out: &mut String,
        missing: &mut Vec<NotFound>,
        locator: &Locator,
        file: FileId,
        rows: &FunctionSource,
        title: &str,
    ) {
        let name = self.profile.file_name(file);
        let found = locator.locate(name);
        if found.is_err() && self.options.functions.is_empty() {
            // Auto mode lists these once at the end, as callgrind_annotate does.
            if let Err(not_found) = found
                && !missing.iter().any(|m| m.path == not_found.path)
            {
                missing.push(not_found);
            }
            return;
        }
        let _ = writeln!(out, "{}", rule());
        let _ = writeln!(
            out,
            "-- {title}: {}",
            printable(if name.is_empty() { UNKNOWN_FILE } else { name })
        );
        let _ = writeln!(out, "{}", rule());
        let path = match found {
            Ok(path) => {
                if let (Some(profile_time), Ok(Ok(t))) = (
                    self.newest_profile,
                    std::fs::metadata(&path).map(|m| m.modified()),
                ) && t > profile_time
                {
                    let _ = writeln!(
                        out,
                        "warning: {} is newer than the profile; lines may not match",
                        printable(&path.display().to_string())
                    );
                }
                Some(path)
            }
            Err(not_found) => {
                let _ = writeln!(out, "{}", printable(&not_found.to_string()));
                if !missing.iter().any(|m| m.path == not_found.path) {
                    missing.push(not_found);
                }
                None
            }
        };
        self.lines(out, rows, path.as_deref());
    }

    fn lines(&self, out: &mut String, rows: &FunctionSource, path: Option<&std::path::Path>) {
        let w = self.analysis.width;
        let mut cost: BTreeMap<u64, Vec<Cost>> = BTreeMap::new();
        for r in &rows.lines {
            cost.insert(r.line, r.cost.clone());
        }
        let mut marked: BTreeSet<u64> = cost.keys().copied().collect();
        marked.extend(rows.calls.iter().map(|c| c.line));
        marked.extend(rows.jumps.iter().map(|j| j.line));
        let context = u64::try_from(self.options.context).unwrap_or(u64::MAX);
        let wanted = Wanted::around(marked.iter().copied(), context);
        // Only the lines shown are read; a file that cannot be read is
        // annotated as one not found (costs by line number).
        let text = match path.map(|p| source_text::read(p, &wanted, MAX_SHOWN)) {
            Some(Ok(text)) => Some(text),
            Some(Err(e)) => {
                let _ = writeln!(
                    out,
                    "cannot read the source file: {}",
                    printable(&e.to_string())
                );
                None
            }
            None => None,
        };
        let text = text.unwrap_or(Excerpt {
            total: Some(0),
            ..Excerpt::default()
        });
        // Every cell of a column as wide as the widest in this file.
        let zero = vec![0; w];
        let mut widths = vec![1; self.columns()];
        let all_rows = cost.values().chain(rows.calls.iter().map(|c| &c.inclusive));
        for row in all_rows {
            for (wd, cell) in widths.iter_mut().zip(self.cells(row)) {
                *wd = (*wd).max(cell.len());
            }
        }
        let pad = |cells: Vec<String>| -> String {
            cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:>w$}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(out, "{}", self.header());
        let mut previous = 0;
        for (l, source) in &text.lines {
            if *l != previous + 1 {
                let _ = writeln!(out, "-- line {l} {}", "-".repeat(40));
            }
            previous = *l;
            let cells = pad(self.cells(cost.get(l).unwrap_or(&zero)));
            let _ = writeln!(out, "{cells}  {}", printable(source));
            self.calls_and_jumps(out, rows, *l, &pad);
        }
        if let Some(stopped) = text.stopped_at {
            let _ = writeln!(
                out,
                "-- cut at line {stopped}: more than {} MiB of text to show (use a smaller --context) --",
                MAX_SHOWN >> 20
            );
        }
        let outside: Vec<u64> = marked
            .iter()
            .copied()
            .filter(|&l| l == 0 || text.ends_before(l) || text.stopped_at.is_some_and(|s| l >= s))
            .collect();
        if !outside.is_empty() {
            let what = if text.lines.is_empty() {
                "Costs by line (no source text)"
            } else {
                "Costs at line 0 (no line information) or past the end of the file"
            };
            let _ = writeln!(out, "-- {what} {}", "-".repeat(20));
            for l in outside {
                let cells = pad(self.cells(cost.get(&l).unwrap_or(&zero)));
                let _ = writeln!(out, "{cells}  line {l}");
                self.calls_and_jumps(out, rows, l, &pad);
            }
        }
        out.push('\n');
    }

    /// `=> callee (N×)` lines and jump counts for line `l`.
    fn calls_and_jumps(
        &self,
        out: &mut String,
        rows: &FunctionSource,
        l: u64,
        pad: &dyn Fn(Vec<String>) -> String,
    ) {
        for c in rows.calls.iter().filter(|c| c.line == l) {
            // A recursive call's cost includes the calls nested in it.
            let recursive = if c.recursive {
                " ↻ recursive (cost includes nested calls)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "{}  => {} ({}×){recursive}",
                pad(self.cells(&c.inclusive)),
                self.callee(c.callee),
                count_text(c.count)
            );
        }
        for j in rows.jumps.iter().filter(|j| j.line == l) {
            let target = if j.target_file == j.file {
                format!("line {}", j.target_line)
            } else {
                format!(
                    "{}:{}",
                    printable(self.profile.file_name(j.target_file)),
                    j.target_line
                )
            };
            let blank = pad(vec![String::new(); self.columns()]);
            let _ = match j.executed {
                Some(executed) => writeln!(
                    out,
                    "{blank}  jcnd {}/{} taken to {target}",
                    wide_thousands(j.taken.into()),
                    wide_thousands(executed.into())
                ),
                None => writeln!(
                    out,
                    "{blank}  jump {}× to {target}",
                    wide_thousands(j.taken.into())
                ),
            };
        }
    }

    /// `file:function` of a callee, as callgrind_annotate writes it.
    fn callee(&self, f: FnId) -> String {
        let file = self.profile.fn_file(f);
        let file = if file.is_empty() { UNKNOWN_FILE } else { file };
        format!("{}:{}", printable(file), printable(self.profile.fn_name(f)))
    }

    /// Per-instruction costs of `f`, with objdump's disassembly where the
    /// object file and objdump are on this machine.
    pub fn instructions(&self, out: &mut String, f: FnId, src: &FunctionSource) {
        let _ = writeln!(out, "{}", rule());
        let name = printable(self.profile.fn_name(f));
        if src.instrs.is_empty() {
            let _ = writeln!(
                out,
                "-- Instructions of {name}: none (the profile has no `positions: instr`)\n"
            );
            return;
        }
        let object = self.profile.fn_object(f);
        let addrs: Vec<u64> = src.instrs.iter().map(|i| i.addr).collect();
        let (ranges, refused) = objdump::clusters(&addrs);
        let asm = disassemble(object, &ranges);
        let _ = writeln!(out, "-- Instructions of {name} [{}]", printable(object));
        for why in &refused {
            let _ = writeln!(out, "({})", printable(&why.to_string()));
        }
        if asm.is_empty() && refused.is_empty() {
            let _ = writeln!(
                out,
                "(no disassembly: objdump or the object file is not available)"
            );
        }
        let _ = writeln!(out, "{}", rule());
        let _ = writeln!(out, "{:>18}  {:>6}  {}", "address", "line", self.header());
        for i in &src.instrs {
            let cells = self.cells(&i.cost).join(" ");
            let text = asm.get(&i.addr).map_or("", String::as_str);
            let text = printable(text);
            let _ = writeln!(out, "{:>#18x}  {:>6}  {cells}  {text}", i.addr, i.line);
        }
        out.push('\n');
    }
}
