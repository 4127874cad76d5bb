//! The two-stage merge of `scan_in_order` on real chunks of a file.
use super::turns::Merged;
use super::*;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

/// A body of `n` functions, one chunk each: (the file, the bounds).
fn body(n: usize) -> (tempfile::NamedTempFile, Vec<u64>) {
    let mut text = String::new();
    let mut bounds = vec![0];
    for k in 0..n {
        text.push_str(&format!("fn=f{k}\n1 1\n"));
        bounds.push(text.len() as u64);
    }
    let file = tempfile::NamedTempFile::new().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(file.path(), text).unwrap_or_else(|e| panic!("{e}"));
    (file, bounds)
}

const SHAPE: Shape = Shape {
    npos: 1,
    width: 1,
    file_len: u64::MAX,
    continued: None,
};

/// Runs both stages over `n` chunks; stage `stop.0` gives up at chunk
/// `stop.1`. Gives the outcome and the chunks each stage saw, by where
/// they end (so a chunk seen out of order shows).
fn run(n: usize, threads: usize, stop: (usize, usize)) -> (Merged<()>, Vec<u64>, Vec<u64>) {
    let (file, bounds) = body(n);
    let (mut first, mut second) = (Vec::new(), Vec::new());
    let merged = scan_in_order(
        &crate::parse::text::Text::file(file.path()),
        &Cuts::fixed(bounds, u64::MAX),
        SHAPE,
        threads,
        &AtomicU64::new(0),
        &mut || {},
        (
            |c: Scanned| {
                let end = c.map_or(0, |c| c.map_or(0, |c| c.end));
                first.push(end);
                let give_up = stop == (0, first.len() - 1);
                Ok(if give_up { Err(Bail("first")) } else { Ok(end) })
            },
            |end: u64| {
                second.push(end);
                let give_up = stop == (1, second.len() - 1);
                Ok(if give_up { Err(Bail("second")) } else { Ok(()) })
            },
        ),
    );
    (merged, first, second)
}

#[test]
fn every_chunk_goes_through_both_stages_in_file_order() {
    for threads in [1, 2, 5] {
        let (merged, first, second) = run(12, threads, (9, 9));
        let ends = body(12).1[1..].to_vec();
        assert_eq!(merged, Ok(Ok(())));
        assert_eq!(first, ends, "{threads} threads");
        assert_eq!(second, ends, "{threads} threads");
    }
}

#[test]
fn the_merge_stops_where_either_stage_gives_up() {
    for threads in [1, 2, 5] {
        for at in [0, 4, 11] {
            let (merged, first, second) = run(12, threads, (0, at));
            assert_eq!(merged, Ok(Err(Bail("first"))), "{threads} threads, at {at}");
            assert_eq!(first.len(), at + 1, "nothing after the chunk that gave up");
            // Those before it may be left in the middle: the load is given up.
            assert!(second.len() <= at, "{threads} threads, at {at}: {second:?}");
            let (merged, first, second) = run(12, threads, (1, at));
            assert_eq!(
                merged,
                Ok(Err(Bail("second"))),
                "{threads} threads, at {at}"
            );
            assert!(
                first.len() <= at + threads.min(12 - at),
                "at most a chunk ahead a thread"
            );
            assert_eq!(second.len(), at + 1);
        }
    }
}

#[test]
fn a_chunk_is_in_the_first_stage_while_the_one_before_is_in_the_second() {
    let (file, bounds) = body(4);
    let firsts = AtomicUsize::new(0);
    let mut overlapped = false;
    let merged: Merged<()> = scan_in_order(
        &crate::parse::text::Text::file(file.path()),
        &Cuts::fixed(bounds, u64::MAX),
        SHAPE,
        2,
        &AtomicU64::new(0),
        &mut || {},
        (
            |_: Scanned| {
                firsts.fetch_add(1, Ordering::SeqCst);
                Ok(Ok(()))
            },
            |()| {
                // The first chunk's second stage waits for the second
                // chunk's first stage, which runs on the other thread.
                let start = Instant::now();
                while !overlapped && start.elapsed() < Duration::from_secs(10) {
                    overlapped = firsts.load(Ordering::SeqCst) >= 2;
                    std::thread::yield_now();
                }
                Ok(Ok(()))
            },
        ),
    );
    assert_eq!(merged, Ok(Ok(())));
    assert!(overlapped, "the stages did not overlap");
}
