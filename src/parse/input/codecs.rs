//! The decoders of bzip2, xz and zstd as `Codec`s: libbz2's port to Rust,
//! and the reference C libraries liblzma and libzstd (`zstdcat` and
//! `xzcat`'s own, at their speed). Each says what went wrong as a `Fault`.

use super::Compression;
use super::fault::Fault;
use super::frames::{Codec, Step};
use std::io;

/// Memory an xz stream may ask for (its dictionary): `xz -9` needs 64 MiB.
const XZ_MEM_LIMIT: u64 = 128 << 20;

/// bzip2, one stream at a time.
pub struct Bzip2(bzip2::Decompress);

impl Bzip2 {
    pub fn new() -> Self {
        Bzip2(bzip2::Decompress::new(false))
    }
}

impl Codec for Bzip2 {
    const FORMAT: Compression = Compression::Bzip2;

    fn begin(&mut self) -> Result<(), Fault> {
        self.0 = bzip2::Decompress::new(false);
        Ok(())
    }

    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Result<Step, Fault> {
        let (read, written) = (self.0.total_in(), self.0.total_out());
        let status = self.0.decompress(input, output).map_err(|e| {
            Fault::Corrupt(match e {
                bzip2::Error::DataMagic => "no bzip2 header".into(),
                bzip2::Error::Data => "invalid data".into(),
                other => other.to_string(),
            })
        })?;
        Ok(Step {
            read: delta(self.0.total_in(), read),
            written: delta(self.0.total_out(), written),
            end: status == bzip2::Status::StreamEnd,
        })
    }
}

/// xz (liblzma), one stream at a time, with the padding between streams
/// that the format allows.
pub struct Xz(Option<liblzma::stream::Stream>);

impl Xz {
    pub fn new() -> Self {
        Xz(None)
    }
}

/// What liblzma's error means here.
fn xz_fault(e: liblzma::stream::Error) -> Fault {
    use liblzma::stream::Error;
    match e {
        Error::Data => Fault::Corrupt("compressed data is corrupt".into()),
        Error::Format => Fault::Corrupt("no xz header".into()),
        Error::Options => Fault::Corrupt("options this decoder does not know".into()),
        Error::MemLimit => Fault::Memory("a dictionary over 128 MiB"),
        Error::Mem => Fault::Memory("more memory than there is"),
        other => Fault::Corrupt(other.to_string()),
    }
}

impl Codec for Xz {
    const FORMAT: Compression = Compression::Xz;
    const PADDING: bool = true;

    fn begin(&mut self) -> Result<(), Fault> {
        let stream = liblzma::stream::Stream::new_stream_decoder(XZ_MEM_LIMIT, 0);
        self.0 = Some(stream.map_err(xz_fault)?);
        Ok(())
    }

    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Result<Step, Fault> {
        let Some(stream) = self.0.as_mut() else {
            return Err(Fault::Corrupt("no stream begun".into()));
        };
        let (read, written) = (stream.total_in(), stream.total_out());
        let action = liblzma::stream::Action::Run;
        let status = stream.process(input, output, action).map_err(xz_fault)?;
        Ok(Step {
            read: delta(stream.total_in(), read),
            written: delta(stream.total_out(), written),
            end: status == liblzma::stream::Status::StreamEnd,
        })
    }
}

/// zstd (libzstd), frame by frame; a skippable frame is one with no text.
/// Windows over 128 MiB (`zstd --long=28` and up) are refused, as
/// `zstd -d` refuses them without `--memory`.
pub struct Zstd(zstd::zstd_safe::DCtx<'static>);

impl Zstd {
    pub fn new() -> io::Result<Self> {
        let context = zstd::zstd_safe::DCtx::try_create();
        let context = context.ok_or_else(|| io::Error::from(io::ErrorKind::OutOfMemory))?;
        Ok(Zstd(context))
    }
}

/// What libzstd's error code means here.
fn zstd_fault(code: zstd::zstd_safe::ErrorCode) -> Fault {
    use zstd::zstd_safe::{get_error_name, is_error_kind, zstd_sys::ZSTD_ErrorCode};
    if is_error_kind(
        code,
        ZSTD_ErrorCode::ZSTD_error_frameParameter_windowTooLarge,
    ) {
        Fault::Memory("a window over 128 MiB")
    } else if is_error_kind(code, ZSTD_ErrorCode::ZSTD_error_memory_allocation) {
        Fault::Memory("more memory than there is")
    } else {
        Fault::Corrupt(get_error_name(code).to_lowercase())
    }
}

impl Codec for Zstd {
    const FORMAT: Compression = Compression::Zstd;

    fn begin(&mut self) -> Result<(), Fault> {
        let session = zstd::zstd_safe::ResetDirective::SessionOnly;
        self.0.reset(session).map_err(zstd_fault)?;
        Ok(())
    }

    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Result<Step, Fault> {
        let mut input = zstd::zstd_safe::InBuffer::around(input);
        let mut output = zstd::zstd_safe::OutBuffer::around(output);
        let hint = self.0.decompress_stream(&mut output, &mut input);
        let hint = hint.map_err(zstd_fault)?;
        Ok(Step {
            read: input.pos(),
            written: output.pos(),
            end: hint == 0,
        })
    }
}

fn delta(after: u64, before: u64) -> usize {
    usize::try_from(after.saturating_sub(before)).unwrap_or(usize::MAX)
}
