//! Standard input, pipes and compressed files made plain text, in a
//! temporary file while they are read, so that they load as a plain file
//! does: in parallel, with the per-line detail read again from the file
//! rather than kept in memory. The copy is unlinked as soon as it is open
//! and reached through `/proc/self/fd`, so it goes away when cgtui exits,
//! however it exits (a signal, a crash, `kill -9`). cgtui never writes to
//! what it reads: only to the copy.
//!
//! Past its first bytes, the copy is written on a thread of its own
//! (`Spool::Copying`), and the load reads it while it grows, so that the
//! parse runs beside the decompression rather than after it.
//!
//! A short text (the first read holds all of it) stays in memory, and so
//! does one that no copy can be made of (no `/proc`, a temporary directory
//! that cannot be written) or that has no room in one (a full disk, or a
//! decompression bomb larger than the free space allows), up to the
//! memory there is.

use super::input;
use super::text::{Text, Writing, Written};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;

/// Bytes copied at a time (its buffer lives while the copy is parsed).
const COPY: usize = 256 << 10;

/// The first bytes, read as a profile before anything is copied.
const HEAD: usize = 256 << 10;

/// Room the copy leaves free on its file system: the larger of this and a
/// twentieth of the file system.
const LEAVE_FREE: u64 = 1 << 30;

/// A stream's text, made plain, or why it is no profile.
pub enum Spool {
    Text(Text),
    /// A text still being copied, readable as it grows, and the thread
    /// that copies it, which says how the copy ended.
    Copying(Text, Copying),
    /// Its first lines are no profile, whatever follows (`head_is_no_profile`).
    NotAProfile(String),
}

/// The thread that copies the rest of a text (`Spool::Copying`).
pub struct Copying(JoinHandle<io::Result<Option<Spool>>>);

impl Copying {
    /// Waits for the copy's end: `None` if all of the text was copied,
    /// else what it is instead (held in memory, where the copy ran out of
    /// room; no profile), or the error that stopped it (a cut stream).
    pub fn finish(self) -> io::Result<Option<Spool>> {
        (self.0.join()).unwrap_or_else(|_| Err(io::Error::other("the copying thread stopped")))
    }
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
    File::open(path)?.take(64 << 10).read_to_end(&mut head)?;
    Ok(input::Compression::of(&head) != input::Compression::Plain || input::cr_only(&head))
}

/// Makes `reader`'s text (decompressed, with `\n` line ends) plain,
/// reporting the bytes copied; all of it is copied before this returns.
pub fn spool(
    reader: impl Read + Send + 'static,
    progress: &mut dyn FnMut(u64),
) -> io::Result<Spool> {
    let spool = whole(start(reader, None, progress)?)?;
    if let Spool::Text(text) = &spool
        && let Ok(Some(stamp)) = text.stamp()
    {
        progress(stamp.len);
    }
    Ok(spool)
}

/// `spool`, with the copy's end left to a thread of its own where the
/// text is copied to a file (`Spool::Copying`), and the first bytes
/// reported. `size`: the bytes `reader` holds, where that is known.
pub fn start(
    reader: impl Read + Send + 'static,
    size: Option<u64>,
    progress: &mut dyn FnMut(u64),
) -> io::Result<Spool> {
    let taken = Arc::new(AtomicU64::new(0));
    let counted = Counted(reader, Arc::clone(&taken));
    let text = input::decode(counted)?;
    let dir = std::env::temp_dir();
    let input = size.map(|size| (taken, size));
    copy_within(text, (room_in(&dir), memory_room()), input, progress)
}

/// What `spool` makes of a text once its copy has ended.
pub fn whole(spool: Spool) -> io::Result<Spool> {
    match spool {
        Spool::Copying(text, copying) => Ok(copying.finish()?.unwrap_or(Spool::Text(text))),
        other => Ok(other),
    }
}

/// A reader counting the bytes read from it.
struct Counted<R>(R, Arc<AtomicU64>);

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// `spool` of decoded `text` into a file of at most `on_disk` bytes, else
/// into at most `in_memory` bytes of memory; past its first `HEAD` bytes,
/// on a thread of its own. `input`: the compressed bytes read so far and
/// their total (`Written::len_or_guess`).
fn copy_within(
    mut text: Box<dyn Read + Send>,
    (on_disk, in_memory): (u64, u64),
    input: Option<(Arc<AtomicU64>, u64)>,
    progress: &mut dyn FnMut(u64),
) -> io::Result<Spool> {
    let mut head = Vec::with_capacity(HEAD);
    (&mut text).take(HEAD as u64).read_to_end(&mut head)?;
    if head.len() < HEAD {
        progress(head.len() as u64);
        return Ok(Spool::Text(Text::memory(head)));
    }
    // What is no profile (a decompression bomb of zeros) is told so as
    // soon as its first lines are read, not after they are copied.
    let whole_lines = memchr::memrchr(b'\n', &head).map_or(0, |nl| nl + 1);
    if let Some(reason) = super::head_is_no_profile(&head[..whole_lines]) {
        return Ok(Spool::NotAProfile(reason));
    }
    let mut first_line = FirstLine::default();
    let Some((file, path, held)) = temporary() else {
        if let Some(reason) = first_line.see(&head) {
            return Ok(Spool::NotAProfile(reason));
        }
        return in_memory_all(head, (text, first_line), in_memory, progress);
    };
    let copy = Arc::new(Written::new(held, input));
    let mut copier = Copier {
        text,
        file,
        path: path.clone(),
        first_line,
        room: (on_disk, in_memory),
        writing: Some(copy.writing()),
        written: 0,
    };
    if let Some(done) = copier.take(&head)? {
        return Ok(done);
    }
    progress(copier.written);
    let text = Text::File {
        path,
        held: Some(copy),
    };
    let thread = std::thread::Builder::new().name("cgtui-copy".into());
    let (give, take) = std::sync::mpsc::sync_channel::<Copier>(1);
    let started = thread.spawn(move || take.recv().map_or(Ok(None), Copier::rest));
    match started {
        Ok(handle) => match give.send(copier) {
            Ok(()) => Ok(Spool::Copying(text, Copying(handle))),
            // The thread is gone with the copier; it says so.
            Err(_) => whole(Spool::Copying(text, Copying(handle))),
        },
        // No thread: the copy is made here.
        Err(_) => Ok(copier.rest()?.unwrap_or(Spool::Text(text))),
    }
}

/// The copy of a text past its first bytes, into a file while it has room
/// (`room.0`), else into memory (`room.1`).
struct Copier {
    text: Box<dyn Read + Send>,
    file: File,
    path: PathBuf,
    first_line: FirstLine,
    room: (u64, u64),
    /// Says how far the file is written, and how the copy ended (`None`
    /// once it has stopped).
    writing: Option<Writing>,
    written: u64,
}

impl Copier {
    /// Copies the rest: `None` once all of it is in the file, else what
    /// the text is instead (in memory, no profile).
    fn rest(mut self) -> io::Result<Option<Spool>> {
        let mut buf = vec![0u8; COPY];
        loop {
            let n = match self.text.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if let Some(done) = self.take(&buf[..n])? {
                return Ok(Some(done));
            }
        }
        self.file.flush()?;
        if let Some(writing) = self.writing.take() {
            writing.whole();
        }
        Ok(None)
    }

    /// Copies `bytes`, the next of the text: `Some` where the text is no
    /// profile, or must be held in memory (all of it, then).
    fn take(&mut self, bytes: &[u8]) -> io::Result<Option<Spool>> {
        if let Some(reason) = self.first_line.see(bytes) {
            return Ok(Some(Spool::NotAProfile(reason)));
        }
        let fits = self.written + bytes.len() as u64 <= self.room.0;
        if fits && self.file.write_all(bytes).is_ok() {
            self.written += bytes.len() as u64;
            if let Some(writing) = &self.writing {
                writing.grew(self.written);
            }
            return Ok(None);
        }
        // What was copied, what was read and not copied, the rest; the
        // reader of the copy stops at once rather than when this is read.
        drop(self.writing.take());
        let mut so_far = Vec::new();
        let copied = File::open(&self.path)?.take(self.written);
        copied.chain(bytes).read_to_end(&mut so_far)?;
        let text = std::mem::replace(&mut self.text, Box::new(io::empty()));
        let first_line = std::mem::take(&mut self.first_line);
        in_memory_all(so_far, (text, first_line), self.room.1, &mut |_| {}).map(Some)
    }
}

/// `so_far` and the rest of `text`, in memory if they fit in `room` bytes.
fn in_memory_all(
    mut so_far: Vec<u8>,
    (text, mut first_line): (Box<dyn Read + Send>, FirstLine),
    room: u64,
    progress: &mut dyn FnMut(u64),
) -> io::Result<Spool> {
    let limit = room.saturating_sub(so_far.len() as u64);
    let mut rest = text.take(limit.saturating_add(1));
    let mut buf = vec![0u8; COPY];
    loop {
        let n = match rest.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if let Some(reason) = first_line.see(&buf[..n]) {
            return Ok(Spool::NotAProfile(reason));
        }
        if so_far.len() as u64 + n as u64 > room {
            return Err(io::Error::other(format!(
                "its text is larger than the room to copy it to (free space in {}, and memory)",
                std::env::temp_dir().display()
            )));
        }
        so_far.extend_from_slice(&buf[..n]);
        progress(so_far.len() as u64);
    }
    Ok(Spool::Text(Text::memory(so_far)))
}

/// The length of a text's first line while it is copied: one longer
/// than any reader keeps makes it no profile (a decompression bomb of
/// zeros is told so once that much is read, not once all is copied).
#[derive(Default)]
struct FirstLine {
    len: u64,
    ended: bool,
}

impl FirstLine {
    /// Takes the next bytes; why the text is no profile, once it is not.
    fn see(&mut self, bytes: &[u8]) -> Option<String> {
        if self.ended {
            return None;
        }
        match memchr::memchr(b'\n', bytes) {
            Some(nl) => (self.len, self.ended) = (self.len + nl as u64, true),
            None => self.len += bytes.len() as u64,
        }
        (self.len > super::MAX_LINE as u64).then(|| super::messages::overlong_before_events(1))
    }
}

/// A new file in the temporary directory, only ours (created, not
/// found; mode 0600), unlinked, with the path that reaches it still.
/// Gives the file to write, the path, and the handle that keeps it.
fn temporary() -> Option<(File, PathBuf, File)> {
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
    Some((held, reach, file))
}

fn fd_of(file: &File) -> i32 {
    use std::os::fd::AsRawFd;
    file.as_raw_fd()
}

/// Bytes a copy may take in memory: half of what the system says is
/// available (unbounded where it does not say).
fn memory_room() -> u64 {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let available = info.lines().find_map(|line| {
        let kib = line
            .strip_prefix("MemAvailable:")?
            .trim()
            .strip_suffix("kB")?;
        kib.trim().parse::<u64>().ok()
    });
    available.map_or(u64::MAX, |kib| kib.saturating_mul(1024) / 2)
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

    /// `copy_within`, and the copy's end waited for.
    fn copy_all(text: Box<dyn Read + Send>, room: (u64, u64)) -> io::Result<Spool> {
        copy_within(text, room, None, &mut |_| {}).and_then(whole)
    }

    /// Bytes of a text.
    fn bytes(text: &Text) -> Vec<u8> {
        let mut out = Vec::new();
        text.open().unwrap().read_to_end(&mut out).unwrap();
        out
    }

    /// A profile of `n` functions.
    fn profile(n: usize) -> Vec<u8> {
        let mut text = b"events: Ir\n".to_vec();
        for i in 0..n {
            text.extend_from_slice(format!("fn=f{i}\n1 {i}\n").as_bytes());
        }
        text
    }

    #[test]
    fn a_compressed_stream_becomes_an_unlinked_plain_file() {
        let text = profile(100_000);
        let mut reported = 0;
        let spool = spool(io::Cursor::new(gzip(&text)), &mut |n| reported = n).unwrap();
        let Spool::Text(copy @ Text::File { .. }) = spool else {
            panic!("not copied to a file")
        };
        assert!(bytes(&copy) == text);
        assert_eq!(reported, text.len() as u64);
        let Text::File { path, .. } = copy.clone() else {
            unreachable!()
        };
        // Unlinked: no name in the temporary directory links to it.
        let link = std::fs::read_link(&path).unwrap();
        assert!(link.to_string_lossy().ends_with("(deleted)"), "{link:?}");
        // It lives while it is held, and goes with its last handle.
        drop(copy);
        assert!(std::fs::read(&path).is_err());
    }

    #[test]
    fn a_short_text_stays_in_memory() {
        let text = profile(10);
        let Ok(Spool::Text(Text::Memory(kept))) = spool(io::Cursor::new(gzip(&text)), &mut |_| {})
        else {
            panic!("not kept in memory")
        };
        assert_eq!(&kept[..], &text[..]);
    }

    #[test]
    fn no_room_for_the_copy_keeps_the_text_in_memory_if_it_fits() {
        let text = profile(200_000);
        let reader = || Box::new(io::Cursor::new(text.clone()));
        let Ok(Spool::Text(kept @ Text::Memory(_))) = copy_all(reader(), (1_000_000, u64::MAX))
        else {
            panic!("copied beyond the room")
        };
        assert!(bytes(&kept) == text, "{} bytes back", bytes(&kept).len());
        let Err(e) = copy_all(reader(), (1_000_000, 2_000_000)) else {
            panic!("held beyond the room")
        };
        assert!(e.to_string().contains("larger than the room"), "{e}");
    }

    #[test]
    fn what_is_no_profile_is_not_copied() {
        let zeros = || {
            Box::new(io::Cursor::new(vec![
                0u8;
                crate::parse::MAX_LINE + (2 << 20)
            ]))
        };
        for room in [(u64::MAX, 0), (0, u64::MAX)] {
            let Ok(Spool::NotAProfile(why)) = copy_all(zeros(), room) else {
                panic!("copied")
            };
            assert_eq!(why, "line 1 is over 16777216 bytes long");
        }
        let lines = Box::new(io::Cursor::new(b"x\n".repeat(HEAD)));
        let Ok(Spool::NotAProfile(why)) = copy_all(lines, (u64::MAX, 0)) else {
            panic!("copied")
        };
        assert_eq!(
            why,
            "20 unreadable lines and no `events:` line before line 20; line 1 is `x`"
        );
        // Lines that are no profile, and then one that is: copied.
        let mut text = b"x\n".repeat(10);
        text.extend_from_slice(&profile(20_000));
        let reader = Box::new(io::Cursor::new(text.clone()));
        let Ok(Spool::Text(copy)) = copy_all(reader, (u64::MAX, 0)) else {
            panic!("not copied")
        };
        assert!(bytes(&copy) == text);
    }

    #[test]
    fn lone_carriage_returns_become_line_feeds() {
        let spool = spool(
            io::Cursor::new(b"events: Ir\rfn=a\r1 1\r".to_vec()),
            &mut |_| {},
        );
        let Ok(Spool::Text(text)) = spool else {
            panic!("not made plain")
        };
        assert_eq!(bytes(&text), b"events: Ir\nfn=a\n1 1\n");
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
