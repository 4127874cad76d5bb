//! Keys and the keymap: our own `Key` (so tests need no terminal), the
//! lookup of a key's action per context (the table is in `bindings`), and
//! the text forms the help screen and the status hints are generated from
//! (`text` reads keys written as text). Plain keys only: chords do not
//! survive SSH and tmux (Ctrl-C is the one exception, and it only quits;
//! the search prompt also takes the editing keys of readline). Mouse
//! reports are keys too, bound by their kind (their place is where the
//! action applies).

mod bindings;
mod text;

use super::action::Action;
use super::widgets::cells;
pub use bindings::{Binding, all as bindings};
pub use text::parse_keys;

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
    Delete,
    /// Alt-Backspace (`ESC DEL`): one key, not Esc then Backspace.
    AltBackspace,
    /// Ctrl-Backspace where the terminal tells it from Backspace (CSI u,
    /// xterm's modifyOtherKeys); 0x08 stays Backspace.
    CtrlBackspace,
    /// A mouse report (only when mouse capture is on).
    Mouse(Mouse),
}

/// What the mouse did, and where (0-based cell column and row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mouse {
    pub kind: MouseKind,
    pub column: u16,
    pub row: u16,
}

/// The mouse reports cgtui uses (others are dropped when read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MouseKind {
    /// The left button pressed.
    Click,
    WheelUp,
    WheelDown,
}

impl Mouse {
    /// A report of `kind` at no place: how the keymap names it.
    pub const fn kind(kind: MouseKind) -> Key {
        Key::Mouse(Mouse {
            kind,
            column: 0,
            row: 0,
        })
    }
}

impl Key {
    /// The key as the keymap knows it: a mouse report without its place.
    pub fn unplaced(self) -> Key {
        match self {
            Key::Mouse(m) => Mouse::kind(m.kind),
            key => key,
        }
    }

    /// How the help screen writes the key (arrows spelled out in ASCII).
    pub fn label(self, ascii: bool) -> String {
        match self {
            Key::Up if ascii => "Up".into(),
            Key::Down if ascii => "Down".into(),
            Key::Left if ascii => "Left".into(),
            Key::Right if ascii => "Right".into(),
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
            Key::Delete => "Del".into(),
            Key::AltBackspace => "M-BS".into(),
            Key::CtrlBackspace => "C-BS".into(),
            Key::Mouse(m) => match m.kind {
                MouseKind::Click => "click".into(),
                MouseKind::WheelUp => "wheel-up".into(),
                MouseKind::WheelDown => "wheel-down".into(),
            },
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
    /// The call tree and the caller tree.
    Tree,
    /// The flame graph.
    Flame,
    /// The assembly view.
    Asm,
    /// The search prompt (other characters are typed into the query).
    Search,
    /// The parts popup.
    Parts,
    /// The groups popup.
    Groups,
    /// The column chooser.
    Columns,
    /// The help screen.
    Help,
    /// The list of load warnings.
    Warnings,
    /// Mouse reports, wherever the pointer is (never the context itself).
    Mouse,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::Browse => "Function list, callers and callees",
            Context::Source => "Source view",
            Context::Tree => "Call tree and caller tree",
            Context::Flame => "Flame graph",
            Context::Asm => "Assembly view",
            Context::Search => "Search prompt",
            Context::Parts => "Parts popup",
            Context::Groups => "Groups popup",
            Context::Columns => "Column chooser",
            Context::Help => "Help",
            Context::Warnings => "Load warnings",
            Context::Mouse => "Mouse (M: on/off; Shift-drag selects text in most terminals)",
        }
    }
}

/// The action for `key` in `context`, falling back to the global bindings
/// (except in the search prompt, where plain characters are typed).
pub fn lookup(context: Context, key: Key) -> Option<Action> {
    let key = key.unplaced();
    let find = |ctx: Context| {
        bindings()
            .find(|b| b.context == ctx && b.keys.contains(&key))
            .map(|b| b.action)
    };
    if matches!(key, Key::Mouse(_)) {
        return find(Context::Mouse);
    }
    if let Some(action) = find(context) {
        return Some(action);
    }
    match (context, key) {
        (Context::Search, Key::Char(c)) => Some(Action::SearchInput(c)),
        // Ctrl-C, Ctrl-Z and Ctrl-L work while typing too.
        (Context::Search, Key::Ctrl(_)) => find(Context::Global),
        (Context::Search, _) => None,
        _ => find(Context::Global),
    }
}

/// `"k1 hint1  k2 hint2"` for the status bar of `context`.
pub fn hints(context: Context, ascii: bool) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let contexts: &[Context] = if context == Context::Search {
        &[Context::Search]
    } else {
        &[context, Context::Global]
    };
    for ctx in contexts {
        for bind in bindings().filter(|b| b.context == *ctx) {
            if let (Some(hint), Some(key)) = (bind.hint, bind.keys.first()) {
                out.push((key.label(ascii), hint));
            }
        }
    }
    out
}

/// The contexts in help-screen order.
const CONTEXTS: [Context; 13] = [
    Context::Global,
    Context::Browse,
    Context::Source,
    Context::Tree,
    Context::Flame,
    Context::Asm,
    Context::Search,
    Context::Parts,
    Context::Groups,
    Context::Columns,
    Context::Warnings,
    Context::Help,
    Context::Mouse,
];

/// Lines of the help screen: a title per context, then `keys  help`.
pub fn help_lines(ascii: bool) -> Vec<(Option<&'static str>, String, &'static str)> {
    let mut out = Vec::new();
    for ctx in CONTEXTS {
        out.push((Some(ctx.title()), String::new(), ""));
        for bind in bindings().filter(|b| b.context == ctx) {
            let keys: Vec<String> = bind.keys.iter().map(|k| k.label(ascii)).collect();
            out.push((None, keys.join(" "), bind.help));
        }
    }
    out
}

/// Cells the help's widest line takes: the popup is that wide where the
/// screen allows, so that no line is cut on a wide terminal.
pub fn help_width() -> usize {
    static WIDTH: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *WIDTH.get_or_init(|| {
        let line = |(title, keys, help): &(Option<&str>, String, &str)| match title {
            Some(title) => cells(title),
            None => 2 + cells(keys).max(KEYS) + cells(help),
        };
        help_lines(false).iter().map(line).max().unwrap_or(0)
    })
}

/// How many rows `help_rows(ascii, width)` has, remembered for the last
/// width asked: every key asks while the help is open, and the bindings
/// do not change.
pub fn help_row_count(ascii: bool, width: usize) -> usize {
    static LAST: std::sync::Mutex<Option<(bool, usize, usize)>> = std::sync::Mutex::new(None);
    let mut last = LAST
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match *last {
        Some((a, w, n)) if (a, w) == (ascii, width) => n,
        _ => {
            let n = help_rows(ascii, width).len();
            *last = Some((ascii, width, n));
            n
        }
    }
}

/// Cells of the help's key column.
const KEYS: usize = 20;

/// A row of the help screen as drawn `width` cells wide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HelpRow {
    Title(&'static str),
    /// The keys (blank on a row that goes on with the text above) and the
    /// text, the keys' column `keys` cells wide.
    Entry {
        keys: String,
        text: String,
        column: usize,
    },
}

/// The help screen's rows at `width` cells: a text longer than its room
/// wraps at spaces onto more rows, keys wider than their column stand on
/// a row of their own, so that no text is cut and no key runs into it.
pub fn help_rows(ascii: bool, width: usize) -> Vec<HelpRow> {
    let column = KEYS.min(width.saturating_sub(2) / 2);
    let room = width.saturating_sub(2 + column).max(1);
    let mut out = Vec::new();
    for (title, keys, help) in help_lines(ascii) {
        if let Some(title) = title {
            out.push(HelpRow::Title(title));
            continue;
        }
        let entry = |keys: String, text: String| HelpRow::Entry { keys, text, column };
        let mut pieces = wrap(help, room).into_iter();
        if cells(&keys) >= column {
            out.push(entry(keys, String::new()));
        } else {
            out.push(entry(keys, pieces.next().unwrap_or_default()));
        }
        out.extend(pieces.map(|p| entry(String::new(), p)));
    }
    out
}

/// `text` in rows of at most `width` cells, broken at spaces (a word
/// longer than a row is broken where the row ends).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut rows = Vec::new();
    // The row so far and its cells, counted as it grows.
    let (mut row, mut used) = (String::new(), 0);
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let gap = usize::from(!row.is_empty());
        if gap == 1 && used + gap + cells(word) > width {
            rows.push(std::mem::take(&mut row));
            used = 0;
        } else if gap == 1 {
            row.push(' ');
            used += 1;
        }
        for c in word.chars() {
            let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            if used + w > width && !row.is_empty() {
                rows.push(std::mem::take(&mut row));
                used = 0;
            }
            row.push(c);
            used += w;
        }
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(row);
    }
    rows
}

/// The key table of docs/guide.md, one row per context, made from the same
/// bindings as the help screen (a test keeps the guide equal to it).
pub fn markdown() -> String {
    let mut out = String::from("| where | keys |\n|---|---|\n");
    for ctx in CONTEXTS {
        let keys: Vec<String> = bindings()
            .filter(|b| b.context == ctx)
            .map(|b| {
                let keys: Vec<String> = b
                    .keys
                    .iter()
                    .map(|k| format!("`{}`", k.label(false).replace('|', "\\|")))
                    .collect();
                format!("{} {}", keys.join("/"), b.help.replace('|', "\\|"))
            })
            .collect();
        out.push_str(&format!("| {} | {} |\n", ctx.title(), keys.join(" · ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At any width every word of every text is on the help screen, no
    /// row is wider than the screen, and a key's text never starts before
    /// its column.
    #[test]
    fn the_help_wraps_its_text_and_never_joins_a_key_to_it() {
        let words = |s: &str| {
            s.split(' ')
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        let all: Vec<String> = help_lines(false)
            .iter()
            .flat_map(|(_, _, h)| words(h))
            .collect();
        for width in [30, 38, 60, 76, 200] {
            let rows = help_rows(false, width);
            let mut seen = Vec::new();
            for row in &rows {
                if let HelpRow::Entry { keys, text, column } = row {
                    assert!(cells(text) + 2 + column <= width, "{width}: {text}");
                    assert!(
                        keys.is_empty() || text.is_empty() || cells(keys) < *column,
                        "{width}: {keys}|{text}"
                    );
                    seen.extend(words(text));
                }
            }
            // Every word, in order (a word longer than a row broken).
            assert_eq!(seen.concat(), all.concat(), "{width}");
        }
        assert_eq!(wrap("page down", 4), ["page", "down"]);
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(wrap("", 3), [""]);
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        let all: Vec<&Binding> = bindings().collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
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

    /// Found when a test waited for Ctrl-L's frame in the search prompt.
    #[test]
    fn the_global_control_keys_work_while_typing_a_search() {
        let search = |c| lookup(Context::Search, Key::Ctrl(c));
        assert_eq!(search('l'), Some(Action::Redraw));
        assert_eq!(search('c'), Some(Action::Interrupt));
        assert_eq!(search('z'), Some(Action::Suspend));
        assert_eq!(search('f'), None, "paging is not global");
    }
}
