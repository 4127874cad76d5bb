//! The metric columns the user chose (`m`, `[view] columns`): each a
//! metric (an event, a built-in or the user's formula) of the row's self
//! or inclusive costs, drawn beside the list's own inclusive and self
//! columns. One place says what a column shows, its header and its text.

use crate::metric::Metrics;
use crate::profile::Cost;
use std::sync::Arc;

/// At most this many chosen columns (each takes room from the name).
pub const MAX_CHOSEN: usize = 8;

/// Which of a row's costs a metric is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    Inclusive,
    Own,
}

/// A row's self and inclusive costs.
pub type Rows<'a> = (&'a [Cost], &'a [Cost]);

/// One chosen column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MetricColumn {
    /// Index into `Columns::metrics`.
    pub metric: usize,
    pub scope: Scope,
}

/// The metrics there are and the columns chosen of them.
#[derive(Clone, Debug)]
pub struct Columns {
    pub metrics: Arc<Metrics>,
    pub chosen: Vec<MetricColumn>,
}

impl Columns {
    pub fn new(metrics: Metrics) -> Self {
        Columns {
            metrics: Arc::new(metrics),
            chosen: Vec::new(),
        }
    }

    /// The header: the metric's name, `self` after it for a self column.
    pub fn header(&self, c: MetricColumn) -> String {
        let name = &self.metrics.get(c.metric).name;
        match c.scope {
            Scope::Inclusive => name.clone(),
            Scope::Own => format!("{name} self"),
        }
    }

    /// Cells a column of `header` takes: room for a rate or a count of
    /// millions, and a space before it.
    pub fn width(header: &str) -> usize {
        header.chars().count().max(9) + 1
    }

    /// The value on a row: its self or inclusive costs as the column says.
    pub fn value(&self, c: MetricColumn, own: &[Cost], inclusive: &[Cost]) -> Option<f64> {
        self.metrics.value(c.metric, pick(c, own, inclusive))
    }

    /// The cell's text (blank for a blank value).
    pub fn text(&self, c: MetricColumn, own: &[Cost], inclusive: &[Cost]) -> String {
        let m = self.metrics.get(c.metric);
        m.text(pick(c, own, inclusive), self.metrics.min_denominator)
    }

    /// A comparison's cell: the change of the column's value from the
    /// base's row to the new profile's (each `(self, inclusive)`).
    pub fn change_text(&self, c: MetricColumn, base: Rows<'_>, new: Rows<'_>) -> String {
        let m = self.metrics.get(c.metric);
        m.change_text(
            pick(c, base.0, base.1),
            pick(c, new.0, new.1),
            self.metrics.min_denominator,
        )
    }

    /// The change of the column's value (see `change_text`).
    pub fn change(&self, c: MetricColumn, base: Rows<'_>, new: Rows<'_>) -> Option<f64> {
        let m = self.metrics.get(c.metric);
        m.change(
            pick(c, base.0, base.1),
            pick(c, new.0, new.1),
            self.metrics.min_denominator,
        )
    }

    /// The events the chosen columns are computed from, in order.
    pub fn events(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for c in &self.chosen {
            self.metrics.get(c.metric).events(&mut out);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether `c` is shown.
    pub fn is_chosen(&self, c: MetricColumn) -> bool {
        self.chosen.contains(&c)
    }

    /// Shows `c`, or hides it if shown; `false` where the most columns are
    /// already shown.
    pub fn toggle(&mut self, c: MetricColumn) -> bool {
        if let Some(i) = self.chosen.iter().position(|&x| x == c) {
            self.chosen.remove(i);
            return true;
        }
        if self.chosen.len() >= MAX_CHOSEN {
            return false;
        }
        self.chosen.push(c);
        true
    }

    /// A column written `NAME` (inclusive) or `NAME:self`, as the
    /// configuration's `columns` holds them.
    pub fn parse(&self, text: &str) -> Option<MetricColumn> {
        let (name, scope) = match text.strip_suffix(":self") {
            Some(name) => (name, Scope::Own),
            None => (text, Scope::Inclusive),
        };
        Some(MetricColumn {
            metric: self.metrics.index_of(name.trim())?,
            scope,
        })
    }
}

fn pick<'a>(c: MetricColumn, own: &'a [Cost], inclusive: &'a [Cost]) -> &'a [Cost] {
    match c.scope {
        Scope::Inclusive => inclusive,
        Scope::Own => own,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_named_parsed_toggled_and_bounded() {
        let text = "events: Ir Dr D1mr\nfn=f\n1 2000 1000 30\n";
        let profile = crate::parse::load_reader("t.callgrind", text.as_bytes()).unwrap();
        let mut c = Columns::new(Metrics::of_events(&profile.events));
        let rate = c.parse("D1mrRate").unwrap();
        let own = c.parse("D1mrRate:self").unwrap();
        assert_eq!(rate.scope, Scope::Inclusive);
        assert_eq!(own.scope, Scope::Own);
        assert_eq!(c.parse("Nope"), None);
        assert_eq!(c.header(own), "D1mrRate self");
        let (s, i) = ([2000, 1000, 30], [4000, 2000, 100]);
        assert_eq!(c.text(rate, &s, &i), "5.00%");
        assert_eq!(c.text(own, &s, &i), "3.00%");
        assert!(c.toggle(rate) && c.is_chosen(rate));
        assert!(c.toggle(rate) && !c.is_chosen(rate));
        let ir = c.parse("Ir").unwrap();
        c.chosen = vec![ir; MAX_CHOSEN];
        assert!(!c.toggle(rate));
    }
}
