//! The views over the browse screen: the source view (`s`), the call and
//! caller trees (`t`, `b`) and the flame graph (`f`). Each is one module
//! with its state, its keys and its drawing; `App` holds the open ones as
//! a stack: the top one is drawn and gets the keys, and closing it shows
//! the one under it. The browse screen (the list and the call panes) is
//! under every view and always there.

pub mod asm;
pub mod flame;
pub mod source;
pub mod tree;

use super::keymap::Context;
use asm::AsmView;
use source::SourceView;
use tree::{TreeKind, TreeView};

/// One open view.
#[derive(Clone, Debug)]
pub enum View {
    Source(SourceView),
    /// The call tree, the caller tree or the flame graph (one tree each).
    Tree(TreeView),
    /// The assembly of one function.
    Asm(AsmView),
}

impl View {
    /// The keymap context of the view.
    pub fn context(&self) -> Context {
        match self {
            View::Source(_) => Context::Source,
            View::Tree(t) if t.kind == TreeKind::Flame => Context::Flame,
            View::Tree(_) => Context::Tree,
            View::Asm(_) => Context::Asm,
        }
    }
}

/// The open views, the one shown last; at most one source view and one
/// tree view (opening another replaces it).
#[derive(Clone, Debug, Default)]
pub struct Views(Vec<View>);

impl Views {
    pub fn top(&self) -> Option<&View> {
        self.0.last()
    }

    /// The tree view, if it is the one shown.
    pub fn shown_tree(&self) -> Option<&TreeView> {
        match self.top() {
            Some(View::Tree(t)) => Some(t),
            _ => None,
        }
    }

    /// The source view, if it is the one shown.
    pub fn shown_source(&self) -> Option<&SourceView> {
        match self.top() {
            Some(View::Source(s)) => Some(s),
            _ => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Shows `view` over the others, in place of one of its kind.
    pub fn open(&mut self, view: View) {
        self.0
            .retain(|v| std::mem::discriminant(v) != std::mem::discriminant(&view));
        self.0.push(view);
    }

    /// Puts `view` in the place of the open one of its kind (on top if
    /// there is none): the same view made again on other costs.
    pub fn replace(&mut self, view: View) {
        let kind = std::mem::discriminant(&view);
        match self
            .0
            .iter_mut()
            .find(|v| std::mem::discriminant(*v) == kind)
        {
            Some(slot) => *slot = view,
            None => self.0.push(view),
        }
    }

    /// Closes the tree view and gives it back.
    pub fn take_tree(&mut self) -> Option<TreeView> {
        let at = self.0.iter().position(|v| matches!(v, View::Tree(_)))?;
        match self.0.remove(at) {
            View::Tree(t) => Some(t),
            _ => None,
        }
    }

    /// Closes the view shown.
    pub fn close_top(&mut self) {
        self.0.pop();
    }

    pub fn source(&self) -> Option<&SourceView> {
        self.0.iter().find_map(|v| match v {
            View::Source(s) => Some(s),
            _ => None,
        })
    }

    pub fn source_mut(&mut self) -> Option<&mut SourceView> {
        self.0.iter_mut().find_map(|v| match v {
            View::Source(s) => Some(s),
            _ => None,
        })
    }

    pub fn tree(&self) -> Option<&TreeView> {
        self.0.iter().find_map(|v| match v {
            View::Tree(t) => Some(t),
            _ => None,
        })
    }

    pub fn tree_mut(&mut self) -> Option<&mut TreeView> {
        self.0.iter_mut().find_map(|v| match v {
            View::Tree(t) => Some(t),
            _ => None,
        })
    }

    pub fn asm_mut(&mut self) -> Option<&mut AsmView> {
        self.0.iter_mut().find_map(|v| match v {
            View::Asm(a) => Some(a),
            _ => None,
        })
    }

    pub fn close_source(&mut self) {
        self.0.retain(|v| !matches!(v, View::Source(_)));
    }

    pub fn close_tree(&mut self) {
        self.0.retain(|v| !matches!(v, View::Tree(_)));
    }

    /// Every open view, for what each must keep up to date (sizes).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut View> {
        self.0.iter_mut()
    }
}

impl View {
    /// Keeps the selection visible in `body` and makes what drawing needs
    /// (drawing cannot change a tree).
    pub fn fit(&mut self, a: &crate::analysis::Analysis, body: ratatui::layout::Rect) {
        let rows = body.height as usize;
        match self {
            View::Source(v) => v.scroll.fit(rows, v.rows.len()),
            View::Asm(v) => v.scroll.fit(rows, v.rows.len()),
            View::Tree(v) => {
                v.scroll.fit(rows, v.rows.len());
                if v.kind == TreeKind::Flame {
                    v.prepare(a, body.width, body.height);
                } else {
                    v.prepare_rows(a, rows);
                }
            }
        }
    }
}

/// Draws `view` into `pane` (the area every view takes).
pub fn draw(
    app: &super::App,
    view: &View,
    buf: &mut ratatui::buffer::Buffer,
    pane: super::layout::Pane,
) {
    match view {
        View::Source(v) => source::draw::draw(app, v, buf, pane),
        View::Tree(v) if v.kind == TreeKind::Flame => flame::draw::draw(app, buf, pane, v),
        View::Tree(v) => tree::draw::draw(app, buf, pane, v),
        View::Asm(v) => asm::draw::draw(app, v, buf, pane),
    }
}
