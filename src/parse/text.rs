//! Where a profile's plain text is read from, by the chunk reader and
//! again by `reread`: a file (the profile itself, or the unlinked copy
//! `spool` makes of a stream, read while it is written: `written`), or
//! memory (a short stream, or one that no copy could be made of).

mod written;

use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;
pub use written::{Ahead, Writing, Written};

/// A profile's plain text (`\n` line ends, not compressed).
#[derive(Clone, Debug)]
pub enum Text {
    /// A file, and the handle that keeps it if it is an unlinked copy
    /// (with how far it is written).
    File {
        path: PathBuf,
        held: Option<Arc<Written>>,
    },
    /// Text held in memory.
    Memory(Arc<Vec<u8>>),
    /// Bytes `base..` of a text, already in memory (a small section's
    /// body, read with its header): read from there, not from the file
    /// again (a file of a hundred thousand small parts opened, sought and
    /// read the file once more for each).
    Window { base: u64, bytes: Arc<Vec<u8>> },
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

    /// A reader of the text from its start; a copy still being written is
    /// read as it grows (`TextReader::Growing`).
    pub fn open(&self) -> io::Result<TextReader> {
        Ok(match self {
            Text::File {
                path,
                held: Some(copy),
            } if !copy.is_whole() => TextReader::Growing {
                file: File::open(path)?,
                copy: Arc::clone(copy),
                at: 0,
            },
            Text::File { path, .. } => TextReader::File(File::open(path)?),
            Text::Memory(bytes) => TextReader::Memory(Cursor::new(Shared(bytes.clone()))),
            Text::Window { base, bytes } => {
                TextReader::Window(Cursor::new(Shared(bytes.clone())), *base)
            }
        })
    }

    /// A copy still being written, if the text is one.
    pub fn growing(&self) -> Option<&Written> {
        match self {
            Text::File {
                held: Some(copy), ..
            } if !copy.is_whole() => Some(copy),
            _ => None,
        }
    }

    /// The length of a copy still being written, guessed from what is
    /// written and read so far (`Written::len_or_guess`); of another text,
    /// `read` (it is not asked).
    pub fn len_or_guess(&self, read: u64) -> u64 {
        match self {
            Text::File {
                held: Some(copy), ..
            } => copy.len_or_guess(read),
            _ => read,
        }
    }

    /// What tells one version of the text from another (its length and
    /// modification time), `None` if it is not a regular file. Of a copy
    /// still being written: once it is whole (an error if it stops first).
    pub fn stamp(&self) -> io::Result<Option<Stamp>> {
        Ok(match self {
            Text::File { path, held } => {
                if let Some(copy) = held {
                    copy.wait_whole()?;
                }
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
            // A piece of a text, not a version of one.
            Text::Window { .. } => None,
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
    /// A copy still being written, and where in it the next read starts:
    /// a read waits for the bytes it asks for, or the copy's end.
    Growing {
        file: File,
        copy: Arc<Written>,
        at: u64,
    },
    Memory(Cursor<Shared>),
    /// A window's bytes, and the offset of the first in the text.
    Window(Cursor<Shared>, u64),
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
            TextReader::Growing { file, copy, at } => {
                if buf.is_empty() {
                    return Ok(0);
                }
                let Ahead::Bytes(written) = copy.wait_for(*at)? else {
                    return Ok(0);
                };
                let n = usize::try_from(written).map_or(buf.len(), |w| w.min(buf.len()));
                let n = file.read(&mut buf[..n])?;
                *at += n as u64;
                Ok(n)
            }
            TextReader::Memory(m) | TextReader::Window(m, _) => m.read(buf),
        }
    }
}

impl Seek for TextReader {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match self {
            TextReader::File(f) => f.seek(to),
            TextReader::Growing { file, copy, at } => {
                // Its end is where the copy ends.
                if let SeekFrom::End(_) = to {
                    copy.wait_whole()?;
                }
                *at = file.seek(to)?;
                Ok(*at)
            }
            TextReader::Memory(m) => m.seek(to),
            TextReader::Window(m, base) => {
                let to = match to {
                    SeekFrom::Start(at) => {
                        SeekFrom::Start(at.checked_sub(*base).ok_or_else(|| {
                            io::Error::new(io::ErrorKind::InvalidInput, "before the window")
                        })?)
                    }
                    other => other,
                };
                Ok(m.seek(to)? + *base)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window reads at the text's own offsets, and nothing before it.
    #[test]
    fn a_window_is_read_at_the_offsets_of_the_text() -> io::Result<()> {
        let text = Text::Window {
            base: 100,
            bytes: Arc::new(b"fn=a\n1 2\n".to_vec()),
        };
        let mut reader = text.open()?;
        assert_eq!(reader.seek(SeekFrom::Start(105))?, 105);
        let mut rest = String::new();
        reader.read_to_string(&mut rest)?;
        assert_eq!(rest, "1 2\n");
        assert_eq!(reader.seek(SeekFrom::Current(-4))?, 105);
        assert!(reader.seek(SeekFrom::Start(99)).is_err());
        assert_eq!(text.stamp()?, None);
        Ok(())
    }
}
