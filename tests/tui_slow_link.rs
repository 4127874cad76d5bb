//! Input from a slow link (mosh, SSH over a long path), in the real binary
//! in a pseudo-terminal: a mouse report whose tail arrives 150 ms after its
//! head, a long SGR report cut in two, a terminal's late colour answer
//! (OSC 11), a DCS string and an 8-bit CSI report change nothing on the
//! screen and never quit the browser. The 150 ms pauses are the link's
//! delay under test, not waits for a condition.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(unix)]

use crate::support::tui as support;

use std::time::Duration;
use support::{Pty, WaitStatus};

/// Sends `head`, then `tail` 150 ms later, as a slow link delivers them.
fn cut(pty: &mut Pty, head: &[u8], tail: &[u8]) {
    use std::io::Write;
    pty.session.write_all(head).unwrap();
    pty.session.flush().unwrap();
    pty.pump_for(Duration::from_millis(150));
    pty.session.write_all(tail).unwrap();
    pty.session.flush().unwrap();
}

/// The screen after every key sent so far is handled: help opened (keys
/// are read in order) and closed again.
fn screen_after_all(pty: &mut Pty) -> String {
    pty.send("?");
    pty.wait_for("Keys (Esc or q closes)");
    pty.send("q");
    pty.wait_gone("Keys (Esc or q closes)");
    pty.settle(Duration::from_millis(100));
    pty.contents()
}

#[test]
fn replies_and_reports_cut_by_a_slow_link_are_not_keys() {
    let mut pty = Pty::spawn("samples/recursion.callgrind");
    pty.wait_for("Callees of");
    let before = screen_after_all(&mut pty);
    // An X10 mouse report whose three bytes (` qq`: the button, then
    // column and row 81) come 150 ms after `ESC [ M`; before, they were
    // read as Space and `q`, which quit.
    cut(&mut pty, b"\x1b[M", b" qq");
    // A 78-byte SGR motion report cut in two (before: the tail past 64
    // bytes was read as keys, `M` turning the mouse off).
    let sgr = format!("\x1b[<35;{:0>64};{:0>6}M", 12, 7);
    assert_eq!(sgr.len(), 78);
    cut(&mut pty, &sgr.as_bytes()[..40], &sgr.as_bytes()[40..]);
    // A late OSC 11 colour answer, a DCS string (XTVERSION), an 8-bit
    // CSI X10 report and an APC, each cut in the middle.
    cut(&mut pty, b"\x1b]11;rgb:1e1e/", b"1e1e/2e2e\x1b\\");
    cut(&mut pty, b"\x1bP>|xterm(", b"390)\x1b\\");
    cut(&mut pty, b"\x9bM", b" qq");
    cut(&mut pty, b"\x1b_Gi=1;", b"OK\x1b\\");
    // The rest of a report cut right after its ESC: the ESC is Esc (no
    // reader can tell), the rest is dropped, not read as `q`.
    cut(&mut pty, b"\x1b", b"[M qq");
    let after = screen_after_all(&mut pty);
    assert_eq!(after, before);
    pty.send("q");
    let status = pty.finish();
    assert!(
        matches!(status, WaitStatus::Exited(_, 0)),
        "{status:?}, expected exit status 0"
    );
    pty.assert_restored();
}
