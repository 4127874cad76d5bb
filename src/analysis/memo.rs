//! Values made from an analysis the first time a view asks for them and
//! kept beside it, one per event column: an analysis never changes once
//! made, so what is derived from it holds as long as it does.

use std::sync::{Arc, OnceLock};

/// One lazily made value per event column.
pub struct PerColumn<T>(Box<[OnceLock<Arc<T>>]>);

impl<T> PerColumn<T> {
    pub fn new(width: usize) -> Self {
        PerColumn((0..width).map(|_| OnceLock::new()).collect())
    }

    /// The value of column `col`, made by `make` the first time (a column
    /// out of range is made each time and not kept).
    pub fn get_or(&self, col: usize, make: impl FnOnce() -> T) -> Arc<T> {
        match self.0.get(col) {
            Some(cell) => Arc::clone(cell.get_or_init(|| Arc::new(make()))),
            None => Arc::new(make()),
        }
    }
}

/// A copy starts empty: what it is cloned for (a grown or changed
/// analysis) may not derive the same values.
impl<T> Clone for PerColumn<T> {
    fn clone(&self) -> Self {
        Self::new(self.0.len())
    }
}

impl<T> std::fmt::Debug for PerColumn<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let made = self.0.iter().filter(|c| c.get().is_some()).count();
        write!(f, "PerColumn({made} of {} made)", self.0.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_is_made_once_and_a_copy_starts_empty() {
        let memo = PerColumn::new(2);
        let mut made = 0;
        let first = memo.get_or(1, || {
            made += 1;
            7
        });
        let again = memo.get_or(1, || {
            made += 1;
            8
        });
        assert_eq!((*first, *again, made), (7, 7, 1));
        assert_eq!(*memo.get_or(5, || 9), 9);
        assert_eq!(*memo.clone().get_or(1, || 3), 3);
    }
}
