//! Bytes in: opening files (plain or gzip), standard input, and splitting a
//! stream into lines without an allocation per line.

use std::io::{self, BufRead, BufReader, Read};

/// Lines longer than this are skipped (a profile's longest real lines are
/// Rust names of a few kilobytes); it bounds memory on hostile input.
pub const MAX_LINE: usize = 16 << 20;

const CHUNK: usize = 1 << 20;

/// Wraps a reader, decompressing gzip when the stream starts with its magic.
pub fn maybe_gunzip<'a>(reader: impl Read + Send + 'a) -> io::Result<Box<dyn Read + Send + 'a>> {
    let mut buffered = BufReader::with_capacity(CHUNK, reader);
    let head = buffered.fill_buf()?;
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(flate2::read::MultiGzDecoder::new(buffered)))
    } else {
        Ok(Box::new(buffered))
    }
}

/// What the line reader hands out.
pub enum Line<'a> {
    Text(&'a [u8]),
    /// A line over `MAX_LINE` bytes, discarded.
    TooLong(usize),
}

/// Splits a stream into lines with `memchr`, reusing one buffer.
pub struct LineReader<'a, R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    /// Bytes consumed from `inner` so far (for progress).
    pub bytes_read: u64,
    /// Whether the last line returned had no terminating newline.
    pub ended_mid_line: bool,
    /// An overlong line was reported; its rest is discarded on the next read.
    skipping: bool,
    /// When set, discarding the rest of an overlong line stops early.
    pub cancel: Option<&'a std::sync::atomic::AtomicBool>,
}

impl<R: Read> LineReader<'_, R> {
    pub fn new(inner: R) -> Self {
        LineReader {
            inner,
            buf: vec![0; CHUNK],
            start: 0,
            end: 0,
            eof: false,
            bytes_read: 0,
            ended_mid_line: false,
            skipping: false,
            cancel: None,
        }
    }

    /// The next line without its `\n`, or `None` at the end of the stream.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        if self.skipping {
            self.skipping = false;
            self.skip_rest_of_line()?;
        }
        let mut searched = self.start;
        loop {
            if let Some(nl) = memchr::memchr(b'\n', &self.buf[searched..self.end]) {
                let line_end = searched + nl;
                let begin = self.start;
                self.start = line_end + 1;
                return Ok(Some(Line::Text(&self.buf[begin..line_end])));
            }
            searched = self.end;
            if self.eof {
                if self.start == self.end {
                    return Ok(None);
                }
                let begin = self.start;
                self.start = self.end;
                self.ended_mid_line = true;
                return Ok(Some(Line::Text(&self.buf[begin..self.end])));
            }
            if self.end - self.start >= MAX_LINE {
                // Reported at once: whoever reads it may stop here, and a
                // 10 GB file without a newline is then never read to its end.
                let len = self.end - self.start;
                self.start = 0;
                self.end = 0;
                self.buf.truncate(CHUNK);
                self.buf.shrink_to(CHUNK);
                self.skipping = true;
                return Ok(Some(Line::TooLong(len)));
            }
            searched -= self.start;
            self.refill()?;
        }
    }

    /// Moves the partial line to the front and reads more after it.
    fn refill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        if self.buf.len() - self.end < CHUNK {
            let grown = (self.buf.len() * 2).max(self.end + CHUNK);
            self.buf.resize(grown, 0);
        }
        let n = loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        self.bytes_read += n as u64;
        self.end += n;
        if n == 0 {
            self.eof = true;
        }
        Ok(())
    }

    /// Discards the rest of an overlong line (up to its newline).
    fn skip_rest_of_line(&mut self) -> io::Result<()> {
        loop {
            if self
                .cancel
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
            {
                self.eof = true;
                return Ok(());
            }
            let n = self.inner.read(&mut self.buf)?;
            self.bytes_read += n as u64;
            if n == 0 {
                self.eof = true;
                return Ok(());
            }
            if let Some(nl) = memchr::memchr(b'\n', &self.buf[..n]) {
                self.start = nl + 1;
                self.end = n;
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_lines(data: &[u8]) -> Vec<Vec<u8>> {
        let mut r = LineReader::new(data);
        let mut out = Vec::new();
        while let Some(line) = r.next_line().unwrap() {
            match line {
                Line::Text(t) => out.push(t.to_vec()),
                Line::TooLong(n) => out.push(format!("<{n}>").into_bytes()),
            }
        }
        out
    }

    #[test]
    fn splits_lines_and_keeps_last_without_newline() {
        assert_eq!(
            all_lines(b"a\n\nbc\nd"),
            vec![b"a".to_vec(), vec![], b"bc".to_vec(), b"d".to_vec()]
        );
    }

    #[test]
    fn lines_across_chunk_boundaries() {
        let mut data = Vec::new();
        for i in 0..300_000 {
            data.extend_from_slice(format!("line {i}\n").as_bytes());
        }
        let lines = all_lines(&data);
        assert_eq!(lines.len(), 300_000);
        assert_eq!(lines[123_456], b"line 123456");
    }

    #[test]
    fn overlong_line_is_skipped_and_reading_goes_on() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nnext\n");
        let lines = all_lines(&data);
        assert_eq!(lines.len(), 2);
        assert!(String::from_utf8_lossy(&lines[0]).starts_with('<'));
        assert_eq!(lines[1], b"next");
    }
}
