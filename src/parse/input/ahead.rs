//! Decompression on a thread of its own: it fills buffers ahead of the
//! reader, which meanwhile copies the text and checks its first lines
//! (`spool`), so the two overlap on two cores. At most `DEPTH` buffers
//! are filled and not yet read, so memory stays bounded whatever the
//! stream's size: a decompression bomb is decoded no faster than the
//! reader takes it, and when the reader stops (the text is refused) the
//! thread stops at its next buffer.

use std::io::{self, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Buffers filled ahead of the reader.
const DEPTH: usize = 4;

/// What the thread sends: a buffer of text, an error, or the end.
enum Chunk {
    Text(Vec<u8>),
    Failed(io::Error),
    End,
}

/// `reader` read on a thread of its own in buffers of `size` bytes; read
/// where it is if no thread can be started.
pub fn read_ahead(reader: Box<dyn Read + Send>, size: usize) -> Box<dyn Read + Send> {
    let (give, take) = sync_channel::<Box<dyn Read + Send>>(1);
    let (filled_tx, filled) = sync_channel(DEPTH);
    let (empty, empty_rx) = sync_channel(DEPTH + 1);
    let started = std::thread::Builder::new()
        .name("cgtui-decompress".into())
        .spawn(move || {
            if let Ok(reader) = take.recv() {
                fill(reader, size, &filled_tx, &empty_rx);
            }
        });
    if started.is_err() || give.send(reader).is_err() {
        // The reader went back with the failed send, or into the closure
        // that never ran: neither can be had again, so say so.
        return Box::new(Failed(Some(io::Error::other(
            "cannot start a thread to decompress",
        ))));
    }
    Box::new(Ahead {
        filled,
        empty,
        current: Vec::new(),
        at: 0,
        ended: false,
    })
}

/// The thread's work: fills buffers (reused once read) from `reader`
/// until its end, an error, or a reader that is gone.
fn fill(
    mut reader: Box<dyn Read + Send>,
    size: usize,
    filled: &SyncSender<Chunk>,
    empty: &Receiver<Vec<u8>>,
) {
    loop {
        let mut buf = empty.try_recv().unwrap_or_default();
        buf.resize(size.max(1), 0);
        let mut len = 0;
        let mut failed = None;
        while len < buf.len() {
            match reader.read(&mut buf[len..]) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        let full = len == buf.len();
        buf.truncate(len);
        // The text before an error or the end goes first; the end is sent
        // on its own, after.
        if len > 0 && filled.send(Chunk::Text(buf)).is_err() {
            return;
        }
        if !full {
            let _ = filled.send(failed.map_or(Chunk::End, Chunk::Failed));
            return;
        }
    }
}

/// The reader's end.
struct Ahead {
    filled: Receiver<Chunk>,
    empty: SyncSender<Vec<u8>>,
    current: Vec<u8>,
    at: usize,
    ended: bool,
}

impl Read for Ahead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.current.len() {
            if self.ended || buf.is_empty() {
                return Ok(0);
            }
            let read = std::mem::take(&mut self.current);
            // The thread allocates anew if this one cannot go back.
            let _ = self.empty.try_send(read);
            self.at = 0;
            match self.filled.recv() {
                Ok(Chunk::Text(text)) => self.current = text,
                Ok(Chunk::End) => self.ended = true,
                Ok(Chunk::Failed(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                // Gone without saying it ended: what was read may be cut.
                Err(_) => {
                    self.ended = true;
                    return Err(io::Error::other("the decompressing thread stopped"));
                }
            }
        }
        let n = buf.len().min(self.current.len() - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A reader that could not be started: its one error, then nothing.
struct Failed(Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives its bytes a few at a time, then an error if it has one.
    struct Dribble {
        bytes: Vec<u8>,
        at: usize,
        then: Option<io::Error>,
    }

    impl Read for Dribble {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.at == self.bytes.len() {
                return self.then.take().map_or(Ok(0), Err);
            }
            let n = buf.len().min(7).min(self.bytes.len() - self.at);
            buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    #[test]
    fn the_text_arrives_whole_and_in_order() {
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        let dribble = Dribble {
            bytes: bytes.clone(),
            at: 0,
            then: None,
        };
        let mut out = Vec::new();
        read_ahead(Box::new(dribble), 4096)
            .read_to_end(&mut out)
            .unwrap();
        assert!(out == bytes, "{} bytes back of {}", out.len(), bytes.len());
    }

    #[test]
    fn an_error_arrives_after_the_text_before_it() {
        let dribble = Dribble {
            bytes: b"events: Ir\n".to_vec(),
            at: 0,
            then: Some(io::Error::new(io::ErrorKind::UnexpectedEof, "cut")),
        };
        let mut reader = read_ahead(Box::new(dribble), 4);
        let mut out = Vec::new();
        let err = reader.read_to_end(&mut out).unwrap_err();
        assert_eq!(err.to_string(), "cut");
        assert_eq!(out, b"events: Ir\n");
    }

    #[test]
    fn a_reader_that_stops_early_stops_the_thread() {
        /// Endless zeros, counting what was read of it.
        struct Zeros(std::sync::Arc<std::sync::atomic::AtomicUsize>);
        impl Read for Zeros {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                buf.fill(0);
                (self.0).fetch_add(buf.len(), std::sync::atomic::Ordering::Relaxed);
                Ok(buf.len())
            }
        }
        let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut reader = read_ahead(Box::new(Zeros(count.clone())), 1000);
        let mut first = [1u8; 10];
        reader.read_exact(&mut first).unwrap();
        assert_eq!(first, [0; 10]);
        // The thread runs ahead of the reader ...
        let seen = || count.load(std::sync::atomic::Ordering::Relaxed);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while seen() < DEPTH * 1000 && std::time::Instant::now() < deadline {
            std::thread::yield_now();
        }
        assert!(seen() >= DEPTH * 1000, "{} read ahead", seen());
        // ... by at most the buffers in flight: the one read, those sent,
        // and the one being filled.
        for _ in 0..10_000 {
            std::thread::yield_now();
        }
        assert!(seen() <= (DEPTH + 2) * 1000, "{} read ahead", seen());
        drop(reader);
    }
}
