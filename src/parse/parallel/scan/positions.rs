//! The position columns at the start of a cost line, as the scanner's
//! quick reading takes them (plain digits, `*`, `+N`, `-N`, `0x` hex).

use super::{Scanner, Sink, UNUSUAL, relative};
use crate::parse::fields::{absolute, blanks, digits};
use crate::parse::parallel::Bail;

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
            return self.positions(line).ok();
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

    /// The subpositions at the start of `line`: the columns, which of them
    /// are known, and where the counters begin.
    #[inline(always)]
    pub(super) fn positions(&self, line: &[u8]) -> Result<([u64; 3], u8, usize), Bail> {
        let mut at = self.last.at;
        let mut known = self.last.known;
        let mut i = 0;
        for (k, column) in at.iter_mut().enumerate().take(self.npos) {
            let bit = 1u8 << k;
            *column = match line.get(i) {
                Some(b'*') if known & bit != 0 => {
                    i += 1;
                    *column
                }
                Some(&sign @ (b'+' | b'-')) if known & bit != 0 => {
                    let delta = digits(line, &mut i, 1).ok_or(UNUSUAL)?;
                    relative(*column, sign == b'-', delta)?
                }
                Some(b'0'..=b'9') => absolute(line, &mut i).ok_or(UNUSUAL)?,
                _ => return Err(Bail("unusual or relative-to-unknown position")),
            };
            known |= bit;
            if !blanks(line, &mut i) {
                return Err(UNUSUAL);
            }
        }
        Ok((at, known, i))
    }
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
