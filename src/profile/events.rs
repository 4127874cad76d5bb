//! Event types: the raw counters named by `events:` lines, and derived ones
//! defined by `event: NAME = EXPR` as sums of raw counters.

/// One term of a derived event: `factor * raw event`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DerivedTerm {
    pub factor: i64,
    /// Index of a raw event in `EventTable::events`.
    pub event: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The short name used in `events:` lines, e.g. `Ir`.
    pub name: String,
    /// The long name from `event: Ir : Instruction Fetches`, if any.
    pub long_name: Option<String>,
    /// For a derived event, its definition in raw events; `None` for raw ones.
    pub formula: Option<Vec<DerivedTerm>>,
}

impl Event {
    pub fn is_derived(&self) -> bool {
        self.formula.is_some()
    }
}

/// All events of a profile: raw ones first (the union over all parts, in
/// order of first appearance), then derived ones.
#[derive(Clone, Debug, Default)]
pub struct EventTable {
    pub events: Vec<Event>,
}

impl EventTable {
    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Number of raw events; they occupy indexes `0..raw_count()`.
    pub fn raw_count(&self) -> usize {
        self.events.iter().take_while(|e| !e.is_derived()).count()
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.events.iter().position(|e| e.name == name)
    }

    /// Index of the raw event `name`, added at the end of the raw events if new.
    /// Only valid while no derived event has been added.
    pub fn raw_index(&mut self, name: &str) -> usize {
        if let Some(i) = self.index_of(name) {
            return i;
        }
        self.events.push(Event {
            name: name.to_string(),
            long_name: None,
            formula: None,
        });
        self.events.len() - 1
    }

    /// Fills the derived columns of `row` (length `len()`) from its raw ones.
    pub fn derive(&self, row: &mut [i64]) {
        self.derive_noting(row, &mut |_| {});
    }

    /// `derive`, telling `cut` each column whose formula passed the
    /// signed 64-bit range (its value is then saturated, not exact).
    pub fn derive_noting(&self, row: &mut [i64], cut: &mut dyn FnMut(usize)) {
        let raw = self.raw_count();
        for i in raw..self.events.len().min(row.len()) {
            if let Some(terms) = &self.events[i].formula {
                let mut saturated = false;
                row[i] = terms.iter().fold(0i64, |sum, t| {
                    let term = t.factor.checked_mul(row[t.event]).unwrap_or_else(|| {
                        saturated = true;
                        t.factor.saturating_mul(row[t.event])
                    });
                    sum.checked_add(term).unwrap_or_else(|| {
                        saturated = true;
                        sum.saturating_add(term)
                    })
                });
                if saturated {
                    cut(i);
                }
            }
        }
    }
}
