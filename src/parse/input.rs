//! Bytes in: decompressing a stream (gzip, bzip2, xz or zstd, told apart
//! by its first bytes, each as many streams in a row as its tools write:
//! `frames`, `gzip`), on a thread of its own ahead of the reader
//! (`ahead`), and turning CR-only line ends into `\n`, as `spool` makes a
//! stream plain text. What a decoder says goes wrong becomes one message
//! in `fault`.

mod ahead;
mod codecs;
mod fault;
mod frames;
mod gzip;

use std::io::{self, BufRead, BufReader, Read};

/// Read size of a stream and of its decompressed text. The decoder and its
/// buffers live while the copy of the text is parsed (`spool`): 1 MiB
/// buffers kept up to 3.5 MB more at the load's peak (xz, bzip2).
const CHUNK: usize = 256 << 10;

/// How a stream is compressed, from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    Plain,
    Gzip,
    Bzip2,
    Xz,
    Zstd,
}

const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];
const BZIP2_MAGIC: &[u8] = b"BZh";
const XZ_MAGIC: &[u8] = &[0xfd, b'7', b'z', b'X', b'Z', 0];
const ZSTD_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
/// A zstd skippable frame's magic number is 0x184D2A50 to 0x184D2A5F,
/// little-endian: its first byte is `0x5?`, then these.
const ZSTD_SKIPPABLE_TAIL: &[u8] = &[0x2a, 0x4d, 0x18];

impl Compression {
    /// The format whose magic bytes `head` starts with (a zstd stream may
    /// start with a skippable frame, as `pzstd` writes it).
    pub fn of(head: &[u8]) -> Self {
        let formats = [
            Compression::Gzip,
            Compression::Bzip2,
            Compression::Xz,
            Compression::Zstd,
        ];
        let whole = |format: &Compression| head.len() >= format.magic_len();
        (formats.into_iter())
            .find(|format| whole(format) && format.may_start(head))
            .unwrap_or(Compression::Plain)
    }

    /// Whether `head` may be the start of a stream of this format: its
    /// bytes agree with the magic bytes as far as either goes (a read may
    /// end inside them).
    pub fn may_start(self, head: &[u8]) -> bool {
        let agrees = |magic: &[u8], head: &[u8]| {
            let n = magic.len().min(head.len());
            magic[..n] == head[..n]
        };
        match self {
            Compression::Plain => true,
            Compression::Gzip => agrees(GZIP_MAGIC, head),
            Compression::Bzip2 => agrees(BZIP2_MAGIC, head),
            Compression::Xz => agrees(XZ_MAGIC, head),
            Compression::Zstd => {
                let skippable = head.first().is_none_or(|b| b & 0xf0 == 0x50)
                    && agrees(ZSTD_SKIPPABLE_TAIL, head.get(1..).unwrap_or_default());
                agrees(ZSTD_MAGIC, head) || skippable
            }
        }
    }

    fn magic_len(self) -> usize {
        match self {
            Compression::Plain => 0,
            Compression::Gzip => GZIP_MAGIC.len(),
            Compression::Bzip2 => BZIP2_MAGIC.len(),
            Compression::Xz => XZ_MAGIC.len(),
            Compression::Zstd => ZSTD_MAGIC.len(),
        }
    }

    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Plain => "plain",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
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

/// Wraps a reader: decompresses what its magic bytes say, on a thread of
/// its own (`ahead`), and turns lone `\r` line ends into `\n`.
pub fn decode(reader: impl Read + Send + 'static) -> io::Result<Box<dyn Read + Send>> {
    let mut buffered = BufReader::with_capacity(CHUNK, reader);
    let format = Compression::of(buffered.fill_buf()?);
    let decoded = decompressed(buffered, format)?;
    let decoded = match format {
        Compression::Plain => decoded,
        _ => ahead::read_ahead(decoded, CHUNK),
    };
    plain_lines(decoded, CHUNK)
}

/// `decode` with buffers of `capacity` bytes and no thread: to read a
/// header (a megabyte read, then freed, would be read for nothing, and
/// glibc would keep freed blocks of up to that size in its arenas from
/// then on).
pub fn decode_buffered<'a>(
    reader: impl Read + Send + 'a,
    capacity: usize,
) -> io::Result<Box<dyn Read + Send + 'a>> {
    let mut buffered = BufReader::with_capacity(capacity, reader);
    let format = Compression::of(buffered.fill_buf()?);
    plain_lines(decompressed(buffered, format)?, capacity)
}

/// The text of `buffered`, a stream of `format`.
fn decompressed<'a>(
    buffered: impl BufRead + Send + 'a,
    format: Compression,
) -> io::Result<Box<dyn Read + Send + 'a>> {
    Ok(match format {
        Compression::Plain => Box::new(buffered),
        Compression::Gzip => Box::new(gzip::GzipMembers::new(buffered)),
        Compression::Bzip2 => Box::new(frames::Frames::new(buffered, codecs::Bzip2::new())),
        Compression::Xz => Box::new(frames::Frames::new(buffered, codecs::Xz::new())),
        Compression::Zstd => Box::new(frames::Frames::new(buffered, codecs::Zstd::new()?)),
    })
}

/// `text` with lone `\r` line ends made `\n`, if its first line ends so.
fn plain_lines<'a>(
    text: Box<dyn Read + Send + 'a>,
    capacity: usize,
) -> io::Result<Box<dyn Read + Send + 'a>> {
    let mut text = BufReader::with_capacity(capacity, text);
    if cr_only(text.fill_buf()?) {
        Ok(Box::new(CrToLf(text)))
    } else {
        Ok(Box::new(text))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(bytes: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decode(io::Cursor::new(bytes.to_vec()))?.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn formats_are_told_by_their_first_bytes() {
        assert_eq!(Compression::of(b"\x1f\x8b\x08"), Compression::Gzip);
        assert_eq!(Compression::of(b"BZh91AY"), Compression::Bzip2);
        assert_eq!(Compression::of(b"\xfd7zXZ\0"), Compression::Xz);
        assert_eq!(Compression::of(b"\x28\xb5\x2f\xfd"), Compression::Zstd);
        // Skippable frames, 0x184D2A50 to 0x184D2A5F.
        assert_eq!(Compression::of(b"\x50\x2a\x4d\x18"), Compression::Zstd);
        assert_eq!(Compression::of(b"\x5f\x2a\x4d\x18"), Compression::Zstd);
        assert_eq!(Compression::of(b"\x60\x2a\x4d\x18"), Compression::Plain);
        assert_eq!(Compression::of(b"\x4f\x2a\x4d\x18"), Compression::Plain);
        // Only the whole magic number tells a format.
        assert_eq!(Compression::of(b"\xfd7zX"), Compression::Plain);
        assert_eq!(Compression::of(b"\x28\xb5\x2f"), Compression::Plain);
        assert_eq!(Compression::of(b"events: Ir"), Compression::Plain);
        assert_eq!(Compression::of(b""), Compression::Plain);
    }

    #[test]
    fn a_read_ending_inside_the_magic_bytes_may_start_a_stream() {
        assert!(Compression::Xz.may_start(b"\xfd7z"));
        assert!(!Compression::Xz.may_start(b"\xfd8"));
        assert!(Compression::Zstd.may_start(b"\x28"));
        assert!(Compression::Zstd.may_start(b"\x5a\x2a"));
        assert!(!Compression::Zstd.may_start(b"\x5a\x2b"));
        assert!(!Compression::Bzip2.may_start(b"BZx"));
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
        let err = decoded(&member[..member.len() - 3]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the gzip stream ends before its end (the file is cut?)"
        );
    }
}
