//! The assembly view's keys: opening it (`A`), moving between
//! instructions and costed ones, following a jump to its target or a
//! call to the callee's assembly, and the arrows and source lines shown.

use super::{AsmView, Row};
use crate::asm::Instruction;
use crate::tui::action::Action;
use crate::tui::app::App;
use crate::tui::views::View;

impl App {
    /// Opens the assembly view of the current function (again: closes it).
    pub(crate) fn toggle_asm(&mut self) {
        if matches!(self.views.top(), Some(View::Asm(_))) {
            self.close_asm();
            return;
        }
        match self.current.filter(|&f| self.is_function(f)) {
            Some(f) => self.open_asm(f),
            None => self.message = Some("select a function first".into()),
        }
    }

    fn open_asm(&mut self, f: crate::profile::FnId) {
        self.show_asm_at(f, None);
    }

    /// The assembly view of `f` in place of any other, at the instruction
    /// at `addr` (none: the hottest).
    pub(crate) fn show_asm_at(&mut self, f: crate::profile::FnId, addr: Option<u64>) {
        let listing = self.disasm.get_or_start(&self.profile, &self.analysis, f);
        let mut view = AsmView::loading(f);
        view.pending = addr;
        self.views.open(View::Asm(view));
        if let Some(listing) = listing {
            self.show_listing(listing);
        }
    }

    /// Shows `listing` in the assembly view waiting for it, the hottest
    /// instruction selected in the middle of the screen.
    fn show_listing(&mut self, listing: std::sync::Arc<crate::asm::Listing>) -> bool {
        let (event, rows) = (self.event, self.areas().source.body.height as usize);
        let locator = &self.locator;
        match self.views.asm_mut() {
            Some(v) if v.func == listing.function && v.listing.is_none() => {
                v.show(listing, event, locator);
                v.scroll.center(rows, v.rows.len());
                true
            }
            _ => false,
        }
    }

    fn close_asm(&mut self) {
        self.disasm.cancel();
        self.views.close_top();
    }

    /// Takes a listing made in the background into the view waiting for
    /// it; whether anything changed on screen.
    pub fn poll_background(&mut self) -> bool {
        match self.disasm.finished() {
            Some(listing) => self.show_listing(listing),
            None => false,
        }
    }

    /// Whether work runs in the background that the screen waits for.
    pub fn busy(&self) -> bool {
        self.disasm.busy()
    }

    /// Waits for the background work (tests).
    pub fn wait_background(&mut self) {
        if let Some(listing) = self.disasm.wait() {
            self.show_listing(listing);
        }
    }

    pub(crate) fn asm_action(&mut self, action: Action) {
        let page = self.areas().source.body.height.max(1) as isize;
        let event = self.event;
        let Some(view) = self.views.asm_mut() else {
            return;
        };
        let len = view.rows.len();
        if view.scroll.step(action, page, len) {
            return;
        }
        match action {
            Action::Close => self.close_asm(),
            Action::NextHot | Action::PrevHot => {
                let forward = action == Action::NextHot;
                let here = view.scroll.selected;
                let costed =
                    |r: &usize| matches!(view.rows[*r], Row::Instr(i) if view.cost(i, event) != 0);
                let found = if forward {
                    (here + 1..len).find(costed)
                } else {
                    (0..here).rev().find(costed)
                };
                match found {
                    Some(r) => view.scroll.select(r, len),
                    None => self.message = Some("no more instructions with a cost".into()),
                }
            }
            Action::AllArrows => view.all_arrows = !view.all_arrows,
            Action::SourceLines => {
                view.source_lines = !view.source_lines;
                view.rebuild();
            }
            Action::Open => {
                let Some(ins) = view
                    .selected_instruction()
                    .and_then(|i| view.listing.as_ref()?.instructions.get(i).cloned())
                else {
                    return;
                };
                self.follow(&ins);
            }
            _ => {}
        }
    }

    /// Enter on an instruction: a jump within the function to its target,
    /// a call (or a jump out) to the callee's assembly.
    fn follow(&mut self, ins: &Instruction) {
        let Some(view) = self.views.asm_mut() else {
            return;
        };
        let jump = ins
            .jumps
            .iter()
            .max_by_key(|j| j.taken.unwrap_or(j.executed));
        if let Some(j) = jump
            && view.instruction_at(j.target).is_none()
        {
            return self.asm_of(j.target_func);
        }
        if jump.is_none()
            && let Some(c) = ins.calls.iter().max_by_key(|c| c.count)
        {
            return self.asm_of(c.callee);
        }
        // A jump within the function; one the profile has no record of
        // (never run) by objdump's target.
        let target = match jump {
            Some(j) => Some(j.target),
            None => written_target(&ins.text),
        };
        let Some(i) = target.and_then(|addr| view.instruction_at(addr)) else {
            self.message = Some("not a jump or a call with a count".into());
            return;
        };
        // Remembered: Back comes back to the jump.
        self.remember();
        if let Some(view) = self.views.asm_mut() {
            view.select_instruction(i);
        }
    }

    /// Makes `f` current (remembered, as Enter in the list) and shows its
    /// assembly in place of this one.
    fn asm_of(&mut self, f: crate::profile::FnId) {
        // Remembered with this view's instruction: Back comes back to it.
        self.remember();
        self.views.close_top();
        self.set_current(f);
        self.open_asm(f);
    }
}

/// The target objdump writes after a jump's mnemonic (`jg 10df <main+0x5f>`).
fn written_target(text: &str) -> Option<u64> {
    let mut words = text.split_whitespace();
    if !words.next()?.starts_with('j') {
        return None;
    }
    u64::from_str_radix(words.next()?, 16).ok()
}
