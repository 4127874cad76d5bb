//! A stream parsed while it arrives (issue 37 point 7): the load reads a
//! pipe's text while the pipe is still open, and how the stream ends
//! still decides what the load gives, as when the load waited for it.

use crate::parse::{LoadError, LoadOptions, Plan, load_paths_with_progress};
use crate::profile::FnId;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Functions of the profiles: 3.5 MB of text.
const N: usize = 80_000;

/// Bytes of the text the load must report before the pipe is closed: past
/// its first 256 KiB, which are read before any is parsed, progress is
/// reported only while the chunks are read (three quarters of the stream
/// hold 2.6 MB of text).
const PARSED: u64 = 1 << 20;

/// A profile of `n` functions in one part, with `bad` lines that are no
/// profile line after function `bad_after`; gives the text and the
/// number of the bad line.
fn profile(n: usize, bad_after: usize) -> (Vec<u8>, usize) {
    let mut text = b"events: Ir Dr\n".to_vec();
    let mut lines = 1;
    let mut bad_line = 0;
    for i in 0..n {
        let f = format!(
            "fn=f{i}\n{} {i} 3\ncfn=f{}\ncalls=2 9\n4 5 6\n",
            i % 90 + 1,
            i + 1
        );
        text.extend_from_slice(f.as_bytes());
        lines += 5;
        if i == bad_after {
            text.extend_from_slice(b"this is no profile line\n");
            lines += 1;
            bad_line = lines;
        }
    }
    (text, bad_line)
}

fn gzip(text: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(text).unwrap();
    enc.finish().unwrap()
}

/// A named pipe in `dir`.
fn fifo(dir: &Path) -> PathBuf {
    let path = dir.join("pipe");
    let mode = rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR;
    rustix::fs::mknodat(rustix::fs::CWD, &path, rustix::fs::FileType::Fifo, mode, 0).unwrap();
    path
}

/// Loads the pipe at `path` while a thread writes `bytes[..cut]` into it,
/// then waits (30 s at most) until the load has read `wait_for` bytes of
/// the text before it writes the rest (if `cut` is all) and closes it.
/// Gives the load's outcome and whether the load read that much while the
/// pipe was still open.
fn load_while_writing(
    path: &Path,
    bytes: Vec<u8>,
    cut: usize,
    wait_for: u64,
) -> (Result<crate::profile::Profile, LoadError>, bool) {
    let read = Arc::new(AtomicU64::new(0));
    let writer = {
        let (path, read) = (path.to_path_buf(), Arc::clone(&read));
        std::thread::spawn(move || {
            let mut pipe = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            pipe.write_all(&bytes[..cut]).unwrap();
            let deadline = Instant::now() + Duration::from_secs(30);
            while read.load(Ordering::Relaxed) < wait_for && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            let seen = read.load(Ordering::Relaxed) >= wait_for;
            // The reader may have stopped reading: not an error here.
            let _ = pipe.write_all(&bytes[cut..]);
            seen
        })
    };
    let options = LoadOptions {
        siblings: false,
        plan: Plan::automatic(),
    };
    let loaded = load_paths_with_progress(&[path.to_path_buf()], options, &mut |n, _| {
        read.fetch_max(n, Ordering::Relaxed);
    });
    (loaded, writer.join().unwrap())
}

#[test]
fn a_compressed_stream_cut_while_it_is_parsed_is_refused_as_cut() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path());
    let (text, _) = profile(N, usize::MAX);
    let gz = gzip(&text);
    let cut = gz.len() * 3 / 4;
    let (loaded, parsed_while_open) = load_while_writing(&path, gz[..cut].to_vec(), cut, PARSED);
    assert!(parsed_while_open, "the load waited for the whole stream");
    let Err(LoadError::Io {
        path: shown,
        source,
    }) = loaded
    else {
        panic!(
            "a cut stream loaded: {:?}",
            loaded.map(|p| p.functions.len())
        )
    };
    assert_eq!(shown, path.display().to_string());
    assert_eq!(
        source.to_string(),
        "the gzip stream ends before its end (the file is cut?)"
    );
}

#[test]
fn a_stream_parsed_while_it_arrives_loads_as_the_whole_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path());
    let (text, bad_line) = profile(N, N * 2 / 3);
    let gz = gzip(&text);
    let cut = gz.len() * 3 / 4;
    let (loaded, parsed_while_open) = load_while_writing(&path, gz, cut, PARSED);
    assert!(parsed_while_open, "the load waited for the whole stream");
    let streamed = loaded.unwrap();
    let whole = crate::parse::load_reader("pipe", &text[..]).unwrap();
    assert_eq!(streamed.functions.len(), N + 1);
    assert_eq!(streamed.functions.len(), whole.functions.len());
    for f in (0..whole.functions.len()).map(FnId::from_index) {
        assert_eq!(streamed.fn_name(f), whole.fn_name(f));
        assert_eq!(streamed.parts[0].self_cost(f), whole.parts[0].self_cost(f));
    }
    let said = |p: &crate::profile::Profile| {
        (p.diagnostics.iter())
            .map(|d| (d.line, d.message.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(said(&streamed), said(&whole));
    assert_eq!(
        said(&streamed),
        [(
            bad_line,
            "not a profile line: `this is no profile line`".to_string()
        )]
    );
    // Its per-line costs and calls are read again from the copy, as a
    // file's are.
    let (again, whole) = (
        streamed.parts[0].decode(&streamed),
        whole.parts[0].decode(&whole),
    );
    assert_eq!(again.lines.len(), N);
    assert!(again.lines == whole.lines && again.line_costs == whole.line_costs);
    assert!(again.calls == whole.calls);
}

/// Positions relative to the block before make the chunks give up, and
/// the body is read again in one chunk, once the copy is whole.
#[test]
fn a_stream_whose_chunks_give_up_loads_in_one_chunk_as_the_whole_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path());
    let mut text = b"events: Ir\n".to_vec();
    for i in 0..N {
        text.extend_from_slice(format!("fn=f{i}\n+{} {i}\n", i % 7 + 1).as_bytes());
    }
    let gz = gzip(&text);
    let (loaded, _) = load_while_writing(&path, gz, 0, 0);
    let streamed = loaded.unwrap();
    let whole = crate::parse::load_reader("pipe", &text[..]).unwrap();
    assert_eq!(streamed.functions.len(), N);
    let (again, whole) = (
        streamed.parts[0].decode(&streamed),
        whole.parts[0].decode(&whole),
    );
    assert!(again.lines == whole.lines && again.line_costs == whole.line_costs);
    // The positions went on from block to block: the last is their sum.
    let last = (0..N).map(|i| (i % 7 + 1) as u64).sum::<u64>();
    assert_eq!(again.lines.last().map(|l| l.line), Some(last));
    assert!(
        streamed.diagnostics.is_empty(),
        "{:?}",
        streamed.diagnostics
    );
}
