//! Which cycle a function belongs to, kept for the members only: a bit per
//! function says whether it is in any, the members before each word of
//! bits are counted, and the members' cycles are listed in function order,
//! so a member's place in that list is the count before its word plus the
//! bits before its own. Few functions are in a cycle in most profiles;
//! four bytes for each of the others would be a megabyte per 300,000
//! functions. Where nearly all are (a recursive program), a look-up is
//! still a few operations, as it is called for every call edge.

use super::Cycle;
use crate::profile::FnId;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CycleIndex {
    in_cycle: Vec<u64>,
    /// Members before each word of `in_cycle`.
    before: Vec<u32>,
    /// Each member's index into the cycles, in function order.
    cycle: Vec<u32>,
}

impl CycleIndex {
    pub fn new(cycles: &[Cycle]) -> Self {
        let mut members: Vec<(u32, u32)> = (cycles.iter().enumerate())
            .flat_map(|(i, c)| c.members.iter().map(move |m| (m.0, i as u32)))
            .collect();
        members.sort_unstable();
        let words = members.last().map_or(0, |&(m, _)| m as usize / 64 + 1);
        let mut in_cycle = vec![0u64; words];
        for &(m, _) in &members {
            in_cycle[m as usize / 64] |= 1 << (m % 64);
        }
        let mut before = Vec::with_capacity(words);
        let mut count = 0;
        for word in &in_cycle {
            before.push(count);
            count += word.count_ones();
        }
        CycleIndex {
            in_cycle,
            before,
            cycle: members.iter().map(|&(_, c)| c).collect(),
        }
    }

    /// The index into the cycles of `f`'s cycle.
    #[inline]
    pub fn get(&self, f: FnId) -> Option<u32> {
        let (w, bit) = (f.index() / 64, f.index() % 64);
        let word = *self.in_cycle.get(w)?;
        if word & (1 << bit) == 0 {
            return None;
        }
        let rank = self.before[w] + (word & ((1 << bit) - 1)).count_ones();
        self.cycle.get(rank as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_find_their_cycle_and_others_none() {
        let cycle = |members: &[u32]| Cycle {
            number: 0,
            members: members.iter().map(|&m| FnId(m)).collect(),
            self_cost: Vec::new(),
            inclusive: Vec::new(),
            called: 0,
        };
        let index = CycleIndex::new(&[cycle(&[70, 3]), cycle(&[64, 200, 5])]);
        let got: Vec<Option<u32>> = [3, 70, 5, 64, 200, 0, 4, 63, 65, 199, 201, 100_000]
            .iter()
            .map(|&f| index.get(FnId(f)))
            .collect();
        let none = [None; 7];
        assert_eq!(got[..5], [Some(0), Some(0), Some(1), Some(1), Some(1)]);
        assert_eq!(got[5..], none);
        assert_eq!(CycleIndex::default().get(FnId(0)), None);
    }
}
