//! Bytes in, read by the terminal key reader (`tui::input::Parser`) cut
//! into reads at places the input chooses: it must never panic; the keys
//! of any cut, with no time or less than `STALE` in all between the
//! reads, are the keys of one read; after any garbage ended by CAN (which
//! ends every unfinished sequence and is a key of its own), and after a
//! whole control string of any printable content, a known key sequence is
//! still read as its keys.
//!
//! The input: a byte `n` (up to 7 cuts), `n` cut places and `n` delays in
//! milliseconds, a byte choosing a string introducer, then the bytes.

use cgtui::tui::Key;
use cgtui::tui::input::{Parser, STALE};
use cgtui::tui::keymap::{Mouse, MouseKind};
use std::time::{Duration, Instant};

/// A key sequence with a CSI key, an SGR click, an SS3 key, a UTF-8
/// character and a lone Esc at its end, and its keys.
const KNOWN: &[u8] = b"j\x1b[A\x1b[<0;3;4Mq\x1bOF\xc3\xa9\x1b";

fn known_keys() -> Vec<Key> {
    vec![
        Key::Char('j'),
        Key::Up,
        Key::Mouse(Mouse {
            kind: MouseKind::Click,
            column: 2,
            row: 3,
        }),
        Key::Char('q'),
        Key::End,
        Key::Char('é'),
        Key::Esc,
    ]
}

/// String introducers, 7-bit and 8-bit, with a terminator each.
const STRINGS: [(&[u8], &[u8]); 8] = [
    (b"\x1b]", b"\x07"),
    (b"\x1b]", b"\x1b\\"),
    (b"\x1bP", b"\x1b\\"),
    (b"\x1bX", b"\x1b\\"),
    (b"\x1b^", b"\x9c"),
    (b"\x1b_", b"\x1b\\"),
    (b"\x9d", b"\x9c"),
    (b"\x90", b"\x1b\\"),
];

/// The keys of `bytes` read at once, then flushed (nothing more comes).
fn whole(bytes: &[u8]) -> Vec<Key> {
    let mut p = Parser::default();
    let mut out = Vec::new();
    p.feed(bytes, &mut out);
    p.flush(&mut out);
    out
}

/// The target: never panics on any `data` (see the module doc).
pub fn run(data: &[u8]) {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let n = usize::from(n % 8);
    if rest.len() < 2 * n + 1 {
        return;
    }
    let (cuts, rest) = rest.split_at(n);
    let (delays, rest) = rest.split_at(n);
    let (&which, bytes) = rest.split_first().unwrap_or((&0, &[]));

    // Cut where the input says, in order.
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|&c| usize::from(c) * bytes.len() / 256)
        .collect();
    at.sort_unstable();
    let want = whole(bytes);
    let mut pieces = Vec::new();
    let mut from = 0;
    for &to in &at {
        pieces.push(&bytes[from..to]);
        from = to;
    }
    pieces.push(&bytes[from..]);

    // No time between the reads.
    let mut p = Parser::default();
    let mut out = Vec::new();
    for piece in &pieces {
        p.feed(piece, &mut out);
    }
    p.flush(&mut out);
    assert_eq!(out, want, "cut at {at:?}");

    // Up to 7 x 255 ms between them, less than STALE in all.
    let t0 = Instant::now();
    let mut now = t0;
    let mut p = Parser::default();
    let mut out = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        p.feed_at(piece, now, &mut out);
        let ms = delays.get(i).copied().unwrap_or(0);
        now += Duration::from_millis(u64::from(ms));
    }
    assert!(now - t0 < STALE);
    p.flush(&mut out);
    assert_eq!(out, want, "cut at {at:?}, delays {delays:?}");

    // Garbage, CAN, the known keys.
    let mut input = bytes.to_vec();
    input.push(0x18);
    input.extend_from_slice(KNOWN);
    let out = whole(&input);
    let mut tail = vec![Key::Ctrl('x')];
    tail.extend(known_keys());
    assert!(out.ends_with(&tail), "{out:?}");

    // Garbage, CAN, a whole control string of printable content, the
    // known keys: the string adds no key.
    let (open, close) = STRINGS[usize::from(which) % STRINGS.len()];
    let mut input = bytes.to_vec();
    input.push(0x18);
    let before = whole(&input);
    input.extend_from_slice(open);
    input.extend(bytes.iter().filter(|b| (0x20..=0x7e).contains(*b)));
    input.extend_from_slice(close);
    input.extend_from_slice(KNOWN);
    let mut want = before;
    want.extend(known_keys());
    assert_eq!(whole(&input), want);
}
