//! The source view's state: the rows of one function's annotated source,
//! built from `analysis::source::function_source` (the numbers `cgtui
//! annotate` shows too) and the file read from disk, found by `Locator`.
//! Built once when the view opens (file I/O happens here, never in drawing).

use super::scroll::Scroll;
use crate::analysis::Analysis;
use crate::analysis::source::{FunctionSource, function_source};
use crate::locate::Locator;
use crate::profile::{Cost, FileId, FnId, Profile};

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

/// Source files are read up to this size; the rest is left out, said so.
pub const MAX_SOURCE: u64 = 64 << 20;

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
        let mut files = data.files();
        if files.is_empty() {
            files.push(profile.functions[f.index()].file);
        }
        let heaviest = |fid: &FileId| -> Cost {
            let own: Cost = data
                .lines
                .iter()
                .filter(|l| l.file == *fid)
                .map(|l| l.cost.get(event).copied().unwrap_or(0))
                .sum();
            let calls: Cost = data
                .calls
                .iter()
                .filter(|c| c.file == *fid)
                .map(|c| c.inclusive.get(event).copied().unwrap_or(0))
                .sum();
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
        let mut truncated = false;
        let text = match locator.locate(name) {
            Ok(path) => match read_source(&path) {
                Ok((bytes, stamp)) => {
                    truncated = stamp.len > MAX_SOURCE;
                    self.stamp = Some(stamp);
                    self.body = Body::Text(path);
                    Some(
                        String::from_utf8_lossy(&bytes)
                            .lines()
                            .map(expand_tabs)
                            .collect::<Vec<_>>(),
                    )
                }
                Err(e) => {
                    self.body = Body::Missing(format!("{}: {e}", path.display()));
                    None
                }
            },
            Err(not_found) => {
                self.body = Body::Missing(not_found.to_string());
                None
            }
        };
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
        if let Body::Missing(msg) = &self.body {
            rows.push(Row::Note(msg.clone()));
            rows.push(Row::Note(
                "Lines with costs (no source text available):".into(),
            ));
        }
        let text_len = text.as_ref().map_or(0, Vec::len) as u64;
        if numbered.first() == Some(&0) {
            rows.push(Row::Note("Costs without line information:".into()));
            self.push_line(&mut rows, 0, None);
        }
        if let Some(text) = text {
            for (i, t) in text.into_iter().enumerate() {
                self.push_line(&mut rows, i as u64 + 1, Some(t));
            }
        }
        if truncated {
            rows.push(Row::Note(format!(
                "The file is longer than {} MiB: the rest is not shown.",
                MAX_SOURCE >> 20
            )));
        }
        let beyond: Vec<u64> = numbered.into_iter().filter(|&n| n > text_len).collect();
        if text_len > 0 && !beyond.is_empty() {
            rows.push(Row::Note(
                "Lines beyond the end of the file (is it the same version?):".into(),
            ));
        }
        for n in beyond {
            self.push_line(&mut rows, n, None);
        }
        self.rows = rows;
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

    /// The row with the highest self cost (lines and addresses only).
    pub fn hottest(&self, event: usize) -> Option<usize> {
        self.rows
            .iter()
            .enumerate()
            .filter(|(_, r)| matches!(r, Row::Line { .. } | Row::Addr(_)))
            .filter_map(|(i, r)| self.row_cost(r, event).map(|c| (c, i)))
            .filter(|&(c, _)| c != 0)
            .max_by_key(|&(c, i)| (c, std::cmp::Reverse(i)))
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

/// The first `MAX_SOURCE` bytes of a regular file, and its stamp (taken
/// before reading, so that a write while reading shows as a change).
fn read_source(path: &std::path::Path) -> std::io::Result<(Vec<u8>, Stamp)> {
    use std::io::Read;
    let stamp = Stamp::of(path).ok_or_else(|| std::io::Error::other("not a regular file"))?;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_SOURCE)
        .read_to_end(&mut bytes)?;
    Ok((bytes, stamp))
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
