//! The source view's keys: opening and closing it, moving between lines,
//! hot lines and files, following call lines, and reading the file again
//! when it changed on disk.

use super::App;
use crate::profile::FileId;
use crate::tui::action::Action;
use crate::tui::source::{DiskChange, SourceView};

impl App {
    pub(super) fn toggle_source(&mut self) {
        if self.source.is_some() {
            self.source = None;
        } else if self.current.is_some() {
            self.open_source(None);
        }
    }

    pub(super) fn open_source(&mut self, file: Option<FileId>) {
        if let Some(f) = self.current {
            let view = SourceView::new(
                &self.profile,
                &self.analysis,
                &self.locator,
                f,
                self.event,
                file,
            );
            self.source = Some(view);
            let h = self.heights().3;
            if let Some(view) = self.source.as_mut() {
                view.scroll.center(h, view.rows.len());
            }
        }
    }

    /// A source file shown that was written since is read again (the
    /// selection kept); one removed stays shown as read. The message to
    /// show, if either.
    pub(super) fn check_source_on_disk(&mut self) -> Option<&'static str> {
        let view = self.source.as_ref()?;
        match view.disk_change()? {
            DiskChange::Gone => Some("the source file is gone: showing the text read before"),
            DiskChange::Changed => {
                let (file, scroll) = (view.file_id(), view.scroll);
                self.open_source(Some(file));
                if let Some(view) = self.source.as_mut() {
                    view.scroll = scroll;
                }
                Some("the source file changed on disk: read again")
            }
        }
    }

    pub(super) fn source_action(&mut self, action: Action) {
        let h = self.heights().3;
        let event = self.event;
        let Some(view) = self.source.as_mut() else {
            return;
        };
        let len = view.rows.len();
        let page = h.max(1) as isize;
        match action {
            Action::Up => view.scroll.move_by(-1, len),
            Action::Down => view.scroll.move_by(1, len),
            Action::PageUp => view.scroll.move_by(-page, len),
            Action::PageDown => view.scroll.move_by(page, len),
            Action::Top => view.scroll.select(0, len),
            Action::Bottom => view.scroll.select(len, len),
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
            Action::NextFile => {
                if view.files.len() > 1 {
                    let next = view.files[(view.file + 1) % view.files.len()];
                    self.open_source(Some(next));
                } else {
                    self.message = Some("the function has costs in one file only".into());
                }
            }
            Action::Open => match view.selected_callee() {
                Some(callee) => self.go_to(callee),
                None => self.message = Some("not a call line".into()),
            },
            Action::Close => self.source = None,
            _ => {}
        }
    }
}
