//! The assembly view's state, and the disassembler that makes listings in
//! the background and keeps them.

use crate::analysis::Analysis;
use crate::asm::{AsmOptions, Cache, Cancelled, Listing};
use crate::profile::{FnId, Profile};
use crate::tui::scroll::Scroll;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex};

/// One row of the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// Why the listing is incomplete (an index into `Listing::notes`).
    Note(usize),
    /// The source line the next instructions come from.
    Source { file: u32, line: u64 },
    /// An index into `Listing::instructions`.
    Instr(usize),
}

#[derive(Clone, Debug)]
pub struct AsmView {
    pub func: FnId,
    /// `None` while the listing is being made.
    pub listing: Option<Arc<Listing>>,
    pub rows: Vec<Row>,
    pub scroll: Scroll,
    /// Every jump's arrow drawn (`*`), not only the selected and hottest.
    pub all_arrows: bool,
    /// Source lines between the instructions (`v`).
    pub source_lines: bool,
    /// Per file of the listing, the text of the lines it shows, where the
    /// file was found.
    pub texts: Vec<Option<crate::source_text::Excerpt>>,
    /// The instruction to select when the listing arrives (history), in
    /// place of the hottest.
    pub pending: Option<u64>,
}

impl AsmView {
    pub fn loading(func: FnId) -> Self {
        AsmView {
            func,
            listing: None,
            rows: Vec::new(),
            scroll: Scroll::default(),
            all_arrows: false,
            source_lines: true,
            texts: Vec::new(),
            pending: None,
        }
    }

    /// Shows `listing`, the hottest instruction in `event` selected, with
    /// the text of its source lines from the files `locator` finds.
    pub fn show(&mut self, listing: Arc<Listing>, event: usize, locator: &crate::locate::Locator) {
        self.texts = read_texts(&listing, locator);
        self.listing = Some(listing);
        self.rebuild();
        if let Some(i) = self.pending.take().and_then(|a| self.instruction_at(a)) {
            return self.select_instruction(i);
        }
        let hottest = (self.rows.iter().enumerate())
            .filter_map(|(r, row)| match row {
                Row::Instr(i) => Some((r, self.cost(*i, event))),
                _ => None,
            })
            .max_by_key(|&(r, c)| (c, std::cmp::Reverse(r)));
        if let Some((r, _)) = hottest {
            self.scroll.select(r, self.rows.len());
        }
    }

    /// The rows again (source lines switched), the same instruction kept.
    pub fn rebuild(&mut self) {
        let at = self.selected_instruction();
        self.rows.clear();
        let Some(l) = self.listing.clone() else {
            return;
        };
        self.rows.extend((0..l.notes.len()).map(Row::Note));
        let mut last = None;
        for (i, ins) in l.instructions.iter().enumerate() {
            if self.source_lines && ins.source.is_some() && ins.source != last {
                if let Some((file, line)) = ins.source {
                    self.rows.push(Row::Source { file, line });
                }
                last = ins.source;
            }
            self.rows.push(Row::Instr(i));
        }
        if let Some(i) = at {
            self.select_instruction(i);
        }
    }

    /// A cost of instruction `i` in column `event`.
    pub fn cost(&self, i: usize, event: usize) -> i64 {
        (self.listing.as_ref())
            .and_then(|l| l.instructions.get(i))
            .and_then(|ins| ins.cost.get(event).copied())
            .unwrap_or(0)
    }

    /// The selected instruction's address.
    pub fn selected_address(&self) -> Option<u64> {
        let i = self.selected_instruction()?;
        Some(self.listing.as_ref()?.instructions.get(i)?.addr)
    }

    pub fn selected_instruction(&self) -> Option<usize> {
        match self.rows.get(self.scroll.selected)? {
            Row::Instr(i) => Some(*i),
            _ => None,
        }
    }

    pub fn select_instruction(&mut self, i: usize) {
        if let Some(r) = self.rows.iter().position(|&row| row == Row::Instr(i)) {
            self.scroll.select(r, self.rows.len());
        }
    }

    /// The text of line `line` of file `file`, where it was read.
    pub fn text(&self, file: u32, line: u64) -> Option<&str> {
        self.texts.get(file as usize)?.as_ref()?.get(line)
    }

    /// The row of the instruction at `addr`, if the function has one.
    pub fn instruction_at(&self, addr: u64) -> Option<usize> {
        let l = self.listing.as_ref()?;
        l.instructions.binary_search_by_key(&addr, |i| i.addr).ok()
    }
}

/// Most bytes of source text read for one listing.
const TEXT_BUDGET: usize = 4 << 20;

/// The lines the listing's instructions come from, per file.
fn read_texts(
    l: &Listing,
    locator: &crate::locate::Locator,
) -> Vec<Option<crate::source_text::Excerpt>> {
    use crate::source_text::{Wanted, read};
    (0..l.files.len())
        .map(|f| {
            let lines = (l.instructions.iter())
                .filter_map(|i| i.source)
                .filter(|&(file, _)| file as usize == f)
                .map(|(_, line)| line);
            let wanted = Wanted::around(lines, 0);
            let path = locator.locate(&l.files[f]).ok()?;
            read(&path, &wanted, TEXT_BUDGET).ok()
        })
        .collect()
}

/// A listing being made on another thread.
struct Job {
    func: FnId,
    cancel: Arc<AtomicBool>,
    /// In a mutex only for `App` to be `Sync` (one thread reads it).
    done: Mutex<Receiver<Result<Listing, Cancelled>>>,
}

/// Makes listings in the background and keeps them per function.
#[derive(Default)]
pub struct Disassembler {
    pub options: AsmOptions,
    cache: Cache,
    job: Option<Job>,
}

impl Disassembler {
    /// The listing of `f` if kept; else starts making it (cancelling
    /// another in the making) and gives `None`.
    pub fn get_or_start(
        &mut self,
        profile: &Arc<Profile>,
        analysis: &Arc<Analysis>,
        f: FnId,
    ) -> Option<Arc<Listing>> {
        if let Some(l) = self.cache.get(f) {
            return Some(l);
        }
        if self.job.as_ref().is_some_and(|j| j.func == f) {
            return None;
        }
        self.cancel();
        let (send, done) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let (p, a, options, flag) = (
            profile.clone(),
            analysis.clone(),
            self.options.clone(),
            cancel.clone(),
        );
        let spawned = std::thread::Builder::new()
            .name("cgtui-asm".into())
            .spawn(move || {
                let _ = send.send(crate::asm::listing(&p, &a, f, &options, &flag));
            });
        if spawned.is_ok() {
            self.job = Some(Job {
                func: f,
                cancel,
                done: Mutex::new(done),
            });
        }
        None
    }

    /// Stops the listing in the making, if any.
    pub fn cancel(&mut self) {
        if let Some(job) = self.job.take() {
            job.cancel.store(true, Ordering::Relaxed);
        }
    }

    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// A listing finished since the last call, kept.
    pub fn finished(&mut self) -> Option<Arc<Listing>> {
        let received = {
            let job = self.job.as_ref()?;
            let done = job.done.lock().ok()?;
            done.try_recv()
        };
        let listing = match received {
            Err(TryRecvError::Empty) => return None,
            Ok(Ok(listing)) => Arc::new(listing),
            // Cancelled, or the thread died: nothing to show.
            Ok(Err(Cancelled)) | Err(TryRecvError::Disconnected) => {
                self.job = None;
                return None;
            }
        };
        self.job = None;
        self.cache.insert(listing.clone());
        Some(listing)
    }

    /// Waits for the listing in the making (tests and benchmarks).
    pub fn wait(&mut self) -> Option<Arc<Listing>> {
        let job = self.job.as_ref()?;
        let result = job.done.lock().ok().and_then(|d| d.recv().ok());
        self.job = None;
        let listing = Arc::new(result?.ok()?);
        self.cache.insert(listing.clone());
        Some(listing)
    }
}
