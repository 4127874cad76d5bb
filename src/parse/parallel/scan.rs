//! The body of a file, one chunk at a time: what each line means. What is
//! said about a line on its own (a cost line that cannot be read,
//! counters saturated or ignored, a line that is not the format's) is
//! noted for the merge to say (`notes`); what would depend on earlier
//! chunks (a position relative to one before the chunk, sums that may
//! saturate) makes the scan give up (`Bail`); a name ID defined
//! elsewhere, or nowhere, is resolved by the merge, in file order
//! (`local`). A chunk that is the whole body, read in the file's order,
//! saturates sums where that order does, and does not give up.
//!
//! What a line means goes to a `Sink`: summed for the model while loading,
//! or handed out as records when a function's detail is read again.

use super::Bail;
use super::line_kind::{Kind, is_comment_or_blank, is_cost, kind};
use super::local::Tables;
use super::notes::Notes;
pub use super::sink::{Last, LocalCall, LocalJump, Sink};
use crate::parse::fields;
use crate::parse::lines::{self, SubPos};
use crate::parse::messages;
use crate::profile::Cost;
pub use continued::{Continued, Triple};

/// Counters read in one pass without the general checks (writers put up to
/// about 30 events; lines with more take the general path).
const PLAIN: usize = 32;

/// What `line` gives at a line that begins a section (`section`): the
/// chunk ends before it.
pub const SECTION: Bail = Bail("a header line in the body");

/// What `spec` gives for a key the format does not have: `line` keeps
/// the line for the loader to warn about.
const UNKNOWN_KEY: Bail = Bail("unknown line key");

/// A `calls=` or jump line waiting for its next line, with local ids.
type Pending = crate::parse::context::Pending<u32, u32>;

mod calls;
mod continued;
mod positions;
mod specs;

/// Where a line is, with local ids (object and files 0: inherited).
pub type Context = crate::parse::context::Context<u32, u32, u32, u32>;

pub struct Scanner<S> {
    pub sink: S,
    pub tables: Tables,
    npos: usize,
    pub at: Context,
    /// The last `fn=`, if no line has used it yet: its name, file and
    /// object (local), and where its line starts. It becomes a
    /// function when a line uses it (yappi
    /// declares every name up front), which numbers the functions in the
    /// order of their first use.
    declared: Option<(u32, u32, u32, u64)>,
    pending: Pending,
    last: Last,
    /// Columns of costs (events) of the part; 0 before any `events:` line,
    /// where every cost line is an error.
    width: usize,
    /// Counters of the current line, read the general way.
    costs: Vec<Cost>,
    /// Counters of the current line, read the quick way.
    plain: [Cost; PLAIN],
    /// Lines seen so far.
    pub lines: usize,
    /// `totals:`/`summary:` lines, and the first line of each unknown
    /// `key=` (line number in the chunk, text): the loader applies them
    /// after the merge (it warns about an unknown key once in a file).
    pub trailer: Vec<(usize, Vec<u8>)>,
    /// The unknown keys met in the chunk.
    unknown_keys: Vec<Vec<u8>>,
    /// Warnings and errors the loader says at the merge.
    pub notes: Notes,
    /// Where the line that ended the scan with `SECTION` starts.
    pub section: Option<u64>,
    /// Whether the range scanned ends before a line that is not a cost
    /// line (the next chunk's `fn=`, the header of the next part), not at
    /// the file's end: a call waiting there is dropped, and said so at
    /// that line.
    pub ends_before_a_line: bool,
    /// Whether a `calls=` line still waited for its cost line at the
    /// file's end: the loader then says the file looks truncated.
    pub waits_at_end: bool,
    /// Whether a sum saturated (said once, as the loader says it once).
    saturated: bool,
}

impl<S: Sink> Scanner<S> {
    pub fn new(sink: S, npos: usize, width: usize, last: Last) -> Self {
        Self::with_tables(sink, Tables::default(), npos, width, last)
    }

    /// `new` with tables made beforehand (`Tables::with_room`).
    pub fn with_tables(sink: S, tables: Tables, npos: usize, width: usize, last: Last) -> Self {
        Scanner {
            sink,
            tables,
            npos,
            at: Context::default(),
            declared: None,
            pending: Pending::None,
            last,
            width,
            costs: Vec::with_capacity(width),
            plain: [0; PLAIN],
            lines: 0,
            trailer: Vec::new(),
            unknown_keys: Vec::new(),
            notes: Notes::default(),
            section: None,
            ends_before_a_line: false,
            waits_at_end: false,
            saturated: false,
        }
    }

    /// Applies one line (without its `\n`) that starts at byte `offset`.
    pub fn line(&mut self, offset: u64, raw: &[u8]) -> Result<(), Bail> {
        self.lines += 1;
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        if is_cost(line) {
            return self.cost_line(line);
        }
        if is_comment_or_blank(line) {
            return Ok(());
        }
        self.flush(Some(self.lines))?;
        match kind(line) {
            Kind::Spec(key, value) => match self.spec(offset, key, value) {
                Err(UNKNOWN_KEY) => {
                    // Meaningless beyond a warning (`bb=` of `--dump-bbs`).
                    if !self.unknown_keys.iter().any(|k| k == key) {
                        self.unknown_keys.push(key.to_vec());
                        self.trailer.push((self.lines, line.to_vec()));
                    }
                    Ok(())
                }
                done => done,
            },
            Kind::Trailer => {
                self.trailer.push((self.lines, line.to_vec()));
                Ok(())
            }
            Kind::Section => {
                // Not this chunk's: it ends before the line.
                self.lines -= 1;
                self.section = Some(offset);
                Err(SECTION)
            }
            Kind::Unreadable => {
                if self.notes.stray.is_none() {
                    self.notes.stray = Some((self.lines, messages::line_start(line)));
                }
                self.notes
                    .error(self.lines, messages::not_a_profile_line(line));
                Ok(())
            }
        }
    }

    /// A line over `MAX_LINE` bytes, which the reader skips: said at its
    /// line; what waits for a cost line waits on.
    pub fn overlong_line(&mut self) {
        self.lines += 1;
        self.notes.error(self.lines, messages::overlong_line());
    }

    /// Ends the chunk: a jump still waiting for its position row is at the
    /// last position (as before any other line). A `fn=` no line used is
    /// no function (the next chunk starts with another `fn=`).
    pub fn finish(&mut self) -> Result<(), Bail> {
        let next = self.ends_before_a_line.then_some(self.lines + 1);
        self.flush(next)
    }

    /// Makes the function of a `fn=` that waited for its first use.
    fn use_declared(&mut self) {
        if let Some((name, file, obj, offset)) = self.declared.take() {
            let func = self.tables.function(name, file, obj);
            self.sink.block(func, offset, self.last);
            self.at.func = Some(func);
        }
    }

    /// Settles what waits for a cost line at the `next` line, which is not
    /// one, or at the file's end (`None`): a call is dropped, and said so
    /// at that line, or by the loader at the file's end.
    fn flush(&mut self, next: Option<usize>) -> Result<(), Bail> {
        match (self.pending, next) {
            (Pending::None, _) => Ok(()),
            (Pending::SkipNext | Pending::Call { .. }, None) => {
                self.pending = Pending::None;
                self.waits_at_end = true;
                Ok(())
            }
            (Pending::SkipNext | Pending::SkipJumpRow, _) => {
                self.pending = Pending::None;
                Ok(())
            }
            (Pending::Call { .. }, Some(line)) => {
                self.pending = Pending::None;
                let message = messages::CALL_WITHOUT_COST_LINE.into();
                self.notes.error(line, message);
                Ok(())
            }
            // `pending_jump` takes the jump from `pending`.
            (Pending::Jump { .. }, _) => {
                let at = self.known_last()?;
                self.pending_jump(at)
            }
        }
    }

    /// Notes the error `message` at this line.
    fn error(&mut self, message: &str) -> Result<(), Bail> {
        self.notes.error(self.lines, message.into());
        Ok(())
    }

    fn known_last(&self) -> Result<[u64; 3], Bail> {
        self.all_known(self.last.known)?;
        Ok(self.last.at)
    }

    fn all_known(&self, known: u8) -> Result<(), Bail> {
        let all = (1u8 << self.npos) - 1;
        if known & all == all {
            Ok(())
        } else {
            Err(Bail::POSITION_BEFORE)
        }
    }

    /// Applies the line at the start of `text`, which holds it whole with
    /// its `\n`; returns its length with the `\n`. A function's own cost
    /// line is read in one pass that finds its end too; any other line is
    /// cut at its `\n` first.
    #[inline]
    pub fn step(&mut self, offset: u64, text: &[u8]) -> Result<usize, Bail> {
        if let Some(len) = self.own_cost_line(text) {
            self.lines += 1;
            return Ok(len + 1);
        }
        let end = memchr::memchr(b'\n', text).unwrap_or(text.len());
        self.line(offset, &text[..end])?;
        Ok(end + 1)
    }

    /// `cost_line` for the common case (a plain line of self cost, nothing
    /// pending) on text running past the line's end; its length, or `None`
    /// (nothing changed) for anything else.
    #[inline(always)]
    fn own_cost_line(&mut self, text: &[u8]) -> Option<usize> {
        let has_func = self.at.func.is_some() || self.declared.is_some();
        if !matches!(self.pending, Pending::None) || !has_func || self.width == 0 {
            return None;
        }
        if !matches!(text.first(), Some(b'0'..=b'9' | b'+' | b'-' | b'*')) {
            return None;
        }
        let (at, known, i) = match self.npos {
            1 => self.known_positions::<1>(text)?,
            2 => self.known_positions::<2>(text)?,
            _ => self.positions(text)?,
        };
        let (n, len) = fields::plain_counters(&text[i..], &mut self.plain)?;
        if n > self.width || text.get(i + len) != Some(&b'\n') {
            return None;
        }
        // The long way, if taken from here, would make it first too. Asked
        // first: `take` writes the slot back on every line (1% of a real
        // profile's load instructions, counted with callgrind).
        if self.declared.is_some() {
            self.use_declared();
        }
        let row = self.sink.row(self.at.func?)?;
        if !super::sums::add(row, &self.plain[..n]) {
            return None; // read again the long way, which saturates or gives up
        }
        self.last = Last { at, known };
        Some(i + len)
    }

    fn cost_line(&mut self, line: &[u8]) -> Result<(), Bail> {
        self.use_declared();
        if self.width == 0 {
            // No `events:` line yet: what waits for a cost line waits on.
            return self.error(messages::COST_LINE_BEFORE_EVENTS);
        }
        let quick = self.positions(line).and_then(|(at, known, i)| {
            let (n, _) = fields::plain_counters(&line[i..], &mut self.plain)?;
            (n <= self.width).then_some((at, known, n))
        });
        let (at, known, costs) = match quick {
            Some((at, known, n)) => (at, known, &self.plain[..n]),
            None => match self.general_cost_line(line)? {
                Some((at, known)) if self.costs.iter().any(|&c| c < 0) => {
                    self.sink.negative()?;
                    (at, known, &self.costs[..])
                }
                Some((at, known)) => (at, known, &self.costs[..]),
                None => return Ok(()),
            },
        };
        // The common case, a function's own cost: summed straight into its
        // row (a sum that overflows is left to `self_cost`).
        if let (Pending::None, Some(func)) = (self.pending, self.at.func)
            && let Some(row) = self.sink.row(func)
            && super::sums::add(row, costs)
        {
            self.last = Last { at, known };
            return Ok(());
        }
        let added = match std::mem::replace(&mut self.pending, Pending::None) {
            // The row of a `calls=` or jump line that could not be used.
            Pending::SkipNext => Ok(()),
            Pending::SkipJumpRow if costs.is_empty() => Ok(()),
            Pending::None | Pending::SkipJumpRow => {
                let Some(func) = self.at.func else {
                    return self.error(messages::COST_LINE_WITHOUT_FUNCTION);
                };
                self.last = Last { at, known };
                self.sink
                    .self_cost(&self.tables, func, self.at.line_file, at, costs)
            }
            Pending::Call {
                callee,
                count,
                target,
            } => {
                self.all_known(known)?;
                let Some(caller) = self.at.func else {
                    return self.error(messages::CALL_WITHOUT_FUNCTION);
                };
                let call = LocalCall {
                    caller,
                    callee,
                    count,
                    file: self.at.line_file,
                    at,
                    target,
                };
                self.sink.call(&self.tables, call, costs)
            }
            pending @ Pending::Jump { .. } => {
                self.all_known(known)?;
                self.pending = pending;
                self.pending_jump(at)
            }
        };
        if self.sink.saturated() && !self.saturated {
            self.saturated = true;
            self.notes.warn(self.lines, messages::SUM_SATURATED.into());
        }
        added
    }

    /// A cost line by the general rules (`lines::cost_line`):
    /// signs, hex, numbers beyond 64 bits (saturated), more counters than
    /// events (the extra ones ignored), each noted as it would say it; the
    /// position and which columns are known, with the counters in `costs`.
    /// A line it cannot read or whose position leaves the 64-bit range is
    /// noted and skipped (`None`), dropping what waited for it.
    #[cold]
    #[inline(never)]
    fn general_cost_line(&mut self, line: &[u8]) -> Result<Option<([u64; 3], u8)>, Bail> {
        let mut pos = [SubPos::Same; 3];
        let parsed = lines::cost_line(line, self.npos, &mut pos, &mut self.costs);
        // A jump's row is skipped only if it has no counters.
        if matches!(self.pending, Pending::SkipJumpRow) {
            self.pending = Pending::None;
            if self.costs.is_empty() {
                return Ok(None);
            }
        }
        let overflows = match parsed {
            Ok(overflows) => overflows,
            Err(rest) => {
                self.pending = Pending::None;
                let message = messages::unreadable_cost_line(rest);
                self.notes.error(self.lines, message);
                return Ok(None);
            }
        };
        let Last { mut at, mut known } = self.last;
        for (k, &p) in pos.iter().enumerate().take(self.npos) {
            if !self.resolve(k, p, &mut at, &mut known)? {
                self.pending = Pending::None;
                return Ok(None);
            }
        }
        if overflows > 0 {
            self.notes
                .warn(self.lines, messages::saturated_counters(overflows));
        }
        if self.costs.len() > self.width {
            let message = messages::extra_counters(self.costs.len(), self.width);
            self.notes.warn(self.lines, message);
            self.costs.truncate(self.width);
        }
        Ok(Some((at, known)))
    }

    /// Column `k` of a position, `p` (absolute, `*` or relative to the
    /// column's last value), into `at`; false (noted) where it leaves the
    /// 64-bit range. A column relative to one before the chunk gives up.
    fn resolve(
        &mut self,
        k: usize,
        p: SubPos,
        at: &mut [u64; 3],
        known: &mut u8,
    ) -> Result<bool, Bail> {
        let (bit, last) = (1u8 << k, at[k]);
        if !matches!(p, SubPos::Abs(_)) && *known & bit == 0 {
            return Err(Bail::POSITION_BEFORE);
        }
        let value = match p {
            SubPos::Abs(v) => Some(v),
            SubPos::Same => Some(last),
            SubPos::Rel { negative, delta } => relative(last, negative, delta).ok(),
        };
        let Some(value) = value else {
            let message = messages::position_out_of_range(p, last);
            self.notes.error(self.lines, message);
            return Ok(false);
        };
        (at[k], *known) = (value, *known | bit);
        Ok(true)
    }

    fn pending_jump(&mut self, at: [u64; 3]) -> Result<(), Bail> {
        match self.at.take_jump(&mut self.pending, at) {
            Some(jump) => self.sink.jump(&self.tables, jump),
            None => Ok(()),
        }
    }
}

fn relative(last: u64, negative: bool, delta: u64) -> Result<u64, Bail> {
    let v = if negative {
        last.checked_sub(delta)
    } else {
        last.checked_add(delta)
    };
    v.ok_or(Bail("relative position out of range"))
}
