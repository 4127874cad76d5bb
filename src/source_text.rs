//! Reading the lines of a source file that will be shown, and nothing more:
//! one streaming pass through a fixed buffer keeps only the wanted line
//! ranges, at most `MAX_LINE` bytes of each line (the cut is marked), stops
//! after the last wanted line and within a byte budget. A 1 GiB file, a file
//! of 32 Mi empty lines or a 1 GiB line cost no more memory than a small
//! file. Used by `annotate` and the browser's source view; must not import
//! `tui`, ratatui or crossterm.

use crate::format::wide_thousands;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// Bytes of one line kept; the rest is counted and said so.
pub const MAX_LINE: usize = 4096;

/// Bookkeeping charged to the budget for each line kept, besides its text.
const LINE_OVERHEAD: usize = 32;

/// Sorted, disjoint, non-adjacent inclusive ranges of line numbers (from 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wanted(Vec<(u64, u64)>);

impl Wanted {
    /// Each of `lines` (0 is ignored: it means "no line") with `context`
    /// lines either side, merged. Saturating: any context is fine, and the
    /// work is per line given, never per line of context.
    pub fn around(lines: impl IntoIterator<Item = u64>, context: u64) -> Wanted {
        let mut ranges: Vec<(u64, u64)> = lines
            .into_iter()
            .filter(|&l| l > 0)
            .map(|l| (l.saturating_sub(context).max(1), l.saturating_add(context)))
            .collect();
        ranges.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
        for (from, to) in ranges {
            match merged.last_mut() {
                Some(last) if from <= last.1.saturating_add(1) => last.1 = last.1.max(to),
                _ => merged.push((from, to)),
            }
        }
        Wanted(merged)
    }

    /// Lines `1..=n`.
    pub fn first(n: u64) -> Wanted {
        Wanted(if n == 0 { Vec::new() } else { vec![(1, n)] })
    }

    /// The ranges, in order.
    pub fn ranges(&self) -> &[(u64, u64)] {
        &self.0
    }

    /// Whether `line` is in one of the ranges.
    pub fn contains(&self, line: u64) -> bool {
        let i = self.0.partition_point(|r| r.1 < line);
        self.0.get(i).is_some_and(|r| r.0 <= line)
    }

    fn last(&self) -> u64 {
        self.0.last().map_or(0, |r| r.1)
    }
}

/// The lines read, with what is known of the rest of the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Excerpt {
    /// `(line number, text)`, in line order; text without its line end.
    pub lines: Vec<(u64, String)>,
    /// The number of lines of the file, when the read reached its end
    /// (`None`: it stopped after the last wanted line).
    pub total: Option<u64>,
    /// The first wanted line not kept because the byte budget was spent.
    pub stopped_at: Option<u64>,
}

impl Excerpt {
    /// The text of `line`, if it was read.
    pub fn get(&self, line: u64) -> Option<&str> {
        self.lines
            .binary_search_by_key(&line, |l| l.0)
            .ok()
            .map(|i| self.lines[i].1.as_str())
    }

    /// Whether the file is known to end before `line`.
    pub fn ends_before(&self, line: u64) -> bool {
        self.total.is_some_and(|n| line > n)
    }
}

/// Reads the `wanted` lines of the file at `path`, keeping at most `budget`
/// bytes in all.
pub fn read(path: &Path, wanted: &Wanted, budget: usize) -> std::io::Result<Excerpt> {
    read_from(std::fs::File::open(path)?, wanted, budget)
}

/// `read` from any reader.
pub fn read_from(reader: impl Read, wanted: &Wanted, budget: usize) -> std::io::Result<Excerpt> {
    let mut reader = BufReader::with_capacity(64 << 10, reader);
    let mut out = Excerpt::default();
    let last = wanted.last();
    let mut range = 0;
    let mut spent = 0usize;
    let mut line = 1u64;
    // The current line: its first bytes (when wanted) and its full length.
    let mut kept: Vec<u8> = Vec::new();
    let mut len = 0u64;
    loop {
        if line > last {
            return Ok(out);
        }
        while wanted.0.get(range).is_some_and(|r| r.1 < line) {
            range += 1;
        }
        let keep = wanted.0.get(range).is_some_and(|r| r.0 <= line);
        let buf = reader.fill_buf()?;
        if !keep && !buf.is_empty() {
            // Lines before the next wanted one are only counted, a buffer
            // at a time.
            let next = wanted.0.get(range).map_or(u64::MAX, |r| r.0);
            let skip = usize::try_from(next - line).unwrap_or(usize::MAX);
            let (ends, lines, tail) = skip_lines(buf, skip);
            if lines > 0 {
                len = 0;
            }
            len += tail as u64;
            line += lines as u64;
            reader.consume(ends);
            continue;
        }
        if buf.is_empty() {
            if len > 0 {
                if keep {
                    out.lines.push((line, finish(&kept, len)));
                }
                line += 1;
            }
            out.total = Some(line - 1);
            return Ok(out);
        }
        let (chunk, ends) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        if keep && kept.len() < MAX_LINE + 1 {
            let room = MAX_LINE + 1 - kept.len();
            kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        len += chunk.len() as u64;
        let complete = ends > chunk.len();
        reader.consume(ends);
        if keep && !complete && line == last && kept.len() > MAX_LINE {
            // The last line wanted is already cut: its end is not needed.
            out.lines.push((line, cut(&kept, None)));
            return Ok(out);
        }
        if complete {
            if keep {
                let text = finish(&kept, len);
                spent = spent.saturating_add(text.len() + LINE_OVERHEAD);
                if spent > budget {
                    out.stopped_at = Some(line);
                    return Ok(out);
                }
                out.lines.push((line, text));
            }
            kept.clear();
            len = 0;
            line += 1;
        }
    }
}

/// Skips up to `n` lines of `buf`: the bytes consumed, the newlines among
/// them, and the bytes after the last of those (the start of a line).
fn skip_lines(buf: &[u8], n: usize) -> (usize, usize, usize) {
    let all = memchr::memchr_iter(b'\n', buf).count();
    if all < n {
        let tail = memchr::memrchr(b'\n', buf).map_or(buf.len(), |i| buf.len() - i - 1);
        return (buf.len(), all, tail);
    }
    let end = memchr::memchr_iter(b'\n', buf)
        .nth(n.saturating_sub(1))
        .map_or(buf.len(), |i| i + 1);
    (end, n, 0)
}

/// The text of a line of `len` bytes whose first bytes are `kept`: a CR
/// before the newline dropped, at most `MAX_LINE` bytes (ending on a whole
/// character), and the cut said so.
fn finish(kept: &[u8], len: u64) -> String {
    if len as usize <= MAX_LINE && kept.len() as u64 == len {
        let bytes = kept.strip_suffix(b"\r").unwrap_or(kept);
        return String::from_utf8_lossy(bytes).into_owned();
    }
    cut(kept, Some(len))
}

/// The first `MAX_LINE` bytes of `kept` (ending on a whole character) and
/// a mark saying the line is longer: `len` bytes, when known.
fn cut(kept: &[u8], len: Option<u64>) -> String {
    let head = &kept[..kept.len().min(MAX_LINE)];
    // Do not turn a character split by the cut into U+FFFD.
    let head = match std::str::from_utf8(head) {
        Err(e) if e.error_len().is_none() => &head[..e.valid_up_to()],
        _ => head,
    };
    let mut text = String::from_utf8_lossy(head).into_owned();
    match len {
        Some(len) => text.push_str(&format!(
            " … [line cut: {} bytes]",
            wide_thousands(len.into())
        )),
        None => text.push_str(&format!(" … [line cut: over {MAX_LINE} bytes]")),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_str(s: &str, wanted: &Wanted, budget: usize) -> Excerpt {
        read_from(s.as_bytes(), wanted, budget).unwrap()
    }

    #[test]
    fn ranges_merge_and_saturate() {
        let w = Wanted::around([10, 0, 3, 12, 40], 2);
        assert_eq!(w.ranges(), &[(1, 5), (8, 14), (38, 42)]);
        assert_eq!(Wanted::around([3, 8], 2).ranges(), &[(1, 10)]);
        let w = Wanted::around([5, u64::MAX], u64::MAX);
        assert_eq!(w.ranges(), &[(1, u64::MAX)]);
        assert!(w.contains(7) && !Wanted::around([5], 1).contains(7));
        assert_eq!(Wanted::around([], 3).ranges(), &[]);
    }

    #[test]
    fn only_wanted_lines_are_kept_and_the_end_is_known() {
        let text = "a\nb\r\nc\nd\ne";
        let x = read_str(text, &Wanted::around([2, 5], 0), usize::MAX);
        assert_eq!(x.lines, vec![(2, "b".into()), (5, "e".into())]);
        assert_eq!(x.total, Some(5));
        // Stops after the last wanted line: the length is not known.
        let x = read_str(text, &Wanted::first(2), usize::MAX);
        assert_eq!((x.lines.len(), x.total), (2, None));
        // Past the end.
        let x = read_str("a\nb\n", &Wanted::around([9], 0), usize::MAX);
        assert_eq!((x.lines.len(), x.total), (0, Some(2)));
        assert!(x.ends_before(3) && !x.ends_before(2));
        assert_eq!(read_str("", &Wanted::first(3), 9).total, Some(0));
    }

    #[test]
    fn long_lines_are_cut_on_a_character_and_marked() {
        let long = format!(
            "{}é{}\nnext\n",
            "x".repeat(MAX_LINE - 1),
            "y".repeat(10_000)
        );
        let x = read_str(&long, &Wanted::first(2), usize::MAX);
        let (cut, next) = (x.get(1).unwrap(), x.get(2).unwrap());
        // 4,095 x, a 2-byte é that would cross the cut, 10,000 y.
        let want = format!("{} … [line cut: 14,097 bytes]", "x".repeat(MAX_LINE - 1));
        assert!(cut == want, "{}", &cut[MAX_LINE - 8..]);
        assert_eq!(next, "next");
        // The last line wanted is not read to its end.
        let longer = format!("{}é{}\n", "x".repeat(MAX_LINE - 1), "y".repeat(100_000));
        let x = read_str(&longer, &Wanted::first(1), usize::MAX);
        assert!(
            x.get(1)
                .unwrap()
                .ends_with("x … [line cut: over 4096 bytes]")
        );
        assert_eq!(x.total, None);
    }

    #[test]
    fn skipped_lines_are_counted_across_buffers() {
        let mut text = "\n".repeat(200_000);
        text.push_str("wanted\nafter\nlast");
        let x = read_str(&text, &Wanted::around([200_001], 0), usize::MAX);
        assert_eq!(x.lines, vec![(200_001, "wanted".into())]);
        let x = read_str(&text, &Wanted::around([200_009], 0), usize::MAX);
        assert_eq!((x.lines.len(), x.total), (0, Some(200_003)));
        let x = read_str(
            &"ab\n".repeat(50_000),
            &Wanted::around([40_000], 1),
            1 << 20,
        );
        assert_eq!(x.get(40_001), Some("ab"));
        assert_eq!(x.lines.len(), 3);
    }

    #[test]
    fn the_budget_stops_the_read() {
        let text = "aaaa\n".repeat(100);
        let x = read_str(&text, &Wanted::first(100), 10 * (4 + LINE_OVERHEAD));
        assert_eq!((x.lines.len(), x.stopped_at), (10, Some(11)));
    }
}
