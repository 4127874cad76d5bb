//! Editing the search query as readline does: a cursor, characters typed
//! and deleted at it, words and the start deleted, the cursor moved by a
//! character or to either end. No editing key leaves the search or
//! touches the history. The query runs again only when its text changes
//! (`Search` keeps the results of every prefix typed, so typing at the
//! end stays incremental; an edit in the middle runs from the longest
//! prefix kept).

use super::{App, Popup};
use crate::tui::action::Action;
use crate::tui::scroll::Scroll;

/// The byte offset of character `at` in `s` (its end past the last).
fn byte_at(s: &str, at: usize) -> usize {
    s.char_indices().nth(at).map_or(s.len(), |(i, _)| i)
}

/// Where the word before character `at` starts: spaces and punctuation
/// right before it, then letters, digits and `_` (so `::push_back` goes
/// in one step, then `vector`).
fn word_start(s: &str, at: usize) -> usize {
    let chars: Vec<char> = s.chars().take(at).collect();
    let word = |c: &char| c.is_alphanumeric() || *c == '_';
    let mut i = chars.len();
    while i > 0 && !word(&chars[i - 1]) {
        i -= 1;
    }
    while i > 0 && word(&chars[i - 1]) {
        i -= 1;
    }
    i
}

impl App {
    /// Inserts `typed` (emptied) at the cursor of the search query.
    pub(super) fn type_into_search(&mut self, typed: &mut String) {
        if !typed.is_empty() {
            let mut q = self.search.query().to_string();
            let at = self.search_cursor.min(q.chars().count());
            q.insert_str(byte_at(&q, at), typed);
            self.search_cursor = at + typed.chars().count();
            typed.clear();
            self.message = None;
            self.set_query(&q);
            self.fit();
        }
    }

    /// Runs `q` (when it changed) and selects its first result.
    fn set_query(&mut self, q: &str) {
        if q != self.search.query() {
            self.search.set_query(q);
            self.popup = Some(Popup::Search(Scroll::default()));
        }
        self.search_cursor = self.search_cursor.min(self.search.query().chars().count());
    }

    /// An editing action of the search prompt; false for other actions.
    pub(super) fn edit_query(&mut self, action: Action) -> bool {
        let q = self.search.query().to_string();
        let len = q.chars().count();
        let at = self.search_cursor.min(len);
        // The characters `from..to` deleted, the cursor left at `from`.
        let delete = |from: usize, to: usize| {
            let mut q = q.clone();
            q.replace_range(byte_at(&q, from)..byte_at(&q, to), "");
            (q, from)
        };
        let (new, cursor) = match action {
            Action::SearchInput(c) => {
                let mut typed = c.to_string();
                self.type_into_search(&mut typed);
                return true;
            }
            Action::CursorLeft => (q, at.saturating_sub(1)),
            Action::CursorRight => (q, (at + 1).min(len)),
            Action::CursorStart => (q, 0),
            Action::CursorEnd => (q, len),
            Action::SearchDelete => delete(at.saturating_sub(1), at),
            Action::SearchDeleteForward => {
                let (q, _) = delete(at, (at + 1).min(len));
                (q, at)
            }
            Action::SearchDeleteWord => delete(word_start(&q, at), at),
            Action::SearchDeleteToStart => delete(0, at),
            _ => return false,
        };
        self.search_cursor = cursor;
        self.set_query(&new);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_end_at_punctuation() {
        let q = "std::vector<int>::push_back";
        assert_eq!(word_start(q, q.chars().count()), 18);
        assert_eq!(word_start(q, 18), 12);
        assert_eq!(word_start("ab  ", 4), 0);
        assert_eq!(word_start("", 0), 0);
        assert_eq!(byte_at("é→x", 2), 5);
        assert_eq!(byte_at("é→x", 9), 6);
    }
}
