//! A file in sections: each is a header (read by the sequential loader)
//! and a body of `fn=` blocks (read in chunks on every core). Most files
//! are one section; one with several parts (`--dump-before`, `--dump-every-bb`)
//! or with a profile appended (xdebug) has one per part.

use super::line_kind::starts_section;
use crate::parse::input::{Compression, cr_only};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

/// A header must reach its first `fn=` within this many bytes.
const HEAD: usize = 4 << 20;
/// A header is read this much at a time until its first `fn=` line.
/// Reading all of `HEAD` at once cost a fifth more memory at the peak: a
/// block that large, freed, makes glibc serve blocks up to its size from
/// its arenas from then on, and the arenas keep what is freed in them.
const HEAD_STEP: u64 = 64 << 10;
/// Read size of the search for sections.
const BUFFER: usize = 1 << 20;

/// The header of a section, as `header` reads it.
pub enum Header {
    /// Its text up to its first `fn=` line, and where that line starts in it.
    Body(Vec<u8>, usize),
    /// No `fn=` line follows: the rest of the file.
    End(Vec<u8>),
    /// No `fn=` line within `HEAD` bytes, or (the file's first header)
    /// compressed or CR-only text, which only the sequential path decodes.
    Unfit,
}

impl Header {
    /// The header's text, where its first `fn=` is in it, and whether no
    /// `fn=` follows (the text is then the rest of the file); `None` if
    /// `Unfit`.
    pub fn split(self) -> Option<(Vec<u8>, usize, bool)> {
        match self {
            Header::Body(head, fn_at) => Some((head, fn_at, false)),
            Header::End(rest) => {
                let end = rest.len();
                Some((rest, end, true))
            }
            Header::Unfit => None,
        }
    }
}

/// Reads the header that starts at byte `from` of `file`.
pub fn header(file: &mut File, from: u64) -> std::io::Result<Header> {
    file.seek(SeekFrom::Start(from))?;
    let mut head = Vec::new();
    while head.len() < HEAD {
        let searched = head.len();
        let step = HEAD_STEP.min((HEAD - head.len()) as u64);
        if file.take(step).read_to_end(&mut head)? == 0 {
            return Ok(Header::End(head));
        }
        if from == 0 && (Compression::of(&head) != Compression::Plain || cr_only(&head)) {
            return Ok(Header::Unfit);
        }
        if let Some(body) = first_fn_line(&head, searched) {
            return Ok(Header::Body(head, body));
        }
    }
    Ok(Header::Unfit)
}

/// Where the first line starting with `fn=` begins, looking only where
/// the first `searched` bytes (looked at before) could not show it.
fn first_fn_line(head: &[u8], searched: usize) -> Option<usize> {
    if head.starts_with(b"fn=") {
        return Some(0);
    }
    let from = searched.saturating_sub(3);
    memchr::memmem::find(&head[from..], b"\nfn=").map(|i| from + i + 1)
}

/// Chunk boundaries: `body`, the start of the first `fn=` line after each
/// equal share of the rest before `len`, and `len` (a section's end, where
/// a chunk must not run past).
pub fn split(file: &mut File, body: u64, len: u64, chunks: usize) -> std::io::Result<Vec<u64>> {
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
pub fn starts(file: &mut File, from: u64) -> std::io::Result<Vec<u64>> {
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
    fn a_header_ends_at_its_first_fn_line_or_the_files_end() {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(b"events: Ir\nfn=a\n1 1\npart: 2\ndesc: x\n")
            .unwrap();
        assert!(matches!(header(&mut f, 0).unwrap(), Header::Body(h, 11) if h.len() == 36));
        assert!(
            matches!(header(&mut f, 20).unwrap(), Header::End(h) if h == b"part: 2\ndesc: x\n")
        );
    }
}
