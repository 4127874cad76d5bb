//! The groups popup's state (`o`): the groups of the current grouping
//! with their costs (in a comparison, each side's too), and their order,
//! which the popup's own sort keys change (`S`, `i`, `c`, `a`: self,
//! inclusive, number of functions, name; again: reversed) without
//! touching the list's. Imports no view code.

use super::{App, Popup, SortKey};
use crate::analysis::groups::{Group, Grouping, Membership, costs, sides};
use crate::profile::Cost;
use crate::tui::scroll::Scroll;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::sync::Arc;

/// The groups popup's state.
#[derive(Default)]
pub struct Groups {
    /// How the functions are grouped.
    pub by: Grouping,
    /// The groups with a cost (made when the popup opens), in `sort`.
    pub list: Vec<Group>,
    /// In a comparison, per group of `list`: the group in the base and in
    /// the new profile.
    pub sides: Vec<[Group; 2]>,
    /// The groups' order (the popup's sort keys), apart from the list's.
    pub sort: GroupSort,
    /// Each grouping's membership once made (it does not change with the
    /// event or the parts).
    memberships: FxHashMap<Grouping, Arc<Membership>>,
}

/// How the groups are sorted: by self cost unless the user chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupSort {
    pub key: SortKey,
    pub reversed: bool,
}

impl Default for GroupSort {
    fn default() -> Self {
        GroupSort {
            key: SortKey::SelfCost,
            reversed: false,
        }
    }
}

impl GroupSort {
    /// Whether the popup shows inclusive costs where it shows one kind (a
    /// comparison): when sorted by them, else self costs.
    pub fn inclusive(self) -> bool {
        self.key == SortKey::Inclusive
    }
}

impl App {
    /// The groups popup (`o`), on the groups of the current grouping.
    pub(super) fn open_groups(&mut self) {
        self.compute_groups();
        self.popup = Some(Popup::Groups(Scroll::default()));
    }

    /// The groups of the current grouping, with their costs (each side's
    /// in a comparison), sorted; groups with no cost left out.
    pub(super) fn compute_groups(&mut self) {
        let members = match self.groups.memberships.get(&self.groups.by) {
            Some(m) => m.clone(),
            None => {
                let m = Arc::new(Membership::new(&self.profile, self.groups.by));
                self.groups.memberships.insert(self.groups.by, m.clone());
                m
            }
        };
        let groups = costs(&self.profile, &self.analysis, &members);
        let mut rows: Vec<(Group, Option<[Group; 2]>)> = match &self.diff {
            Some(joined) => {
                let [base, new] = sides(joined, &self.profile, &members);
                groups
                    .into_iter()
                    .zip(base.into_iter().zip(new))
                    .map(|(g, (b, n))| (g, Some([b, n])))
                    .collect()
            }
            None => groups.into_iter().map(|g| (g, None)).collect(),
        };
        let a = &self.analysis;
        rows.retain(|(g, sides)| {
            let costs = |g: &Group| g.self_cost.iter().chain(&g.inclusive).any(|&c| c != 0);
            g.functions.iter().any(|&f| a.is_active(f))
                || sides.as_ref().is_some_and(|s| s.iter().any(costs))
        });
        let (groups, sides): (Vec<Group>, Vec<Option<[Group; 2]>>) = rows.into_iter().unzip();
        self.groups.list = groups;
        self.groups.sides = sides.into_iter().flatten().collect();
        self.sort_groups();
    }

    /// A group's cost of the current event in the base and in the new
    /// profile (self, or inclusive); `None` outside a comparison.
    pub fn group_sides(&self, i: usize, inclusive: bool) -> Option<(Cost, Cost)> {
        let [base, new] = self.groups.sides.get(i)?;
        let pick = |g: &Group, col: Option<usize>| {
            let row = if inclusive {
                &g.inclusive
            } else {
                &g.self_cost
            };
            col.and_then(|c| row.get(c).copied()).unwrap_or(0)
        };
        let base_col = self.diff.as_ref().and_then(|j| {
            j.comparison
                .events
                .iter()
                .find(|e| e.new == self.event)
                .map(|e| e.base)
        });
        Some((pick(base, base_col), pick(new, Some(self.event))))
    }

    /// A popup sort key: the groups sorted by it (again: reversed), the
    /// first one selected; the list is left as it was.
    pub(super) fn set_group_sort(&mut self, key: SortKey) {
        let s = &mut self.groups.sort;
        s.reversed = s.key == key && !s.reversed;
        s.key = key;
        self.sort_groups();
        if let Some(Popup::Groups(s)) = self.popup.as_mut() {
            *s = Scroll::default();
        }
    }

    /// Puts the groups in the order of `group_sort` on the current event:
    /// costs (or changes, in a comparison) by size and counts largest
    /// first, names from A; ties by name.
    pub(super) fn sort_groups(&mut self) {
        let sort = self.groups.sort;
        let event = self.event;
        let signed = self.analysis.is_signed(event);
        let key = |i: usize| -> i128 {
            let g = &self.groups.list[i];
            match sort.key {
                SortKey::Name => 0,
                SortKey::Calls => g.functions.len() as i128,
                SortKey::Inclusive | SortKey::SelfCost | SortKey::Column(_) => {
                    let inclusive = sort.key == SortKey::Inclusive;
                    if let Some((b, n)) = self.group_sides(i, inclusive) {
                        return crate::format::change(b, n).abs();
                    }
                    let row = if inclusive {
                        &g.inclusive
                    } else {
                        &g.self_cost
                    };
                    let v = row.get(event).copied().unwrap_or(0);
                    i128::from(if signed { v.saturating_abs() } else { v })
                }
            }
        };
        let mut order: Vec<(Reverse<i128>, usize)> = (0..self.groups.list.len())
            .map(|i| (Reverse(key(i)), i))
            .collect();
        let names = |i: usize| (&self.groups.list[i].short, &self.groups.list[i].name);
        order.sort_by(|x, y| x.0.cmp(&y.0).then_with(|| names(x.1).cmp(&names(y.1))));
        if sort.reversed {
            order.reverse();
        }
        let mut groups: Vec<Option<Group>> = std::mem::take(&mut self.groups.list)
            .into_iter()
            .map(Some)
            .collect();
        let mut sides: Vec<Option<[Group; 2]>> = std::mem::take(&mut self.groups.sides)
            .into_iter()
            .map(Some)
            .collect();
        for &(_, i) in &order {
            self.groups.list.extend(groups[i].take());
            if let Some(s) = sides.get_mut(i).and_then(Option::take) {
                self.groups.sides.push(s);
            }
        }
    }
}
