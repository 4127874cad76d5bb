//! The position columns of a cost line or a call's target, as the
//! scanner's quick reading takes them (plain digits, `*`, `+N`, `-N`, `0x`
//! hex); anything else is left to the loader's own rule (`lines`).

use super::{Last, Scanner, Sink, relative};
use crate::parse::fields::{absolute, blanks, digits};

impl<S: Sink> Scanner<S> {
    /// `positions` for `N` columns once all are known (after a chunk's first
    /// line, nearly always): no per-column checks. Each column is its own
    /// value, not an element of an array written one at a time and then
    /// read whole, which the processor cannot forward from its stores to
    /// the wider read (`perf annotate` showed a fifth of the scan waiting
    /// there; 2% less processor time on the 100 MB profile).
    #[inline(always)]
    pub(super) fn known_positions<const N: usize>(
        &self,
        line: &[u8],
    ) -> Option<([u64; 3], u8, usize)> {
        let all = (1u8 << N) - 1;
        if self.last.known & all != all {
            return self.positions(line);
        }
        let [a, b, c] = self.last.at;
        let mut i = 0;
        let a = known_column(line, &mut i, a)?;
        let b = if N > 1 {
            known_column(line, &mut i, b)?
        } else {
            b
        };
        let c = if N > 2 {
            known_column(line, &mut i, c)?
        } else {
            c
        };
        Some(([a, b, c], self.last.known, i))
    }

    /// The position at the start of a cost line: its columns, which of
    /// them are known, and where the counters begin.
    #[inline(always)]
    pub(super) fn positions(&self, line: &[u8]) -> Option<([u64; 3], u8, usize)> {
        let mut i = 0;
        let Last { at, known } = columns(line, &mut i, self.last, self.npos, false)?;
        Some((at, known, i))
    }
}

/// Up to `npos` columns of a position from `line[*i..]`, each followed by
/// blanks, from the position before (`last`): `*` and `+N`/`-N` only in
/// columns it knows. Fewer columns where the line ends first only if
/// `may_end` (a target may leave the last ones as they were).
#[inline(always)]
pub(super) fn columns(
    line: &[u8],
    i: &mut usize,
    Last { mut at, mut known }: Last,
    npos: usize,
    may_end: bool,
) -> Option<Last> {
    for (k, column) in at.iter_mut().enumerate().take(npos) {
        let bit = 1u8 << k;
        match line.get(*i) {
            None if may_end => break,
            Some(b'0'..=b'9') => {}
            _ if known & bit == 0 => return None,
            _ => {}
        }
        *column = known_column(line, i, *column)?;
        known |= bit;
    }
    Some(Last { at, known })
}

/// A column of a position whose value before is `last` (`*`, relative or
/// absolute), and the blanks after it.
#[inline(always)]
fn known_column(line: &[u8], i: &mut usize, last: u64) -> Option<u64> {
    let v = match line.get(*i)? {
        b'*' => {
            *i += 1;
            last
        }
        &sign @ (b'+' | b'-') => {
            let delta = digits(line, i, 1)?;
            relative(last, sign == b'-', delta).ok()?
        }
        b'0'..=b'9' => absolute(line, i)?,
        _ => return None,
    };
    blanks(line, i).then_some(v)
}
