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

/// The bindings of the browse screen, the source view and every context,
/// in help-screen order (the popups' are in `popups`).
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
    b(
        C::Source,
        &[K::Char('j'), K::Down],
        A::Down,
        None,
        "move down",
    ),
    b(C::Source, &[K::Char('k'), K::Up], A::Up, None, "move up"),
    b(C::Source, PAGE_DOWN, A::PageDown, None, "page down"),
    b(C::Source, PAGE_UP, A::PageUp, None, "page up"),
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
        Some("next cost"),
        "next line with a cost (of the current event)",
    ),
    b(
        C::Source,
        &[K::Char('[')],
        A::PrevHot,
        None,
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
        &[K::BackTab],
        A::PrevFile,
        None,
        "previous source file of the function",
    ),
    b(
        C::Source,
        &[K::Enter, K::Right],
        A::Open,
        Some("follow"),
        "follow the selected call line (to the callee) or jump line (to its target)",
    ),
    b(
        C::Source,
        &[K::Char('>')],
        A::ShiftRight,
        None,
        "scroll the text right (long lines)",
    ),
    b(
        C::Source,
        &[K::Char('<')],
        A::ShiftLeft,
        None,
        "scroll the text left",
    ),
    b(
        C::Source,
        &[K::Esc, K::Char('s')],
        A::Close,
        Some("close"),
        "close the source view",
    ),
    b(
        C::Tree,
        &[K::Char('j'), K::Down],
        A::Down,
        None,
        "move down",
    ),
    b(C::Tree, &[K::Char('k'), K::Up], A::Up, None, "move up"),
    b(C::Tree, PAGE_DOWN, A::PageDown, None, "page down"),
    b(C::Tree, PAGE_UP, A::PageUp, None, "page up"),
    b(C::Tree, &[K::Char('g'), K::Home], A::Top, None, "first row"),
    b(
        C::Tree,
        &[K::Char('G'), K::End],
        A::Bottom,
        None,
        "last row",
    ),
    b(
        C::Tree,
        &[K::Right, K::Char('+')],
        A::Expand,
        Some("open"),
        "open the node (open: to its first child)",
    ),
    b(
        C::Tree,
        &[K::Left, K::Char('-')],
        A::Collapse,
        Some("close"),
        "close the node (closed: to its parent)",
    ),
    b(
        C::Tree,
        &[K::Char('*')],
        A::ExpandAll,
        Some("open all"),
        "open everything below the node down to 1% of its cost",
    ),
    b(
        C::Tree,
        &[K::Enter],
        A::Open,
        Some("go"),
        "make the node's function current in the main view",
    ),
    b(
        C::Tree,
        &[K::Esc],
        A::Close,
        Some("close"),
        "back to where you were. Below the first level costs are estimated (marked): a \
         profile records calls, not stacks, so a function's cost is shared among its \
         callers in proportion to their calls' costs. A function already on the path is \
         marked as recursion and not opened again. Made with --separate-callers=N, names \
         already carry N levels of callers.",
    ),
    b(
        C::Flame,
        &[K::Char('h'), K::Left],
        A::ShiftLeft,
        None,
        "the box to the left (a sibling)",
    ),
    b(
        C::Flame,
        &[K::Char('l'), K::Right],
        A::ShiftRight,
        None,
        "the box to the right",
    ),
    b(
        C::Flame,
        &[K::Char('k'), K::Up],
        A::Up,
        None,
        "the caller's box above",
    ),
    b(
        C::Flame,
        &[K::Char('j'), K::Down],
        A::Down,
        None,
        "the largest callee's box below",
    ),
    b(
        C::Flame,
        &[K::Enter],
        A::Open,
        Some("zoom"),
        "zoom into the box (it takes the whole width)",
    ),
    b(
        C::Flame,
        &[K::Backspace],
        A::Back,
        Some("zoom out"),
        "zoom out one level",
    ),
    b(
        C::Flame,
        &[K::Esc],
        A::Close,
        Some("close"),
        "zoom out; at the top, back to where you were. Boxes are as wide as their cost; \
         below the first level, estimated as in the call tree (marked on the status \
         line); / marks the boxes of the functions matching the search, Enter and n/N \
         go through them",
    ),
    b(C::Global, &[K::Char('q')], A::Quit, Some("quit"), "quit"),
    b(
        C::Global,
        &[K::Char('t')],
        A::CallTree,
        Some("tree"),
        "call tree of the current function (of the whole program from a root)",
    ),
    b(
        C::Global,
        &[K::Char('b')],
        A::CallerTree,
        None,
        "caller tree of the current function: who calls it, by which paths",
    ),
    b(
        C::Global,
        &[K::Char('f')],
        A::FlameGraph,
        Some("flame"),
        "flame graph of the whole program",
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

/// Every binding: the browsing ones, then the popups'.
pub fn all() -> impl Iterator<Item = &'static Binding> {
    BROWSING.iter().chain(popups::POPUPS)
}
