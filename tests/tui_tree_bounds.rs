//! The trees and the flame graph on graphs made to explode a walk
//! (`support/graphs.rs`): a chain 100,000 deep opens in the call tree
//! (`t`), the caller tree (`b`) and the flame graph (`f`) within a bound
//! of time (about a minute each before: the recursion test walked the whole
//! path at every node), stops at the depth bound and shows the cut on
//! screen; 2^60 paths open as fast.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::graphs;
use crate::support::tui as support;

use cgtui::analysis::tree::{Cut, MAX_DEPTH, MAX_NODES};
use std::time::{Duration, Instant};
use support::*;

/// Generous for a debug build on a busy machine; the work is a few
/// thousand nodes.
const LIMIT: Duration = Duration::from_secs(10);

/// Presses `keys` and says how long they took.
fn timed(app: &mut cgtui::tui::App, keys: &str) -> Duration {
    let start = Instant::now();
    press(app, keys);
    let _ = render(app, 120, 40);
    start.elapsed()
}

/// The tree's marker of the depth bound, and its depth.
fn depth_cut(app: &cgtui::tui::App) -> Option<u32> {
    let t = &app.tree().unwrap().tree;
    (0..t.len())
        .map(|i| t.node(i))
        .find(|n| n.cut == Some(Cut::Depth))
        .map(|n| n.depth)
}

#[test]
fn a_chain_100000_deep_opens_at_once_and_shows_the_cut() {
    let n = 100_000;
    let mut app = text_app(&graphs::chain(n));
    // The call tree of fn0: the hottest path, to the marker, selected.
    let took = timed(&mut app, "/fn0<Enter>t");
    assert!(took < LIMIT, "t took {took:?}");
    assert_eq!(depth_cut(&app), Some(MAX_DEPTH + 1));
    let screen = text(&render(&mut app, 120, 40));
    assert!(
        screen.contains("[deeper calls cut: depth bound 1,000]"),
        "{screen}"
    );
    // fn999 keeps its measured value, 100,000 - 999.
    assert!(screen.contains("99,001"), "{screen}");
    assert!(app.tree().unwrap().tree.len() < 2 * MAX_DEPTH as usize);
    // The caller tree of the deepest function, up the chain.
    let took = timed(&mut app, &format!("<Esc>/fn{}<Enter>b", n - 1));
    assert!(took < LIMIT, "b took {took:?}");
    assert_eq!(depth_cut(&app), Some(MAX_DEPTH + 1));
    let screen = text(&render(&mut app, 120, 40));
    assert!(
        screen.contains("[deeper calls cut: depth bound 1,000]"),
        "{screen}"
    );
    // The flame graph of the whole program; q quits at once.
    let took = timed(&mut app, "<Esc>f");
    assert!(took < LIMIT, "f took {took:?}");
    assert!(depth_cut(&app).is_some());
    assert!(!app.quit);
    press(&mut app, "q");
    assert!(app.quit);
}

#[test]
fn two_to_the_sixty_paths_open_within_the_node_bound() {
    let mut app = text_app(&graphs::layered(60, 1_000_000_000_000_000));
    for keys in ["/main<Enter>t", "<Esc>/l59_1<Enter>b", "<Esc>f"] {
        let took = timed(&mut app, keys);
        assert!(took < LIMIT, "{keys} took {took:?}");
        assert!(app.tree().is_some(), "{keys}");
        // Expand-all on the root stops at its own limit.
        let took = timed(&mut app, "gg*");
        assert!(took < LIMIT, "{keys} * took {took:?}");
        assert!(app.tree().unwrap().tree.len() <= 2 * MAX_NODES);
    }
}
