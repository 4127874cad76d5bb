//! The keys of the call and caller trees, and opening any tree view
//! (`t`, `b`, `f`): the flame graph is made here too, from the same tree.

use super::{TreeKind, TreeView};
use crate::profile::FnId;
use crate::tui::action::Action;
use crate::tui::app::App;
use crate::tui::views::View;

impl App {
    /// The view `kind` from `from` on the current costs and columns.
    pub(crate) fn tree_view(&self, kind: TreeKind, from: Option<FnId>) -> TreeView {
        let events = self.columns.events();
        TreeView::new(
            kind,
            &self.analysis,
            self.event,
            from,
            self.diff.as_ref(),
            events,
        )
    }

    /// Opens a tree view of the current function (`t`, `b`, `f`).
    pub(crate) fn open_tree(&mut self, kind: TreeKind) {
        // The key that opened a view closes it, as `s` the source view:
        // a way out without Esc, which GNU screen may hold back.
        if self.tree().is_some_and(|t| t.kind == kind) {
            self.views.close_tree();
            return;
        }
        let mut current = self.current.filter(|&f| self.is_function(f));
        // With a filter, the call tree and the flame graph are the whole
        // program's, on the paths to the filter's functions (as pprof's
        // -focus).
        if self.filter.is_some() && kind != TreeKind::Callers {
            current = None;
        }
        if kind == TreeKind::Callers && current.is_none() {
            self.message = Some("select a function first: the caller tree starts from it".into());
            return;
        }
        let mut view = self.tree_view(kind, current);
        if let Some(filter) = &self.filter {
            view.keep = Some(filter.clone());
            view.rebuild();
            view.scroll.select(0, view.rows.len());
        }
        self.views.open(View::Tree(view));
    }

    /// A key in the call or caller tree.
    pub(crate) fn tree_action(&mut self, action: Action) {
        let page = self.areas().source.body.height.max(1) as isize;
        let Some(view) = self.views.tree_mut() else {
            return;
        };
        let a = &self.analysis;
        if view.scroll.step(action, page, view.rows.len()) {
            return;
        }
        match action {
            Action::Close | Action::Back => self.views.close_tree(),
            Action::Open => {
                if let Some(f) = view.tree.node(view.node()).func {
                    self.views.close_tree();
                    self.go_to(f);
                }
            }
            Action::Expand => view.expand(a),
            Action::Collapse => view.collapse(),
            Action::ExpandAll => view.expand_all(a),
            _ => {}
        }
    }
}
