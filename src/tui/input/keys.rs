//! Terminal bytes to `Key`s, for a terminal in raw mode (SGR mouse
//! reports may be on; no bracketed paste, no keyboard protocol): UTF-8
//! characters, control characters, and the CSI (`ESC [`) and SS3 (`ESC O`)
//! sequences of the keys cgtui knows; other sequences are read whole and
//! dropped (never read as letters). A sequence cut between two reads waits
//! for the rest; a lone Esc is one when nothing follows (`flush`). Esc
//! followed by a character (Alt+key, or Esc typed just before a key) is
//! the two keys, except Alt-Backspace (`ESC DEL`), which is one.

use crate::tui::keymap::{Key, Mouse, MouseKind};

/// The bytes of an unfinished key, kept between reads.
#[derive(Debug, Default)]
pub struct Parser {
    pending: Vec<u8>,
}

/// What the start of a byte string is.
enum Parsed {
    /// A key (or nothing known) taking this many bytes.
    Key(Option<Key>, usize),
    /// The bytes so far may begin a longer key: wait for more.
    Incomplete,
}

impl Parser {
    /// Whether bytes of an unfinished key are waiting.
    pub fn pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Reads `bytes`, appending the keys they finish to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<Key>) {
        self.pending.extend_from_slice(bytes);
        let mut at = 0;
        while at < self.pending.len() {
            match parse(&self.pending[at..]) {
                Parsed::Key(key, len) => {
                    out.extend(key);
                    at += len.max(1);
                }
                Parsed::Incomplete => break,
            }
        }
        self.pending.drain(..at.min(self.pending.len()));
    }

    /// Nothing more is coming: what is waiting is read as it is (a lone
    /// Esc is Esc; the rest of a cut sequence, keys of their own; a cut
    /// UTF-8 character, U+FFFD).
    pub fn flush(&mut self, out: &mut Vec<Key>) {
        while let Some((&first, tail)) = std::mem::take(&mut self.pending).split_first() {
            if first == ESC {
                out.push(Key::Esc);
                self.feed(tail, out);
            } else {
                out.push(Key::Char(char::REPLACEMENT_CHARACTER));
                let skip = tail.iter().take_while(|&&c| c & 0xc0 == 0x80).count();
                self.feed(&tail[skip..], out);
            }
        }
    }
}

const ESC: u8 = 0x1b;

fn parse(b: &[u8]) -> Parsed {
    let Some(&first) = b.first() else {
        return Parsed::Incomplete;
    };
    match first {
        ESC => escape(b),
        b'\r' | b'\n' => Parsed::Key(Some(Key::Enter), 1),
        b'\t' => Parsed::Key(Some(Key::Tab), 1),
        0x7f | 0x08 => Parsed::Key(Some(Key::Backspace), 1),
        0x01..=0x1a => Parsed::Key(Some(Key::Ctrl((b'a' + first - 1) as char)), 1),
        0x00..=0x1f => Parsed::Key(None, 1),
        _ => utf8(b),
    }
}

/// `ESC`, `ESC [ ...`, `ESC O x`, Alt-Backspace, or Esc then a key.
fn escape(b: &[u8]) -> Parsed {
    match b.get(1) {
        None => Parsed::Incomplete,
        Some(b'[') => csi(b),
        Some(b'O') => ss3(b),
        // Alt-Backspace: one key (not Esc, which would leave the search,
        // then Backspace, which would go back in history).
        Some(0x7f | 0x08) => Parsed::Key(Some(Key::AltBackspace), 2),
        // Esc, then whatever follows on its own.
        Some(_) => Parsed::Key(Some(Key::Esc), 1),
    }
}

/// Longest escape sequence waited for; a longer one is dropped.
const LONGEST: usize = 64;

/// `ESC O [params] final`: keypad keys; F1–F4 and others are dropped.
fn ss3(b: &[u8]) -> Parsed {
    let params = b
        .iter()
        .skip(2)
        .take_while(|c| c.is_ascii_digit() || **c == b';')
        .count();
    let end = 2 + params;
    match b.get(end) {
        None if end < LONGEST => Parsed::Incomplete,
        Some(&c @ 0x40..=0x7e) => Parsed::Key(final_key(c), end + 1),
        _ => Parsed::Key(None, end),
    }
}

/// `ESC [ params final` (ECMA-48: parameter bytes `0`..`?`, intermediate
/// bytes space..`/`, a final byte in `@`..`~`), read whole whatever it is:
/// an unknown sequence is dropped, never read as letters. Also the Linux
/// console's F1–F5 (`ESC [ [ A`..`E`) and the legacy mouse report
/// (`ESC [ M` and three bytes), both dropped.
fn csi(b: &[u8]) -> Parsed {
    let need = |n: usize| {
        if b.len() >= n {
            Parsed::Key(None, n)
        } else {
            Parsed::Incomplete
        }
    };
    match b.get(2) {
        Some(b'[') => return need(4),
        Some(b'M') => return need(6),
        _ => {}
    }
    let mut end = 2;
    loop {
        match b.get(end) {
            None if end < LONGEST => return Parsed::Incomplete,
            None => return Parsed::Key(None, end),
            Some(0x20..=0x3f) => end += 1,
            Some(&c @ 0x40..=0x7e) => return Parsed::Key(csi_key(&b[2..end], c), end + 1),
            // Not a sequence after all: drop what came; the byte is read
            // on its own.
            Some(_) => return Parsed::Key(None, end),
        }
    }
}

/// The key of a whole CSI sequence: its parameters and final byte.
fn csi_key(params: &[u8], last: u8) -> Option<Key> {
    if let Some(mouse) = params.strip_prefix(b"<") {
        return sgr_mouse(mouse, last);
    }
    if params.first().is_some_and(|c| b"=>?".contains(c)) {
        return None;
    }
    let n: Vec<u32> = params
        .split(|&c| c == b';')
        .map(|p| {
            std::str::from_utf8(p)
                .ok()
                .and_then(|p| p.parse().ok())
                .unwrap_or(0)
        })
        .collect();
    let at = |i: usize| n.get(i).copied().unwrap_or(0);
    match last {
        b'~' => match at(0) {
            1 | 7 => Some(Key::Home),
            4 | 8 => Some(Key::End),
            3 => Some(Key::Delete),
            5 => Some(Key::PageUp),
            6 => Some(Key::PageDown),
            // xterm's modifyOtherKeys: `27 ; modifiers ; code ~`.
            27 => backspace(at(2), at(1)),
            _ => None,
        },
        // CSI u (kitty, foot, WezTerm): `code ; modifiers u`.
        b'u' => backspace(at(0), at(1)),
        c => final_key(c),
    }
}

/// Backspace with modifiers (1 + Shift 1, Alt 2, Ctrl 4), as CSI u and
/// modifyOtherKeys write it; other keys in those forms are dropped.
fn backspace(code: u32, modifiers: u32) -> Option<Key> {
    if code != 0x7f && code != 0x08 {
        return None;
    }
    let m = modifiers.saturating_sub(1);
    Some(if m & 4 != 0 {
        Key::CtrlBackspace
    } else if m & 2 != 0 {
        Key::AltBackspace
    } else {
        Key::Backspace
    })
}

/// An SGR mouse report (`ESC [ < button ; column ; row M`, `m` on
/// release): left presses and the wheel; releases, motion and other
/// buttons are dropped. Shift, Alt and Ctrl are ignored.
fn sgr_mouse(params: &[u8], last: u8) -> Option<Key> {
    let mut n = params
        .split(|&c| c == b';')
        .map(|p| std::str::from_utf8(p).ok()?.parse::<u32>().ok());
    let (Some(Some(button)), Some(Some(x)), Some(Some(y)), None) =
        (n.next(), n.next(), n.next(), n.next())
    else {
        return None;
    };
    if last != b'M' || button & (32 | 128) != 0 {
        return None;
    }
    let kind = match (button & 64 != 0, button & 3) {
        (false, 0) => MouseKind::Click,
        (true, 0) => MouseKind::WheelUp,
        (true, 1) => MouseKind::WheelDown,
        _ => return None,
    };
    let cell = |v: u32| u16::try_from(v.saturating_sub(1)).ok();
    Some(Key::Mouse(Mouse {
        kind,
        column: cell(x)?,
        row: cell(y)?,
    }))
}

/// The key of a CSI or SS3 final byte.
fn final_key(c: u8) -> Option<Key> {
    Some(match c {
        b'A' => Key::Up,
        b'B' => Key::Down,
        b'C' => Key::Right,
        b'D' => Key::Left,
        b'H' => Key::Home,
        b'F' => Key::End,
        b'Z' => Key::BackTab,
        _ => return None,
    })
}

/// One UTF-8 character; an invalid byte is U+FFFD.
fn utf8(b: &[u8]) -> Parsed {
    let len = match b.first() {
        Some(0xc0..=0xdf) => 2,
        Some(0xe0..=0xef) => 3,
        Some(0xf0..=0xf7) => 4,
        _ => 1,
    };
    let Some(bytes) = b.get(..len) else {
        return if b.iter().skip(1).all(|&c| c & 0xc0 == 0x80) {
            Parsed::Incomplete
        } else {
            Parsed::Key(Some(Key::Char(char::REPLACEMENT_CHARACTER)), 1)
        };
    };
    match std::str::from_utf8(bytes)
        .ok()
        .and_then(|s| s.chars().next())
    {
        Some(c) => Parsed::Key(Some(Key::Char(c)), len),
        None => Parsed::Key(Some(Key::Char(char::REPLACEMENT_CHARACTER)), 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(chunks: &[&[u8]]) -> Vec<Key> {
        let mut p = Parser::default();
        let mut out = Vec::new();
        for c in chunks {
            p.feed(c, &mut out);
        }
        p.flush(&mut out);
        out
    }

    #[test]
    fn plain_and_control_keys() {
        use Key::*;
        assert_eq!(
            keys(&[b"jK/\r\n\t\x7f\x08\x03 %"]),
            [
                Char('j'),
                Char('K'),
                Char('/'),
                Enter,
                Enter,
                Tab,
                Backspace,
                Backspace,
                Ctrl('c'),
                Char(' '),
                Char('%')
            ]
        );
        assert_eq!(keys(&["é→ü".as_bytes()]), [Char('é'), Char('→'), Char('ü')]);
    }

    #[test]
    fn escape_sequences_even_when_cut_between_reads() {
        use Key::*;
        let all = b"\x1b[A\x1b[B\x1b[C\x1b[D\x1b[H\x1b[F\x1bOH\x1bOF\x1b[1~\x1b[4~\x1b[5~\x1b[6~\x1b[Z\x1b[1;5A\x1b[3~";
        let want = [
            Up, Down, Right, Left, Home, End, Home, End, Home, End, PageUp, PageDown, BackTab, Up,
            Delete,
        ];
        assert_eq!(keys(&[all]), want);
        for cut in 0..all.len() {
            let (a, b) = all.split_at(cut);
            assert_eq!(keys(&[a, b]), want, "cut at {cut}");
        }
        let word = "aé→".as_bytes();
        for cut in 0..word.len() {
            let (a, b) = word.split_at(cut);
            assert_eq!(keys(&[a, b]), [Char('a'), Char('é'), Char('→')]);
        }
    }

    #[test]
    fn esc_alone_and_esc_before_a_key() {
        use Key::*;
        assert_eq!(keys(&[b"\x1b"]), [Esc]);
        assert_eq!(keys(&[b"\x1bS"]), [Esc, Char('S')]);
        assert_eq!(keys(&[b"\x1b\x1b"]), [Esc, Esc]);
        assert_eq!(keys(&[b"\x1b[", b"5~q"]), [PageUp, Char('q')]);
        // Nothing came after `ESC [`: Esc and `[`.
        assert_eq!(keys(&[b"/x\x1b["]), [Char('/'), Char('x'), Esc, Char('[')]);
        let mut p = Parser::default();
        let mut out = Vec::new();
        p.feed(b"j\x1b", &mut out);
        assert_eq!(out, [Char('j')]);
        assert!(p.pending());
    }

    #[test]
    fn garbage_never_panics_and_always_ends() {
        let mut seed = 7u64;
        let bytes: Vec<u8> = (0..20_000)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                (seed >> 56) as u8
            })
            .collect();
        for size in [1, 3, 64, 4096] {
            let chunks: Vec<&[u8]> = bytes.chunks(size).collect();
            keys(&chunks);
        }
        assert_eq!(
            keys(&[&[0xff, b'a']]),
            [Key::Char('\u{fffd}'), Key::Char('a')]
        );
        assert_eq!(keys(&[&[0xe2, 0x86]]), [Key::Char('\u{fffd}')]);
    }

    /// Every way of cutting `bytes` in two gives the same keys.
    fn same_when_cut(bytes: &[u8], want: &[Key]) {
        assert_eq!(keys(&[bytes]), want, "whole");
        for cut in 0..bytes.len() {
            let (a, b) = bytes.split_at(cut);
            assert_eq!(keys(&[a, b]), want, "cut at {cut}");
        }
    }

    #[test]
    fn linux_console_and_unknown_function_keys_are_dropped_whole() {
        use Key::*;
        // Linux console F1-F5: before, F5 (`ESC [ [ E`) read as `E`.
        same_when_cut(
            b"a\x1b[[A\x1b[[B\x1b[[C\x1b[[D\x1b[[Eb",
            &[Char('a'), Char('b')],
        );
        // xterm F1-F4 (SS3), F5-F12 with and without modifiers, keypad
        // and private sequences: nothing.
        same_when_cut(
            b"\x1bOP\x1bOS\x1b[15~\x1b[24~\x1b[1;2P\x1b[1;5R\x1bO2Q\x1b[?1;2c\x1b[200~x",
            &[Char('x')],
        );
        // A sequence broken by a control byte: the sequence dropped, the
        // byte read on its own.
        assert_eq!(keys(&[b"\x1b[12\x03"]), [Ctrl('c')]);
    }

    #[test]
    fn alt_and_ctrl_backspace_are_one_key_each() {
        use Key::*;
        same_when_cut(
            b"\x1b\x7f\x1b\x08\x08\x7f",
            &[AltBackspace, AltBackspace, Backspace, Backspace],
        );
        // CSI u (kitty, foot) and xterm's modifyOtherKeys.
        same_when_cut(
            b"\x1b[127;5u\x1b[8;5u\x1b[27;5;127~\x1b[127;3u\x1b[27;3;127~\x1b[127u\x1b[97;5u",
            &[
                CtrlBackspace,
                CtrlBackspace,
                CtrlBackspace,
                AltBackspace,
                AltBackspace,
                Backspace,
            ],
        );
        same_when_cut(b"\x1b[3~", &[Delete]);
    }

    #[test]
    fn sgr_mouse_reports() {
        use Key::Char;
        let at = |kind, column, row| Key::Mouse(Mouse { kind, column, row });
        // Press at column 10, row 5 (1-based); its release is dropped.
        same_when_cut(b"\x1b[<0;10;5M\x1b[<0;10;5m", &[at(MouseKind::Click, 9, 4)]);
        same_when_cut(
            b"\x1b[<64;3;4M\x1b[<65;200;60M\x1b[<68;1;1M",
            &[
                at(MouseKind::WheelUp, 2, 3),
                at(MouseKind::WheelDown, 199, 59),
                // Shift held: still the wheel.
                at(MouseKind::WheelUp, 0, 0),
            ],
        );
        // Right and middle buttons, motion, drags, wheel left/right,
        // malformed reports: nothing, and nothing read as letters.
        same_when_cut(
            b"\x1b[<2;5;5M\x1b[<1;5;5M\x1b[<35;5;5M\x1b[<32;5;5M\x1b[<66;5;5M\x1b[<0;5M\x1b[<0;5;5;5M\x1b[<0;99999;5Mq",
            &[Char('q')],
        );
        // The legacy 3-byte report, with bytes above 0x7f too.
        same_when_cut(b"\x1b[M !!\x1b[M#\xff\xffk", &[Char('k')]);
    }
}
