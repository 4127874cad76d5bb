//! The `calls=` and jump lines of a chunk and their target positions:
//! what cannot be used is noted, and the row after the line skipped.

use super::positions::columns;
use super::{Last, Pending, Scanner, Sink};
use crate::parse::fields;
use crate::parse::lines;
use crate::parse::messages;
use crate::parse::parallel::Bail;

impl<S: Sink> Scanner<S> {
    /// A `calls=` line: what cannot be used is noted and its cost line
    /// skipped (`SkipNext`).
    pub(super) fn calls(&mut self, value: &[u8]) -> Result<(), Bail> {
        let (count, overflow, rest) = match fields::count(value) {
            Some((count, rest)) => (count, false, rest),
            None => match lines::count_then_target(value) {
                Ok((rest, n)) => (n.value, n.overflow, rest),
                Err(_) => {
                    return self.skip(Pending::SkipNext, messages::UNREADABLE_CALL_COUNT.into());
                }
            },
        };
        let Some(callee) = self.at.callee else {
            return self.skip(Pending::SkipNext, messages::CALL_WITHOUT_CALLEE.into());
        };
        let Some(target) = self.target(rest)? else {
            self.pending = Pending::SkipNext;
            return Ok(());
        };
        if overflow {
            let message = messages::SATURATED_CALL_COUNT.into();
            self.notes.warn(self.lines, message);
        }
        self.pending = Pending::Call {
            callee,
            count,
            target,
        };
        Ok(())
    }

    /// A `jump=`/`jcnd=` line: what cannot be used is noted and its
    /// position row skipped (`SkipJumpRow`).
    pub(super) fn jump(&mut self, conditional: bool, value: &[u8]) -> Result<(), Bail> {
        let (taken, executed, rest) = match fields::jump_counts(conditional, value) {
            Some(counts) => counts,
            None => match lines::jump_counts(conditional, value) {
                Ok((rest, (t, e))) => {
                    if t.overflow || e.is_some_and(|e| e.overflow) {
                        let message = messages::SATURATED_JUMP_COUNT.into();
                        self.notes.warn(self.lines, message);
                    }
                    (t.value, e.map(|e| e.value), rest)
                }
                Err(_) => {
                    let key = if conditional { "jcnd" } else { "jump" };
                    return self.skip(Pending::SkipJumpRow, messages::unreadable_jump_counts(key));
                }
            },
        };
        let Some(func) = self.at.func else {
            return self.skip(Pending::SkipJumpRow, messages::JUMP_WITHOUT_FUNCTION.into());
        };
        let Some(target) = self.target(rest)? else {
            self.pending = Pending::SkipJumpRow;
            return Ok(());
        };
        let tables = &mut self.tables;
        let function = |name, file, obj| tables.function(name, file, obj);
        self.pending = self.at.jump(func, (target, taken, executed), function);
        Ok(())
    }

    /// Notes the error `message` at this line, whose next row `skip` skips.
    fn skip(&mut self, skip: Pending, message: String) -> Result<(), Bail> {
        self.pending = skip;
        self.notes.error(self.lines, message);
        Ok(())
    }

    /// Target subpositions (fewer than declared keep the last ones as they
    /// were): `None` (noted) where they cannot be read.
    #[inline]
    fn target(&mut self, text: &[u8]) -> Result<Option<[u64; 3]>, Bail> {
        match self.quick_target(text) {
            Some(at) => Ok(Some(at)),
            None => self.general_target(text),
        }
    }

    /// `target` by the parser of subpositions (`lines::subpos`), for what
    /// the quick reading declines.
    #[cold]
    #[inline(never)]
    fn general_target(&mut self, text: &[u8]) -> Result<Option<[u64; 3]>, Bail> {
        let Last { mut at, mut known } = self.last;
        let mut rest = text.trim_ascii();
        for k in 0..self.npos {
            if rest.is_empty() {
                break;
            }
            let Ok((after, p)) = lines::subpos(rest) else {
                self.notes
                    .error(self.lines, messages::unreadable_target(rest));
                return Ok(None);
            };
            if !self.resolve(k, p, &mut at, &mut known)? {
                return Ok(None);
            }
            rest = after.trim_ascii_start();
        }
        self.all_known(known)?;
        Ok(Some(at))
    }

    /// `target` for fields of plain digits separated by blanks, every
    /// column known.
    #[inline]
    fn quick_target(&self, text: &[u8]) -> Option<[u64; 3]> {
        let mut i = 0;
        fields::skip_blanks(text, &mut i);
        let Last { at, known } = columns(text, &mut i, self.last, self.npos, true)?;
        self.all_known(known).ok()?;
        Some(at)
    }
}
