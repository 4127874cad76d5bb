//! `annotate --asm`: each chosen function's instruction listing
//! (`crate::asm`) as text or JSON. The notes of the listings (no object,
//! no objdump, a changed object...) are returned apart, once each, for
//! standard error.

use super::AnnotateOptions;
use super::render::rule;
use crate::analysis::Analysis;
use crate::asm::{AsmOptions, Instruction, JumpOut, Listing, Note, listings};
use crate::format::{printable, thousands, wide_thousands};
use crate::profile::{Cost, FnId, Profile};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::fmt::Write;
use std::sync::atomic::AtomicBool;

/// Functions listed together (their objects' DWARF read once for them).
const BATCH: usize = 64;

/// What `annotate --asm` prints.
#[derive(Debug, Default)]
pub struct AsmOutput {
    /// For standard output.
    pub text: String,
    /// One line each, for standard error, in the order found.
    pub messages: Vec<String>,
    /// Some function had an instruction (or a costed address) to show.
    pub shown: bool,
}

/// The listings of `functions`, as text or (`json`) JSON.
pub fn assembly(
    profile: &Profile,
    analysis: &Analysis,
    functions: &[FnId],
    options: &AnnotateOptions,
    asm: &AsmOptions,
    json: bool,
) -> AsmOutput {
    let never = AtomicBool::new(false);
    let mut out = AsmOutput::default();
    let mut entries: Vec<String> = Vec::new();
    // A few functions at a time: each object's DWARF is read once per
    // batch, and only a batch of listings is held.
    let batches = functions.chunks(BATCH).map(|batch| {
        // Without a cancel flag set, a listing is never cancelled.
        listings(profile, analysis, batch, asm, &never).unwrap_or_default()
    });
    for l in batches.flatten() {
        let f = l.function;
        out.shown |= !l.is_empty();
        for note in &l.notes {
            let message = message(profile, f, note);
            if !out.messages.contains(&message) {
                out.messages.push(message);
            }
        }
        if json {
            entries.push(function_json(profile, options, &l));
        } else {
            text(&mut out.text, profile, options, &l);
        }
    }
    if json {
        out.text = format!("{{\"functions\":[{}]}}\n", entries.join(","));
    } else {
        out.text = crate::format::terminal_text(std::mem::take(&mut out.text));
    }
    out
}

/// A note as one line: the function's name first where the note is about
/// it alone, not about its object (which other functions share).
fn message(profile: &Profile, f: FnId, note: &Note) -> String {
    match note {
        Note::NoInstructions
        | Note::NoObjectName
        | Note::NotAtInstruction { .. }
        | Note::OutsideCode { .. }
        | Note::TooWide { .. }
        | Note::Refused(_) => format!("{}: {note}", profile.fn_name(f)),
        _ => note.to_string(),
    }
}

/// `{EVENT: n}` of the chosen event columns.
struct ByEvent<'a> {
    profile: &'a Profile,
    events: &'a [usize],
    row: &'a [Cost],
}

impl Serialize for ByEvent<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.events.len()))?;
        for &e in self.events {
            let name = &self.profile.events.events[e].name;
            map.serialize_entry(name, &self.row.get(e).copied().unwrap_or(0))?;
        }
        map.end()
    }
}

fn hex(addr: u64) -> String {
    format!("{addr:#x}")
}

#[derive(Serialize)]
struct JsonJump {
    target: String,
    executed: u64,
    taken: Option<u64>,
}

#[derive(Serialize)]
struct JsonInstruction<'a> {
    address: String,
    text: &'a str,
    #[serde(rename = "self")]
    cost: ByEvent<'a>,
    inline: &'a [String],
    jumps: Vec<JsonJump>,
}

#[derive(Serialize)]
struct JsonFunction<'a> {
    name: &'a str,
    object: &'a str,
    instructions: Vec<JsonInstruction<'a>>,
}

/// One entry of `functions`, as JSON text (written at once, so that
/// only one listing is held at a time).
fn function_json(profile: &Profile, options: &AnnotateOptions, l: &Listing) -> String {
    let instructions = (l.instructions.iter())
        .map(|i| JsonInstruction {
            address: hex(i.addr),
            text: &i.text,
            cost: ByEvent {
                profile,
                events: &options.events,
                row: &i.cost,
            },
            inline: l.inline_of(i),
            jumps: (i.jumps.iter())
                .map(|j| JsonJump {
                    target: hex(j.target),
                    executed: j.executed,
                    taken: j.taken,
                })
                .collect(),
        })
        .collect();
    let entry = JsonFunction {
        name: profile.fn_name(l.function),
        object: &l.object,
        instructions,
    };
    // Serialising plain structs and strings cannot fail.
    serde_json::to_string(&entry).unwrap_or_default()
}

/// Cost cells of the chosen events and metrics (`.` for zero or blank).
fn cells(options: &AnnotateOptions, row: &[Cost]) -> Vec<String> {
    let events = options
        .events
        .iter()
        .map(|&e| match row.get(e).copied().unwrap_or(0) {
            0 => ".".to_string(),
            c => thousands(c),
        });
    let metrics = options
        .metrics
        .iter()
        .map(|m| match m.text(row, options.min_denominator) {
            t if t.is_empty() || t == "0" => ".".to_string(),
            t => t,
        });
    events.chain(metrics).collect()
}

/// Instruction text padded to this width before an inline chain.
const TEXT_WIDTH: usize = 40;

fn text(out: &mut String, profile: &Profile, options: &AnnotateOptions, l: &Listing) {
    let f = l.function;
    let _ = writeln!(out, "{}", rule());
    let _ = writeln!(
        out,
        "-- Assembly of {} ({}) [{}]",
        printable(profile.fn_name(f)),
        printable(profile.fn_file(f)),
        printable(&l.object)
    );
    if let Some(path) = &l.object_path
        && path.as_os_str() != l.object.as_str()
    {
        let _ = writeln!(
            out,
            "-- read from {}",
            printable(&path.display().to_string())
        );
    }
    let _ = writeln!(out, "{}", rule());
    if l.instructions.is_empty() {
        let _ = writeln!(out, "(no instructions)\n");
        return;
    }
    let address_width = l
        .instructions
        .iter()
        .map(|i| hex(i.addr).len())
        .max()
        .unwrap_or(0)
        .max("address".len());
    let rows = l.instructions.iter().map(|i| &i.cost);
    let calls = l
        .instructions
        .iter()
        .flat_map(|i| i.calls.iter().map(|c| &c.inclusive));
    let mut widths: Vec<usize> = header(profile, options).iter().map(String::len).collect();
    for row in rows.chain(calls) {
        for (w, cell) in widths.iter_mut().zip(cells(options, row)) {
            *w = (*w).max(cell.len());
        }
    }
    let pad = |cells: Vec<String>| -> String {
        let padded: Vec<String> = (cells.iter().zip(&widths))
            .map(|(c, w)| format!("{c:>w$}"))
            .collect();
        padded.join(" ")
    };
    let _ = writeln!(
        out,
        "{:>address_width$}  {}  instruction",
        "address",
        pad(header(profile, options))
    );
    let blank_address = " ".repeat(address_width);
    let blank_cells = pad(vec![String::new(); widths.len()]);
    let mut position = None;
    for i in &l.instructions {
        let here = l.source_of(i);
        if here.is_some() && here != position {
            if let Some((file, line)) = here {
                let _ = writeln!(out, "-- {}:{line}", printable(file));
            }
            position = here;
        }
        let chain = l.inline_of(i);
        let text = if i.text.is_empty() {
            "?"
        } else {
            i.text.as_str()
        };
        let mut row = format!(
            "{:>address_width$}  {}  {}",
            hex(i.addr),
            pad(cells(options, &i.cost)),
            printable(text)
        );
        if !chain.is_empty() {
            let shown = printable(text).chars().count();
            let spaces = TEXT_WIDTH.saturating_sub(shown).max(1);
            let names: Vec<String> = chain.iter().map(|n| printable(n).into_owned()).collect();
            let _ = write!(
                row,
                "{}[inlined: {}]",
                " ".repeat(spaces),
                names.join(" > ")
            );
        }
        let _ = writeln!(out, "{row}");
        for j in &i.jumps {
            let _ = writeln!(
                out,
                "{blank_address}  {blank_cells}    {}",
                jump_text(profile, l, i, j)
            );
        }
        for c in &i.calls {
            let count = if c.count == 0 {
                "?".to_string()
            } else {
                wide_thousands(c.count.into())
            };
            let _ = writeln!(
                out,
                "{blank_address}  {}    => {} ({count}×)",
                pad(cells(options, &c.inclusive)),
                printable(profile.fn_name(c.callee))
            );
        }
    }
    out.push('\n');
}

/// `jcnd ↑ 0x1220 taken 3,072 of 3,584 (85.7%), backward` or `jump ↓
/// 0x1249 512×`; a target in another function is named.
fn jump_text(profile: &Profile, l: &Listing, from: &Instruction, j: &JumpOut) -> String {
    let arrow = if j.backward(from.addr) { "↑" } else { "↓" };
    let elsewhere = if j.target_func == l.function {
        String::new()
    } else {
        format!(" in {}", printable(profile.fn_name(j.target_func)))
    };
    let back = if j.backward(from.addr) {
        ", backward"
    } else {
        ""
    };
    match j.taken {
        Some(taken) => {
            let share = crate::format::percent_text(
                i64::try_from(taken).unwrap_or(i64::MAX),
                i64::try_from(j.executed).unwrap_or(i64::MAX),
            );
            format!(
                "jcnd {arrow} {}{elsewhere} taken {} of {} ({share}){back}",
                hex(j.target),
                wide_thousands(taken.into()),
                wide_thousands(j.executed.into())
            )
        }
        None => format!(
            "jump {arrow} {}{elsewhere} {}×{back}",
            hex(j.target),
            wide_thousands(j.executed.into())
        ),
    }
}

fn header(profile: &Profile, options: &AnnotateOptions) -> Vec<String> {
    let events =
        (options.events.iter()).map(|&e| printable(&profile.events.events[e].name).into_owned());
    let metrics = (options.metrics.iter()).map(|m| printable(&m.name).into_owned());
    events.chain(metrics).collect()
}
