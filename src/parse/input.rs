//! Bytes in: decompressing a stream (gzip, bzip2, xz or zstd, told apart
//! by its first bytes) and turning CR-only line ends into `\n`, as `spool`
//! makes a stream plain text.

use std::io::{self, BufRead, BufReader, Read};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
