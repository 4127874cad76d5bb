//! Copying to the user's own clipboard from wherever cgtui runs: the OSC 52
//! sequence, which the terminal (xterm, kitty, iTerm2, WezTerm, foot,
//! Windows Terminal; tmux with `set-clipboard on`; mosh 1.4) turns into a
//! clipboard write on the user's machine, through SSH. Pure functions: the
//! terminal layer writes the sequence; `App` only asks for it.

/// The most text copied, in bytes; terminals drop longer sequences.
pub const MAX_COPY: usize = 100 * 1024;

/// `text` fit to be copied: control characters (C0, DEL, C1) and
/// bidirectional overrides dropped, at most `MAX_COPY` bytes (cut at a
/// character boundary).
pub fn clean(text: &str) -> String {
    clip(text).0
}

/// `clean(text)`, and the length in bytes of the whole text cleaned: more
/// than the copy's when it was cut.
pub fn clip(text: &str) -> (String, usize) {
    let mut out = String::with_capacity(text.len().min(MAX_COPY));
    let mut whole = 0;
    for c in text.chars() {
        let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if c.is_control() || bidi {
            continue;
        }
        whole += c.len_utf8();
        if whole <= MAX_COPY {
            out.push(c);
        }
    }
    (out, whole)
}

/// A size in bytes as the status line writes it: bytes, whole KiB, or
/// MiB to a tenth.
pub fn size_text(bytes: usize) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if bytes < 1024 {
        format!("{bytes} bytes")
    } else if b < KIB * KIB {
        format!("{:.0} KiB", b / KIB)
    } else {
        format!("{:.1} MiB", b / KIB / KIB)
    }
}

/// The OSC 52 sequence that puts `text` (cleaned) on the clipboard:
/// `ESC ] 52 ; c ; BASE64 BEL`.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(clean(text).as_bytes()))
}

/// Standard base64 (RFC 4648, with `=` padding).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_4648_vectors() {
        // RFC 4648, section 10.
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (text, want) in vectors {
            assert_eq!(base64(text.as_bytes()), want, "{text:?}");
        }
        // Every byte value, and UTF-8: from coreutils `base64`
        // (`printf '\x00\xff\xfe\x80?>' | base64`, `printf 'std::map<→>' | base64`).
        assert_eq!(base64(&[0x00, 0xff, 0xfe, 0x80, b'?', b'>']), "AP/+gD8+");
        assert_eq!(base64("std::map<→>".as_bytes()), "c3RkOjptYXA84oaSPg==");
    }

    #[test]
    fn osc52_sequences_carry_clean_text() {
        assert_eq!(osc52("main"), "\x1b]52;c;bWFpbg==\x07");
        // Control characters and bidi overrides are not copied: a name
        // cannot end the sequence early or write to the terminal.
        assert_eq!(clean("a\x1b]52;\x07b\u{9b}c\u{202e}d\n"), "a]52;bcd");
        assert_eq!(osc52("a\x07b"), osc52("ab"));
        let long = "é".repeat(MAX_COPY);
        let cut = clean(&long);
        assert_eq!(cut.len(), MAX_COPY);
        assert!(cut.chars().all(|c| c == 'é'));
        // The whole length counts what would be copied without the cut.
        assert_eq!(clip(&long), (cut, 2 * MAX_COPY));
        assert_eq!(clip("a\x1bb"), ("ab".to_string(), 2));
    }

    #[test]
    fn sizes_are_written_for_a_status_line() {
        assert_eq!(size_text(0), "0 bytes");
        assert_eq!(size_text(1023), "1023 bytes");
        assert_eq!(size_text(MAX_COPY), "100 KiB");
        assert_eq!(size_text(MAX_COPY - 3), "100 KiB");
        assert_eq!(size_text(1 << 20), "1.0 MiB");
        assert_eq!(size_text(5 << 19), "2.5 MiB");
    }
}
