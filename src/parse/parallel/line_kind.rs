//! What a line of a body is, by its look alone: a cost line, a comment,
//! a `key=value` spec, a trailer (`totals:`), the start of another section
//! (a header line, an appended profile), or unreadable. The scanner and
//! the search for sections (`sections`) decide by these same rules.

use crate::parse::loader::Loader;
use crate::parse::{fields, lines};

/// What a line is that is neither a cost line, a comment nor blank.
pub enum Kind<'a> {
    /// `key=value`.
    Spec(&'a [u8], &'a [u8]),
    /// A header line that neither starts a part nor changes what the
    /// body's lines mean (`totals:`, `summary:`, `desc:`, `cmd:`, `event:`,
    /// an unknown key, ...), which the loader applies after the merge, at
    /// its line.
    Trailer,
    /// A header line that starts a part or changes its shape (`part:`,
    /// `events:`, ... of another part in the file) or an appended
    /// profile's `==== NEW PROFILING FILE`: the start of a header the
    /// loader reads, up to the next `fn=`.
    Section,
    Unreadable,
}

/// What `line` (not a cost line, a comment or blank) is.
pub fn kind(line: &[u8]) -> Kind<'_> {
    if line.starts_with(b"==== NEW PROFILING FILE") {
        return Kind::Section;
    }
    if let Some((key, value)) = fields::spec(line).or_else(|| lines::spec(line).ok().map(|r| r.1)) {
        return Kind::Spec(key, value);
    }
    match lines::header(line) {
        Ok((_, (key, _))) if Loader::starts_part(key) => Kind::Section,
        Ok(_) => Kind::Trailer,
        Err(_) => Kind::Unreadable,
    }
}

/// Whether a line (without its `\r`) is a cost line, by its first byte.
pub(super) fn is_cost(line: &[u8]) -> bool {
    matches!(line.first(), Some(b'0'..=b'9' | b'+' | b'-' | b'*'))
}

pub(super) fn is_comment_or_blank(line: &[u8]) -> bool {
    line.first() == Some(&b'#') || line.trim_ascii().is_empty()
}

/// Whether `raw` (a line without its `\n`) begins a section
/// (`Kind::Section`).
pub fn starts_section(raw: &[u8]) -> bool {
    let line = raw.strip_suffix(b"\r").unwrap_or(raw);
    !is_cost(line) && !is_comment_or_blank(line) && matches!(kind(line), Kind::Section)
}

/// Whether `raw` is in the header of a section (`sections::header`): a
/// header line, a comment or a blank line. The loader reads these lines:
/// nothing there uses the names, the function, the positions or the call
/// the lines before left, which the body after them goes on with
/// (`Continued`).
pub fn is_header_line(raw: &[u8]) -> bool {
    let line = raw.strip_suffix(b"\r").unwrap_or(raw);
    is_comment_or_blank(line)
        || (!is_cost(line) && matches!(kind(line), Kind::Section | Kind::Trailer))
}
