//! Bytes in: opening files (plain, gzip, bzip2, xz or zstd, told apart by
//! their first bytes), standard input, CR-only line ends, and splitting a
//! stream into lines without an allocation per line. Compressed input goes
//! through the same line reader, so the bound on a line (and with it on a
//! decompression bomb) is the same for every format.

use std::io::{self, BufRead, BufReader, Read};

/// Lines longer than this are skipped (a profile's longest real lines are
/// Rust names of a few kilobytes); it bounds memory on hostile input.
pub const MAX_LINE: usize = 16 << 20;

const CHUNK: usize = 1 << 20;

/// Memory an xz stream may ask for (its dictionary): `xz -9` needs 64 MiB.
const XZ_MEM_LIMIT_KIB: u32 = 128 << 10;

/// How a stream is compressed, from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    Plain,
    Gzip,
    Bzip2,
    Xz,
    Zstd,
}

impl Compression {
    pub fn of(head: &[u8]) -> Self {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Compression::Xz
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else {
            Compression::Plain
        }
    }
}

/// Whether the text starting with `head` ends its lines with a lone `\r`
/// (old Mac style): its first line ends with `\r` not followed by `\n`.
pub fn cr_only(head: &[u8]) -> bool {
    let Some(cr) = memchr::memchr(b'\r', head) else {
        return false;
    };
    let before_nl = memchr::memchr(b'\n', head).is_none_or(|nl| cr < nl);
    before_nl && head.get(cr + 1).is_some_and(|&b| b != b'\n')
}

/// Wraps a reader: decompresses what its magic bytes say, and turns lone
/// `\r` line ends into `\n`.
pub fn decode<'a>(reader: impl Read + Send + 'a) -> io::Result<Box<dyn Read + Send + 'a>> {
    decode_buffered(reader, CHUNK)
}

/// `decode` with buffers of `capacity` bytes: small ones to read a header
/// (a megabyte read, then freed, would be read for nothing, and glibc
/// would keep freed blocks of up to that size in its arenas from then on).
pub fn decode_buffered<'a>(
    reader: impl Read + Send + 'a,
    capacity: usize,
) -> io::Result<Box<dyn Read + Send + 'a>> {
    let mut buffered = BufReader::with_capacity(capacity, reader);
    let head = buffered.fill_buf()?;
    let decoded: Box<dyn Read + Send + 'a> = match Compression::of(head) {
        Compression::Plain => Box::new(buffered),
        Compression::Gzip => Box::new(GzipMembers::new(buffered)),
        Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(buffered)),
        Compression::Xz => Box::new(lzma_rust2::XzReader::new_mem_limit(
            buffered,
            true,
            XZ_MEM_LIMIT_KIB,
        )),
        Compression::Zstd => Box::new(ZstdFrames::new(buffered)),
    };
    let mut text = BufReader::with_capacity(capacity, decoded);
    if cr_only(text.fill_buf()?) {
        Ok(Box::new(CrToLf(text)))
    } else {
        Ok(Box::new(text))
    }
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// Gzip members one after another (as `cat a.gz b.gz` makes); anything else
/// after a member is an error, not a header to misread.
struct GzipMembers<R: BufRead> {
    member: Option<flate2::bufread::GzDecoder<R>>,
}

impl<R: BufRead> GzipMembers<R> {
    fn new(inner: R) -> Self {
        GzipMembers {
            member: Some(flate2::bufread::GzDecoder::new(inner)),
        }
    }
}

impl<R: BufRead> Read for GzipMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(member) = self.member.as_mut() else {
                return Ok(0);
            };
            let n = member.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            let Some(mut inner) = self
                .member
                .take()
                .map(flate2::bufread::GzDecoder::into_inner)
            else {
                return Ok(0);
            };
            let rest = inner.fill_buf()?;
            match Compression::of(rest) {
                _ if rest.is_empty() => return Ok(0),
                Compression::Gzip => self.member = Some(flate2::bufread::GzDecoder::new(inner)),
                _ => return Err(invalid("data after the end of the gzip stream".into())),
            }
        }
    }
}

/// Zstandard frames one after another.
struct ZstdFrames<R: Read> {
    source: Option<R>,
    frame: Option<ruzstd::decoding::StreamingDecoder<R, ruzstd::decoding::FrameDecoder>>,
}

impl<R: BufRead> ZstdFrames<R> {
    fn new(inner: R) -> Self {
        ZstdFrames {
            source: Some(inner),
            frame: None,
        }
    }
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(frame) = self.frame.as_mut() {
                let n = frame.read(buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                self.source = self.frame.take().map(|f| f.into_inner());
            }
            let Some(mut source) = self.source.take() else {
                return Ok(0);
            };
            let rest = source.fill_buf()?;
            if rest.is_empty() {
                return Ok(0);
            }
            if Compression::of(rest) != Compression::Zstd {
                return Err(invalid("data after the end of the zstd stream".into()));
            }
            let frame = ruzstd::decoding::StreamingDecoder::new(source)
                .map_err(|e| invalid(format!("zstd: {e}")))?;
            self.frame = Some(frame);
        }
    }
}

/// Text whose lines end with a lone `\r`, read with `\n` ends.
struct CrToLf<R>(R);

impl<R: Read> Read for CrToLf<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(buf)?;
        for b in &mut buf[..n] {
            if *b == b'\r' {
                *b = b'\n';
            }
        }
        Ok(n)
    }
}

/// What the line reader hands out.
pub enum Line<'a> {
    Text(&'a [u8]),
    /// A line over `MAX_LINE` bytes, discarded.
    TooLong,
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
                self.start = 0;
                self.end = 0;
                self.buf.truncate(CHUNK);
                self.buf.shrink_to(CHUNK);
                self.skipping = true;
                return Ok(Some(Line::TooLong));
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
                // The file ends inside the line, as the chunk reader sees it.
                self.eof = true;
                self.ended_mid_line = true;
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
                Line::TooLong => out.push(b"<too long>".to_vec()),
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

    fn decoded(bytes: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decode(bytes)?.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn formats_are_told_by_their_first_bytes() {
        assert_eq!(Compression::of(b"\x1f\x8b\x08"), Compression::Gzip);
        assert_eq!(Compression::of(b"BZh91AY"), Compression::Bzip2);
        assert_eq!(Compression::of(b"\xfd7zXZ\0"), Compression::Xz);
        assert_eq!(Compression::of(b"\x28\xb5\x2f\xfd"), Compression::Zstd);
        assert_eq!(Compression::of(b"events: Ir"), Compression::Plain);
        assert_eq!(Compression::of(b""), Compression::Plain);
    }

    #[test]
    fn lone_carriage_returns_end_lines() {
        assert!(cr_only(b"events: Ir\rfn=main\r"));
        assert!(!cr_only(b"events: Ir\r\nfn=main\r\n"));
        assert!(!cr_only(b"events: Ir\nfn=a\rb\n"));
        assert!(!cr_only(b"events: Ir"));
        assert_eq!(decoded(b"a\rb\r").unwrap(), b"a\nb\n");
        assert_eq!(decoded(b"a\r\nb\r\n").unwrap(), b"a\r\nb\r\n");
    }

    #[test]
    fn gzip_members_in_a_row_and_nothing_else_after_them() {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"x\n").unwrap();
        let member = enc.finish().unwrap();
        assert_eq!(
            decoded(&[&member[..], &member].concat()).unwrap(),
            b"x\nx\n"
        );
        let err = decoded(&[&member[..], b"junk"].concat()).unwrap_err();
        assert_eq!(err.to_string(), "data after the end of the gzip stream");
    }

    #[test]
    fn overlong_line_is_skipped_and_reading_goes_on() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nnext\n");
        let lines = all_lines(&data);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], b"<too long>");
        assert_eq!(lines[1], b"next");
    }
}
