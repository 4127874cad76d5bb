//! The source view's state: the rows of one function's annotated source,
//! built from `analysis::source::function_source` (the numbers `cgtui
//! annotate` shows too) and the file read from disk, found by `Locator`.
//! Built once when the view opens (file I/O happens here, never in drawing).

use crate::analysis::Analysis;
use crate::analysis::source::{FunctionSource, function_source};
use crate::format::wide_thousands;
use crate::locate::{Locator, NotFound, UNKNOWN_FILE};
use crate::profile::{Cost, FileId, FnId, Profile};
use crate::source_text::{self, Excerpt, Wanted};
use crate::tui::scroll::Scroll;
use std::path::Path;

/// What the body of the view is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// The file was read from this path.
    Text(std::path::PathBuf),
    /// The file was not found: the message says where it was looked for.
    Missing(String),
    /// The profile has only instruction addresses for this function.
    Addresses,
}

/// One row of the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row {
    /// A line of explanation.
    Note(String),
    /// A source line (text when the file was read), with its cost record
    /// (an index into `FunctionSource::lines`).
    Line {
        line: u64,
        text: Option<String>,
        cost: Option<usize>,
    },
    /// An index into `FunctionSource::calls`.
    Call(usize),
    /// An index into `FunctionSource::jumps`.
    Jump(usize),
    /// An index into `FunctionSource::instrs`.
    Addr(usize),
}

#[derive(Clone, Debug)]
pub struct SourceView {
    pub func: FnId,
    pub data: FunctionSource,
    /// Files the function has costs in; `file` indexes it.
    pub files: Vec<FileId>,
    pub file: usize,
    pub body: Body,
    pub rows: Vec<Row>,
    pub scroll: Scroll,
    /// Size and time of the file when it was read (`Body::Text`).
    stamp: Option<Stamp>,
}

/// What identifies the version of a file read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    fn of(path: &std::path::Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path)
            .ok()
            .filter(std::fs::Metadata::is_file)?;
        Some(Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        })
    }
}

/// How the file shown differs from the one on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskChange {
    /// Removed, or no longer a regular file.
    Gone,
    /// Written since it was read.
    Changed,
}

/// Lines of a source file shown whole; past them, only lines with costs
/// and `CONTEXT` lines around each (a file of millions of lines costs no
/// more than this).
pub const MAX_LINES: u64 = 200_000;
/// Bytes of text kept for the lines shown whole, and again for the rest.
pub const MAX_TEXT: usize = 16 << 20;
/// Lines shown around each line with a cost past `MAX_LINES`.
const CONTEXT: u64 = 3;

impl SourceView {
    /// Builds the view of `f`, showing `file` if given (else the file with
    /// the highest cost), selecting the hottest row.
    pub fn new(
        profile: &Profile,
        analysis: &Analysis,
        locator: &Locator,
        f: FnId,
        event: usize,
        file: Option<FileId>,
    ) -> Self {
        let data = function_source(profile, analysis, f);
        Self::with_data(profile, locator, f, event, file, data)
    }

    /// The view of `f` on rows already collected (a comparison's changes).
    pub fn with_data(
        profile: &Profile,
        locator: &Locator,
        f: FnId,
        event: usize,
        file: Option<FileId>,
        data: FunctionSource,
    ) -> Self {
        let mut files = data.files();
        if files.is_empty() {
            files.push(profile.functions[f.index()].file);
        }
        // Sizes: in a comparison a file of big losses is the one to show.
        let heaviest = |fid: &FileId| -> Cost {
            let size = |v: Option<&Cost>| v.copied().unwrap_or(0).saturating_abs();
            let own: Cost = data
                .lines
                .iter()
                .filter(|l| l.file == *fid)
                .map(|l| size(l.cost.get(event)))
                .fold(0, Cost::saturating_add);
            let calls: Cost = data
                .calls
                .iter()
                .filter(|c| c.file == *fid)
                .map(|c| size(c.inclusive.get(event)))
                .fold(0, Cost::saturating_add);
            own.saturating_add(calls)
        };
        let chosen = file
            .and_then(|want| files.iter().position(|&x| x == want))
            .or_else(|| {
                (0..files.len()).max_by_key(|&i| (heaviest(&files[i]), std::cmp::Reverse(i)))
            })
            .unwrap_or(0);
        let mut view = SourceView {
            func: f,
            data,
            file: chosen,
            files,
            body: Body::Addresses,
            rows: Vec::new(),
            scroll: Scroll::default(),
            stamp: None,
        };
        view.build_rows(profile, locator);
        if let Some(hot) = view.hottest(event) {
            view.scroll.selected = hot;
        }
        view
    }

    pub fn file_id(&self) -> FileId {
        self.files.get(self.file).copied().unwrap_or_default()
    }

    fn build_rows(&mut self, profile: &Profile, locator: &Locator) {
        let fid = self.file_id();
        let d = &self.data;
        let addresses_only = !d.instrs.is_empty() && d.lines.iter().all(|l| l.line == 0);
        let mut rows = Vec::new();
        if let Some(error) = &d.error {
            rows.push(Row::Note(error.clone()));
        }
        if addresses_only {
            self.body = Body::Addresses;
            rows.push(Row::Note(
                "The profile has only instruction addresses for this function: costs per address."
                    .into(),
            ));
            rows.extend((0..d.instrs.len()).map(Row::Addr));
            rows.extend((0..d.calls.len()).map(Row::Call));
            self.rows = rows;
            return;
        }
        let name = profile.file_name(fid);
        // Line numbers this file has costs, calls or jumps at.
        let mut numbered: Vec<u64> = d
            .lines
            .iter()
            .filter(|l| l.file == fid)
            .map(|l| l.line)
            .chain(d.calls.iter().filter(|c| c.file == fid).map(|c| c.line))
            .chain(d.jumps.iter().filter(|j| j.file == fid).map(|j| j.line))
            .collect();
        numbered.sort_unstable();
        numbered.dedup();
        let text = match locator.locate(name) {
            Ok(path) => match read_source(&path) {
                Ok((text, stamp)) => {
                    self.stamp = Some(stamp);
                    self.body = Body::Text(path);
                    Some(text)
                }
                Err(e) => {
                    let msg = format!("{}: {e}", path.display());
                    rows.push(Row::Note(msg.clone()));
                    self.body = Body::Missing(msg);
                    None
                }
            },
            Err(not_found) => {
                rows.extend(not_found_notes(&not_found).into_iter().map(Row::Note));
                self.body = Body::Missing(not_found.to_string());
                None
            }
        };
        if matches!(self.body, Body::Missing(_)) {
            rows.push(Row::Note(
                "Lines with costs (no source text available):".into(),
            ));
        }
        if numbered.first() == Some(&0) {
            rows.push(Row::Note("Costs without line information:".into()));
            self.push_line(&mut rows, 0, None);
        }
        let Some(text) = text else {
            for &n in numbered.iter().filter(|&&n| n > 0) {
                self.push_line(&mut rows, n, None);
            }
            self.rows = rows;
            return;
        };
        let whole = text.lines.len() as u64;
        for (n, t) in text.lines {
            self.push_line(&mut rows, n, Some(expand_tabs(&t)));
        }
        let mut beyond: Vec<u64> = numbered.into_iter().filter(|&n| n > whole).collect();
        if text.total.is_none() {
            // The file goes on past what is shown whole: only the lines with
            // costs, and a few around each, are read from the rest.
            rows.push(Row::Note(format!(
                "The file is cut after line {} (more than {} lines or {} MiB):",
                count(whole),
                count(MAX_LINES),
                MAX_TEXT >> 20
            )));
            rows.push(Row::Note(format!(
                "below, only lines with costs and {CONTEXT} lines around each."
            )));
            if let Body::Text(path) = &self.body {
                let path = path.clone();
                beyond = self.push_excerpt(&mut rows, &path, &beyond);
            }
        }
        if !beyond.is_empty() {
            rows.push(Row::Note(
                "Lines beyond the end of the file (is it the same version?):".into(),
            ));
        }
        for n in beyond {
            self.push_line(&mut rows, n, None);
        }
        self.rows = rows;
    }

    /// Rows for `lines` past the part shown whole, with `CONTEXT` lines
    /// around each and `-- line N --` where lines are left out; returns the
    /// lines the file turned out not to have.
    fn push_excerpt(&self, rows: &mut Vec<Row>, path: &Path, lines: &[u64]) -> Vec<u64> {
        let wanted = Wanted::around(lines.iter().copied(), CONTEXT);
        let text = match source_text::read(path, &wanted, MAX_TEXT) {
            Ok(text) => text,
            Err(e) => {
                rows.push(Row::Note(format!("cannot read further: {e}")));
                return lines.to_vec();
            }
        };
        let mut previous = 0;
        for (n, t) in text.lines.iter() {
            if *n != previous + 1 {
                rows.push(Row::Note(format!("-- line {} --", count(*n))));
            }
            previous = *n;
            self.push_line(rows, *n, Some(expand_tabs(t)));
        }
        if let Some(stop) = text.stopped_at {
            rows.push(Row::Note(format!(
                "Not read past line {}: more than {} MiB to show.",
                count(stop),
                MAX_TEXT >> 20
            )));
        }
        lines
            .iter()
            .copied()
            .filter(|&n| text.ends_before(n) || text.stopped_at.is_some_and(|s| n >= s))
            .collect()
    }

    fn push_line(&self, rows: &mut Vec<Row>, line: u64, text: Option<String>) {
        let fid = self.file_id();
        let d = &self.data;
        let key = (fid, line);
        let cost = d
            .lines
            .binary_search_by(|l| (l.file, l.line).cmp(&key))
            .ok();
        rows.push(Row::Line { line, text, cost });
        let from = d.calls.partition_point(|c| (c.file, c.line) < key);
        let to = d.calls.partition_point(|c| (c.file, c.line) <= key);
        rows.extend((from..to).map(Row::Call));
        let from = d.jumps.partition_point(|j| (j.file, j.line) < key);
        let to = d.jumps.partition_point(|j| (j.file, j.line) <= key);
        rows.extend((from..to).map(Row::Jump));
    }

    /// Whether the file shown was removed or written since it was read.
    pub fn disk_change(&self) -> Option<DiskChange> {
        let (Body::Text(path), Some(read)) = (&self.body, self.stamp) else {
            return None;
        };
        match Stamp::of(path) {
            None => Some(DiskChange::Gone),
            Some(now) if now != read => Some(DiskChange::Changed),
            Some(_) => None,
        }
    }

    /// The cost of `row` for `event`: self cost of a line or address,
    /// inclusive cost of a call.
    pub fn row_cost(&self, row: &Row, event: usize) -> Option<Cost> {
        let d = &self.data;
        let at = |v: &Vec<Cost>| v.get(event).copied().unwrap_or(0);
        match row {
            Row::Line { cost: Some(i), .. } => d.lines.get(*i).map(|l| at(&l.cost)),
            Row::Call(i) => d.calls.get(*i).map(|c| at(&c.inclusive)),
            Row::Addr(i) => d.instrs.get(*i).map(|x| at(&x.cost)),
            _ => None,
        }
    }

    /// Every event's cost of a row: a line's or an address's self cost.
    pub fn row_costs(&self, row: &Row) -> Option<&[Cost]> {
        let d = &self.data;
        match row {
            Row::Line { cost: Some(i), .. } => d.lines.get(*i).map(|l| &l.cost[..]),
            Row::Addr(i) => d.instrs.get(*i).map(|x| &x.cost[..]),
            _ => None,
        }
    }

    /// The row with the highest self cost (lines and addresses only).
    pub fn hottest(&self, event: usize) -> Option<usize> {
        self.rows
            .iter()
            .enumerate()
            .filter(|(_, r)| matches!(r, Row::Line { .. } | Row::Addr(_)))
            .filter_map(|(i, r)| self.row_cost(r, event).map(|c| (c, i)))
            .filter(|&(c, _)| c != 0)
            // By size: a comparison's biggest loss is as hot as a gain.
            .max_by_key(|&(c, i)| (c.saturating_abs(), std::cmp::Reverse(i)))
            .map(|(_, i)| i)
    }

    /// The next (or previous) row after the selection with a non-zero cost.
    pub fn next_hot(&self, event: usize, forward: bool) -> Option<usize> {
        let hot = |i: &usize| {
            self.rows
                .get(*i)
                .and_then(|r| self.row_cost(r, event))
                .is_some_and(|c| c != 0)
        };
        let s = self.scroll.selected;
        if forward {
            (s + 1..self.rows.len()).find(hot)
        } else {
            (0..s).rev().find(hot)
        }
    }

    /// The callee of the selected row, if it is a call line.
    pub fn selected_callee(&self) -> Option<FnId> {
        match self.rows.get(self.scroll.selected) {
            Some(Row::Call(i)) => self.data.calls.get(*i).map(|c| c.callee),
            _ => None,
        }
    }
}

/// The first `MAX_LINES` lines of a regular file (at most `MAX_TEXT`
/// bytes of them), and its stamp (taken before reading, so that a write
/// while reading shows as a change). `total` is `None` when the file has
/// more lines than those.
fn read_source(path: &Path) -> std::io::Result<(Excerpt, Stamp)> {
    let stamp = Stamp::of(path).ok_or_else(|| std::io::Error::other("not a regular file"))?;
    // One line more than shown says whether the file goes on.
    let mut text = source_text::read(path, &Wanted::first(MAX_LINES + 1), MAX_TEXT)?;
    if text.lines.len() as u64 > MAX_LINES {
        text.lines.truncate(MAX_LINES as usize);
        text.total = None;
    }
    if text.stopped_at.is_some() {
        text.total = None;
    }
    Ok((text, stamp))
}

/// The note rows for a file not found: short lines, each option on its
/// own, so that no width cuts one in the middle; the `--source-root`
/// targets tried; for a function without a file, no option to suggest.
fn not_found_notes(not_found: &NotFound) -> Vec<String> {
    if not_found.unknown {
        return vec![
            format!("No source file: the profile names none ({UNKNOWN_FILE})."),
            "The code was built without debug information (-g).".into(),
        ];
    }
    let dirs: Vec<String> = not_found
        .searched
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    let mut notes = vec![format!(
        "source file {} not found (searched: {})",
        not_found.path,
        dirs.join(", ")
    )];
    if !not_found.rewritten.is_empty() {
        notes.push("--source-root gave (tried first):".into());
        notes.extend(not_found.rewritten.iter().map(|r| format!("  {r}")));
    }
    notes.extend([
        "To show it, start cgtui with".into(),
        "  --source-root OLD=NEW (rewrite a prefix)".into(),
        "  or -I DIR (a directory to search).".into(),
    ]);
    notes
}

/// A line number with thousands separators.
fn count(n: u64) -> String {
    wide_thousands(n.into())
}

/// Tabs to spaces (8 columns), so the text lines up in cells.
fn expand_tabs(line: &str) -> String {
    if !line.contains('\t') {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len() + 8);
    let mut col = 0;
    for c in line.chars() {
        if c == '\t' {
            let n = 8 - col % 8;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(c);
            col += 1;
        }
    }
    out
}
