//! A file in sections: each is a header (header lines, read by the
//! loader) and a body (read in chunks on every core). Most files
//! are one section; one with several parts (`--dump-before`, `--dump-every-bb`)
//! or with a profile appended (xdebug) has one per part.

use super::line_kind::{is_header_line, starts_section};
use crate::parse::input::{Compression, cr_only};
use std::io::{Read, Seek, SeekFrom};

/// A header must reach its first body line within this many bytes.
const HEAD: usize = 4 << 20;
/// A header is read this much at a time until its first body line.
/// Reading all of `HEAD` at once cost a fifth more memory at the peak: a
/// block that large, freed, makes glibc serve blocks up to its size from
/// its arenas from then on, and the arenas keep what is freed in them.
const HEAD_STEP: u64 = 64 << 10;
/// Read size of the search for sections.
const BUFFER: usize = 1 << 20;

/// A UTF-8 byte order mark, which the loader reads past on a file's first
/// line, as some editors save files with one.
pub const BOM: &[u8] = b"\xef\xbb\xbf";

/// The header of a section, as `header` reads it: its header lines
/// (`line_kind::is_header_line`), which the loader reads.
pub enum Header {
    /// The header's text, and where the body's first line starts after it
    /// (the text runs on to that line's end, at least).
    Body(Vec<u8>, usize),
    /// No body line follows: the rest of the file.
    End(Vec<u8>),
    /// No body line within `HEAD` bytes, or (the file's first header)
    /// compressed or CR-only text, which only the sequential path decodes.
    Unfit,
}

impl Header {
    /// The header's text, where the body starts in it, and whether no body
    /// follows (the text is then the rest of the file); `None` if `Unfit`.
    pub fn split(self) -> Option<(Vec<u8>, usize, bool)> {
        match self {
            Header::Body(head, body) => Some((head, body, false)),
            Header::End(rest) => {
                let end = rest.len();
                Some((rest, end, true))
            }
            Header::Unfit => None,
        }
    }
}

/// Reads the header that starts at byte `from` of `file`, up to its first
/// body line. A byte order mark at the file's start is left out of the
/// body (the header then ends before the line it begins).
pub fn header(file: &mut (impl Read + Seek), from: u64) -> std::io::Result<Header> {
    file.seek(SeekFrom::Start(from))?;
    let mut head = Vec::new();
    // Where the first line not yet looked at starts.
    let mut line = 0;
    while head.len() < HEAD {
        let step = HEAD_STEP.min((HEAD - head.len()) as u64);
        let end = file.take(step).read_to_end(&mut head)? == 0;
        if from == 0 && (Compression::of(&head) != Compression::Plain || cr_only(&head)) {
            return Ok(Header::Unfit);
        }
        loop {
            let rest = &head[line..];
            let len = match memchr::memchr(b'\n', rest) {
                Some(len) => len,
                None if end && !rest.is_empty() => rest.len(),
                None => break, // the rest of the line is still to be read
            };
            let (mut text, mut body) = (&rest[..len], line);
            if let (0, 0, Some(bare)) = (from, line, text.strip_prefix(BOM)) {
                (text, body) = (bare, BOM.len());
            }
            if !is_header_line(text) {
                return Ok(Header::Body(head, body));
            }
            line = (line + len + 1).min(head.len());
        }
        if end {
            return Ok(Header::End(head));
        }
    }
    Ok(Header::Unfit)
}

/// Chunk boundaries: `body`, the start of the first `fn=` line after each
/// equal share of the rest before `len`, and `len` (a section's end, where
/// a chunk must not run past).
pub fn split(
    file: &mut (impl Read + Seek),
    body: u64,
    len: u64,
    chunks: usize,
) -> std::io::Result<Vec<u64>> {
    const WINDOW: u64 = 1 << 13;
    let mut bounds = vec![body];
    let share = (len - body) / chunks.max(1) as u64;
    let mut window = Vec::new();
    for k in 1..chunks as u64 {
        let mut at = (body + k * share).max(*bounds.last().unwrap_or(&body) + 1);
        // Looks for "\nfn=" from the byte before `at`, a window at a time.
        let found = loop {
            if at >= len {
                break None;
            }
            file.seek(SeekFrom::Start(at - 1))?;
            window.clear();
            file.by_ref()
                .take((WINDOW + 3).min(len + 1 - at))
                .read_to_end(&mut window)?;
            if let Some(i) = memchr::memmem::find(&window, b"\nfn=") {
                break Some(at - 1 + i as u64 + 1);
            }
            at += WINDOW;
        };
        match found {
            Some(b) if b < len => bounds.push(b),
            _ => break,
        }
    }
    bounds.push(len);
    Ok(bounds)
}

/// Where each line that begins a section (`line_kind::starts_section`) starts,
/// from byte `from` (a line's start) of `file` to its end.
pub fn starts(file: &mut (impl Read + Seek), from: u64) -> std::io::Result<Vec<u64>> {
    file.seek(SeekFrom::Start(from))?;
    let mut found = Vec::new();
    let mut buf = vec![0u8; BUFFER];
    let (mut filled, mut offset) = (0, from);
    loop {
        let n = file.read(&mut buf[filled..])?;
        filled += n;
        let whole = match n {
            0 => filled,
            _ => memchr::memrchr(b'\n', &buf[..filled]).map_or(0, |nl| nl + 1),
        };
        let mut at = 0;
        for end in memchr::memchr_iter(b'\n', &buf[..whole]).chain([whole]) {
            let line = &buf[at..end];
            // Only a letter or `=` can begin one: the rest need no look.
            let first = line.first().copied().unwrap_or(b'\n');
            if (first.is_ascii_alphabetic() || first == b'=') && starts_section(line) {
                found.push(offset + at as u64);
            }
            at = end + 1;
            if at >= whole {
                break;
            }
        }
        if n == 0 {
            return Ok(found);
        }
        buf.copy_within(whole..filled, 0);
        offset += whole as u64;
        filled -= whole;
        if filled == buf.len() {
            // A line longer than the buffer: the loader reports it.
            buf.resize(buf.len() * 2, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn sections_start_at_header_lines_and_appended_profiles_only() {
        let mut f = tempfile::tempfile().unwrap();
        let text = "fn=a\n1 2\ntotals: 2\n\npart: 2\nevents: Ir\n# c: d\nfn=b\n\
                    calls=1 2\n3 4\n==== NEW PROFILING FILE ====\nfl=x:y\ndesc: z";
        f.write_all(text.as_bytes()).unwrap();
        let got = starts(&mut f, 0).unwrap();
        let lines: Vec<&str> = got.iter().map(|&o| &text[o as usize..]).collect();
        let first = |s: &&str| s.lines().next().unwrap_or("").to_string();
        assert_eq!(
            lines.iter().map(first).collect::<Vec<_>>(),
            ["part: 2", "events: Ir", "==== NEW PROFILING FILE ===="],
            "`desc:` changes nothing the lines after it mean"
        );
        assert_eq!(
            starts(&mut f, got[2]).unwrap(),
            got[2..].to_vec(),
            "from a line"
        );
    }

    #[test]
    fn chunks_end_at_the_sections_end_not_past_it() {
        let mut f = tempfile::tempfile().unwrap();
        let text = "fn=a\n1 1\nfn=b\n1 1\npart: 2\nfn=c\n1 1\nfn=d\n1 1\n";
        f.write_all(text.as_bytes()).unwrap();
        let end = text.find("part:").unwrap() as u64;
        for chunks in 1..8 {
            let bounds = split(&mut f, 0, end, chunks).unwrap();
            assert!(
                bounds.is_sorted() && bounds.last() == Some(&end),
                "{bounds:?}"
            );
            assert!(
                bounds
                    .iter()
                    .all(|&b| b == end || text[b as usize..].starts_with("fn="))
            );
        }
    }

    #[test]
    fn a_header_ends_at_its_first_body_line_or_the_files_end() {
        let mut f = tempfile::tempfile().unwrap();
        let text = "\u{feff}events: Ir\nfl=a.c\nfn=a\n1 1\npart: 2\ndesc: x\n1 2\nend: 1";
        f.write_all(text.as_bytes()).unwrap();
        let mut body = |from: usize| match header(&mut f, from as u64).unwrap() {
            Header::Body(h, at) => Ok((from + at, h.len() > at)),
            Header::End(h) => Err(h),
            Header::Unfit => panic!("unfit"),
        };
        assert_eq!(body(0), Ok((text.find("fn=").unwrap(), true)));
        let part = text.find("part").unwrap();
        assert_eq!(body(part), Ok((text.find("1 2").unwrap(), true)));
        assert_eq!(body(text.find("end").unwrap()), Err(b"end: 1".to_vec()));
        // The first line a body line: the body starts after the mark.
        let mut f = tempfile::tempfile().unwrap();
        f.write_all("\u{feff}fn=a\n1 1\n".as_bytes()).unwrap();
        assert!(matches!(header(&mut f, 0).unwrap(), Header::Body(_, 3)));
    }
}
