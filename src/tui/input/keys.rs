//! Terminal bytes to `Key`s, for a terminal in raw mode (SGR mouse
//! reports may be on; no bracketed paste, no keyboard protocol): UTF-8
//! characters, control characters, and the CSI (`ESC [`) and SS3 (`ESC O`)
//! sequences of the keys cgtui knows. Everything else a terminal sends
//! that is not a key is read to its end and dropped, never read as
//! letters: other CSI and SS3 sequences, mouse reports cgtui does not use
//! (the legacy X10 `ESC [ M` and three bytes among them), the Linux
//! console's F1–F5 (`ESC [ [ A`..`E`), and the control strings of
//! terminal replies (OSC `ESC ]` ended by BEL or ST; DCS `ESC P`, SOS
//! `ESC X`, PM `ESC ^`, APC `ESC _` ended by ST, which is `ESC \`), as
//! well as their 8-bit forms (CSI 0x9b, SS3 0x8f, DCS 0x90, SOS 0x98,
//! ST 0x9c, OSC 0x9d, PM 0x9e, APC 0x9f: bytes that cannot start a UTF-8
//! character, so they are told from text).
//!
//! A state machine, one byte at a time, so the keys never depend on how
//! the bytes were cut into reads: over mosh or a slow SSH link a sequence
//! arrives in pieces, its tail any time later.
//!
//! Timing decides two things only, whether a lone `ESC` is Esc and when
//! an unfinished sequence is given up:
//! - `ESC` with nothing after it is Esc when nothing follows within the
//!   reader's wait (`input::ESC_WAIT`, 30 ms): `pending` says
//!   `Pending::Esc` and the reader calls `flush`. Esc followed by a key in
//!   the same read (or within that wait) is the two keys (Alt+key as
//!   well), except Alt-Backspace (`ESC DEL`), one key, and `ESC` followed
//!   by an introducer (`[`, `O`, `]`, `P`, `X`, `^`, `_`), which begins a
//!   sequence.
//! - Once a sequence has begun it waits for its end however long that
//!   takes (`Pending::Sequence`; the reader does not flush it). A byte that
//!   cannot continue it ends it: the sequence is dropped and the byte read
//!   on its own (so Ctrl-C and Esc still work after a stray introducer; an
//!   `ESC` inside a control string ends the string and begins an escape).
//! - A sequence still unfinished `STALE` (3 s) after it began is dropped
//!   when the next bytes arrive (`feed_at`), and they are read afresh. The
//!   same holds for a UTF-8 character cut between reads (U+FFFD then).
//! - Length: a CSI or SS3 sequence keeps at most `LONGEST` bytes; a longer
//!   one is read to its end and dropped whole. Control strings are never
//!   kept, only read to their end, so memory stays bounded.
//!
//! So `ESC [` followed by a long pause (no human types Esc then `[`
//! within 30 ms) waits for its final byte. What the rules cannot save: a
//! sequence cut right after its `ESC`, the rest more than 30 ms later.
//! The `ESC` has been given as Esc by then (no reader can tell it from Esc
//! typed alone); if the very next byte is an introducer (`[ O ] P X ^ _`,
//! none of them a key of cgtui's) and it comes within `STALE`, it is read
//! as the rest of that sequence, so the rest of a report or a reply is
//! still dropped (and an arrow key's rest is still the arrow).

use crate::tui::keymap::{Key, Mouse, MouseKind};
use std::time::{Duration, Instant};

/// How long an unfinished sequence waits for its end; after that it is
/// dropped when more bytes arrive.
pub const STALE: Duration = Duration::from_secs(3);

/// Longest CSI or SS3 sequence kept to be read (a 78-byte SGR mouse
/// report fits); a longer one is read to its end and dropped.
pub const LONGEST: usize = 256;

/// Reads terminal bytes into keys, keeping an unfinished key or sequence
/// between reads.
#[derive(Debug, Default)]
pub struct Parser {
    state: State,
    /// When the unfinished sequence began (`feed_at`'s clock).
    began: Option<Instant>,
    /// A sequence began during the current `feed`.
    fresh: bool,
    /// A lone Esc was just given by `flush` (with its time, if known):
    /// an introducer arriving next is the rest of its sequence.
    orphan: Option<Option<Instant>>,
}

/// What the parser waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Nothing: every byte read is a key or dropped.
    Nothing,
    /// A lone `ESC`: Esc, unless more follows at once (`flush` it after
    /// the reader's short wait).
    Esc,
    /// A sequence (or UTF-8 character) begun and not ended: it waits for
    /// its end however long, up to `STALE`.
    Sequence,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Ground,
    /// After `ESC`: Esc itself, or the start of a sequence.
    Escape,
    /// CSI (`ESC [`, 0x9b) or SS3 (`ESC O`, 0x8f): its parameter and
    /// intermediate bytes so far (at most `LONGEST`; `long` when more came).
    Seq {
        ss3: bool,
        params: Vec<u8>,
        long: bool,
    },
    /// Bytes of a fixed-length report still to skip: the X10 mouse
    /// report's three, the Linux console function key's one.
    Skip(u8),
    /// A control string (OSC, DCS, SOS, PM, APC), read to its end and
    /// dropped. `esc`: an `ESC` came (the first byte of ST, `ESC \`);
    /// `utf8`: continuation bytes of a character still due (0x9c among
    /// them is text, not ST).
    Str { esc: bool, utf8: u8 },
    /// The first bytes of a UTF-8 character.
    Utf8 { bytes: [u8; 4], have: u8, need: u8 },
}

const ESC: u8 = 0x1b;

/// What one byte did to the state.
enum Step {
    /// The byte is taken.
    Took,
    /// The byte ended what was pending without being part of it: read it
    /// again, from the new state.
    Again,
}

impl Parser {
    /// What the parser waits for.
    pub fn pending(&self) -> Pending {
        match self.state {
            State::Ground => Pending::Nothing,
            State::Escape => Pending::Esc,
            _ => Pending::Sequence,
        }
    }

    /// Reads `bytes`, appending the keys they finish to `out`, as if they
    /// arrived with the bytes before them (no time between).
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<Key>) {
        for &b in bytes {
            let was_ground = self.state == State::Ground;
            if self.orphan.take().is_some() && was_ground && b < 0x80 && introducer(b).is_some() {
                // The rest of the sequence whose `ESC` was given as Esc.
                self.state = State::Escape;
            }
            while let Step::Again = self.step(b, out) {}
            if was_ground && self.state != State::Ground {
                self.fresh = true;
            }
        }
    }

    /// `feed`, for bytes that arrived at `now`: a sequence unfinished
    /// since more than `STALE` before is dropped first, and a lone Esc
    /// given that long ago has no rest any more.
    pub fn feed_at(&mut self, bytes: &[u8], now: Instant, out: &mut Vec<Key>) {
        let old = |t: Instant| now.saturating_duration_since(t) > STALE;
        if self.began.is_some_and(old) {
            self.flush(out);
        }
        if let Some(Some(t)) = self.orphan
            && old(t)
        {
            self.orphan = None;
        }
        self.fresh = false;
        self.feed(bytes, out);
        self.began = match self.state {
            State::Ground => None,
            _ if self.fresh => Some(now),
            _ => self.began.or(Some(now)),
        };
    }

    /// Nothing more is coming for what is pending: a lone Esc is Esc (and
    /// an introducer next is taken as the rest of its sequence), a cut
    /// UTF-8 character is U+FFFD, an unfinished sequence is dropped.
    pub fn flush(&mut self, out: &mut Vec<Key>) {
        self.orphan = None;
        match std::mem::take(&mut self.state) {
            State::Escape => {
                out.push(Key::Esc);
                self.orphan = Some(self.began);
            }
            State::Utf8 { .. } => out.push(Key::Char(char::REPLACEMENT_CHARACTER)),
            _ => {}
        }
        self.began = None;
    }

    /// `flush` of a lone Esc whose rest would come at `now` at the latest.
    pub fn flush_at(&mut self, now: Instant, out: &mut Vec<Key>) {
        self.flush(out);
        if let Some(at) = self.orphan.as_mut() {
            *at = Some(now);
        }
    }

    fn step(&mut self, b: u8, out: &mut Vec<Key>) -> Step {
        let again = |parser: &mut Parser| {
            parser.state = State::Ground;
            Step::Again
        };
        match &mut self.state {
            State::Ground => return self.ground(b, out),
            State::Escape => {
                self.state = State::Ground;
                if let Some(next) = introducer(b).filter(|_| b < 0x80) {
                    self.state = next;
                } else if b == 0x7f || b == 0x08 {
                    // Alt-Backspace: one key (not Esc, which would leave
                    // the search, then Backspace, which would go back in
                    // history).
                    out.push(Key::AltBackspace);
                } else {
                    // Esc, then whatever follows on its own.
                    out.push(Key::Esc);
                    return Step::Again;
                }
            }
            State::Seq { ss3, params, long } => {
                let param = if *ss3 {
                    b.is_ascii_digit() || b == b';'
                } else {
                    (0x20..=0x3f).contains(&b)
                };
                if !*ss3 && params.is_empty() && !*long && (b == b'M' || b == b'[') {
                    // The X10 mouse report, the Linux console's F1-F5.
                    self.state = State::Skip(if b == b'M' { 3 } else { 1 });
                } else if param {
                    if params.len() < LONGEST {
                        params.push(b);
                    } else {
                        *long = true;
                    }
                } else if (0x40..=0x7e).contains(&b) {
                    let key = match (*long, *ss3) {
                        (true, _) => None,
                        (false, true) => final_key(b),
                        (false, false) => csi_key(params, b),
                    };
                    out.extend(key);
                    self.state = State::Ground;
                } else {
                    // Not a sequence after all: what came is dropped, the
                    // byte read on its own.
                    return again(self);
                }
            }
            State::Skip(left) => {
                if b < 0x20 {
                    return again(self);
                }
                *left -= 1;
                if *left == 0 {
                    self.state = State::Ground;
                }
            }
            State::Str { esc: true, .. } => {
                if b == b'\\' {
                    self.state = State::Ground;
                } else {
                    // An escape after all: the string ends, the `ESC`
                    // begins what follows.
                    self.state = State::Escape;
                    return Step::Again;
                }
            }
            State::Str { esc, utf8 } => {
                if *utf8 > 0 && b & 0xc0 == 0x80 {
                    *utf8 -= 1;
                    return Step::Took;
                }
                *utf8 = 0;
                match b {
                    0x07 | 0x9c => self.state = State::Ground,
                    ESC => *esc = true,
                    0x00..=0x1f | 0x7f => return again(self),
                    _ => *utf8 = utf8_len(b).saturating_sub(1),
                }
            }
            State::Utf8 { bytes, have, need } => {
                if b & 0xc0 != 0x80 {
                    out.push(Key::Char(char::REPLACEMENT_CHARACTER));
                    return again(self);
                }
                bytes[usize::from(*have)] = b;
                *have += 1;
                if have == need {
                    let c = std::str::from_utf8(&bytes[..usize::from(*need)])
                        .ok()
                        .and_then(|s| s.chars().next())
                        .unwrap_or(char::REPLACEMENT_CHARACTER);
                    out.push(Key::Char(c));
                    self.state = State::Ground;
                }
            }
        }
        Step::Took
    }

    /// A byte outside any sequence.
    fn ground(&mut self, b: u8, out: &mut Vec<Key>) -> Step {
        let key = match b {
            ESC => {
                self.state = State::Escape;
                return Step::Took;
            }
            b'\r' | b'\n' => Key::Enter,
            b'\t' => Key::Tab,
            0x7f | 0x08 => Key::Backspace,
            0x01..=0x1a => Key::Ctrl((b'a' + b - 1) as char),
            0x00..=0x1f => return Step::Took,
            0x20..=0x7e => Key::Char(char::from(b)),
            // 8-bit controls: a sequence's start, or dropped.
            0x80..=0x9f => {
                if let Some(next) = introducer(b) {
                    self.state = next;
                }
                return Step::Took;
            }
            _ => match utf8_len(b) {
                0 | 1 => Key::Char(char::REPLACEMENT_CHARACTER),
                need => {
                    self.state = State::Utf8 {
                        bytes: [b, 0, 0, 0],
                        have: 1,
                        need,
                    };
                    return Step::Took;
                }
            },
        };
        out.push(key);
        Step::Took
    }
}

/// The state a sequence introducer begins: the byte after `ESC`, or an
/// 8-bit control byte.
fn introducer(b: u8) -> Option<State> {
    let seq = |ss3| State::Seq {
        ss3,
        params: Vec::new(),
        long: false,
    };
    Some(match b {
        b'[' | 0x9b => seq(false),
        b'O' | 0x8f => seq(true),
        b']' | b'P' | b'X' | b'^' | b'_' | 0x9d | 0x90 | 0x98 | 0x9e | 0x9f => State::Str {
            esc: false,
            utf8: 0,
        },
        _ => return None,
    })
}

/// The length of the UTF-8 character `b` begins (1 for ASCII, 0 for a
/// byte that begins none).
fn utf8_len(b: u8) -> u8 {
    match b {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 0,
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

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
        // `ESC [` is a sequence begun, not Esc then `[`: with nothing
        // after it, nothing.
        assert_eq!(keys(&[b"/x\x1b["]), [Char('/'), Char('x')]);
        let mut p = Parser::default();
        let mut out = Vec::new();
        p.feed(b"j\x1b", &mut out);
        assert_eq!(out, [Char('j')]);
        assert_eq!(p.pending(), Pending::Esc);
        p.feed(b"[", &mut out);
        assert_eq!(p.pending(), Pending::Sequence);
        p.feed(b"A", &mut out);
        assert_eq!((out, p.pending()), (vec![Char('j'), Up], Pending::Nothing));
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

    /// Every way of cutting `bytes` in two and in three, and byte by
    /// byte, gives `want`.
    fn same_in_any_split(bytes: &[u8], want: &[Key]) {
        same_when_cut(bytes, want);
        for i in 0..=bytes.len() {
            for j in i..=bytes.len() {
                let parts = [&bytes[..i], &bytes[i..j], &bytes[j..]];
                assert_eq!(keys(&parts), want, "cut at {i} and {j}");
            }
        }
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(keys(&singles), want, "byte by byte");
    }

    /// Terminal replies and reports cgtui does not use: each read to its
    /// end and dropped, followed by `qj`.
    fn replies() -> Vec<Vec<u8>> {
        let sgr_78 = format!("\x1b[<35;{:0>64};{:0>6}M", 12, 7);
        assert_eq!(sgr_78.len(), 78);
        vec![
            // X10 mouse reports, bytes above 0x7f too, 7- and 8-bit CSI.
            b"\x1b[M qq".to_vec(),
            b"\x1b[M#\xff\xff".to_vec(),
            b"\x9bM qq".to_vec(),
            // A 78-byte SGR motion report.
            sgr_78.into_bytes(),
            // OSC 11 colour answers, ended by BEL, by ST, by 8-bit ST;
            // the 8-bit OSC.
            b"\x1b]11;rgb:1e1e/1e1e/2e2e\x07".to_vec(),
            b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\".to_vec(),
            b"\x1b]11;rgb:0000/0000/0000\x9c".to_vec(),
            b"\x9d10;rgb:0000/0000/0000\x07".to_vec(),
            // A title with UTF-8 in it, 0x9c inside a character (U+271C).
            "\x1b]l✜ é\x1b\\".as_bytes().to_vec(),
            // DCS (DECRQSS, XTVERSION, XTGETTCAP), 8-bit DCS; SOS, PM, APC.
            b"\x1bP1$r0;1m\x1b\\".to_vec(),
            b"\x1bP>|xterm(390)\x1b\\".to_vec(),
            b"\x1bP1+r544e=787465726d\x1b\\".to_vec(),
            b"\x90>|kitty(0.35)\x9c".to_vec(),
            b"\x1bXsos text\x1b\\".to_vec(),
            b"\x1b^pm text\x1b\\".to_vec(),
            b"\x1b_Gi=31;OK\x1b\\".to_vec(),
            // Device attributes, cursor position, focus, bracketed paste
            // markers, a stray 8-bit ST and other C1 bytes.
            b"\x1b[?62;22c\x1b[>1;7600;0c\x1b[12;40R\x1b[I\x1b[O\x1b[200~".to_vec(),
            b"\x9c\x85\x9b?1;2c".to_vec(),
        ]
    }

    #[test]
    fn replies_and_unused_reports_are_dropped_whole_in_any_split() {
        use Key::Char;
        for reply in replies() {
            let mut bytes = reply.clone();
            bytes.extend_from_slice(b"qj");
            same_in_any_split(&bytes, &[Char('q'), Char('j')]);
            // Alone and cut anywhere: nothing, even when nothing follows.
            same_in_any_split(&reply, &[]);
        }
    }

    #[test]
    fn a_long_sgr_report_is_still_a_click() {
        let at = |kind, column, row| Key::Mouse(Mouse { kind, column, row });
        let report = format!("\x1b[<0;{:0>64};{:0>7}M", 10, 5);
        assert_eq!(report.len(), 78);
        same_in_any_split(
            format!("{report}q").as_bytes(),
            &[at(MouseKind::Click, 9, 4), Key::Char('q')],
        );
    }

    #[test]
    fn a_sequence_longer_than_the_longest_kept_is_dropped_whole() {
        let mut bytes = b"\x1b[<0;".to_vec();
        bytes.resize(LONGEST * 4, b'1');
        bytes.extend_from_slice(b";5Mj\x1bO");
        bytes.resize(LONGEST * 8, b'2');
        bytes.extend_from_slice(b"Ak");
        assert_eq!(keys(&[&bytes]), [Key::Char('j'), Key::Char('k')]);
        let chunks: Vec<&[u8]> = bytes.chunks(7).collect();
        assert_eq!(keys(&chunks), [Key::Char('j'), Key::Char('k')]);
    }

    #[test]
    fn a_key_that_cannot_continue_a_sequence_ends_it_and_is_read() {
        use Key::*;
        // Ctrl-C, Enter and Backspace inside an unfinished CSI, X10 report
        // or control string (a stray introducer): the sequence dropped,
        // the key read.
        same_when_cut(b"\x1b[<0;12\x03", &[Ctrl('c')]);
        same_when_cut(b"\x1b[M \x03", &[Ctrl('c')]);
        same_when_cut(b"\x1b]11;rgb\x03j", &[Ctrl('c'), Char('j')]);
        same_when_cut(b"\x1bPxyz\rj", &[Enter, Char('j')]);
        same_when_cut(b"\x1b_abc\x7f", &[Backspace]);
        // Esc inside a control string ends it and begins an escape.
        same_when_cut(b"\x1bPabc\x1bj", &[Esc, Char('j')]);
        same_when_cut(b"\x1b]abc\x1b[A", &[Up]);
        // An `ESC` last in a string may be the start of ST: it waits
        // (and with nothing after it, nothing).
        assert_eq!(keys(&[b"\x1bXabc\x1b"]), []);
        // A cut UTF-8 character before a key: U+FFFD, then the key.
        same_when_cut(b"\xe2\x86j", &[Char('\u{fffd}'), Char('j')]);
    }

    #[test]
    fn a_sequence_waits_for_its_end_however_late_up_to_stale() {
        use Key::Char;
        let t0 = Instant::now();
        let late = |at: Duration, head: &[u8], tail: &[u8]| {
            let mut p = Parser::default();
            let mut out = Vec::new();
            p.feed_at(head, t0, &mut out);
            assert_eq!(p.pending(), Pending::Sequence);
            p.feed_at(tail, t0 + at, &mut out);
            out
        };
        // The X10 tail 150 ms later, and 2.9 s later: no keys but `j`.
        for at in [150, 2_900] {
            let at = Duration::from_millis(at);
            assert_eq!(late(at, b"\x1b[M", b" qqj"), [Char('j')]);
            assert_eq!(
                late(at, b"\x1b]11;rgb:00", b"00/0000/0000\x07j"),
                [Char('j')]
            );
            assert_eq!(
                late(at, b"\x1b]\xc3\xa9\xe2", b"\x9c\x9c\x07j"),
                [Char('j')]
            );
            assert_eq!(late(at, b"\xe2", b"\x86\x92"), [Char('→')]);
        }
        // More than STALE after its start: the sequence was given up, the
        // bytes are read afresh.
        let after = STALE + Duration::from_millis(1);
        assert_eq!(late(after, b"\x1b[<0;1", b"j"), [Char('j')]);
        assert_eq!(
            late(after, b"\xe2\x86", b"j"),
            [Char('\u{fffd}'), Char('j')]
        );
        // Counted from the start of each sequence: one ended, another
        // began in the same read.
        let mut p = Parser::default();
        let mut out = Vec::new();
        p.feed_at(b"\x1b[<0;1", t0, &mut out);
        p.feed_at(b";1M\x1b]11", t0 + STALE, &mut out);
        p.feed_at(
            b"\x07j",
            t0 + STALE * 2 - Duration::from_millis(1),
            &mut out,
        );
        assert_eq!(out.last(), Some(&Char('j')));
        assert_eq!(out.len(), 2, "{out:?}");
    }

    #[test]
    fn the_rest_of_a_sequence_after_its_esc_was_given_is_dropped() {
        use Key::*;
        let t0 = Instant::now();
        let split = |at: Duration, tail: &[u8]| {
            let mut p = Parser::default();
            let mut out = Vec::new();
            p.feed_at(b"\x1b", t0, &mut out);
            assert_eq!(p.pending(), Pending::Esc);
            // Nothing came within the reader's wait: Esc.
            p.flush_at(t0 + Duration::from_millis(30), &mut out);
            p.feed_at(tail, t0 + at, &mut out);
            out
        };
        let soon = Duration::from_millis(150);
        assert_eq!(split(soon, b"[M qqj"), [Esc, Char('j')]);
        assert_eq!(split(soon, b"]11;rgb:0/0/0\x07j"), [Esc, Char('j')]);
        // A key's rest is the key (its Esc came first).
        assert_eq!(split(soon, b"OAj"), [Esc, Up, Char('j')]);
        // Any other key after Esc is a key; an introducer long after is
        // typed.
        assert_eq!(split(soon, b"qj"), [Esc, Char('q'), Char('j')]);
        let later = STALE + Duration::from_secs(1);
        assert_eq!(split(later, b"[j"), [Esc, Char('['), Char('j')]);
        // Only the very next byte: `j[A` is `j`, `[`, `A`.
        assert_eq!(split(soon, b"j[A"), [Esc, Char('j'), Char('['), Char('A')]);
    }

    #[test]
    fn random_bytes_cut_anywhere_read_as_in_one_read() {
        // Bytes that begin, continue and end sequences, often.
        const ALPHABET: &[u8] =
            b"\x1b\x1b\x1b[[O]P_^X\\\x07\x9b\x9c\x9d\x90\x8f\x18\x03\r;;0159<M~mAj \xc3\xa9\xe2\x86\x92\xff\x7f";
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let t0 = Instant::now();
        for _ in 0..3_000 {
            let len = next(40);
            let bytes: Vec<u8> = (0..len).map(|_| ALPHABET[next(ALPHABET.len())]).collect();
            let want = keys(&[&bytes]);
            let mut cuts: Vec<usize> = (0..next(5)).map(|_| next(len + 1)).collect();
            cuts.sort_unstable();
            let mut p = Parser::default();
            let mut out = Vec::new();
            let mut from = 0;
            let mut now = t0;
            for &to in cuts.iter().chain([&len]) {
                p.feed_at(&bytes[from..to], now, &mut out);
                now += Duration::from_millis(next(700) as u64);
                from = to;
            }
            p.flush(&mut out);
            assert_eq!(out, want, "{bytes:x?} cut at {cuts:?}");
            // CAN ends whatever was unfinished; the keys after it are read.
            let mut more = bytes.clone();
            more.extend_from_slice(b"\x18j\x1b[B");
            let out = keys(&[&more]);
            assert!(
                out.ends_with(&[Key::Ctrl('x'), Key::Char('j'), Key::Down]),
                "{bytes:x?}: {out:?}"
            );
        }
    }
}
