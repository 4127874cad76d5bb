//! The flame graph's keys: boxes by direction, zoom in and out, the
//! self shading, and the boxes of the search (`n`, `N`).

use crate::tui::action::Action;
use crate::tui::app::App;

impl App {
    /// Flame graph: selects the next (or previous) box below the zoomed one
    /// whose function matches the search, left to right, top-down.
    pub(crate) fn step_box(&mut self, forward: bool) {
        let Some(view) = self.tree() else {
            return;
        };
        let t = &view.tree;
        let mut boxes = Vec::new();
        let extent = |n| view.extent(n);
        let mut stack = vec![view.zoom];
        while let Some(n) = stack.pop() {
            let node = t.node(n);
            if let Some(f) = node.func
                && self.search.tier(&self.name(f)).is_some()
            {
                boxes.push(n);
            }
            if !node.recursive {
                stack.extend(t.children_of(n).rev().filter(|&k| extent(k) > 0));
            }
        }
        if boxes.is_empty() {
            self.message = Some("no box matches the search".into());
            return;
        }
        let at = boxes.iter().position(|&n| n == view.selected);
        let i = match (at, forward) {
            (None, true) => 0,
            (None, false) => boxes.len() - 1,
            (Some(i), true) => (i + 1) % boxes.len(),
            (Some(i), false) => (i + boxes.len() - 1) % boxes.len(),
        };
        self.message = Some(format!("box {} of {} matching", i + 1, boxes.len()));
        if let Some(view) = self.views.tree_mut() {
            view.selected = boxes[i];
        }
    }

    /// A key in the flame graph.
    pub(crate) fn flame_action(&mut self, action: Action) {
        let Some(view) = self.views.tree_mut() else {
            return;
        };
        match action {
            // Out of the zoom in one key, back to the whole graph (a
            // newcomer took 13 presses to climb out a level at a time).
            Action::Close if view.zoom != 0 => view.zoom = 0,
            Action::Back => view.zoom = view.tree.node(view.zoom).parent().unwrap_or(0),
            Action::Close => self.views.close_tree(),
            Action::Open => view.zoom = view.selected,
            Action::ToggleSelf => view.show_self = !view.show_self,
            Action::Up | Action::Down | Action::ShiftLeft | Action::ShiftRight => {
                view.step(action);
            }
            _ => {}
        }
    }
}
