//! Reading C++ and Rust symbol names: which `<` opens a template argument
//! list and where it closes, and which characters are an `operator` token.
//! What `fold` and `scope` both stand on.

use std::cell::OnceCell;

/// Operator tokens that hold angle brackets, longest first.
const OPERATORS: [&str; 11] = [
    "<=>", "<<=", ">>=", "->*", "<<", ">>", "<=", ">=", "->", "<", ">",
];

pub fn ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

/// If `operator` starts at `i` (as a word), the index after it and its
/// symbol (`<<`, `->`, `==`, `()`: the angle brackets of `OPERATORS` are
/// no brackets), and whether it has a symbol (a template argument list
/// may follow: `operator==<int>`, `operator<< <char>`).
pub fn operator_at(b: &[u8], i: usize) -> Option<(usize, bool)> {
    const WORD: &[u8] = b"operator";
    if !b[i..].starts_with(WORD) || (i > 0 && ident(b[i - 1])) {
        return None;
    }
    let j = i + WORD.len();
    if b.get(j).is_some_and(|&c| ident(c)) {
        return None;
    }
    let rest = &b[j..];
    let len = match OPERATORS
        .iter()
        .chain(&["()", "[]"])
        .find(|op| rest.starts_with(op.as_bytes()))
    {
        Some(op) => op.len(),
        None => rest
            .iter()
            .take_while(|c| b"+-*/%^&|~!=,".contains(c))
            .count(),
    };
    Some((j + len, len > 0))
}

/// The index of the `>` closing the list opened at `open`, if any.
fn closing(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        if let Some((next, _)) = operator_at(b, i) {
            i = next;
            continue;
        }
        match b[i] {
            b'<' => depth += 1,
            // `->` (in a `decltype`) is an arrow, not a bracket.
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the `)`, `]` or `}` closing the bracket at `open`,
/// counting only brackets of its kind, if any.
fn pair(b: &[u8], open: usize) -> Option<usize> {
    let close = close_of(b[open])?;
    let mut depth = 0usize;
    for (j, &c) in b.iter().enumerate().skip(open) {
        if c == b[open] {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(j);
            }
        }
    }
    None
}

fn close_of(open: u8) -> Option<u8> {
    match open {
        b'(' => Some(b')'),
        b'[' => Some(b']'),
        b'{' => Some(b'}'),
        _ => None,
    }
}

/// Where the brackets of a name close. Each is first looked for by
/// reading on from it, which costs what lies between the brackets and
/// is read past once; the first that does not close would be read to the
/// name's end, and so would every one after it (a name of many unclosed
/// `(` costs its length squared), so then every bracket's close is found
/// in one pass, and read from that table.
pub struct Brackets<'a> {
    b: &'a [u8],
    table: OnceCell<Vec<usize>>,
}

/// In `Brackets::table`: the bracket there never closes.
const UNCLOSED: usize = usize::MAX;
/// ... no bracket opens there (or one inside an operator token).
const NOT_OPEN: usize = usize::MAX - 1;

impl<'a> Brackets<'a> {
    pub fn new(b: &'a [u8]) -> Self {
        Brackets {
            b,
            table: OnceCell::new(),
        }
    }

    pub fn bytes(&self) -> &'a [u8] {
        self.b
    }

    /// The `>` closing the template argument list opened at `open`.
    pub fn closing(&self, open: usize) -> Option<usize> {
        self.find(open, closing)
    }

    /// The `)`, `]` or `}` closing the bracket at `open`.
    pub fn pair(&self, open: usize) -> Option<usize> {
        self.find(open, pair)
    }

    fn find(&self, open: usize, read_on: fn(&[u8], usize) -> Option<usize>) -> Option<usize> {
        match self.table.get().map(|t| t[open]) {
            Some(UNCLOSED) => None,
            Some(NOT_OPEN) | None => {
                let found = read_on(self.b, open);
                if found.is_none() {
                    self.table.get_or_init(|| table(self.b));
                }
                found
            }
            Some(close) => Some(close),
        }
    }
}

/// Every bracket's close, in two passes: `(`, `[` and `{` each counted
/// apart (as `pair` counts them), and `<` with operator tokens skipped
/// (as `closing` reads: it starts at no position inside one).
fn table(b: &[u8]) -> Vec<usize> {
    let mut table = vec![NOT_OPEN; b.len()];
    let mut open: [Vec<usize>; 3] = Default::default();
    for (i, &c) in b.iter().enumerate() {
        let kind = match c {
            b'(' | b')' => 0,
            b'[' | b']' => 1,
            b'{' | b'}' => 2,
            _ => continue,
        };
        if close_of(c).is_some() {
            table[i] = UNCLOSED;
            open[kind].push(i);
        } else if let Some(o) = open[kind].pop() {
            table[o] = i;
        }
    }
    let mut angles = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if let Some((next, _)) = operator_at(b, i) {
            i = next;
            continue;
        }
        match b[i] {
            b'<' => {
                table[i] = UNCLOSED;
                angles.push(i);
            }
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' => {
                if let Some(o) = angles.pop() {
                    table[o] = i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::{Brackets, closing, pair};

    /// The table gives what reading on from each bracket gives.
    #[test]
    fn the_table_agrees_with_reading_on() {
        for name in [
            "a<b<c>(d(e)f)[g{h}]>",
            "((a)",
            "a<b<c>",
            "f<decltype(a->b)>(x->y)",
            "X::operator<< <char>(a<b>)<",
            "std::operator<<<(x)>{[}]",
            "(((",
            ")))(((",
            "a<<b>>c<d>",
        ] {
            let b = name.as_bytes();
            let lazy = Brackets::new(b);
            let built = Brackets::new(b);
            built.table.get_or_init(|| super::table(b));
            for i in 0..b.len() {
                let direct = match b[i] {
                    b'<' => closing(b, i),
                    b'(' | b'[' | b'{' => pair(b, i),
                    _ => continue,
                };
                let through = |br: &Brackets<'_>| match b[i] {
                    b'<' => br.closing(i),
                    _ => br.pair(i),
                };
                assert_eq!(through(&lazy), direct, "{name} at {i}");
                assert_eq!(through(&built), direct, "{name} at {i}");
            }
        }
    }
}
