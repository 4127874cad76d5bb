//! Folded stacks of graphs made to explode a walk (`support/graphs.rs`): a
//! chain far deeper than the depth bound and 60 layers of 2^60 paths. The
//! runs end in seconds, within a stated memory, with the output bounded,
//! the cut marked and said on standard error, and the values adding up to
//! the total.

use super::graphs;
use super::run::*;
use std::path::Path;
use std::time::Duration;

/// `frames VALUE` lines: their count, the sum of their values, the most
/// frames on one, and the lines that end in the depth cut's frame.
fn folded_lines(text: &str) -> (usize, i128, usize, Vec<String>) {
    let (mut count, mut sum, mut deepest, mut cut) = (0, 0i128, 0, Vec::new());
    for line in text.lines() {
        let (stack, value) = line.rsplit_once(' ').unwrap();
        count += 1;
        sum += value.parse::<i128>().unwrap();
        deepest = deepest.max(stack.split(';').count());
        if stack.ends_with(";[deeper frames cut]") {
            cut.push(line.to_string());
        }
    }
    (count, sum, deepest, cut)
}

fn folded(args: &[&str], file: &Path) -> Measured {
    let mut all = vec!["report", "--folded"];
    all.extend(args);
    let run = measured(&all, file, Duration::from_secs(60), 4 * GIB_KIB);
    assert_eq!(run.code, Some(0), "{all:?}: {}", run.stderr);
    assert!(
        run.peak_kib < 512 * MIB,
        "{all:?}: peak {} KiB",
        run.peak_kib
    );
    run
}

/// A chain 100,000 deep: 1,000 frames at most, the functions below the cut
/// on the cut's line, one note on standard error. (Before the bound the
/// 30,000-deep chain aborted at 1.3 GiB: its stacks held 450 million
/// frames.)
#[test]
fn a_chain_deeper_than_the_bound_is_cut_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    let n = 100_000;
    let path = write(dir.path(), "chain", graphs::chain(n).as_bytes());
    for args in [&[][..], &["--min", "0"]] {
        let run = folded(args, &path);
        let (lines, sum, deepest, cut) = folded_lines(&run.stdout);
        assert_eq!(sum, n as i128, "{args:?}");
        assert_eq!(lines, 1_001, "{args:?}");
        assert_eq!(deepest, 1_001, "{args:?}");
        // fn0..fn999 on the cut's line; fn1000..fn99999 (self 1 each) below.
        assert_eq!(cut.len(), 1);
        assert!(cut[0].starts_with("fn0;fn1;fn2;"), "{}", &cut[0][..40]);
        assert!(cut[0].ends_with(";fn999;[deeper frames cut] 99000"));
        assert_eq!(
            run.stderr,
            "cgtui: note: folded stacks bounded: 1 path(s) cut at 1,000 frames (--max-depth)\n"
        );
    }
    let run = folded(&["--max-depth", "10"], &path);
    let (lines, sum, _, cut) = folded_lines(&run.stdout);
    assert_eq!((lines, sum), (11, n as i128));
    assert_eq!(
        cut,
        [format!("{};[deeper frames cut] 99990", chain_names(10))]
    );
}

fn chain_names(n: usize) -> String {
    (0..n)
        .map(|i| format!("fn{i}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// 60 layers, 2^60 paths (before: `--min 0` aborted at 1.4 GiB): at most
/// the paths asked for, the values adding up to the total exactly, and a
/// note that paths were left out.
#[test]
fn two_to_the_sixty_paths_stay_within_the_bound_on_paths() {
    let dir = tempfile::tempdir().unwrap();
    let layers = 60;
    let path = write(
        dir.path(),
        "layers",
        graphs::layered(layers, 1_000_000_000_000_000).as_bytes(),
    );
    let total = 1 + 4 * layers as i128 * 1_000_000_000_000_000;
    for (args, most) in [
        (&["--max-paths", "20000"][..], 20_000),
        (&["--min", "0", "--max-paths", "50000"][..], 50_000),
    ] {
        let run = folded(args, &path);
        let (lines, sum, deepest, cut) = folded_lines(&run.stdout);
        assert_eq!(sum, total, "{args:?}");
        assert!(lines <= most + 2, "{args:?}: {lines} lines");
        assert!(lines > most / 2, "{args:?}: {lines} lines");
        assert!(deepest <= 61, "{args:?}: {deepest}");
        assert!(cut.is_empty());
        assert!(
            run.stderr.starts_with(
                "cgtui: note: folded stacks bounded: the smallest paths left out past"
            ),
            "{}",
            run.stderr
        );
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}

/// The options' ranges are checked.
#[test]
fn the_bounds_options_refuse_what_they_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "chain", graphs::chain(10).as_bytes());
    for args in [
        &["report", "--folded", "--max-depth", "0"][..],
        &["report", "--folded", "--max-paths", "0"],
        &["report", "--folded", "--max-paths", "2000000"],
        &["report", "--max-depth", "5"],
    ] {
        let run = cgtui(args, &path, SMALL);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty());
    }
}
