//! The scanner's shortcuts for the lines nearly every profile is made of
//! (plain counters, `key=value`, `(id) name`, counts): each reads what the
//! parser of its line kind in `lines` reads, or declines, and the line is
//! then read by that parser (`agree`, run by the tests below and by the
//! `lines` fuzz target on any bytes).

/// Decimal digits at `*i + skip`, at most 18 of them (so no overflow: longer
/// numbers go to the general path, which saturates and warns).
#[inline(always)]
pub fn digits(line: &[u8], i: &mut usize, skip: usize) -> Option<u64> {
    let start = *i + skip;
    let mut v: u64 = 0;
    let mut j = start;
    while let Some(&b) = line.get(j) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        if j - start == 18 {
            return None;
        }
        v = v * 10 + u64::from(d);
        j += 1;
    }
    if j == start {
        return None;
    }
    *i = j;
    Some(v)
}

/// An absolute number: decimal, or `0x` (or `0X`) hex of at most 15 digits.
#[inline(always)]
pub fn absolute(line: &[u8], i: &mut usize) -> Option<u64> {
    let at = *i;
    if line.get(at) == Some(&b'0')
        && matches!(line.get(at + 1), Some(b'x' | b'X'))
        && at + 2 < line.len()
    {
        // One pass: the digits are read as they are found.
        let (mut v, mut len) = (0u64, 0);
        for &b in &line[at + 2..] {
            let d = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                _ => break,
            };
            if len == 15 {
                return None;
            }
            (v, len) = (v << 4 | u64::from(d), len + 1);
        }
        if len == 0 {
            return None;
        }
        *i += 2 + len;
        return Some(v);
    }
    digits(line, i, 0)
}

/// Counters as writers put them (decimal, separated by blanks) into `out`,
/// up to the end of `line` or a `\n`: (how many, bytes read), or `None` for
/// anything else (hex, signs, 19 digits or more, more than `out` holds):
/// `tokenize`'s rules, in one pass.
#[inline(always)]
pub fn plain_counters(line: &[u8], out: &mut [i64]) -> Option<(usize, usize)> {
    let (mut n, mut v, mut len) = (0, 0u64, 0);
    let mut push = |v: u64, len: usize, n: &mut usize| -> Option<()> {
        let slot = out.get_mut(*n).filter(|_| len <= 18)?;
        *slot = v as i64;
        *n += 1;
        Some(())
    };
    let mut end = line.len();
    for (i, &b) in line.iter().enumerate() {
        let d = b.wrapping_sub(b'0');
        if d <= 9 {
            v = v.wrapping_mul(10).wrapping_add(u64::from(d));
            len += 1;
        } else if b == b' ' || b == b'\t' {
            if len > 0 {
                push(v, len, &mut n)?;
                (v, len) = (0, 0);
            }
        } else if b == b'\n' {
            end = i;
            break;
        } else {
            return None;
        }
    }
    if len > 0 {
        push(v, len, &mut n)?;
    }
    Some((n, end))
}

/// After a field: at least one blank, or the end of the line.
#[inline(always)]
pub fn blanks(line: &[u8], i: &mut usize) -> bool {
    match line.get(*i) {
        // Writers put one space between fields: that case first.
        Some(b' ' | b'\t') => {
            *i += 1;
            skip_blanks(line, i);
            true
        }
        // A `\n` ends the line too, for readers that have not cut it off.
        Some(b'\n') | None => true,
        Some(_) => false,
    }
}

/// `key=value` as `lines::spec` reads it, for keys of up to 5 letters
/// (every key the format has); `None` leaves the line to `lines::spec`.
#[inline]
pub fn spec(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let eq = match line {
        [_, _, b'=', ..] => 2,
        [_, _, _, b'=', ..] => 3,
        [_, _, _, _, b'=', ..] => 4,
        [_, _, _, _, _, b'=', ..] => 5,
        _ => return None,
    };
    let key = &line[..eq];
    key.iter()
        .all(u8::is_ascii_lowercase)
        .then(|| (key, &line[eq + 1..]))
}

/// `(id) name`, `(id)` or `name` as `lines::compressed_name` reads them,
/// for decimal ids of up to 18 digits; `None` leaves it to that parser.
#[inline]
pub fn compressed_name(value: &[u8]) -> Option<(Option<u64>, &[u8])> {
    if value.first() != Some(&b'(') {
        return Some((None, value.trim_ascii()));
    }
    let mut i = 1;
    let id = digits(value, &mut i, 0)?;
    (value.get(i) == Some(&b')')).then(|| (Some(id), value[i + 1..].trim_ascii()))
}

/// Blanks, a number, blanks: the count of `calls=`/`jump=` as
/// `lines::count_then_target` reads it (`None`: left to it).
#[inline]
pub fn count(value: &[u8]) -> Option<(u64, &[u8])> {
    let mut i = 0;
    skip_blanks(value, &mut i);
    let n = absolute(value, &mut i)?;
    skip_blanks(value, &mut i);
    Some((n, &value[i..]))
}

/// The counts of `jcnd=TAKEN/EXECUTED` (`conditional`) or `jump=COUNT`, then
/// the rest, as `lines::jump_counts` reads them (`None`: left to it).
#[inline]
pub fn jump_counts(conditional: bool, value: &[u8]) -> Option<(u64, Option<u64>, &[u8])> {
    if !conditional {
        return count(value).map(|(n, rest)| (n, None, rest));
    }
    let mut i = 0;
    skip_blanks(value, &mut i);
    let taken = absolute(value, &mut i)?;
    if value.get(i) != Some(&b'/') {
        return None;
    }
    i += 1;
    let executed = absolute(value, &mut i)?;
    skip_blanks(value, &mut i);
    Some((taken, Some(executed), &value[i..]))
}

#[inline(always)]
pub fn skip_blanks(line: &[u8], i: &mut usize) {
    while matches!(line.get(*i), Some(b' ' | b'\t')) {
        *i += 1;
    }
}

/// Whether every shortcut reads `line` (as a line, and the value of a
/// `key=` line) as the parser of its kind in `lines` does, or declines it;
/// what differs, if not.
pub fn agree(line: &[u8]) -> Result<(), String> {
    use crate::parse::lines;
    let shown = || String::from_utf8_lossy(line).escape_debug().to_string();
    if let Some(got) = spec(line)
        && lines::spec(line).ok() != Some((&b""[..], got))
    {
        return Err(format!("spec of `{}`", shown()));
    }
    // As the scanner reads counters: after the positions and their blanks.
    let mut out = [0i64; 8];
    let counters = !matches!(line.first(), Some(b' ' | b'\t'));
    if let (true, Some((n, end))) = (counters, plain_counters(line, &mut out)) {
        let upto = memchr::memchr(b'\n', line).unwrap_or(line.len());
        let mut nom = Vec::new();
        let parsed = lines::counters(&line[..upto], 0, &mut nom);
        if (end, parsed, &out[..n]) != (upto, Ok(0), &nom[..]) {
            return Err(format!("counters of `{}`", shown()));
        }
    }
    let value = line
        .iter()
        .position(|&b| b == b'=')
        .map_or(line, |i| &line[i + 1..]);
    if let Some(got) = compressed_name(value) {
        let nom = lines::compressed_name(value).ok().map(|r| r.1);
        if nom.map(|(id, name)| (id.map(|n| n.value), name)) != Some(got) {
            return Err(format!("name in `{}`", shown()));
        }
    }
    if let Some((n, rest)) = count(value) {
        let nom = lines::count_then_target(value).ok();
        if nom.map(|(r, m)| (m.value, r, m.overflow)) != Some((n, rest, false)) {
            return Err(format!("count in `{}`", shown()));
        }
    }
    for conditional in [false, true] {
        if let Some((taken, executed, rest)) = jump_counts(conditional, value) {
            let nom = lines::jump_counts(conditional, value).ok();
            let nom = nom.map(|(r, (t, e))| (t.value, e.map(|e| e.value), r));
            if nom != Some((taken, executed, rest)) {
                return Err(format!("jump counts in `{}`", shown()));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_counters_read_what_the_cost_line_parser_reads() {
        for text in [
            "1 2 3",
            "17  0\t5 ",
            "",
            "0x1f 2",
            "-3",
            "1 2x",
            "1234567890123456789",
            "123456789012345678",
            "9 9 9 9 9",
        ] {
            let mut out = [0i64; 4];
            let mut costs = Vec::new();
            let parsed = crate::parse::lines::counters(text.as_bytes(), 0, &mut costs);
            match plain_counters(text.as_bytes(), &mut out) {
                Some((n, end)) => {
                    assert_eq!(end, text.len());
                    assert_eq!((parsed, &out[..n]), (Ok(0), &costs[..]), "{text:?}");
                }
                None => assert!(
                    costs.len() > 4 || text.contains(['x', '-']) || text.len() >= 19,
                    "{text:?} declined"
                ),
            }
        }
    }

    #[test]
    fn plain_counters_stop_at_a_newline() {
        let mut out = [0i64; 4];
        assert_eq!(plain_counters(b"5 6\n7 8\n", &mut out), Some((2, 3)));
        assert_eq!(out[..2], [5, 6]);
        assert_eq!(plain_counters(b"5 6\r\n", &mut out), None);
    }

    /// Every line of every sample, and the value after its `=`, is read by
    /// each shortcut as by the parser of its kind, or declined.
    #[test]
    fn every_line_of_the_samples_reads_alike() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/samples");
        let mut lines = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let Some(text) = path.is_file().then(|| std::fs::read(&path).unwrap()) else {
                continue;
            };
            for line in text.split(|&b| b == b'\n') {
                assert_eq!(agree(line), Ok(()));
                lines += 1;
            }
        }
        assert!(lines > 10_000, "{lines} lines");
    }

    /// Each shortcut reads what the nom parser reads, or declines.
    #[test]
    fn shortcuts_agree_with_the_line_parsers() {
        use crate::parse::lines;
        for line in [
            "fn=(1) main",
            "calls=3 +2",
            "jcnd=1/2 *",
            "x=",
            "positions=",
            "=5",
            "Fn=x",
        ] {
            if let Some(got) = spec(line.as_bytes()) {
                assert_eq!(Ok((&b""[..], got)), lines::spec(line.as_bytes()), "{line}");
            }
        }
        assert_eq!(spec(b"calls=3 +2"), Some((&b"calls"[..], &b"3 +2"[..])));
        // `0X` is hex as `0x` is (found by the `lines` fuzz target).
        assert_eq!(count(b"0X1f 2"), Some((31, &b"2"[..])));
        assert_eq!(agree(b"calls=0X7 1"), Ok(()));
        // Hex of up to 15 digits, either case; longer is the parser's.
        let most = b"0xFfFfFfFfFfFfFfF 1";
        assert_eq!(count(most), Some((0xFFF_FFFF_FFFF_FFFF, &b"1"[..])));
        assert_eq!(count(b"0x1234567890abcdef 1"), None);
        assert_eq!(count(b"0x 1"), None);
        for line in ["calls=0xFfFfFfFfFfFfFfF 1", "calls=0x1234567890abcdef 1"] {
            assert_eq!(agree(line.as_bytes()), Ok(()), "{line}");
        }
        for value in [
            "(12) a b ",
            "(12)",
            "(12)x",
            " (3) y",
            "(below main)",
            "(0x1f) h",
            "",
            "plain  ",
        ] {
            let nom = lines::compressed_name(value.as_bytes()).unwrap().1;
            let nom = (nom.0.map(|n| n.value), nom.1);
            match compressed_name(value.as_bytes()) {
                Some(got) => assert_eq!(got, nom, "{value:?}"),
                None => assert!(value.starts_with('('), "{value:?} declined"),
            }
        }
        for value in [
            " 5 +3 *",
            "17",
            "0x1f 2",
            "7\t9",
            "x",
            "99999999999999999999 1",
        ] {
            let nom = lines::count_then_target(value.as_bytes()).ok();
            match count(value.as_bytes()) {
                Some((n, rest)) => {
                    let (nom_rest, nom_n) = nom.unwrap();
                    assert_eq!((n, rest), (nom_n.value, nom_rest), "{value:?}");
                }
                None => assert!(nom.is_none_or(|(_, n)| n.overflow), "{value:?} declined"),
            }
        }
        for (conditional, value) in [
            (true, "3/7 +1 *"),
            (true, " 0x2/0x9"),
            (true, "7 3 x"),
            (false, "4 -2"),
        ] {
            let nom = lines::jump_counts(conditional, value.as_bytes()).ok();
            match jump_counts(conditional, value.as_bytes()) {
                Some((t, e, rest)) => {
                    let (nom_rest, (nom_t, nom_e)) = nom.unwrap();
                    assert_eq!(
                        (t, e, rest),
                        (nom_t.value, nom_e.map(|e| e.value), nom_rest),
                        "{value:?}"
                    );
                }
                None => assert_eq!(value, "7 3 x", "declined"),
            }
        }
    }
}
