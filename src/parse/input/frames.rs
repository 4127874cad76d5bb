//! Streams of one format one after another, as `cat a.xz b.xz`, `pzstd`
//! (skippable frames between zstd frames) and parallel compressors write
//! them: a `Codec` decodes each stream; between two, what follows must
//! start another stream of the format (or be the zero bytes xz allows
//! there, in fours), or it is data after the end. One loop for bzip2, xz
//! and zstd, so the framing and the errors are the same for all three.

use super::Compression;
use super::fault::{self, Fault};
use std::io::{self, BufRead, Read};

/// One format's decoder, stream by stream.
pub trait Codec {
    /// The format it decodes.
    const FORMAT: Compression;
    /// Whether zero bytes, a multiple of four, may stand between streams
    /// and after the last (xz's stream padding).
    const PADDING: bool = false;
    /// Gets ready for a stream (the first, or one after another).
    fn begin(&mut self) -> Result<(), Fault>;
    /// Decodes what it can of `input` into `output`; an empty `input` is
    /// the end of the bytes.
    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Result<Step, Fault>;
}

/// What one `Codec::step` did.
pub struct Step {
    /// Bytes of the input taken.
    pub read: usize,
    /// Bytes of the output written.
    pub written: usize,
    /// Whether the stream ended (and all of it was written).
    pub end: bool,
}

enum State {
    /// Between streams (or before the first), after this many zero bytes.
    Between {
        padding: usize,
    },
    Inside,
}

/// The text of streams of `C::FORMAT` read from `R` one after another.
pub struct Frames<R, C> {
    inner: R,
    codec: C,
    state: State,
}

impl<R: BufRead, C: Codec> Frames<R, C> {
    pub fn new(inner: R, codec: C) -> Self {
        Frames {
            inner,
            codec,
            state: State::Between { padding: 0 },
        }
    }
}

fn error<C: Codec>(fault: Fault) -> io::Error {
    fault::error(C::FORMAT, fault)
}

impl<R: BufRead, C: Codec> Read for Frames<R, C> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            let input = self.inner.fill_buf()?;
            if let State::Between { padding } = &mut self.state {
                let zeros = input.iter().take_while(|&&b| b == 0).count();
                if C::PADDING && zeros > 0 {
                    *padding += zeros;
                    self.inner.consume(zeros);
                    continue;
                }
                if *padding % 4 != 0 {
                    let how = format!("{padding} zero bytes after a stream, not a multiple of 4");
                    return Err(error::<C>(Fault::Corrupt(how)));
                }
                if input.is_empty() {
                    return Ok(0);
                }
                if !C::FORMAT.may_start(input) {
                    return Err(error::<C>(Fault::After));
                }
                self.codec.begin().map_err(error::<C>)?;
                self.state = State::Inside;
            }
            let end_of_bytes = input.is_empty();
            let step = self.codec.step(input, buf).map_err(error::<C>)?;
            self.inner.consume(step.read);
            if step.end {
                self.state = State::Between { padding: 0 };
            }
            if step.written > 0 {
                return Ok(step.written);
            }
            if step.end {
                continue;
            }
            if end_of_bytes {
                return Err(error::<C>(Fault::Cut));
            }
            if step.read == 0 {
                // A decoder that takes nothing and gives nothing would be
                // asked again forever.
                let how = "the decoder stopped in the middle".to_string();
                return Err(error::<C>(Fault::Corrupt(how)));
            }
        }
    }
}
