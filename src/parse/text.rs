//! Where a profile's plain text is read from, by the chunk reader and
//! again by `reread`: a file (the profile itself, or the unlinked copy
//! `spool` made of a stream), or memory (a short stream, or one that no
//! copy could be made of).

use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

/// A profile's plain text (`\n` line ends, not compressed).
#[derive(Clone, Debug)]
pub enum Text {
    /// A file, and the handle that keeps it if it is an unlinked copy.
    File {
        path: PathBuf,
        held: Option<Arc<File>>,
    },
    /// Text held in memory.
    Memory(Arc<Vec<u8>>),
}

impl Text {
    /// The file at `path`.
    pub fn file(path: &Path) -> Text {
        Text::File {
            path: path.to_path_buf(),
            held: None,
        }
    }

    /// Text held in memory, as it is (not copied again).
    pub fn memory(bytes: Vec<u8>) -> Text {
        Text::Memory(Arc::new(bytes))
    }

    /// A reader of the text from its start.
    pub fn open(&self) -> io::Result<TextReader> {
        Ok(match self {
            Text::File { path, .. } => TextReader::File(File::open(path)?),
            Text::Memory(bytes) => TextReader::Memory(Cursor::new(Shared(bytes.clone()))),
        })
    }

    /// What tells one version of the text from another (its length and
    /// modification time), `None` if it is not a regular file.
    pub fn stamp(&self) -> io::Result<Option<Stamp>> {
        Ok(match self {
            Text::File { path, .. } => {
                let meta = std::fs::metadata(path)?;
                meta.is_file().then(|| Stamp {
                    len: meta.len(),
                    modified: meta.modified().ok(),
                })
            }
            Text::Memory(bytes) => Some(Stamp {
                len: bytes.len() as u64,
                modified: None,
            }),
        })
    }
}

/// A version of a text: its length and modification time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub len: u64,
    pub modified: Option<SystemTime>,
}

/// Reads a `Text`.
pub enum TextReader {
    File(File),
    Memory(Cursor<Shared>),
}

/// Bytes in memory that every reader of them shares.
pub struct Shared(Arc<Vec<u8>>);

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Read for TextReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            TextReader::File(f) => f.read(buf),
            TextReader::Memory(m) => m.read(buf),
        }
    }
}

impl Seek for TextReader {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match self {
            TextReader::File(f) => f.seek(to),
            TextReader::Memory(m) => m.seek(to),
        }
    }
}
