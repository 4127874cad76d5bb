//! The column chooser's actions (`m`): a metric's column shown or hidden,
//! and the list sorted by one.

use super::{App, SortKey};
use crate::tui::columns::{MAX_CHOSEN, MetricColumn, Scope};

impl App {
    /// Shows or hides metric `metric`'s inclusive (or `own`: self) column;
    /// the list sorted by a column just hidden goes back to inclusive cost.
    pub(super) fn toggle_column(&mut self, metric: usize, own: bool) {
        let scope = if own { Scope::Own } else { Scope::Inclusive };
        let column = MetricColumn { metric, scope };
        if !self.columns.toggle(column) {
            self.too_many_columns();
        } else if self.browse.sort == SortKey::Column(column) {
            self.set_sort(SortKey::Inclusive);
        }
        self.columns_changed();
    }

    /// An open tree view is valued in the events the columns now need.
    fn columns_changed(&mut self) {
        if let Some(view) = self.views.tree_mut() {
            view.revalue(&self.analysis, self.columns.events());
        }
    }

    /// Sorts the list by metric `metric`'s inclusive column, shown if it
    /// was not (the same column again: reversed).
    pub(super) fn sort_by_column(&mut self, metric: usize) {
        let column = MetricColumn {
            metric,
            scope: Scope::Inclusive,
        };
        if !self.columns.is_chosen(column) && !self.columns.toggle(column) {
            return self.too_many_columns();
        }
        self.set_sort(SortKey::Column(column));
        self.columns_changed();
    }

    fn too_many_columns(&mut self) {
        self.message = Some(format!(
            "at most {MAX_CHOSEN} metric columns: hide one first"
        ));
    }
}
