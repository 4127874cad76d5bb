//! What `y` and `Y` copy (the selected function's full name; the selected
//! place as `file:line`) and `T` (template arguments folded in names).
//! The text goes to `App::clipboard`, cleaned (see `clipboard`), for the
//! terminal layer to send with OSC 52; the status line says what was
//! copied.

use super::App;
use crate::analysis::source::function_source;
use crate::profile::{FileId, FnId};
use crate::tui::clipboard;
use crate::tui::views::source::Row;
use crate::tui::widgets::fit_middle;

impl App {
    /// The function the user has selected: the selected node's in a
    /// tree view or flame graph, the source view's, else the one selected
    /// in the focused pane (what the details line shows).
    pub fn selected_function(&self) -> Option<FnId> {
        if let Some(view) = self.views.shown_tree() {
            return view.tree.node(view.node()).func;
        }
        if let Some(view) = self.views.shown_source() {
            return Some(view.func);
        }
        self.selected()
    }

    pub(super) fn copy_name(&mut self) {
        match self.selected_function() {
            Some(f) => self.copy(self.name(f).into_owned()),
            None => self.message = Some("no function selected".into()),
        }
    }

    /// `file:line` of the source view's selected line, else of the
    /// selected function's first line with a cost in its own file, else
    /// its file.
    pub(super) fn copy_place(&mut self) {
        let place = self.selected_line().or_else(|| {
            let f = self.selected_function()?;
            let file = self.profile.functions.get(f.index())?.file;
            let line = function_source(&self.profile, &self.analysis, f)
                .lines
                .iter()
                .filter(|l| l.file == file && l.line > 0 && l.cost.iter().any(|&c| c != 0))
                .map(|l| l.line)
                .min();
            Some((file, line))
        });
        let Some((file, line)) = place else {
            self.message = Some("no function selected".into());
            return;
        };
        let name = self.profile.file_name(file);
        if name == "???" {
            self.message = Some("the profile names no file for this function".into());
            return;
        }
        let text = match line {
            Some(n) => format!("{name}:{n}"),
            None => name.to_string(),
        };
        self.copy(text);
    }

    /// The file and line of the source view's selected row (none while a
    /// tree view is drawn over it).
    fn selected_line(&self) -> Option<(FileId, Option<u64>)> {
        let view = self.views.shown_source()?;
        let d = &view.data;
        let (file, line) = match view.rows.get(view.scroll.selected)? {
            Row::Line { line, .. } => (view.file_id(), *line),
            Row::Call(i) => d.calls.get(*i).map(|c| (c.file, c.line))?,
            Row::Jump(i) => d.jumps.get(*i).map(|j| (j.file, j.line))?,
            Row::Addr(i) => d.instrs.get(*i).map(|x| (x.file, x.line))?,
            Row::Note(_) => return None,
        };
        (line > 0).then_some((file, Some(line)))
    }

    /// Puts `text` (cleaned, cut to `clipboard::MAX_COPY`) on the
    /// clipboard; the message says when it was cut, and how much of it
    /// went.
    fn copy(&mut self, text: String) {
        let (text, whole) = clipboard::clip(&text);
        let shown = fit_middle(&text, 32, self.theme.glyphs());
        self.message = Some(if whole > text.len() {
            format!(
                "copied the first {} of {} of {shown} to the clipboard (OSC 52 takes no more)",
                clipboard::size_text(text.len()),
                clipboard::size_text(whole)
            )
        } else {
            format!("copied {shown} to the clipboard (OSC 52)")
        });
        self.clipboard = Some(text);
    }

    pub(super) fn toggle_demangle(&mut self) {
        if self.demangled.is_empty() {
            self.message = Some("no mangled names in this profile".into());
            return;
        }
        self.raw_names = !self.raw_names;
        self.message = Some(if self.raw_names {
            "names as the profile writes them (D: demangled)".into()
        } else {
            "mangled names demangled (D: as the profile writes them)".into()
        });
    }

    pub(super) fn toggle_fold(&mut self) {
        self.fold_templates = !self.fold_templates;
        self.message = Some(if self.fold_templates {
            "template arguments folded (T: unfold; the details line keeps them)".into()
        } else {
            "template arguments shown in full".into()
        });
    }
}
