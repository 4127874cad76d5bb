//! The loader: what a file's lines make of the profile between and
//! around its bodies. It reads every header (`headers`: events,
//! positions, parts, summaries), says what the chunks noted at their
//! lines, merges each chunk in file order (`merge`, into the part's rows:
//! `rows`), and keeps where a body leaves off (the context, a `fn=` not
//! yet used, a `calls=` waiting), for the body after the next header.
//! What a body's lines mean is the scanner's (`parallel::scan`).

use super::lines;
use super::{EdgeIndex, IdMap, LoadError, messages};
use crate::profile::{
    Cost, FileId, FnId, ObjId, Part, PartEdge, Profile, Severity, reserve_toward,
};
use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

/// A section's name tables (files, objects, functions), filled when it
/// ends.
pub type SectionNames = Arc<OnceLock<[IdMap; 3]>>;

const NO_ROW: u32 = u32::MAX;

/// Events per `events:` line that are read. Real writers use up to about 30;
/// costs are kept per function and event, so thousands would multiply memory.
const MAX_EVENTS: usize = 256;

/// Unrecognised lines tolerated before `events:` before we decide the file
/// is not a profile at all.
const NOT_A_PROFILE_AFTER: usize = 20;

/// Where a line is, with the profile's ids.
type Context = super::context::Context<ObjId, FileId, FnId, u32>;

/// A derived event definition, resolved once every raw event is known.
pub struct DerivedDef {
    pub name: String,
    pub formula: Vec<(i64, String)>,
    pub source: String,
    pub line: usize,
}

pub struct Loader<'p> {
    profile: &'p mut Profile,
    source: usize,
    source_name: String,
    line_no: usize,
    part: Part,
    part_has_data: bool,
    events_declared: bool,
    errors_before_events: usize,
    files: IdMap,
    objects: IdMap,
    fns: IdMap,
    /// The name tables of the current section (files, objects,
    /// functions), as its parts' details read them: given to each part
    /// when it ends, and filled with the tables, their renames kept, when
    /// the section ends (`seal_names`). One for all the section's parts:
    /// a copy each cost the tables' size times the parts.
    section_names: SectionNames,
    at: Context,
    /// (name, file, object) of a `fn=` no line has used yet.
    declared: Option<(u32, FileId, ObjId)>,
    /// A `calls=` line at a body's end waits for its cost line.
    call_waits: bool,
    warned: HashSet<Vec<u8>>,
    /// Function -> its row in the current part's `self_costs` (`NO_ROW`:
    /// none yet); reset where used when the part ends.
    row_of: Vec<u32>,
    /// (caller, callee) -> index in the current part's `edges`.
    edge_index: EdgeIndex,
    /// Sections the file has, once they are known: room is made toward as
    /// many parts (`reserve_toward`), not twice what they need by doubling.
    expected_parts: usize,
    /// An empty table of edges and of their costs, shared by the parts
    /// that have no calls (an allocation each was an eighth of a tiny
    /// part's cost); a part that has some makes its own (`Arc::make_mut`).
    no_edges: (Arc<Vec<PartEdge>>, Arc<Vec<Cost>>),
    /// The first `events:` line of this file that named no event.
    empty_events_line: Option<usize>,
    /// A saturated sum was reported in this file.
    saturated_warned: bool,
    /// The line of the latest error, to tell a truncated last line.
    last_error_line: usize,
    /// The first line of the file that is not a profile's, and its
    /// number: what a file that is no profile is shown to be.
    first_stray: Option<(usize, String)>,
    pub derived: Vec<DerivedDef>,
    /// `event: NAME : LONG` pairs, applied once every event is known.
    pub long_names: Vec<(String, String)>,
}

impl<'p> Loader<'p> {
    pub fn new(profile: &'p mut Profile) -> Self {
        Loader {
            profile,
            source: 0,
            source_name: String::new(),
            line_no: 0,
            part: Part::default(),
            part_has_data: false,
            events_declared: false,
            errors_before_events: 0,
            files: IdMap::default(),
            objects: IdMap::default(),
            fns: IdMap::default(),
            section_names: SectionNames::default(),
            at: Context::default(),
            declared: None,
            call_waits: false,
            warned: HashSet::new(),
            row_of: Vec::new(),
            edge_index: EdgeIndex::default(),
            expected_parts: 0,
            no_edges: Default::default(),
            last_error_line: 0,
            first_stray: None,
            saturated_warned: false,
            empty_events_line: None,
            derived: Vec::new(),
            long_names: Vec::new(),
        }
    }

    /// Records that file `name`, found beside a named one, was skipped.
    pub fn skip_file(&mut self, name: &str, reason: &str) {
        let message =
            format!("skipped: not a profile ({reason}), though named like one of the set");
        self.profile.diagnose(name, 0, Severity::Warning, message);
    }

    /// Gives the profile back once every file is read.
    pub fn into_profile(self) -> &'p mut Profile {
        self.profile
    }

    /// Starts reading a new file: fresh name tables, positions and part.
    pub fn begin_file(&mut self, name: &str) {
        self.profile.sources.push(name.to_string());
        self.source = self.profile.sources.len() - 1;
        self.source_name = name.to_string();
        self.line_no = 0;
        self.events_declared = false;
        self.errors_before_events = 0;
        self.saturated_warned = false;
        self.empty_events_line = None;
        self.part = Part {
            source: self.source,
            first_line: 1,
            ..Part::default()
        };
        self.part_has_data = false;
        self.reset_section();
    }

    /// Forgets name tables and positions: a new file, or xdebug's appended one.
    fn reset_section(&mut self) {
        self.seal_names();
        self.reset_positions();
    }

    /// Hands the name tables to the section's parts (`section_names`),
    /// and starts the next section with empty ones.
    fn seal_names(&mut self) {
        let tables = [
            std::mem::take(&mut self.files),
            std::mem::take(&mut self.objects),
            std::mem::take(&mut self.fns),
        ];
        let _ = std::mem::take(&mut self.section_names).set(tables);
    }

    fn reset_positions(&mut self) {
        self.at = Context::default();
        self.declared = None;
        self.call_waits = false;
    }

    /// Ends the current file. `ended_mid_line`: its last line had no newline.
    pub fn end_file(&mut self, ended_mid_line: bool) -> Result<(), LoadError> {
        if !self.events_declared && self.profile.parts.iter().all(|p| p.source != self.source) {
            let reason = match self.empty_events_line {
                Some(line) => format!("the `events:` line (line {line}) names no event"),
                // An empty file is not "no profile": say what it is.
                None if self.line_no == 0 && !ended_mid_line => "the file is empty".into(),
                None => format!("no `events:` line{}", self.what_it_is()),
            };
            return Err(LoadError::NotAProfile {
                path: self.source_name.clone(),
                reason,
            });
        }
        if self.call_waits {
            self.warn("file ends after `calls=` without its cost line: it looks truncated".into());
        } else if ended_mid_line && self.last_error_line == self.line_no && self.line_no > 0 {
            self.warn("file ends in the middle of a line: it looks truncated".into());
        }
        self.finish_part();
        self.seal_names();
        Ok(())
    }

    /// Sections the file has in all: parts will be as many or fewer.
    pub(in crate::parse) fn expect_parts(&mut self, sections: usize) {
        self.expected_parts = self.profile.parts.len().saturating_add(sections);
    }

    /// Pushes the part being filled, if it holds anything.
    fn finish_part(&mut self) {
        let next = Part {
            source: self.source,
            first_line: self.line_no,
            positions: self.part.positions,
            event_map: Arc::clone(&self.part.event_map),
            pid: self.part.pid,
            cmd: self.part.cmd.as_ref().map(Arc::clone),
            self_costs: Arc::default(),
            edges: Arc::clone(&self.no_edges.0),
            edge_costs: Arc::clone(&self.no_edges.1),
            ..Part::default()
        };
        let mut done = std::mem::replace(&mut self.part, next);
        (self.edge_index).clear(done.edges.iter().map(|e| e.caller.0));
        for f in &done.self_fns {
            self.row_of[f.index()] = NO_ROW;
        }
        if self.part_has_data || done.summary.is_some() || done.totals.is_some() {
            done.finish();
            let parts = &mut self.profile.parts;
            reserve_toward(parts, 1, self.expected_parts);
            parts.push(done);
        }
        self.part_has_data = false;
        self.call_waits = false;
    }

    fn error(&mut self, message: String) {
        self.last_error_line = self.line_no;
        if !self.events_declared {
            self.errors_before_events += 1;
        }
        let line = self.line_no;
        self.profile
            .diagnose(&self.source_name, line, Severity::Error, message);
    }

    /// Warns about an unknown `key:` or `key=` line once per key (no
    /// allocation for keys already warned about: such lines can be many).
    fn warn_once(&mut self, key: &[u8], kind: &str, sep: char) {
        if !self.warned.contains(key) {
            self.warned.insert(key.to_vec());
            let key = String::from_utf8_lossy(key);
            self.warn(format!("unknown {kind} `{key}{sep}` ignored"));
        }
    }

    fn warn(&mut self, message: String) {
        let line = self.line_no;
        self.profile
            .diagnose(&self.source_name, line, Severity::Warning, message);
    }

    /// Applies one line (without its `\n`) of a header, or one the scanner
    /// leaves to the loader (`Kind::Trailer`, an unknown `key=`): never a
    /// cost line.
    pub fn line(&mut self, raw: &[u8]) -> Result<(), LoadError> {
        self.line_no += 1;
        // A UTF-8 byte order mark, as some editors save files.
        let raw = match raw.strip_prefix(b"\xef\xbb\xbf") {
            Some(rest) if self.line_no == 1 => rest,
            _ => raw,
        };
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        let first = line.first().copied().unwrap_or(b' ');
        let is_blank = first == b'#' || line.trim_ascii().is_empty();
        // Comments and blank lines are allowed anywhere, even between a
        // `calls=` line and its cost line (KCachegrind waits across them too).
        if !is_blank {
            self.call_waits = false;
        }
        if is_blank {
            // comment or blank
        } else if line.starts_with(b"==== NEW PROFILING FILE") {
            self.finish_part();
            self.reset_section();
            self.events_declared = false;
        } else if let Ok((key, _)) = lines::spec(line).map(|(_, spec)| spec) {
            // What the scanner leaves to the loader: a key it does not know.
            self.warn_once(key, "line", '=');
        } else if let Ok((_, (key, value))) = lines::header(line) {
            self.header(key, value);
        } else {
            self.stray(self.line_no, messages::line_start(line));
            self.error(messages::not_a_profile_line(line));
        }
        self.still_a_profile()
    }

    /// Whether the lines read so far are no profile whatever follows them:
    /// `still_a_profile` said so.
    pub fn gave_up_before_events(&self) -> bool {
        !self.events_declared && self.errors_before_events >= NOT_A_PROFILE_AFTER
    }

    /// Gives up on a file that has made too many errors before its
    /// `events:` line: it is likely no profile at all.
    /// Line `line` is no profile's (`text` quotes it): kept if it is the
    /// first before the file's `events:` line.
    pub(in crate::parse) fn stray(&mut self, line: usize, text: String) {
        if !self.events_declared && self.first_stray.as_ref().is_none_or(|(n, _)| line < *n) {
            self.first_stray = Some((line, text));
        }
    }

    /// What a file that is no profile starts with: `; line N reads `…``.
    fn what_it_is(&self) -> String {
        self.first_stray
            .as_ref()
            .map_or(String::new(), |(n, text)| format!("; line {n} is {text}"))
    }

    fn still_a_profile(&self) -> Result<(), LoadError> {
        if self.gave_up_before_events() {
            return Err(LoadError::NotAProfile {
                path: self.source_name.clone(),
                reason: format!(
                    "{NOT_A_PROFILE_AFTER} unreadable lines and no `events:` line before line {}{}",
                    self.line_no,
                    self.what_it_is()
                ),
            });
        }
        Ok(())
    }

    /// A line longer than the reader accepts: skipped, or the end of a file that
    /// has not even declared its events.
    pub fn overlong_line(&mut self) -> Result<(), LoadError> {
        self.line_no += 1;
        if !self.events_declared {
            return Err(LoadError::NotAProfile {
                path: self.source_name.clone(),
                reason: messages::overlong_before_events(self.line_no),
            });
        }
        self.error(messages::overlong_line());
        Ok(())
    }
}

mod headers;
mod in_order;
pub(super) use in_order::InOrder;
mod merge;
mod rows;

pub(super) use merge::Resolved;
