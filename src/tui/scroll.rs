//! A selection and scroll offset over a list of known length: the only
//! per-list UI state, so that only the visible rows need to be built.

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scroll {
    pub selected: usize,
    pub offset: usize,
}

impl Scroll {
    /// The keys that move a selection the same way in every list: a row,
    /// a page of `page` rows, the first or the last. Whether `action` was
    /// one of them.
    pub fn step(&mut self, action: super::action::Action, page: isize, len: usize) -> bool {
        use super::action::Action;
        match action {
            Action::Up => self.move_by(-1, len),
            Action::Down => self.move_by(1, len),
            Action::PageUp => self.move_by(-page, len),
            Action::PageDown => self.move_by(page, len),
            Action::Top => self.select(0, len),
            Action::Bottom => self.select(len, len),
            _ => return false,
        }
        true
    }

    /// Moves the selection by `delta` rows, clamped to `0..len`.
    pub fn move_by(&mut self, delta: isize, len: usize) {
        let target = self.selected.saturating_add_signed(delta);
        self.select(target, len);
    }

    /// Selects row `i`, clamped to `0..len`.
    pub fn select(&mut self, i: usize, len: usize) {
        self.selected = i.min(len.saturating_sub(1));
    }

    /// Adjusts the offset so the selection is visible in `height` rows.
    pub fn fit(&mut self, height: usize, len: usize) {
        self.select(self.selected, len);
        if height == 0 {
            return;
        }
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        // No empty space below the last row when the list could fill it.
        self.offset = self.offset.min(len.saturating_sub(height));
    }

    /// Puts the selection near the middle of `height` rows.
    pub fn center(&mut self, height: usize, len: usize) {
        self.select(self.selected, len);
        self.offset = self.selected.saturating_sub(height / 2);
        self.fit(height, len);
    }

    /// Shows the list from its top when that keeps the selection on the
    /// first page, else puts it near the middle: a newcomer reads the
    /// first row shown as the first of the list.
    pub fn top_or_center(&mut self, height: usize, len: usize) {
        self.select(self.selected, len);
        if self.selected < height {
            self.offset = 0;
        } else {
            self.center(height, len);
        }
    }

    /// The visible index range for `height` rows, whatever the stored
    /// offset (drawing never changes it).
    pub fn window(&self, height: usize, len: usize) -> (usize, std::ops::Range<usize>) {
        let mut s = *self;
        s.fit(height, len);
        let end = (s.offset + height).min(len);
        (s.selected, s.offset..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_selection_visible() {
        let mut s = Scroll::default();
        s.move_by(15, 100);
        s.fit(10, 100);
        assert_eq!((s.selected, s.offset), (15, 6));
        s.move_by(-1000, 100);
        s.fit(10, 100);
        assert_eq!((s.selected, s.offset), (0, 0));
        s.select(99, 100);
        assert_eq!(s.window(10, 100), (99, 90..100));
        assert_eq!(Scroll::default().window(10, 0), (0, 0..0));
    }
}
