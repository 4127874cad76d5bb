//! The one place where what a decoder says goes wrong becomes a message:
//! a stream cut short, corrupt, followed by other data, or asking for
//! more memory than is allowed, each with its format's name. A decoder's
//! own words ("failed to fill whole buffer", a `Debug` dump of its error
//! type) never reach the user.

use super::Compression;
use std::io;

/// What went wrong in a compressed stream.
#[derive(Debug)]
pub enum Fault {
    /// The bytes end inside a stream.
    Cut,
    /// The bytes are not what the format says; the decoder's word for how.
    Corrupt(String),
    /// After a whole stream, bytes that start no stream of its format.
    After,
    /// Decoding it needs more memory than is allowed: how much it asks for.
    Memory(&'static str),
}

/// The error, with its message, of `fault` in a stream of `format`.
pub fn error(format: Compression, fault: Fault) -> io::Error {
    let name = format.name();
    let (kind, message) = match fault {
        Fault::Cut => (
            io::ErrorKind::UnexpectedEof,
            format!("the {name} stream ends before its end (the file is cut?)"),
        ),
        Fault::Corrupt(how) => (
            io::ErrorKind::InvalidData,
            format!("the {name} stream is corrupt ({how})"),
        ),
        Fault::After => (
            io::ErrorKind::InvalidData,
            format!("data after the end of the {name} stream"),
        ),
        Fault::Memory(asked) => (
            io::ErrorKind::OutOfMemory,
            format!("the {name} stream needs {asked} to decode, more than is allowed"),
        ),
    };
    io::Error::new(kind, message)
}

/// `error` of what a decoding reader written in Rust (flate2's) said: its
/// end of file is a cut stream, its invalid input a corrupt one. An error
/// of the file under it (one from the system) stays as it is.
pub fn of_reader(format: Compression, e: io::Error) -> io::Error {
    if e.raw_os_error().is_some() {
        return e;
    }
    match e.kind() {
        io::ErrorKind::UnexpectedEof => error(format, Fault::Cut),
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData => {
            // flate2's "corrupt gzip stream does not have a matching
            // checksum" would say "corrupt" twice.
            let how = e.to_string();
            let how = how.strip_prefix("corrupt gzip stream ").unwrap_or(&how);
            error(format, Fault::Corrupt(how.to_string()))
        }
        _ => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_fault_is_one_line_naming_the_format() {
        let says = |format, fault| error(format, fault).to_string();
        assert_eq!(
            says(Compression::Zstd, Fault::Cut),
            "the zstd stream ends before its end (the file is cut?)"
        );
        assert_eq!(
            says(Compression::Xz, Fault::Corrupt("bad check".into())),
            "the xz stream is corrupt (bad check)"
        );
        assert_eq!(
            says(Compression::Bzip2, Fault::After),
            "data after the end of the bzip2 stream"
        );
        assert_eq!(
            says(Compression::Xz, Fault::Memory("over 128 MiB")),
            "the xz stream needs over 128 MiB to decode, more than is allowed"
        );
    }

    #[test]
    fn a_readers_errors_are_told_apart_and_the_systems_kept() {
        let eof = io::Error::new(io::ErrorKind::UnexpectedEof, "incomplete deflate stream");
        assert_eq!(
            of_reader(Compression::Gzip, eof).to_string(),
            "the gzip stream ends before its end (the file is cut?)"
        );
        let bad = io::Error::new(io::ErrorKind::InvalidInput, "corrupt deflate stream");
        assert_eq!(
            of_reader(Compression::Gzip, bad).to_string(),
            "the gzip stream is corrupt (corrupt deflate stream)"
        );
        let system = io::Error::from_raw_os_error(5);
        let kept = of_reader(Compression::Gzip, system);
        assert_eq!(kept.raw_os_error(), Some(5));
    }
}
