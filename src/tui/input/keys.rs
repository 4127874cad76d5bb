//! Terminal bytes to `Key`s, for a terminal in raw mode with nothing else
//! switched on (no mouse, no bracketed paste, no keyboard protocol): UTF-8
//! characters, control characters, and the CSI (`ESC [`) and SS3 (`ESC O`)
//! sequences of the keys cgtui knows; other sequences are read and
//! dropped. A sequence cut between two reads waits for the rest; a lone
//! Esc is one when nothing follows (`flush`). Esc followed by a character
//! (Alt+key, or Esc typed just before a key) is the two keys.

use crate::tui::Key;

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

/// `ESC`, `ESC [ ...`, `ESC O x`, or Esc then a key.
fn escape(b: &[u8]) -> Parsed {
    match b.get(1) {
        None => Parsed::Incomplete,
        Some(b'[') => csi(b),
        Some(b'O') => match b.get(2) {
            None => Parsed::Incomplete,
            Some(&c) => Parsed::Key(final_key(c), 3),
        },
        // Esc, then whatever follows on its own.
        Some(_) => Parsed::Key(Some(Key::Esc), 1),
    }
}

/// `ESC [ params final`: parameters are digits and `;`, the final byte is
/// in `@`..`~`.
fn csi(b: &[u8]) -> Parsed {
    let Some(end) = b.iter().skip(2).position(|&c| (0x40..=0x7e).contains(&c)) else {
        // Too long to be a key we know: drop what there is.
        return if b.len() > 32 {
            Parsed::Key(None, b.len())
        } else {
            Parsed::Incomplete
        };
    };
    let end = end + 2;
    let params = &b[2..end];
    let first: u32 = params
        .split(|&c| c == b';')
        .next()
        .and_then(|p| std::str::from_utf8(p).ok()?.parse().ok())
        .unwrap_or(0);
    let key = match b[end] {
        b'~' => match first {
            1 | 7 => Some(Key::Home),
            4 | 8 => Some(Key::End),
            5 => Some(Key::PageUp),
            6 => Some(Key::PageDown),
            _ => None,
        },
        c => final_key(c),
    };
    Parsed::Key(key, end + 1)
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
}
