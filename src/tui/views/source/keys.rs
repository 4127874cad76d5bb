//! The source view's keys: opening and closing it, moving between lines,
//! hot lines and files, following call and jump lines (remembered, so Back
//! returns to the same line), and reading the file again when it changed
//! on disk.

use super::{Body, DiskChange, Row, SourceView};
use crate::analysis::diff::source::function_source_change;
use crate::profile::{FileId, FnId};
use crate::tui::action::Action;
use crate::tui::app::App;

impl App {
    pub(crate) fn toggle_source(&mut self) {
        if self.source().is_some() {
            self.views.close_source();
        } else if self.current.is_some() {
            self.open_source(None);
        }
    }

    pub(crate) fn open_source(&mut self, file: Option<FileId>) {
        if let Some(f) = self.current.filter(|&f| !self.is_function(f)) {
            self.views.close_source();
            self.message = Some(format!(
                "{} has no source of its own: go to one of its members",
                self.name(f)
            ));
            return;
        }
        if let Some(f) = self.current {
            let view = match &self.diff {
                Some(joined) => SourceView::with_data(
                    &self.profile,
                    &self.locator,
                    f,
                    self.event,
                    file,
                    function_source_change(joined, &self.profile, f),
                ),
                None => SourceView::new(
                    &self.profile,
                    &self.analysis,
                    &self.locator,
                    f,
                    self.event,
                    file,
                ),
            };
            // Where the file was looked for and how to show it: on the
            // status line too, since the view opens at the hottest line,
            // below the notes that say it.
            if let Body::Missing(why) = &view.body {
                self.message = Some(why.clone());
            }
            self.views.open(crate::tui::views::View::Source(view));
            self.source_shift = 0;
            let h = self.source_rows();
            if let Some(view) = self.views.source_mut() {
                view.scroll.center(h, view.rows.len());
            }
        }
    }

    /// A source file shown that was written since is read again (the
    /// selection kept); one removed stays shown as read. The message to
    /// show, if either.
    pub(crate) fn check_source_on_disk(&mut self) -> Option<&'static str> {
        let view = self.source()?;
        match view.disk_change()? {
            DiskChange::Gone => Some("the source file is gone: showing the text read before"),
            DiskChange::Changed => {
                let (file, scroll, shift) = (view.file_id(), view.scroll, self.source_shift);
                self.open_source(Some(file));
                if let Some(view) = self.views.source_mut() {
                    view.scroll = scroll;
                }
                self.source_shift = shift;
                Some("the source file changed on disk: read again")
            }
        }
    }

    /// Rows of source text on screen.
    fn source_rows(&self) -> usize {
        self.areas().source.body.height as usize
    }

    pub(crate) fn source_action(&mut self, action: Action) {
        let h = self.source_rows();
        let event = self.event;
        let Some(view) = self.views.source_mut() else {
            return;
        };
        let len = view.rows.len();
        let page = h.max(1) as isize;
        if view.scroll.step(action, page, len) {
            return;
        }
        match action {
            Action::NextHot | Action::PrevHot => {
                match view.next_hot(event, action == Action::NextHot) {
                    Some(i) => {
                        view.scroll.selected = i;
                        if i < view.scroll.offset || i >= view.scroll.offset + h {
                            view.scroll.center(h, len);
                        }
                    }
                    None => self.message = Some("no more lines with a cost".into()),
                }
            }
            Action::NextFile | Action::PrevFile => {
                let n = view.files.len();
                if n > 1 {
                    let step = if action == Action::NextFile { 1 } else { n - 1 };
                    let next = view.files[(view.file + step) % n];
                    self.open_source(Some(next));
                } else {
                    self.message = Some("the function has costs in one file only".into());
                }
            }
            Action::Open => match view.rows.get(view.scroll.selected) {
                Some(Row::Call(i)) => {
                    if let Some(callee) = view.data.calls.get(*i).map(|c| c.callee) {
                        self.go_to(callee);
                    }
                }
                Some(Row::Jump(i)) => {
                    if let Some(j) = view.data.jumps.get(*i) {
                        let (func, file, line) = (j.target_func, j.target_file, j.target_line);
                        self.follow_jump(func, file, line);
                    }
                }
                _ => self.message = Some("not a call or jump line".into()),
            },
            Action::ShiftLeft => {
                self.source_shift = self.source_shift.saturating_sub(shift_step(self.size.0))
            }
            Action::ShiftRight => {
                let step = shift_step(self.size.0);
                let longest = longest_text(&self.profile, view);
                let most = longest.saturating_sub(step).max(self.source_shift);
                self.source_shift = (self.source_shift + step).min(most);
            }
            Action::Close => self.views.close_source(),
            _ => {}
        }
    }
}

/// Cells `<` and `>` scroll the source text by: a quarter of the width.
fn shift_step(width: u16) -> usize {
    (usize::from(width) / 4).max(4)
}

/// Cells of the longest text the view shows: source lines, and call
/// lines, whose callee names can be long.
fn longest_text(profile: &crate::profile::Profile, view: &SourceView) -> usize {
    use crate::tui::widgets::cells;
    view.rows
        .iter()
        .map(|r| match r {
            Row::Line { text: Some(t), .. } => cells(t),
            Row::Call(i) => view
                .data
                .calls
                .get(*i)
                .map_or(0, |c| cells(profile.fn_name(c.callee)) + 40),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

impl App {
    /// Goes to line `line` of `file` in `func` (a jump's target),
    /// remembering where the user was.
    fn follow_jump(&mut self, func: FnId, file: FileId, line: u64) {
        self.remember();
        if self.current != Some(func) {
            self.set_current(func);
        }
        if self.source().is_some_and(|v| v.file_id() != file) {
            self.open_source(Some(file));
        }
        let h = self.source_rows();
        let Some(view) = self.views.source_mut() else {
            return;
        };
        let found = view
            .rows
            .iter()
            .position(|r| matches!(r, Row::Line { line: l, .. } if *l == line));
        match found {
            Some(i) => {
                view.scroll.selected = i;
                if i < view.scroll.offset || i >= view.scroll.offset + h {
                    view.scroll.center(h, view.rows.len());
                }
            }
            None => self.message = Some(format!("line {line} is not shown")),
        }
    }
}
