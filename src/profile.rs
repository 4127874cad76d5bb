//! The profile model: what a profile file says, interned and indexed, and
//! immutable once loaded. Knows nothing of parsing syntax or of terminals:
//! it must not import `parse`, `tui`, ratatui or crossterm.

mod detail;
mod events;
mod fn_index;
mod ids;
mod names;
mod part;
mod room;

pub use detail::{Detail, Record, Reread};
pub use events::{DerivedTerm, Event, EventTable};
pub use fn_index::FunctionIndex;
pub use ids::{FileId, FnId, ObjId};
pub use names::{Interner, TOUCH_AHEAD, name_hash, table_hash, text_of};
pub use part::{CallSite, Decoded, Jump, LineCost, Part, PartEdge, Positions, order_by_function};
pub use room::{expected_at_end, reserve_toward, room};

use crate::format::printable;

/// How many diagnostics are kept; the rest are only counted.
pub const KEPT_DIAGNOSTICS: usize = 10_000;

/// Costs are signed: `cg_diff` writes negative ones. Counters beyond
/// `i64::MAX` saturate (the loader warns).
pub type Cost = i64;

/// A function as KCachegrind identifies it: name + object + file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Function {
    pub name: u32,
    pub file: FileId,
    pub object: ObjId,
}

/// Where a diagnostic came from and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    /// 1-based line number; 0 when the problem is not tied to one line.
    pub line: usize,
    pub message: String,
    pub severity: Severity,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The data is still loaded as the writer meant it (e.g. summary mismatch).
    Warning,
    /// A line was skipped because its meaning was not clear.
    Error,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        // What a profile says is quoted in messages: never raw to a terminal.
        let (file, message) = (printable(&self.file), printable(&self.message));
        if self.line > 0 {
            write!(f, "{file}:{}: {kind}: {message}", self.line)
        } else {
            write!(f, "{file}: {kind}: {message}")
        }
    }
}

/// Header facts that describe the run rather than the costs.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    pub creator: Option<String>,
    pub cmd: Option<String>,
    pub version: Option<String>,
}

/// Everything read from one or more profile files.
#[derive(Debug, Default)]
pub struct Profile {
    /// The files read, in order; `Part::source` indexes this.
    pub sources: Vec<String>,
    /// Those of `sources` skipped as not profiles (files of a set that were
    /// not named; each has a warning).
    pub skipped_sources: Vec<String>,
    pub meta: Meta,
    pub events: EventTable,
    pub files: Interner,
    pub objects: Interner,
    pub fn_names: Interner,
    pub functions: Vec<Function>,
    /// Finds `functions` by key.
    fn_index: FunctionIndex,
    pub parts: Vec<Part>,
    /// The first `KEPT_DIAGNOSTICS` diagnostics, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics past `KEPT_DIAGNOSTICS`, counted but not kept (a file of
    /// millions of bad lines must not take more memory than the file).
    pub dropped_diagnostics: usize,
    /// Lines skipped because they could not be understood.
    pub skipped_lines: usize,
}

impl Profile {
    /// The id of the function `name` in `file`/`object`, created on first use.
    pub fn function_id(&mut self, name: u32, file: FileId, object: ObjId) -> FnId {
        let key = Function { name, file, object };
        if let Some(id) = self.lookup(&key) {
            return id;
        }
        let id = u32::try_from(self.functions.len()).unwrap_or(u32::MAX);
        self.functions.push(key);
        self.fn_index.insert(name, id, &self.functions);
        FnId(id)
    }

    /// Makes room for `more` functions and for `names` function names in
    /// all, toward the `expected` numbers at the end (`reserve_toward`).
    pub fn reserve_functions(&mut self, more: usize, names: usize, expected: [usize; 2]) {
        reserve_toward(&mut self.functions, more, expected[0]);
        self.fn_index.reserve_names(names, expected[1]);
    }

    /// Which table of names, if any, grew beyond what an id can address.
    pub fn overflowing_names(&self) -> Option<&'static str> {
        [
            (&self.fn_names, "function"),
            (&self.files, "file"),
            (&self.objects, "object"),
        ]
        .into_iter()
        .find_map(|(names, what)| names.overflowed().then_some(what))
    }

    fn lookup(&self, key: &Function) -> Option<FnId> {
        self.fn_index.find(key.name, key, &self.functions).map(FnId)
    }

    /// Looks a function up by interned name, file and object without creating it.
    pub fn lookup_function(&self, name: u32, file: FileId, object: ObjId) -> Option<FnId> {
        self.lookup(&Function { name, file, object })
    }

    /// Looks a function up by name, file and object without creating it.
    pub fn find_function(&self, name: &str, file: &str, object: &str) -> Option<FnId> {
        self.lookup(&Function {
            name: self.fn_names.get(name)?,
            file: FileId(self.files.get(file)?),
            object: ObjId(self.objects.get(object)?),
        })
    }

    pub fn fn_name(&self, f: FnId) -> &str {
        self.fn_names.name(self.functions[f.index()].name)
    }

    pub fn fn_file(&self, f: FnId) -> &str {
        self.files.name(self.functions[f.index()].file.0)
    }

    pub fn fn_object(&self, f: FnId) -> &str {
        self.objects.name(self.functions[f.index()].object.0)
    }

    pub fn file_name(&self, f: FileId) -> &str {
        self.files.name(f.0)
    }

    /// The files whose costs this profile holds, in load order: what
    /// `report` and the browser say was loaded.
    pub fn loaded_sources(&self) -> impl Iterator<Item = &str> {
        self.sources
            .iter()
            .map(String::as_str)
            .filter(|s| !self.skipped_sources.iter().any(|k| k == s))
    }

    /// Every diagnostic, kept or not.
    pub fn diagnostic_count(&self) -> usize {
        self.diagnostics.len() + self.dropped_diagnostics
    }

    /// Records a diagnostic; errors also count as a skipped line.
    pub fn diagnose(&mut self, file: &str, line: usize, severity: Severity, message: String) {
        if severity == Severity::Error && line > 0 {
            self.skipped_lines += 1;
        }
        if self.diagnostics.len() >= KEPT_DIAGNOSTICS {
            self.dropped_diagnostics += 1;
            return;
        }
        self.diagnostics.push(Diagnostic {
            file: file.to_string(),
            line,
            message,
            severity,
        });
    }
}
