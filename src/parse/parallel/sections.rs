//! A file in sections: each is a header (header lines, read by the
//! loader) and a body (read in chunks on every core). Most files
//! are one section; one with several parts (`--dump-before`, `--dump-every-bb`)
//! or with a profile appended (xdebug) has one per part.

use super::line_kind::{is_header_line, starts_section};
use crate::parse::MAX_LINE;
use std::io::{Read, Seek, SeekFrom};

/// Header lines are handed to the loader this much at a time, at least
/// (a header of millions of `desc:` lines is read in pieces).
const HEAD: usize = 4 << 20;
/// A header is read this much at a time until its first body line.
/// Reading all of `HEAD` at once cost a fifth more memory at the peak: a
/// block that large, freed, makes glibc serve blocks up to its size from
/// its arenas from then on, and the arenas keep what is freed in them.
const HEAD_STEP: u64 = 64 << 10;
/// The least a header is read at first, when the next section is near.
const FIRST_STEP: u64 = 256;
/// Read size of the search for sections.
const BUFFER: usize = 1 << 20;

/// A UTF-8 byte order mark, which the loader reads past on a file's first
/// line, as some editors save files with one.
pub const BOM: &[u8] = b"\xef\xbb\xbf";

/// The header of a section, or a piece of it, as `header` reads it: its
/// header lines (`line_kind::is_header_line`), which the loader reads.
pub enum Header {
    /// The header's text, and where the body's first line starts after it
    /// (the text runs on to that line's end, or `MAX_LINE` bytes into it,
    /// at least).
    Body(Vec<u8>, usize),
    /// No body line follows: the rest of the file.
    End(Vec<u8>),
    /// Whole header lines, `HEAD` bytes of them or more: more follow.
    More(Vec<u8>),
    /// Whole header lines, then a line as long as `MAX_LINE` or longer,
    /// which no reader keeps.
    Overlong(Vec<u8>),
}

/// Reads the header that starts at byte `from` of `file`, up to its first
/// body line, or the first `HEAD` bytes of its whole lines. A byte order
/// mark at the file's start is left out of the body (the header then ends
/// before the line it begins). `until`: where the next section is known to
/// start; what lies before it is read first, not a whole `HEAD_STEP` (a
/// file of a hundred thousand parts of a few lines each read 64 KiB at
/// each: 6 GB).
pub fn header(
    file: &mut (impl Read + Seek),
    from: u64,
    until: Option<u64>,
) -> std::io::Result<Header> {
    file.seek(SeekFrom::Start(from))?;
    let mut step = until.map_or(HEAD_STEP, |until| {
        until.saturating_sub(from).clamp(FIRST_STEP, HEAD_STEP)
    });
    let mut head = Vec::new();
    // Where the first line not yet looked at starts, and where the search
    // for its end goes on: a long line is searched once, not again from
    // its start at every step (16 MB of one line took seconds so).
    let (mut line, mut seen) = (0, 0);
    loop {
        let end = read_more(file, &mut head, step)? == 0;
        step = HEAD_STEP;
        loop {
            let rest = &head[line..];
            let len = match memchr::memchr(b'\n', &head[seen..]) {
                Some(nl) => seen - line + nl,
                None if end && !rest.is_empty() => rest.len(),
                None => {
                    seen = head.len();
                    break; // the rest of the line is still to be read
                }
            };
            if len >= MAX_LINE {
                head.truncate(line);
                return Ok(Header::Overlong(head));
            }
            let (mut text, mut body) = (&rest[..len], line);
            if let (0, 0, Some(bare)) = (from, line, text.strip_prefix(BOM)) {
                (text, body) = (bare, BOM.len());
            }
            if !is_header_line(text) {
                return Ok(Header::Body(head, body));
            }
            line = (line + len + 1).min(head.len());
            seen = line;
        }
        if end {
            return Ok(Header::End(head));
        }
        let more = match () {
            _ if head.len() - line >= MAX_LINE => Header::Overlong,
            _ if line >= HEAD => Header::More,
            _ => continue,
        };
        head.truncate(line);
        return Ok(more(head));
    }
}

/// Reads up to `step` more bytes of `file` onto `head` (fewer only at its
/// end); gives how many. One `read` where they are there, where
/// `read_to_end` first probes with a small one and then reads again.
fn read_more(file: &mut impl Read, head: &mut Vec<u8>, step: u64) -> std::io::Result<usize> {
    let start = head.len();
    head.resize(start + step as usize, 0);
    let mut filled = start;
    while filled < head.len() {
        match file.read(&mut head[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                head.truncate(filled);
                return Err(e);
            }
        }
    }
    head.truncate(filled);
    Ok(filled - start)
}

/// Where the line that goes on at byte `at` of `file` ends: after its
/// `\n`, or at the file's end.
pub fn line_end(file: &mut (impl Read + Seek), mut at: u64) -> std::io::Result<u64> {
    file.seek(SeekFrom::Start(at))?;
    let mut buf = vec![0u8; BUFFER];
    loop {
        let n = file.read(&mut buf)?;
        match memchr::memchr(b'\n', &buf[..n]) {
            Some(nl) => return Ok(at + nl as u64 + 1),
            None if n == 0 => return Ok(at),
            None => at += n as u64,
        }
    }
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
    fn a_long_header_comes_in_pieces_of_whole_lines() {
        let mut f = tempfile::tempfile().unwrap();
        let line = format!("desc: {}\n", "x".repeat(1000));
        let lines = line.repeat(HEAD / line.len() + 100);
        f.write_all(lines.as_bytes()).unwrap();
        f.write_all(b"fn=a\n").unwrap();
        let Header::More(piece) = header(&mut f, 0, None).unwrap() else {
            panic!("not in pieces")
        };
        assert!(piece.len() >= HEAD && piece.len() % line.len() == 0);
        let Header::Body(rest, at) = header(&mut f, piece.len() as u64, None).unwrap() else {
            panic!("no body after the pieces")
        };
        assert_eq!(
            (piece.len() + at, &rest[at..]),
            (lines.len(), &b"fn=a\n"[..])
        );
        // A line longer than any reader keeps, after whole lines.
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(b"events: Ir\n").unwrap();
        f.write_all(&vec![b'y'; MAX_LINE + 1]).unwrap();
        f.write_all(b"\nfn=a\n").unwrap();
        let Header::Overlong(before) = header(&mut f, 0, None).unwrap() else {
            panic!("not overlong")
        };
        assert_eq!(before, b"events: Ir\n");
        let end = line_end(&mut f, before.len() as u64).unwrap();
        assert_eq!(end as usize, before.len() + MAX_LINE + 2);
    }

    /// A header line read over many steps: its end is found where the
    /// search stopped at each step, and the body starts right after it.
    #[test]
    fn a_header_line_longer_than_a_step_ends_where_its_newline_is() {
        let desc = format!("desc: {}\n", "x".repeat(5 * HEAD_STEP as usize / 2));
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(format!("events: Ir\n{desc}{desc}fn=a\n1 1\n").as_bytes())
            .unwrap();
        let Header::Body(head, at) = header(&mut f, 0, None).unwrap() else {
            panic!("no body after the long lines")
        };
        assert_eq!(at, "events: Ir\n".len() + 2 * desc.len());
        assert!(head[at..].starts_with(b"fn=a\n"));
        // The file's last line, as long and without its newline.
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(desc.trim_end().as_bytes()).unwrap();
        let Header::End(all) = header(&mut f, 0, None).unwrap() else {
            panic!("not the whole file")
        };
        assert_eq!(all, desc.trim_end().as_bytes());
    }

    #[test]
    fn a_header_ends_at_its_first_body_line_or_the_files_end() {
        let mut f = tempfile::tempfile().unwrap();
        let text = "\u{feff}events: Ir\nfl=a.c\nfn=a\n1 1\npart: 2\ndesc: x\n1 2\nend: 1";
        f.write_all(text.as_bytes()).unwrap();
        let mut body = |from: usize| match header(&mut f, from as u64, None).unwrap() {
            Header::Body(h, at) => Ok((from + at, h.len() > at)),
            Header::End(h) => Err(h),
            _ => panic!("a short header in pieces"),
        };
        assert_eq!(body(0), Ok((text.find("fl=").unwrap(), true)));
        let part = text.find("part").unwrap();
        assert_eq!(body(part), Ok((text.find("1 2").unwrap(), true)));
        assert_eq!(body(text.find("end").unwrap()), Err(b"end: 1".to_vec()));
        // The first line a body line: the body starts after the mark.
        let mut f = tempfile::tempfile().unwrap();
        f.write_all("\u{feff}fn=a\n1 1\n".as_bytes()).unwrap();
        assert!(matches!(
            header(&mut f, 0, None).unwrap(),
            Header::Body(_, 3)
        ));
    }

    /// Where the next section starts changes how much is read first, not
    /// what is read: a header that runs past it (a part of header lines
    /// only), a body line that ends after it, and the file's end.
    #[test]
    fn a_header_is_the_same_whatever_is_known_of_the_next_section() {
        // Lines longer than the first read (`FIRST_STEP`).
        let x = "x".repeat(2 * FIRST_STEP as usize);
        let text = format!(
            "events: Ir\nfn=a\n1 1\npart: 2\ndesc: {x}\npart: 3\ndesc: x\nfn={x}\n1 2\npart: 4\n1 3\nend: {x}"
        );
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(text.as_bytes()).unwrap();
        let mut read = |from: usize, until| match header(&mut f, from as u64, until).unwrap() {
            // The header and the body's first line; what was read after
            // it is no part of what a header gives.
            Header::Body(mut h, at) => {
                let line = memchr::memchr(b'\n', &h[at..]).map_or(h.len(), |nl| at + nl + 1);
                h.truncate(line);
                ("body", h, at)
            }
            Header::End(h) => ("end", h, 0),
            Header::More(h) => ("more", h, 0),
            Header::Overlong(h) => ("overlong", h, 0),
        };
        for from in text.match_indices('\n').map(|(i, _)| i + 1).chain([0]) {
            let whole = read(from, None);
            for until in 0..text.len() as u64 + 2 * FIRST_STEP {
                assert_eq!(read(from, Some(until)), whole, "from {from} until {until}");
            }
        }
    }
}
