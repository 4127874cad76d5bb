//! Rows that stayed from one frame to the next, wherever they went: the
//! rows of a band matched by their text (a longest common subsequence, as
//! `diff` matches lines), and the terminal scrolls that put each run of
//! matched rows where the new frame has it. A search that narrows takes
//! rows out of the middle of its results and brings new ones in at the
//! bottom; with these moves only the new rows are written.
//!
//! Runs moving up are moved first, top to bottom, then runs moving down,
//! bottom to top: each scroll's region then holds, besides the run, only
//! rows that are not kept or that are already in place below or above it,
//! so no move undoes another.

use super::shift::Move;
use ratatui::buffer::{Buffer, Cell};
use std::hash::{Hash, Hasher};

/// Bands taller than this are left to the nearer moves (the table of the
/// match grows with the square of the rows).
const MOST_ROWS: u16 = 400;

/// The text of each row of `buf` in `top..bottom`, hashed (styles aside:
/// a search's highlights change as its query grows), `None` for a blank
/// row, which is never worth moving.
fn row_keys(buf: &Buffer, top: u16, bottom: u16) -> Vec<Option<u64>> {
    let w = buf.area.width as usize;
    (top..bottom)
        .map(|y| {
            let row: &[Cell] = &buf.content[y as usize * w..(y as usize + 1) * w];
            if row.iter().all(|c| c.symbol() == " ") {
                return None;
            }
            let mut h = std::collections::hash_map::DefaultHasher::new();
            for c in row {
                c.symbol().hash(&mut h);
            }
            Some(h.finish())
        })
        .collect()
}

/// Pairs (old row, new row), offsets in the band, of a longest common
/// subsequence of the two bands' rows.
fn matched(old: &[Option<u64>], new: &[Option<u64>]) -> Vec<(usize, usize)> {
    let (n, m) = (old.len(), new.len());
    let same = |i: usize, j: usize| old[i].is_some() && old[i] == new[j];
    // longest[i][j]: the longest match of old[i..] and new[j..].
    let mut longest = vec![0u16; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            longest[at(i, j)] = if same(i, j) {
                longest[at(i + 1, j + 1)] + 1
            } else {
                longest[at(i + 1, j)].max(longest[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j, mut pairs) = (0, 0, Vec::new());
    while i < n && j < m {
        if same(i, j) {
            pairs.push((i, j));
            i += 1;
            j += 1;
        } else if longest[at(i + 1, j)] >= longest[at(i, j + 1)] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

/// The scrolls that put the rows of `shown` in `top..bottom` that `next`
/// still has where `next` has them, in the order to make them.
pub fn moves(shown: &Buffer, next: &Buffer, top: u16, bottom: u16) -> Vec<Move> {
    if shown.area != next.area || bottom > shown.area.height || bottom <= top + 1 {
        return Vec::new();
    }
    if bottom - top > MOST_ROWS {
        return Vec::new();
    }
    let pairs = matched(&row_keys(shown, top, bottom), &row_keys(next, top, bottom));
    // Runs of pairs moving by the same amount: (old first, new first, new
    // last, shift).
    let mut runs: Vec<(usize, usize, usize, i32)> = Vec::new();
    for (i, j) in pairs {
        let shift = i as i32 - j as i32;
        match runs.last_mut() {
            Some(run) if run.3 == shift => run.2 = j,
            _ => runs.push((i, j, j, shift)),
        }
    }
    let row = |offset: usize| top + offset as u16;
    let up = runs
        .iter()
        .filter(|r| r.3 > 0)
        .map(|&(_, first, last, shift)| Move {
            top: row(first),
            bottom: row(last) + shift as u16 + 1,
            shift,
        });
    let down = runs
        .iter()
        .rev()
        .filter(|r| r.3 < 0)
        .map(|&(old, _, last, shift)| Move {
            top: row(old),
            bottom: row(last) + 1,
            shift,
        });
    up.chain(down).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::screen::shift_rows;
    use ratatui::layout::Rect;
    use ratatui::text::Line;

    fn lines(rows: &[&str]) -> Buffer {
        let mut b = Buffer::empty(Rect::new(0, 0, 10, rows.len() as u16));
        for (y, r) in rows.iter().enumerate() {
            b.set_line(0, y as u16, &Line::from(*r), 10);
        }
        b
    }

    /// `shown` after the moves, as text.
    fn after(shown: &Buffer, next: &Buffer, top: u16, bottom: u16) -> (Vec<String>, usize) {
        let mut buf = shown.clone();
        let moves = moves(shown, next, top, bottom);
        for m in &moves {
            shift_rows(&mut buf, m.top, m.bottom, m.shift);
        }
        let text = (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect();
        (text, moves.len())
    }

    #[test]
    fn rows_gone_from_several_places_are_closed_up() {
        let shown = lines(&["q", "a", "x", "b", "c", "y", "z", "d", "e", "f"]);
        let next = lines(&["q", "a", "b", "c", "d", "e", "f", "n1", "n2", "n3"]);
        let (text, n) = after(&shown, &next, 1, 10);
        // Every kept row in place; the rows that came in are blank.
        assert_eq!(text, ["q", "a", "b", "c", "d", "e", "f", "", "", ""]);
        assert_eq!(n, 2);
    }

    #[test]
    fn rows_come_in_at_several_places() {
        let shown = lines(&["a", "b", "c", "d", "e", "f", "g"]);
        let next = lines(&["a", "n1", "b", "c", "n2", "n3", "d"]);
        let (text, n) = after(&shown, &next, 0, 7);
        assert_eq!(text, ["a", "", "b", "c", "", "", "d"]);
        assert_eq!(n, 2);
    }

    #[test]
    fn rows_moving_both_ways_do_not_undo_each_other() {
        // "b", "c" move up two rows, "e" down one, "h" up one.
        let shown = lines(&["x", "y", "b", "c", "e", "z", "w", "h"]);
        let next = lines(&["b", "c", "n", "n", "v", "e", "h", "m"]);
        let (text, _) = after(&shown, &next, 0, 8);
        assert_eq!(&text[..2], ["b", "c"]);
        assert_eq!(text[5], "e");
        assert_eq!(text[6], "h");
    }

    #[test]
    fn nothing_moves_when_nothing_is_kept_or_everything_is_in_place() {
        let shown = lines(&["a", "b", "c"]);
        assert!(moves(&shown, &shown, 0, 3).is_empty());
        assert!(moves(&shown, &lines(&["x", "y", "z"]), 0, 3).is_empty());
        // Blank rows are not matched.
        assert!(moves(&lines(&["", "a", ""]), &lines(&["", "", "a"]), 0, 3).len() == 1);
        assert!(moves(&lines(&["", "", "b"]), &lines(&["", "", "a"]), 0, 3).is_empty());
    }
}
