//! Choosing the terminal scrolls that make a frame cheap to write: where
//! rows of a band moved up or down together (a list scrolled, search
//! results with rows gone from the middle), moving them with the terminal
//! leaves only the rows that came in to write. Choices are made by
//! counting the cells still to write after each candidate move, so a move
//! that drags other panes' rows along is made only when it still pays.

use super::{align, shift_rows};
use ratatui::buffer::{Buffer, Cell};

/// Bytes of one scroll: the region, a move, the line feeds, the reset.
const COST: usize = 24;
/// Moves of every band tried each way, whatever the rows say.
const NEAR: u16 = 3;
/// Moves found by matching rows tried each way, nearest first.
const MATCHED: usize = 8;

/// Row `y` of `buf`.
fn row(buf: &Buffer, y: u16) -> &[Cell] {
    let w = buf.area.width as usize;
    &buf.content[y as usize * w..(y as usize + 1) * w]
}

/// Whether two rows read the same (styles aside: the matches a search
/// highlights change as the query grows, the rows move all the same).
fn same_text(a: &[Cell], b: &[Cell]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.symbol() == y.symbol())
}

/// Cells of rows `top..bottom` of `next` that differ from `shown` once
/// those rows of `shown` move by `shift` (positive: up); rows that come in
/// are blank.
pub fn changed_after(shown: &Buffer, next: &Buffer, top: u16, bottom: u16, shift: i32) -> usize {
    let blank = Cell::default();
    (top..bottom)
        .map(|y| {
            let from = i32::from(y) + shift;
            let new = row(next, y);
            if from >= i32::from(top) && from < i32::from(bottom) {
                let old = row(shown, from as u16);
                old.iter().zip(new).filter(|(a, b)| a != b).count()
            } else {
                new.iter().filter(|c| **c != blank).count()
            }
        })
        .sum()
}

/// One terminal scroll: rows `top..bottom` moved by `shift` (positive: up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub top: u16,
    pub bottom: u16,
    pub shift: i32,
}

/// The scrolls to make in rows `top..bottom` before writing `next` over
/// `shown`, in order: the rows matched by their text put in place
/// ([`align::moves`], where each pays), then nearer moves while one pays,
/// or the nearer moves alone (a list scrolled beside a pane that changed
/// matches few whole rows), whichever leaves less to write.
pub fn plan(shown: &Buffer, next: &Buffer, top: u16, bottom: u16) -> Vec<Move> {
    let nearer = |buf: &mut Buffer, moves: &mut Vec<Move>| {
        // Each move leaves fewer cells to write, so this ends.
        while let Some((y, shift)) = next_shift(buf, next, top, bottom) {
            make(
                buf,
                moves,
                Move {
                    top: y,
                    bottom,
                    shift,
                },
            );
        }
    };
    let (mut matched, mut by_rows) = (shown.clone(), Vec::new());
    for m in align::moves(shown, next, top, bottom) {
        if pays(&matched, next, m) {
            make(&mut matched, &mut by_rows, m);
        }
    }
    nearer(&mut matched, &mut by_rows);
    let (mut near, mut by_nearer) = (shown.clone(), Vec::new());
    nearer(&mut near, &mut by_nearer);
    let cost = |buf: &Buffer, moves: &[Move]| {
        changed_after(buf, next, top, bottom, 0) + COST * moves.len()
    };
    if cost(&matched, &by_rows) < cost(&near, &by_nearer) {
        by_rows
    } else {
        by_nearer
    }
}

/// Makes `m` on `buf` (the record of the terminal) and notes it.
fn make(buf: &mut Buffer, moves: &mut Vec<Move>, m: Move) {
    shift_rows(buf, m.top, m.bottom, m.shift);
    moves.push(m);
}

/// Whether `m` leaves fewer cells to write by more than it costs.
fn pays(shown: &Buffer, next: &Buffer, m: Move) -> bool {
    let plain = changed_after(shown, next, m.top, m.bottom, 0);
    plain.saturating_sub(changed_after(shown, next, m.top, m.bottom, m.shift)) > COST
}

/// The move worth making in rows `from..bottom`: rows `y..bottom`
/// moved by `shift`, the one that saves most, if it saves more than a
/// scroll's worth of bytes. `y` is a row that differs: the first one
/// (where small moves are tried too), or a later one whose new text showed
/// in another row of the band, styles aside (rows gone or come in there).
fn next_shift(shown: &Buffer, next: &Buffer, from: u16, bottom: u16) -> Option<(u16, i32)> {
    if shown.area != next.area || bottom > shown.area.height {
        return None;
    }
    let mut first = true;
    let mut best: Option<(usize, u16, i32)> = None;
    for y in from..bottom.saturating_sub(1) {
        if row(shown, y) == row(next, y) {
            continue;
        }
        let span = bottom - y;
        let (old, new) = (row(shown, y), row(next, y));
        let up = (1..span)
            .filter(|&s| same_text(row(shown, y + s), new))
            .take(MATCHED);
        let down = (1..span)
            .filter(|&s| same_text(row(next, y + s), old))
            .take(MATCHED);
        let near = 1..=if first { NEAR.min(span - 1) } else { 0 };
        first = false;
        let candidates: Vec<i32> = up
            .chain(near.clone())
            .map(i32::from)
            .chain(down.chain(near).map(|s| -i32::from(s)))
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let plain = changed_after(shown, next, y, bottom, 0);
        for shift in candidates {
            let saved = plain.saturating_sub(changed_after(shown, next, y, bottom, shift));
            if saved > COST && best.is_none_or(|(most, _, _)| saved > most) {
                best = Some((saved, y, shift));
            }
        }
    }
    best.map(|(_, y, shift)| (y, shift))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::text::Line;

    fn lines(rows: &[&str]) -> Buffer {
        let mut b = Buffer::empty(Rect::new(0, 0, 40, rows.len() as u16));
        for (y, r) in rows.iter().enumerate() {
            b.set_line(0, y as u16, &Line::from(r.repeat(30)), 40);
        }
        b
    }

    #[test]
    fn a_list_scrolled_one_row_is_one_shift() {
        let shown = lines(&["title", "a", "b", "c", "d", "status"]);
        let next = lines(&["title", "b", "c", "d", "e", "status"]);
        assert_eq!(next_shift(&shown, &next, 1, 5), Some((1, 1)));
        assert_eq!(next_shift(&next, &shown, 1, 5), Some((1, -1)));
        // Only the row that came in differs (the cells of "e" thirty times).
        assert_eq!(changed_after(&shown, &next, 1, 5, 1), 30);
        // Nothing moved: no shift.
        assert_eq!(next_shift(&shown, &shown, 1, 5), None);
        // Everything different: no shift helps.
        let other = lines(&["title", "v", "w", "x", "y", "status"]);
        assert_eq!(next_shift(&shown, &other, 1, 5), None);
    }

    #[test]
    fn a_changed_row_above_does_not_stop_the_search() {
        // The prompt row changed; below it a row is gone.
        let shown = lines(&["/ v", "a", "b", "c", "d", "e", "f"]);
        let next = lines(&["/ ve", "a", "c", "d", "e", "f", "g"]);
        assert_eq!(next_shift(&shown, &next, 0, 7), Some((2, 1)));
    }

    #[test]
    fn rows_gone_from_the_middle_move_the_rows_below_them() {
        let shown = lines(&["q", "a", "b", "c", "d", "e", "f", "g", "h"]);
        // "c", "d" and "e" are gone (a search narrowed); "i", "j", "k" came in.
        let next = lines(&["q", "a", "b", "f", "g", "h", "i", "j", "k"]);
        assert_eq!(next_shift(&shown, &next, 1, 9), Some((3, 3)));
        // And the other way, rows come in at the middle.
        assert_eq!(next_shift(&next, &shown, 1, 9), Some((3, -3)));
        // Beyond the near moves too: seven rows gone.
        let long: Vec<String> = (0..20).map(|i| format!("{i:02}")).collect();
        let mut after = long.clone();
        after.drain(4..11);
        after.extend((0..7).map(|i| format!("n{i}")));
        let (a, b): (Vec<&str>, Vec<&str>) = (
            long.iter().map(String::as_str).collect(),
            after.iter().map(String::as_str).collect(),
        );
        assert_eq!(next_shift(&lines(&a), &lines(&b), 0, 20), Some((4, 7)));
    }
}
