//! Keys and the keymap: our own `Key` (so tests need no terminal), the
//! table of bindings per context, and the text forms the help screen and the
//! status hints are generated from. Plain keys only: chords do not survive
//! SSH and tmux (Ctrl-C is the one exception, and it only quits).

use super::action::Action;

/// A key press, reduced to what cgtui distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Char(char),
    Ctrl(char),
    Enter,
    Esc,
    Tab,
    BackTab,
    Backspace,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
}

impl Key {
    /// How the help screen writes the key.
    pub fn label(self) -> String {
        match self {
            Key::Char(' ') => "Space".into(),
            Key::Char(c) => c.to_string(),
            Key::Ctrl(c) => format!("Ctrl-{c}"),
            Key::Enter => "Enter".into(),
            Key::Esc => "Esc".into(),
            Key::Tab => "Tab".into(),
            Key::BackTab => "S-Tab".into(),
            Key::Backspace => "BS".into(),
            Key::Up => "↑".into(),
            Key::Down => "↓".into(),
            Key::Left => "←".into(),
            Key::Right => "→".into(),
            Key::PageUp => "PgUp".into(),
            Key::PageDown => "PgDn".into(),
            Key::Home => "Home".into(),
            Key::End => "End".into(),
        }
    }
}

/// Which bindings apply: the innermost popup or view decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// Everywhere but in the search prompt.
    Global,
    /// The flat list and the callers/callees panes.
    Browse,
    /// The source view.
    Source,
    /// The search prompt (other characters are typed into the query).
    Search,
    /// The parts popup.
    Parts,
    /// The help screen.
    Help,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::Browse => "Function list, callers and callees",
            Context::Source => "Source view",
            Context::Search => "Search prompt",
            Context::Parts => "Parts popup",
            Context::Help => "Help",
        }
    }
}

/// One line of the keymap.
pub struct Binding {
    pub context: Context,
    pub keys: &'static [Key],
    pub action: Action,
    /// Short text for the status-bar hints; `None` keeps it out of them.
    pub hint: Option<&'static str>,
    /// Text for the help screen.
    pub help: &'static str,
}

use Action as A;
use Context as C;
use Key as K;

const fn b(
    context: Context,
    keys: &'static [Key],
    action: Action,
    hint: Option<&'static str>,
    help: &'static str,
) -> Binding {
    Binding {
        context,
        keys,
        action,
        hint,
        help,
    }
}

/// Every binding, in help-screen order.
pub static BINDINGS: &[Binding] = &[
    b(
        C::Browse,
        &[K::Char('j'), K::Down],
        A::Down,
        None,
        "move down",
    ),
    b(C::Browse, &[K::Char('k'), K::Up], A::Up, None, "move up"),
    b(C::Browse, &[K::PageDown], A::PageDown, None, "page down"),
    b(C::Browse, &[K::PageUp], A::PageUp, None, "page up"),
    b(
        C::Browse,
        &[K::Char('g'), K::Home],
        A::Top,
        None,
        "first row",
    ),
    b(
        C::Browse,
        &[K::Char('G'), K::End],
        A::Bottom,
        None,
        "last row",
    ),
    b(C::Browse, &[K::Tab], A::NextPane, Some("pane"), "next pane"),
    b(C::Browse, &[K::BackTab], A::PrevPane, None, "previous pane"),
    b(
        C::Browse,
        &[K::Enter, K::Right],
        A::Open,
        Some("go"),
        "make the selected function current",
    ),
    b(
        C::Browse,
        &[K::Esc],
        A::Close,
        None,
        "back to the function list",
    ),
    b(
        C::Source,
        &[K::Char('j'), K::Down],
        A::Down,
        None,
        "move down",
    ),
    b(C::Source, &[K::Char('k'), K::Up], A::Up, None, "move up"),
    b(C::Source, &[K::PageDown], A::PageDown, None, "page down"),
    b(C::Source, &[K::PageUp], A::PageUp, None, "page up"),
    b(
        C::Source,
        &[K::Char('g'), K::Home],
        A::Top,
        None,
        "first line",
    ),
    b(
        C::Source,
        &[K::Char('G'), K::End],
        A::Bottom,
        None,
        "last line",
    ),
    b(
        C::Source,
        &[K::Char(']')],
        A::NextHot,
        Some("next hot"),
        "next line with a cost",
    ),
    b(
        C::Source,
        &[K::Char('[')],
        A::PrevHot,
        Some("prev hot"),
        "previous line with a cost",
    ),
    b(
        C::Source,
        &[K::Tab],
        A::NextFile,
        None,
        "next source file of the function (inlined code)",
    ),
    b(
        C::Source,
        &[K::Enter, K::Right],
        A::Open,
        Some("follow call"),
        "go to the callee of the selected call line",
    ),
    b(
        C::Source,
        &[K::Esc, K::Char('s')],
        A::Close,
        Some("close"),
        "close the source view",
    ),
    b(
        C::Search,
        &[K::Enter],
        A::SearchAccept,
        Some("go"),
        "go to the selected result",
    ),
    b(
        C::Search,
        &[K::Esc],
        A::Close,
        Some("cancel"),
        "cancel the search",
    ),
    b(
        C::Search,
        &[K::Down, K::Tab],
        A::Down,
        Some("next"),
        "select the next result",
    ),
    b(
        C::Search,
        &[K::Up, K::BackTab],
        A::Up,
        None,
        "select the previous result",
    ),
    b(C::Search, &[K::PageDown], A::PageDown, None, "page down"),
    b(C::Search, &[K::PageUp], A::PageUp, None, "page up"),
    b(
        C::Search,
        &[K::Backspace],
        A::SearchDelete,
        None,
        "delete a character",
    ),
    b(
        C::Search,
        &[K::Ctrl('c')],
        A::Interrupt,
        None,
        "quit (exit status 130)",
    ),
    b(
        C::Parts,
        &[K::Char('j'), K::Down],
        A::Down,
        None,
        "move down",
    ),
    b(C::Parts, &[K::Char('k'), K::Up], A::Up, None, "move up"),
    b(
        C::Parts,
        &[K::Char(' ')],
        A::TogglePart,
        Some("on/off"),
        "switch the part on or off",
    ),
    b(
        C::Parts,
        &[K::Char('a')],
        A::AllParts,
        Some("all"),
        "switch every part on",
    ),
    b(
        C::Parts,
        &[K::Esc, K::Enter, K::Char('p')],
        A::Close,
        Some("close"),
        "close",
    ),
    b(
        C::Help,
        &[K::Char('j'), K::Down],
        A::Down,
        None,
        "scroll down",
    ),
    b(C::Help, &[K::Char('k'), K::Up], A::Up, None, "scroll up"),
    b(
        C::Help,
        &[K::PageDown, K::Char(' ')],
        A::PageDown,
        None,
        "page down",
    ),
    b(C::Help, &[K::PageUp], A::PageUp, None, "page up"),
    b(
        C::Help,
        &[K::Esc, K::Char('?'), K::Enter],
        A::Close,
        Some("close"),
        "close the help",
    ),
    b(C::Global, &[K::Char('q')], A::Quit, Some("quit"), "quit"),
    b(
        C::Global,
        &[K::Ctrl('c')],
        A::Interrupt,
        None,
        "quit (exit status 130)",
    ),
    b(
        C::Global,
        &[K::Char('?')],
        A::Help,
        Some("help"),
        "help (this screen)",
    ),
    b(
        C::Global,
        &[K::Char('/')],
        A::Search,
        Some("search"),
        "fuzzy search over all function names",
    ),
    b(
        C::Global,
        &[K::Char('n')],
        A::NextMatch,
        None,
        "next search result",
    ),
    b(
        C::Global,
        &[K::Char('N')],
        A::PrevMatch,
        None,
        "previous search result",
    ),
    b(
        C::Global,
        &[K::Char('h'), K::Backspace, K::Left],
        A::Back,
        Some("back"),
        "back along the history",
    ),
    b(
        C::Global,
        &[K::Char('l')],
        A::Forward,
        None,
        "forward along the history",
    ),
    b(
        C::Global,
        &[K::Char('s')],
        A::Source,
        Some("source"),
        "source view of the current function",
    ),
    b(
        C::Global,
        &[K::Char('e')],
        A::NextEvent,
        Some("event"),
        "next event type",
    ),
    b(
        C::Global,
        &[K::Char('E')],
        A::PrevEvent,
        None,
        "previous event type",
    ),
    b(
        C::Global,
        &[K::Char('%')],
        A::TogglePercent,
        Some("%/abs"),
        "percent of total / absolute costs",
    ),
    b(
        C::Global,
        &[K::Char('i')],
        A::SortInclusive,
        None,
        "sort by inclusive cost",
    ),
    b(
        C::Global,
        &[K::Char('S')],
        A::SortSelf,
        None,
        "sort by self cost",
    ),
    b(
        C::Global,
        &[K::Char('c')],
        A::SortCalls,
        None,
        "sort by calls",
    ),
    b(
        C::Global,
        &[K::Char('a')],
        A::SortName,
        None,
        "sort by name",
    ),
    b(
        C::Global,
        &[K::Char('p')],
        A::Parts,
        Some("parts"),
        "parts and threads: switch each on or off",
    ),
];

/// The action for `key` in `context`, falling back to the global bindings
/// (except in the search prompt, where plain characters are typed).
pub fn lookup(context: Context, key: Key) -> Option<Action> {
    let find = |ctx: Context| {
        BINDINGS
            .iter()
            .find(|b| b.context == ctx && b.keys.contains(&key))
            .map(|b| b.action)
    };
    if let Some(action) = find(context) {
        return Some(action);
    }
    match (context, key) {
        (Context::Search, Key::Char(c)) => Some(Action::SearchInput(c)),
        (Context::Search, _) => None,
        _ => find(Context::Global),
    }
}

/// `"k1 hint1  k2 hint2"` for the status bar of `context`.
pub fn hints(context: Context) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let contexts: &[Context] = if context == Context::Search {
        &[Context::Search]
    } else {
        &[context, Context::Global]
    };
    for ctx in contexts {
        for bind in BINDINGS.iter().filter(|b| b.context == *ctx) {
            if let (Some(hint), Some(key)) = (bind.hint, bind.keys.first()) {
                out.push((key.label(), hint));
            }
        }
    }
    out
}

/// Lines of the help screen: a title per context, then `keys  help`.
pub fn help_lines() -> Vec<(Option<&'static str>, String, &'static str)> {
    let order = [
        Context::Global,
        Context::Browse,
        Context::Source,
        Context::Search,
        Context::Parts,
        Context::Help,
    ];
    let mut out = Vec::new();
    for ctx in order {
        out.push((Some(ctx.title()), String::new(), ""));
        for bind in BINDINGS.iter().filter(|b| b.context == ctx) {
            let keys: Vec<String> = bind.keys.iter().map(|k| k.label()).collect();
            out.push((None, keys.join(" "), bind.help));
        }
    }
    out
}

/// Turns `"/fib<Enter><Tab>j<BS>"` into keys, for tests and benchmarks.
/// Names in angle brackets: Enter Esc Tab BackTab BS Up Down Left Right
/// PgUp PgDn Home End Space lt, and `C-x` for Ctrl-x; anything else is
/// taken literally.
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
            parse_keys("/fi<Enter><Tab>j<BS><C-c><lt>x<nope>"),
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
                Key::Char('<'),
                Key::Char('n'),
                Key::Char('o'),
                Key::Char('p'),
                Key::Char('e'),
                Key::Char('>'),
            ]
        );
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for (i, a) in BINDINGS.iter().enumerate() {
            for b in &BINDINGS[i + 1..] {
                if a.context == b.context {
                    for k in a.keys {
                        assert!(!b.keys.contains(k), "{k:?} twice in {:?}", a.context);
                    }
                }
            }
        }
    }

    #[test]
    fn search_types_characters_but_browse_falls_back_to_global() {
        assert_eq!(
            lookup(Context::Search, Key::Char('q')),
            Some(Action::SearchInput('q'))
        );
        assert_eq!(lookup(Context::Browse, Key::Char('q')), Some(Action::Quit));
        assert_eq!(lookup(Context::Source, Key::Enter), Some(Action::Open));
    }
}
