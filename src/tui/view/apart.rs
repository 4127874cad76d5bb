//! Rows that would read the same once their names are cut: where two
//! rows on screen have different names whose cuts (`fit_middle`) are
//! equal, each is cut around where it differs from the others instead
//! (`widgets::fit_apart`), as the details line shows the whole name. A
//! newcomer saw `bool std::has_facet<std::n…ocale const&)` twice with
//! the same numbers, and four of main's callees read `sqlite…` at 40x10.

use super::shown_name;
use crate::format::printable;
use crate::profile::FnId;
use crate::tui::app::App;
use crate::tui::widgets::fit_middle;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// Per row on screen that needs it, the byte of its printable name where
/// it differs from the others that would read the same; made for each
/// width a name is drawn in (a tree's rows are indented, each by depth).
pub struct Apart<'a> {
    app: &'a App,
    rows: Vec<FnId>,
    at: RefCell<FxHashMap<usize, FxHashMap<FnId, usize>>>,
}

impl<'a> Apart<'a> {
    /// For the functions of the rows on screen.
    pub fn new(app: &'a App, rows: Vec<FnId>) -> Self {
        Apart {
            app,
            rows,
            at: RefCell::default(),
        }
    }

    /// Where `f`'s name must show to be told apart, if it must.
    pub fn at(&self, f: FnId, room: usize) -> Option<usize> {
        let mut at = self.at.borrow_mut();
        let of_room = at
            .entry(room)
            .or_insert_with(|| differences(self.app, &self.rows, room));
        of_room.get(&f).copied()
    }
}

fn differences(app: &App, rows: &[FnId], room: usize) -> FxHashMap<FnId, usize> {
    let g = app.theme.glyphs();
    let mut by_cut: FxHashMap<String, Vec<(FnId, String)>> = FxHashMap::default();
    for &f in rows {
        if !app.is_function(f) {
            continue;
        }
        let name = printable(&shown_name(app, f)).into_owned();
        let cut = fit_middle(&name, room, g);
        if cut != name {
            by_cut.entry(cut).or_default().push((f, name));
        }
    }
    let mut out = FxHashMap::default();
    for same in by_cut.values().filter(|v| v.len() > 1) {
        for (f, name) in same {
            // The longest start it shares with another name.
            let shared = (same.iter())
                .filter(|(_, other)| other != name)
                .map(|(_, other)| shared_start(name, other))
                .max();
            if let Some(at) = shared {
                out.insert(*f, at);
            }
        }
    }
    out
}

/// Bytes at the start of `a` that `b` has too (whole characters).
fn shared_start(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
}
