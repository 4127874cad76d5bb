//! Which cycle a function belongs to, kept for the members only: a bit per
//! function says whether it is in any, and (member, cycle) pairs sorted by
//! member say which. Few functions are in a cycle; four bytes for each of
//! the others would be a megabyte per 300,000 functions.

use super::Cycle;
use crate::profile::FnId;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CycleIndex {
    in_cycle: Vec<u64>,
    /// (member, index into the cycles), sorted.
    members: Vec<(u32, u32)>,
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
        CycleIndex { in_cycle, members }
    }

    /// The index into the cycles of `f`'s cycle.
    pub fn get(&self, f: FnId) -> Option<u32> {
        let word = self.in_cycle.get(f.index() / 64)?;
        if word & (1 << (f.index() % 64)) == 0 {
            return None;
        }
        let at = (self.members).binary_search_by_key(&f.0, |&(m, _)| m);
        at.ok().map(|i| self.members[i].1)
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
