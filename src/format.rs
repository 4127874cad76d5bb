//! Number formatting shared by the report and the TUI.

/// `1234567` -> `1,234,567` (negative numbers keep their sign).
pub fn thousands(n: i64) -> String {
    wide_thousands(n.into())
}

/// `thousands` of a number of up to 128 bits: the change between two
/// costs, which needs 65.
pub fn wide_thousands(n: i128) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `part` as a percentage of `total`, or `None` when the total is zero.
pub fn percent(part: i64, total: i64) -> Option<f64> {
    (total != 0).then(|| part as f64 * 100.0 / total as f64)
}

/// A percentage for a column: `12.34%`, or `-` when undefined. What rounds
/// to zero prints as `0.00%`, never `-0.00%` (a zero cost of a negative
/// `cg_diff` total is `-0.0`).
pub fn percent_text(part: i64, total: i64) -> String {
    percent(part, total).map_or_else(
        || "-".into(),
        |p| {
            let p = if p.abs() < 0.005 { 0.0 } else { p };
            format!("{p:.2}%")
        },
    )
}

/// A change: `+1,234` for a gain, `-1,234` for a loss, `0`.
pub fn signed_thousands(v: i64) -> String {
    if v > 0 {
        format!("+{}", thousands(v))
    } else {
        thousands(v)
    }
}

/// `signed_thousands` of a number of up to 128 bits (a change).
pub fn wide_signed_thousands(v: i128) -> String {
    if v > 0 {
        format!("+{}", wide_thousands(v))
    } else {
        wide_thousands(v)
    }
}

/// `new - base`, exact: costs are 64-bit, so their difference always fits.
pub fn change(base: i64, new: i64) -> i128 {
    i128::from(new) - i128::from(base)
}

/// `signed_percent` of an exact change (`change`): the share is computed
/// from the exact value, never from one cut to 64 bits.
pub fn wide_signed_percent(v: i128, base: i64) -> String {
    if base == 0 {
        return "-".into();
    }
    let p = v as f64 * 100.0 / base as f64;
    let p = if p.abs() < 0.005 { 0.0 } else { p };
    // As `signed_percent`: a `+` for a gain, whatever the base's sign.
    if v > 0 && p >= 0.0 {
        format!("+{p:.2}%")
    } else {
        format!("{p:.2}%")
    }
}

/// What a change held at a 64-bit limit is written after
/// (`analysis::diff::clamped_change`): `>=` at the top, `<=` at the
/// bottom, as it may be beyond; nothing for every other value.
pub fn change_bound(v: i64) -> &'static str {
    match v {
        i64::MAX => ">=",
        i64::MIN => "<=",
        _ => "",
    }
}

/// A change in percent of `base`, signed (`+12.34%`); `-` where the base
/// is 0.
pub fn signed_percent(v: i64, base: i64) -> String {
    let text = percent_text(v, base);
    if v > 0 && text.starts_with(|c: char| c.is_ascii_digit()) {
        format!("+{text}")
    } else {
        text
    }
}

/// Whether `c` must never reach a terminal raw: C0 controls, DEL, C1
/// controls (an 8-bit CSI), and the bidirectional overrides and isolates
/// that make text read differently from what it is (`./run \u{202e}txt.exe`).
pub fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `c` written as an escape anyone can read: `\e`, `\t`, `\r`, `\n`,
/// `\x7f`, `\u{202e}`.
fn push_escaped(out: &mut String, c: char) {
    use std::fmt::Write;
    let _ = match c {
        '\x1b' => write!(out, "\\e"),
        '\t' => write!(out, "\\t"),
        '\r' => write!(out, "\\r"),
        '\n' => write!(out, "\\n"),
        c if (c as u32) < 0x80 => write!(out, "\\x{:02x}", c as u32),
        c => write!(out, "\\u{{{:x}}}", c as u32),
    };
}

/// The one display function for untrusted text on one line (names, paths,
/// header fields, messages): every character `is_unsafe` says could drive
/// or mislead a terminal is escaped, so a name can never garble a screen,
/// set a title or reverse the text around it.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    escaped_except(s, None)
}

/// A whole text for a terminal: as `printable`, but newlines (and tabs,
/// which only move the cursor right) are kept.
pub fn terminal_text(s: String) -> String {
    match escaped_except(&s, Some(&['\n', '\t'])) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(o) => o,
    }
}

fn escaped_except<'a>(s: &'a str, keep: Option<&[char]>) -> std::borrow::Cow<'a, str> {
    let bad = |c: char| is_unsafe(c) && !keep.is_some_and(|k| k.contains(&c));
    if !s.chars().any(bad) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if bad(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(-1234567), "-1,234,567");
        assert_eq!(thousands(i64::MIN), "-9,223,372,036,854,775,808");
    }

    #[test]
    fn changes_are_exact_past_64_bits() {
        let d = change(i64::MIN, i64::MAX);
        assert_eq!(d, (1i128 << 64) - 1);
        assert_eq!(wide_signed_thousands(d), "+18,446,744,073,709,551,615");
        assert_eq!(
            wide_signed_thousands(change(i64::MAX, i64::MIN)),
            "-18,446,744,073,709,551,615"
        );
        assert_eq!(wide_signed_thousands(0), "0");
        assert_eq!(wide_signed_percent(d, i64::MAX), "+200.00%");
        assert_eq!(wide_signed_percent(-5, 1_000), "-0.50%");
        assert_eq!(wide_signed_percent(-1, 1_000_000), "0.00%");
        for (v, base) in [(1, 1_000_000), (-5, -250), (5, -250), (-5, 250), (3, 7)] {
            assert_eq!(
                wide_signed_percent(v.into(), base),
                signed_percent(v, base),
                "{v} of {base}"
            );
        }
        assert_eq!(wide_signed_percent(7, 0), "-");
        assert_eq!(wide_signed_percent(d, 0), "-");
    }

    #[test]
    fn percentages() {
        assert_eq!(percent_text(1, 4), "25.00%");
        assert_eq!(percent_text(1, 0), "-");
        assert_eq!(percent_text(0, -250), "0.00%");
        assert_eq!(percent_text(-1, 1_000_000), "0.00%");
        assert_eq!(percent_text(-200, 250), "-80.00%");
        assert_eq!(percent_text(-50, -250), "20.00%");
    }

    #[test]
    fn terminal_text_keeps_newlines_and_tabs_only() {
        assert_eq!(
            terminal_text("a\x1b[2J\nb\x07\t\u{9b}\n".into()),
            "a\\e[2J\nb\\x07\t\\u{9b}\n"
        );
    }

    #[test]
    fn control_characters_are_replaced() {
        assert_eq!(printable("a\0b\x1b[2J\x7f"), "a\\x00b\\e[2J\\x7f");
        assert_eq!(
            printable("./run \u{202e}txt.exe\u{2066}"),
            "./run \\u{202e}txt.exe\\u{2066}"
        );
        assert_eq!(printable("tab\there\n"), "tab\\there\\n");
        assert!(matches!(printable("plain"), std::borrow::Cow::Borrowed(_)));
    }
}
