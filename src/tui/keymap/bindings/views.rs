//! The bindings of the source view, the call tree and the flame graph.

use super::{Binding, PAGE_DOWN, PAGE_UP, b};
use crate::tui::action::Action as A;
use crate::tui::keymap::{Context as C, Key as K};

/// In help-screen order.
pub static VIEWS: &[Binding] = &[
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
        &[K::Char('v')],
        A::ToggleSelf,
        Some("self"),
        "show each box's self cost: the part of its width its calls leave, shaded under \
         it (again: hide)",
    ),
    b(
        C::Flame,
        &[K::Esc],
        A::Close,
        Some("close"),
        "out of the zoom to the whole graph; there, back to where you were. Boxes are as \
         wide as their cost; \
         below the first level, estimated as in the call tree (marked on the status \
         line); / marks the boxes of the functions matching the search, Enter and n/N \
         go through them",
    ),
];
