//! nom parsers for the pieces of one line, on bytes. Each returns what the
//! line says; the state machine in `loader` decides what it means.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_while1},
    character::complete::{char, space0, space1},
    combinator::{map, opt, rest},
    sequence::{delimited, preceded},
};

/// A number as written, with overflow remembered rather than wrapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Num {
    pub value: u64,
    /// True if the written number did not fit in 64 bits (value saturated).
    pub overflow: bool,
}

/// One subposition column of a cost line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubPos {
    Abs(u64),
    /// `+N` / `-N`: relative to the column's last value.
    Rel {
        negative: bool,
        delta: u64,
    },
    /// `*`: the column's last value.
    Same,
}

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn is_digit(b: u8) -> bool {
    b.is_ascii_digit()
}

fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

fn fold_digits(digits: &[u8], radix: u64) -> Num {
    let mut value: u64 = 0;
    let mut overflow = false;
    for &d in digits {
        let v = u64::from(match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            _ => d - b'A' + 10,
        });
        match value.checked_mul(radix).and_then(|x| x.checked_add(v)) {
            Some(x) => value = x,
            None => {
                value = u64::MAX;
                overflow = true;
            }
        }
    }
    Num { value, overflow }
}

/// `123` or `0x7b`.
pub fn number(i: &[u8]) -> IResult<&[u8], Num> {
    alt((
        map(
            preceded(alt((tag("0x"), tag("0X"))), take_while1(is_hex)),
            |d| fold_digits(d, 16),
        ),
        map(take_while1(is_digit), |d| fold_digits(d, 10)),
    ))
    .parse(i)
}

/// A subposition: `*`, `+N`, `-N` or an absolute number.
pub fn subpos(i: &[u8]) -> IResult<&[u8], SubPos> {
    alt((
        map(char('*'), |_| SubPos::Same),
        map(preceded(char('+'), number), |n| SubPos::Rel {
            negative: false,
            delta: n.value,
        }),
        map(preceded(char('-'), number), |n| SubPos::Rel {
            negative: true,
            delta: n.value,
        }),
        map(number, |n| SubPos::Abs(n.value)),
    ))
    .parse(i)
}

/// The parts of a cost line: subpositions, then counters, separated by blanks.
/// Fills `pos` and `costs` (cleared first); `pos` gets at most `npos` entries.
/// Returns the number of counters that overflowed 64 bits, or the rest of the
/// line where it stopped making sense.
///
/// This is the loader's hot path (nearly every line of a profile), so it is
/// a hand-written scanner over the bytes rather than nom combinators; it
/// accepts exactly what `subpos` and `cost` accept.
pub fn cost_line<'a>(
    line: &'a [u8],
    npos: usize,
    pos: &mut [SubPos; 3],
    costs: &mut Vec<i64>,
) -> Result<usize, &'a [u8]> {
    costs.clear();
    let mut i = 0;
    for slot in pos.iter_mut().take(npos) {
        let start = i;
        let (p, end) = match line.get(i) {
            Some(b'*') => (SubPos::Same, i + 1),
            Some(&sign @ (b'+' | b'-')) => {
                let (n, end) = number_at(line, i + 1)
                    .filter(|(n, _)| !n.overflow)
                    .ok_or(&line[start..])?;
                let negative = sign == b'-';
                (
                    SubPos::Rel {
                        negative,
                        delta: n.value,
                    },
                    end,
                )
            }
            _ => {
                // A position beyond 64 bits means nothing: the line is skipped.
                let (n, end) = number_at(line, i)
                    .filter(|(n, _)| !n.overflow)
                    .ok_or(&line[start..])?;
                (SubPos::Abs(n.value), end)
            }
        };
        *slot = p;
        i = after_field(line, end)?;
    }
    counters(line, i, costs)
}

/// The counters of a cost line from byte `i` on, appended to `costs`: how
/// many were beyond the signed 64-bit range (saturated), or the text that
/// could not be read.
pub fn counters<'a>(line: &'a [u8], mut i: usize, costs: &mut Vec<i64>) -> Result<usize, &'a [u8]> {
    let mut overflows = 0;
    while i < line.len() {
        let start = i;
        let negative = line[i] == b'-';
        let (n, end) = number_at(line, i + usize::from(negative)).ok_or(&line[start..])?;
        // A cost is signed: `-9223372036854775808` (cg_diff) is exact,
        // anything outside i64's range saturates and is counted.
        let cost = if negative {
            0i64.checked_sub_unsigned(n.value)
        } else {
            i64::try_from(n.value).ok()
        };
        if n.overflow || cost.is_none() {
            overflows += 1;
        }
        costs.push(cost.filter(|_| !n.overflow).unwrap_or(if negative {
            i64::MIN
        } else {
            i64::MAX
        }));
        i = after_field(line, end)?;
    }
    Ok(overflows)
}

/// A number (`123`, `0x7b`) starting at `i`, and where it ends.
#[inline]
fn number_at(line: &[u8], i: usize) -> Option<(Num, usize)> {
    let rest = line.get(i..)?;
    if rest.len() > 2 && rest[0] == b'0' && (rest[1] | 0x20) == b'x' && rest[2].is_ascii_hexdigit()
    {
        let len = rest[2..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        return Some((fold_digits(&rest[2..2 + len], 16), i + 2 + len));
    }
    let mut value: u64 = 0;
    let mut overflow = false;
    let mut len = 0;
    for &b in rest {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        len += 1;
        match value
            .checked_mul(10)
            .and_then(|x| x.checked_add(u64::from(d)))
        {
            Some(x) => value = x,
            None => {
                value = u64::MAX;
                overflow = true;
            }
        }
    }
    (len > 0).then_some((Num { value, overflow }, i + len))
}

/// After a field ending at `end`: skips the blanks before the next field (a
/// field must be followed by a blank or the end of the line).
#[inline]
fn after_field(line: &[u8], end: usize) -> Result<usize, &[u8]> {
    let rest = &line[end..];
    let blanks = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
    if blanks == 0 && !rest.is_empty() {
        return Err(rest);
    }
    Ok(end + blanks)
}

/// `(id) name`, `(id)` or `name` after a position spec's `=`.
pub fn compressed_name(i: &[u8]) -> IResult<&[u8], (Option<Num>, &[u8])> {
    let (i, id) = opt(delimited(char('('), number, char(')'))).parse(i)?;
    let (i, name) = match id {
        Some(_) => preceded(space0, rest).parse(i)?,
        None => rest(i)?,
    };
    Ok((i, (id, name.trim_ascii())))
}

/// `calls=COUNT TARGET...`, `jump=COUNT TARGET...`: the count, then the
/// subpositions of the target (returned unparsed; the caller knows how many).
pub fn count_then_target(i: &[u8]) -> IResult<&[u8], Num> {
    let (i, (_, n, _)) = (space0, number, space0).parse(i)?;
    Ok((i, n))
}

/// `jcnd=` counts: `TAKEN/EXECUTED` as Valgrind writes it, or `EXECUTED TAKEN`
/// as the format's grammar says. Returns (taken, executed).
pub fn jcnd_counts(i: &[u8]) -> IResult<&[u8], (Num, Num)> {
    let (i, _) = space0(i)?;
    alt((
        map((number, char('/'), number, space0), |(t, _, e, _)| (t, e)),
        map((number, space1, number, space0), |(e, _, t, _)| (t, e)),
    ))
    .parse(i)
}

/// The counts of `jcnd=` (`conditional`) or `jump=`: (taken, executed),
/// then the unparsed target.
pub fn jump_counts(conditional: bool, i: &[u8]) -> IResult<&[u8], (Num, Option<Num>)> {
    if conditional {
        jcnd_counts(i).map(|(r, (t, e))| (r, (t, Some(e))))
    } else {
        count_then_target(i).map(|(r, t)| (r, (t, None)))
    }
}

/// A header line `key: value`: the key (letters, digits, `_`) and the value,
/// trimmed. Only matches when the colon directly follows the key.
pub fn header(i: &[u8]) -> IResult<&[u8], (&[u8], &[u8])> {
    let (i, key) = take_while1(|b: u8| b.is_ascii_alphanumeric() || b == b'_').parse(i)?;
    let (i, _) = char(':').parse(i)?;
    Ok((&[][..], (key, i.trim_ascii())))
}

/// A position or association spec `key=value`: the key and the raw value.
pub fn spec(i: &[u8]) -> IResult<&[u8], (&[u8], &[u8])> {
    let (i, key) = take_while1(|b: u8| b.is_ascii_lowercase()).parse(i)?;
    let (i, _) = char('=').parse(i)?;
    Ok((&[][..], (key, i)))
}

/// `events:` value: names separated by blanks.
pub fn names(i: &[u8]) -> impl Iterator<Item = &[u8]> {
    i.split(|&b| is_space(b)).filter(|s| !s.is_empty())
}

/// A derived event expression `Ir + 2 Dr` or `Ir + 2 * Dr`: (factor, name) terms.
pub fn formula(i: &[u8]) -> Option<Vec<(i64, &[u8])>> {
    let mut terms = Vec::new();
    for term in i.split(|&b| b == b'+') {
        let term = term.trim_ascii();
        let (after, factor) = opt((number, space0, opt((char('*'), space0))))
            .parse(term)
            .ok()?;
        let factor = factor.map_or(Some(1), |(n, _, _)| i64::try_from(n.value).ok())?;
        let name = after.trim_ascii();
        if name.is_empty() || name.iter().any(|&b| is_space(b)) {
            return None;
        }
        terms.push((factor, name));
    }
    Some(terms)
}

#[cfg(test)]
mod tests;
