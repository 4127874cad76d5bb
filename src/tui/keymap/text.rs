//! Keys written as text (`"/fib<Enter><Tab>j<BS>"`), for tests and
//! benchmarks.

use super::Key;

/// Turns `"/fib<Enter><Tab>j<BS>"` into keys, for tests and benchmarks.
/// Names in angle brackets: Enter Esc Tab BackTab BS Up Down Left Right
/// PgUp PgDn Home End Del M-BS C-BS Space lt, and `C-x` for Ctrl-x;
/// anything else is taken literally.
pub fn parse_keys(s: &str) -> Vec<Key> {
    let mut keys = Vec::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '<'
            && let Some(end) = rest.find('>')
            && let Some(key) = named_key(&rest[1..end])
        {
            keys.push(key);
            rest = &rest[end + 1..];
            continue;
        }
        keys.push(Key::Char(c));
        rest = &rest[c.len_utf8()..];
    }
    keys
}

fn named_key(name: &str) -> Option<Key> {
    Some(match name {
        "Enter" | "CR" => Key::Enter,
        "Esc" => Key::Esc,
        "Tab" => Key::Tab,
        "BackTab" | "S-Tab" => Key::BackTab,
        "BS" | "Backspace" => Key::Backspace,
        "Up" => Key::Up,
        "Down" => Key::Down,
        "Left" => Key::Left,
        "Right" => Key::Right,
        "PgUp" | "PageUp" => Key::PageUp,
        "PgDn" | "PageDown" => Key::PageDown,
        "Home" => Key::Home,
        "End" => Key::End,
        "Del" | "Delete" => Key::Delete,
        "M-BS" => Key::AltBackspace,
        "C-BS" => Key::CtrlBackspace,
        "Space" => Key::Char(' '),
        "lt" => Key::Char('<'),
        _ => {
            let c = name.strip_prefix("C-")?;
            let mut chars = c.chars();
            let (Some(ch), None) = (chars.next(), chars.next()) else {
                return None;
            };
            Key::Ctrl(ch)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_key_strings() {
        assert_eq!(
            parse_keys("/fi<Enter><Tab>j<BS><C-c><lt>x<M-BS><C-BS><Del><nope>"),
            [
                Key::Char('/'),
                Key::Char('f'),
                Key::Char('i'),
                Key::Enter,
                Key::Tab,
                Key::Char('j'),
                Key::Backspace,
                Key::Ctrl('c'),
                Key::Char('<'),
                Key::Char('x'),
                Key::AltBackspace,
                Key::CtrlBackspace,
                Key::Delete,
                Key::Char('<'),
                Key::Char('n'),
                Key::Char('o'),
                Key::Char('p'),
                Key::Char('e'),
                Key::Char('>'),
            ]
        );
    }
}
