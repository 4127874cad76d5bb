//! What the reader says about a chunk's lines (a warning or an error at a
//! line: a cost line it cannot read, counters it saturates or ignores, a
//! line that is not the format's), noted by the scanner and said by the
//! merge, in file order, at those lines. A
//! chunk keeps at most as many as a profile does; the rest are counted,
//! as the profile counts its own.

use crate::profile::KEPT_DIAGNOSTICS;

/// One thing to say, at a line of the chunk (its first line is 1).
pub struct Note {
    pub line: usize,
    pub error: bool,
    pub message: String,
}

impl Note {
    pub fn warning(line: usize, message: String) -> Note {
        Note {
            line,
            error: false,
            message,
        }
    }
}

#[derive(Default)]
pub struct Notes {
    pub kept: Vec<Note>,
    /// Notes past `KEPT_DIAGNOSTICS`: how many, and how many of them errors.
    pub dropped: usize,
    pub dropped_errors: usize,
    /// The chunk's first line that is no profile's, quoted (see
    /// `messages::line_start`): what a file without `events:` is shown
    /// to be.
    pub stray: Option<(usize, String)>,
}

impl Notes {
    pub fn warn(&mut self, line: usize, message: String) {
        self.note(line, false, message);
    }

    pub fn error(&mut self, line: usize, message: String) {
        self.note(line, true, message);
    }

    fn note(&mut self, line: usize, error: bool, message: String) {
        if self.kept.len() >= KEPT_DIAGNOSTICS {
            self.dropped += 1;
            self.dropped_errors += usize::from(error);
            return;
        }
        self.kept.push(Note {
            line,
            error,
            message,
        });
    }
}
