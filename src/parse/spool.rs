//! Standard input, pipes and compressed files copied as plain text into a
//! temporary file while they are read, so that they load as a plain file
//! does: in parallel, with the per-line detail read again from the file
//! rather than kept in memory. The copy is unlinked as soon as it is open
//! and reached through `/proc/self/fd`, so it goes away when cgtui exits,
//! however it exits (a signal, a crash, `kill -9`). cgtui never writes to
//! what it reads: only to the copy.
//!
//! Where there is no such copy to make (no `/proc`, a temporary directory
//! that cannot be written) or no room for it (a full disk, or a
//! decompression bomb larger than the free space allows), the text copied
//! so far and the rest of the stream are read once, in order, as before.

use super::input;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Bytes copied at a time.
const COPY: usize = 1 << 20;

/// The first bytes, read as a profile before anything is copied.
const HEAD: usize = 256 << 10;

/// Room the copy leaves free on its file system: the larger of this and a
/// twentieth of the file system.
const LEAVE_FREE: u64 = 1 << 30;

/// A profile's text, made plain.
pub enum Spool {
    /// All of it, in a file that loads as a plain file does.
    Copied(Copy),
    /// No copy could hold it: the text so far, then the rest, to read once.
    Stream(Box<dyn Read + Send>),
}

/// The temporary copy: open (which keeps it), unlinked, reached by `path`.
#[derive(Clone, Debug)]
pub struct Copy {
    pub path: PathBuf,
    pub file: Arc<File>,
}

/// Whether the file at `path` must be copied to load as a plain file: not
/// a regular file (standard input, a pipe), or compressed, or with lone
/// `\r` line ends.
pub fn needed(path: &Path) -> io::Result<bool> {
    if path == Path::new("-") {
        return Ok(true);
    }
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Ok(false);
    }
    if !meta.is_file() {
        return Ok(true);
    }
    let mut head = Vec::new();
    File::open(path)?.take(4096).read_to_end(&mut head)?;
    Ok(input::Compression::of(&head) != input::Compression::Plain || input::cr_only(&head))
}

/// Copies `reader`'s text (decompressed, with `\n` line ends) into a
/// temporary file, reporting the bytes copied.
pub fn spool(
    reader: impl Read + Send + 'static,
    progress: &mut dyn FnMut(u64),
) -> io::Result<Spool> {
    let text = input::decode(reader)?;
    copy_within(text, room_in(&std::env::temp_dir()), progress)
}

/// `spool` of decoded `text` into at most `room` bytes.
fn copy_within(
    mut text: Box<dyn Read + Send>,
    room: u64,
    progress: &mut dyn FnMut(u64),
) -> io::Result<Spool> {
    // What is no profile (a decompression bomb of zeros) is told so as
    // soon as its first bytes are read, not after they are copied.
    let mut head = Vec::with_capacity(HEAD);
    (&mut text).take(HEAD as u64).read_to_end(&mut head)?;
    let profile = !matches!(
        super::load_stream("", &head[..]),
        Err(super::LoadError::NotAProfile { .. })
    );
    let copy = profile.then(temporary).flatten();
    let Some((mut file, copy)) = copy else {
        return Ok(Spool::Stream(Box::new(io::Cursor::new(head).chain(text))));
    };
    let mut buf = vec![0u8; COPY];
    let mut written = 0u64;
    let mut head = Some(head);
    loop {
        let n = match head.take() {
            Some(head) => {
                buf[..head.len()].copy_from_slice(&head);
                head.len()
            }
            None => match text.read(&mut buf) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            },
        };
        if n == 0 {
            break;
        }
        let fits = written + n as u64 <= room;
        if !fits || file.write_all(&buf[..n]).is_err() {
            // What was copied, what was read and not copied, the rest.
            drop(file);
            let copied = File::open(&copy.path)?.take(written);
            let pending = io::Cursor::new(buf[..n].to_vec());
            return Ok(Spool::Stream(Box::new(copied.chain(pending).chain(text))));
        }
        written += n as u64;
        progress(written);
    }
    file.flush()?;
    Ok(Spool::Copied(copy))
}

/// A new file in the temporary directory, only ours (created, not
/// found; mode 0600), unlinked, with the path that reaches it still.
fn temporary() -> Option<(File, Copy)> {
    let dir = std::env::temp_dir();
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let (path, file) = (0..64).find_map(|attempt| {
        let path = dir.join(format!(
            "cgtui-{}-{stamp:x}-{attempt}.callgrind",
            std::process::id()
        ));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .ok()?;
        Some((path, file))
    })?;
    let reach = PathBuf::from(format!("/proc/self/fd/{}", fd_of(&file)));
    let reachable = File::open(&reach).is_ok();
    let unlinked = std::fs::remove_file(&path).is_ok();
    if !reachable || !unlinked {
        let _ = std::fs::remove_file(&path);
        return None;
    }
    let held = file.try_clone().ok()?;
    Some((
        held,
        Copy {
            path: reach,
            file: Arc::new(file),
        },
    ))
}

fn fd_of(file: &File) -> i32 {
    use std::os::fd::AsRawFd;
    file.as_raw_fd()
}

/// Bytes the copy may take in `dir`'s file system (unbounded where that
/// cannot be told).
fn room_in(dir: &Path) -> u64 {
    match rustix::fs::statvfs(dir) {
        Ok(fs) => {
            let unit = fs.f_frsize.max(1);
            let available = fs.f_bavail.saturating_mul(unit);
            let reserve = LEAVE_FREE.max(fs.f_blocks.saturating_mul(unit) / 20);
            available.saturating_sub(reserve)
        }
        Err(_) => u64::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gzip(text: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(text).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn a_compressed_stream_becomes_an_unlinked_plain_file() {
        let text = b"events: Ir\nfn=main\n1 5\n".repeat(1000);
        let mut reported = 0;
        let spool = spool(io::Cursor::new(gzip(&text)), &mut |n| reported = n).unwrap();
        let Spool::Copied(copy) = spool else {
            panic!("not copied")
        };
        assert_eq!(std::fs::read(&copy.path).unwrap(), text);
        assert_eq!(reported, text.len() as u64);
        // Unlinked: no name in the temporary directory links to it.
        let link = std::fs::read_link(&copy.path).unwrap();
        assert!(link.to_string_lossy().ends_with("(deleted)"), "{link:?}");
        // It lives while it is held, and goes with its last handle.
        let path = copy.path.clone();
        drop(copy);
        assert!(std::fs::read(&path).is_err());
    }

    #[test]
    fn no_room_for_the_copy_reads_the_stream_once_whole() {
        let mut text = b"events: Ir\n".to_vec();
        for i in 0..200_000 {
            text.extend_from_slice(format!("fn=f{i}\n1 {i}\n").as_bytes());
        }
        let reader = Box::new(io::Cursor::new(text.clone()));
        let Ok(Spool::Stream(mut stream)) = copy_within(reader, 1_000_000, &mut |_| {}) else {
            panic!("copied beyond the room")
        };
        let mut back = Vec::new();
        stream.read_to_end(&mut back).unwrap();
        assert!(back == text, "{} bytes back of {}", back.len(), text.len());
    }

    #[test]
    fn what_is_no_profile_is_not_copied() {
        let zeros = Box::new(io::Cursor::new(vec![0u8; 3 << 20]));
        let Ok(Spool::Stream(mut stream)) = copy_within(zeros, u64::MAX, &mut |_| {}) else {
            panic!("copied")
        };
        assert_eq!(io::copy(&mut stream, &mut io::sink()).unwrap(), 3 << 20);
    }

    #[test]
    fn lone_carriage_returns_become_line_feeds() {
        let spool = spool(
            io::Cursor::new(b"events: Ir\rfn=a\r1 1\r".to_vec()),
            &mut |_| {},
        );
        let Ok(Spool::Copied(copy)) = spool else {
            panic!("not copied")
        };
        assert_eq!(
            std::fs::read(&copy.path).unwrap(),
            b"events: Ir\nfn=a\n1 1\n"
        );
    }

    #[test]
    fn what_needs_a_copy() {
        let dir = std::env::temp_dir();
        let plain = dir.join(format!("cgtui-needed-{}.txt", std::process::id()));
        std::fs::write(&plain, "events: Ir\n").unwrap();
        assert!(!needed(&plain).unwrap());
        std::fs::write(&plain, gzip(b"events: Ir\n")).unwrap();
        assert!(needed(&plain).unwrap());
        std::fs::write(&plain, "events: Ir\rfn=a\r").unwrap();
        assert!(needed(&plain).unwrap());
        std::fs::remove_file(&plain).unwrap();
        assert!(needed(Path::new("-")).unwrap());
        assert!(needed(Path::new("/dev/null")).unwrap());
        assert!(!needed(&dir).unwrap());
    }
}
