//! The table of bindings: every key of every context with its action, its
//! status-bar hint and its help text, in help-screen order. Data only.

use super::{Context, Key, Mouse, MouseKind};
use crate::tui::action::Action;

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

mod popups;
mod views;

use Action as A;
use Context as C;
use Key as K;

pub(super) const fn b(
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

/// Page keys as in less and vim.
pub(super) const PAGE_DOWN: &[Key] = &[K::PageDown, K::Char(' '), K::Ctrl('f'), K::Ctrl('d')];
pub(super) const PAGE_UP: &[Key] = &[K::PageUp, K::Ctrl('b'), K::Ctrl('u')];

/// The bindings of the browse screen, in help-screen order.
pub static BROWSING: &[Binding] = &[
    b(
        C::Browse,
        &[K::Char('j'), K::Down],
        A::Down,
        None,
        "move down",
    ),
    b(C::Browse, &[K::Char('k'), K::Up], A::Up, None, "move up"),
    b(C::Browse, PAGE_DOWN, A::PageDown, None, "page down"),
    b(C::Browse, PAGE_UP, A::PageUp, None, "page up"),
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
        "callers/callees: go to the selected function; list: walk into its callees",
    ),
    b(
        C::Browse,
        &[K::Esc],
        A::Close,
        None,
        "back to the function list",
    ),
    b(
        C::Browse,
        &[K::Char('C')],
        A::GoToCycle,
        None,
        "go to the <cycle N> of the selected function (mutual recursion)",
    ),
];

/// The bindings of every context (after the views' in help-screen order).
pub static GLOBAL: &[Binding] = &[
    b(C::Global, &[K::Char('q')], A::Quit, Some("quit"), "quit"),
    b(
        C::Global,
        &[K::Char('t')],
        A::CallTree,
        Some("tree"),
        "call tree of the current function (of the whole program from a root); again: close it",
    ),
    b(
        C::Global,
        &[K::Char('A')],
        A::Assembly,
        None,
        "assembly of the current function: each instruction's cost, jump arrows, inlined \
         functions (profiles made with --dump-instr=yes); again: close it",
    ),
    b(
        C::Global,
        &[K::Char('b')],
        A::CallerTree,
        None,
        "caller tree of the current function: who calls it, by which paths; again: close it",
    ),
    b(
        C::Global,
        &[K::Char('f')],
        A::FlameGraph,
        Some("flame"),
        "flame graph of the whole program; again: close it",
    ),
    b(
        C::Global,
        &[K::Ctrl('c')],
        A::Interrupt,
        None,
        "quit (exit status 130)",
    ),
    b(
        C::Global,
        &[K::Ctrl('z')],
        A::Suspend,
        None,
        "suspend (the shell's fg comes back)",
    ),
    b(
        C::Global,
        &[K::Ctrl('l')],
        A::Redraw,
        None,
        "clear and redraw the screen",
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
        "sort by inclusive cost (again: reverse)",
    ),
    b(
        C::Global,
        &[K::Char('S')],
        A::SortSelf,
        None,
        "sort by self cost (again: reverse)",
    ),
    b(
        C::Global,
        &[K::Char('c')],
        A::SortCalls,
        None,
        "sort by calls (again: reverse)",
    ),
    b(
        C::Global,
        &[K::Char('a')],
        A::SortName,
        None,
        "sort by name (again: reverse)",
    ),
    b(
        C::Global,
        &[K::Char('w')],
        A::Warnings,
        None,
        "list the load warnings (FILE:LINE: message)",
    ),
    b(
        C::Global,
        &[K::Char('p')],
        A::Parts,
        Some("parts"),
        "parts and threads: switch each on or off",
    ),
    b(
        C::Global,
        &[K::Char('m')],
        A::Columns,
        Some("metrics"),
        "metric columns beside the costs: events, CEst, miss rates, your formulas",
    ),
    b(
        C::Global,
        &[K::Char('T')],
        A::FoldTemplates,
        None,
        "fold C++ template arguments in names: <...>",
    ),
    b(
        C::Global,
        &[K::Char('o')],
        A::Groups,
        Some("groups"),
        "groups: cost by object, file, C++ class or Rust module; Enter lists a group's functions",
    ),
    b(
        C::Global,
        &[K::Char('F')],
        A::Filter,
        None,
        "filter the list: what the search matches, re:REGEX, !TEXT (without), >N% (of the total); Esc in the list clears it",
    ),
    b(
        C::Global,
        &[K::Char('D')],
        A::ToggleDemangle,
        None,
        "mangled names (C++ _Z..., Rust _ZN...E and _R...) demangled, or as the profile writes them; search finds both",
    ),
    b(
        C::Global,
        &[K::Char('y')],
        A::CopyName,
        None,
        "copy the function's full name (OSC 52: over SSH too)",
    ),
    b(
        C::Global,
        &[K::Char('Y')],
        A::CopyPlace,
        None,
        "copy the selected place as FILE:LINE (OSC 52)",
    ),
    b(
        C::Global,
        &[K::Char('M')],
        A::ToggleMouse,
        None,
        "mouse on/off (off: the terminal selects text)",
    ),
    b(
        C::Mouse,
        &[Mouse::kind(MouseKind::WheelDown)],
        A::WheelDown,
        None,
        "scroll the pane under the pointer down",
    ),
    b(
        C::Mouse,
        &[Mouse::kind(MouseKind::WheelUp)],
        A::WheelUp,
        None,
        "scroll the pane under the pointer up",
    ),
    b(
        C::Mouse,
        &[Mouse::kind(MouseKind::Click)],
        A::Click,
        None,
        "select the row and its pane; double-click: Enter",
    ),
];

/// Every binding in help-screen order: the browse screen's, the views'
/// (`views`), every context's, then the popups' (`popups`).
pub fn all() -> impl Iterator<Item = &'static Binding> {
    (BROWSING.iter())
        .chain(views::VIEWS)
        .chain(GLOBAL)
        .chain(popups::POPUPS)
}
