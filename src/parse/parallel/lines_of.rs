//! A range of a file's lines fed to a `Scanner`: a chunk when loading, a
//! function's blocks when they are read again. Whole lines are handed
//! over; a line longer than any reader keeps (`MAX_LINE`) is skipped, and
//! said at its line.

use super::Bail;
use super::scan::{Scanner, Sink};
use crate::parse::text::Text;
use std::io::{Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicU64, Ordering};

/// Read size of each chunk's thread.
const BUFFER: usize = 1 << 17;

/// Feeds the lines of bytes `start..end` of `text` to `scanner`.
pub(super) fn scan_range<S: Sink>(
    text: &Text,
    start: u64,
    end: u64,
    scanner: &mut Scanner<S>,
    read: &AtomicU64,
) -> std::io::Result<Result<(), Bail>> {
    let mut file = text.open()?;
    file.seek(SeekFrom::Start(start))?;
    let mut reader = file.take(end - start);
    let mut buf = vec![0u8; BUFFER.min((end - start) as usize + 1)];
    let (mut filled, mut offset) = (0, start);
    loop {
        let n = reader.read(&mut buf[filled..])?;
        filled += n;
        // Whole lines are handed over; the scanner finds where each ends.
        let consumed = memchr::memrchr(b'\n', &buf[..filled]).map_or(0, |nl| nl + 1);
        let mut at = 0;
        while at < consumed {
            match scanner.step(offset + at as u64, &buf[at..consumed]) {
                Ok(len) => at += len,
                Err(bail) => return Ok(Err(bail)),
            }
        }
        if n == 0 {
            if consumed < filled
                && let Err(bail) = scanner.line(offset + consumed as u64, &buf[consumed..filled])
            {
                return Ok(Err(bail));
            }
            return Ok(scanner.finish());
        }
        read.fetch_add(consumed as u64, Ordering::Relaxed);
        buf.copy_within(consumed..filled, 0);
        offset += consumed as u64;
        filled -= consumed;
        if filled == buf.len() {
            if buf.len() >= crate::parse::MAX_LINE {
                // Said at its line, and skipped.
                scanner.overlong_line();
                let (skipped, kept) = skip_line(&mut reader, &mut buf)?;
                read.fetch_add(filled as u64 + skipped, Ordering::Relaxed);
                offset += filled as u64 + skipped;
                filled = kept;
                continue;
            }
            buf.resize(buf.len() * 2, 0);
        }
    }
}

/// Reads past the rest of a line too long to keep, up to and with its
/// `\n` (or to the end), with `buf` made small again: the bytes read after
/// the line are moved to its front. Gives (bytes of the line read here,
/// bytes kept after it).
fn skip_line(reader: &mut impl Read, buf: &mut Vec<u8>) -> std::io::Result<(u64, usize)> {
    buf.truncate(BUFFER);
    buf.shrink_to_fit();
    let mut skipped = 0;
    loop {
        let n = reader.read(buf)?;
        let Some(nl) = memchr::memchr(b'\n', &buf[..n]) else {
            skipped += n as u64;
            if n == 0 {
                return Ok((skipped, 0));
            }
            continue;
        };
        buf.copy_within(nl + 1..n, 0);
        return Ok((skipped + nl as u64 + 1, n - nl - 1));
    }
}
