//! Reading C++ and Rust symbol names: which `<` opens a template argument
//! list and where it closes, and which characters are an `operator` token.
//! What `fold` and `scope` both stand on.

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
pub fn closing(b: &[u8], open: usize) -> Option<usize> {
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
