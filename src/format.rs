//! Number formatting shared by the report and the TUI.

/// `1234567` -> `1,234,567` (negative numbers keep their sign).
pub fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
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

/// A percentage for a column: `12.34%`, or `-` when undefined.
pub fn percent_text(part: i64, total: i64) -> String {
    percent(part, total).map_or_else(|| "-".into(), |p| format!("{p:.2}%"))
}

/// Control characters (NUL in xdebug names, escapes) made visible, so a
/// name can never garble a terminal.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().any(char::is_control) {
        s.chars()
            .map(|c| if c.is_control() { '\u{fffd}' } else { c })
            .collect::<String>()
            .into()
    } else {
        s.into()
    }
}

/// A whole text for a terminal: every control character but the newline
/// made visible (a profile's names and header fields end up in it).
pub fn terminal_text(s: String) -> String {
    if s.chars().any(|c| c.is_control() && c != '\n') {
        s.chars()
            .map(|c| {
                if c.is_control() && c != '\n' {
                    '\u{fffd}'
                } else {
                    c
                }
            })
            .collect()
    } else {
        s
    }
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
    fn percentages() {
        assert_eq!(percent_text(1, 4), "25.00%");
        assert_eq!(percent_text(1, 0), "-");
    }

    #[test]
    fn terminal_text_keeps_newlines_only() {
        assert_eq!(
            terminal_text("a\x1b[2J\nb\x07\n".into()),
            "a\u{fffd}[2J\nb\u{fffd}\n"
        );
    }

    #[test]
    fn control_characters_are_replaced() {
        assert_eq!(printable("a\0b\x1b[2J"), "a\u{fffd}b\u{fffd}[2J");
        assert!(matches!(printable("plain"), std::borrow::Cow::Borrowed(_)));
    }
}
