//! Filtering the list and search to some functions: those of a group
//! (`o`), or those a pattern matches (`F`, typed in the search prompt):
//! names containing the text (lower case matches either case),
//! `re:REGEX` for a regular expression, `!TEXT` for the names that do not
//! contain it, `>N%` for functions of at least N percent of the total
//! (inclusive, current event). One filter at a time; Esc clears it.

use super::App;
use crate::profile::FnId;
use std::sync::Arc;

/// The functions a filter keeps, and what the header says of it.
#[derive(Clone, Debug)]
pub struct Filter {
    pub label: String,
    keep: Arc<Vec<bool>>,
}

impl Filter {
    pub fn new(label: String, keep: Vec<bool>) -> Self {
        Filter {
            label,
            keep: Arc::new(keep),
        }
    }

    /// Whether `f` (a function or a cycle's row) is kept: cycles' rows are
    /// not.
    pub fn keeps(&self, f: FnId) -> bool {
        self.keep.get(f.index()).copied().unwrap_or(false)
    }

    pub fn count(&self) -> usize {
        self.keep.iter().filter(|&&k| k).count()
    }
}

impl App {
    /// Applies the filter the search prompt's query describes (`F`).
    pub(super) fn filter_by_query(&mut self) {
        let query = self.search.query().trim().to_string();
        let n = self.profile.functions.len();
        // Whether each function's shown name passes `test`.
        let each = |app: &App, test: &dyn Fn(&str) -> bool| -> Vec<bool> {
            (0..n)
                .map(|i| test(app.function_name(FnId::from_index(i))))
                .collect()
        };
        let filter = if query.is_empty() {
            None
        } else if let Some(pattern) = query.strip_prefix("re:") {
            match regex::RegexBuilder::new(pattern)
                .size_limit(1 << 20)
                .build()
            {
                Ok(re) => Some(Filter::new(
                    format!("matching /{pattern}/"),
                    each(self, &|name| re.is_match(name)),
                )),
                Err(e) => {
                    self.message = Some(format!("not a regular expression: {e}"));
                    return;
                }
            }
        } else if let Some(text) = query.strip_prefix('!') {
            Some(Filter::new(
                format!("without \"{text}\""),
                each(self, &|name| !name.contains(text)),
            ))
        } else if let Some(pct) = query.strip_prefix('>') {
            // The same rule as `--threshold`: NaN, infinities and numbers
            // outside 0..=100 are no threshold.
            let Ok(pct) = crate::cli::parse_percent(pct.trim_end_matches('%')) else {
                self.message = Some("a threshold is >N% (N from 0 to 100)".into());
                return;
            };
            let total = self.analysis.totals.get(self.event).copied().unwrap_or(0);
            let floor = (total.saturating_abs() as f64 * pct / 100.0).ceil() as i64;
            let a = &self.analysis;
            Some(Filter::new(
                format!("at least {pct}% inclusive"),
                (0..n)
                    .map(|i| {
                        let row = a.inclusive(FnId::from_index(i));
                        row.get(self.event).copied().unwrap_or(0).saturating_abs() >= floor
                    })
                    .collect(),
            ))
        } else {
            // Lower case matches either case, as in the search.
            let lower = query.to_lowercase();
            let keep = if lower == query {
                each(self, &|name| name.to_lowercase().contains(&lower))
            } else {
                each(self, &|name| name.contains(query.as_str()))
            };
            Some(Filter::new(format!("containing \"{query}\""), keep))
        };
        self.set_filter(filter);
    }

    /// Lists only the functions of group `i` of the popup.
    pub(super) fn filter_by_group(&mut self, i: usize) {
        let Some(group) = self.groups.list.get(i) else {
            return;
        };
        if self.groups.by == crate::analysis::groups::Grouping::None {
            return self.set_filter(None);
        }
        let mut keep = vec![false; self.profile.functions.len()];
        for &f in &group.functions {
            keep[f.index()] = true;
        }
        let label = format!("of {} {}", self.groups.by.label(), group.name);
        self.set_filter(Some(Filter::new(label, keep)));
    }

    /// Sets (or clears) the filter: the list and the search keep its
    /// functions only.
    pub(super) fn set_filter(&mut self, filter: Option<Filter>) {
        self.message = Some(match &filter {
            Some(f) => format!("{} functions {} (Esc: all)", f.count(), f.label),
            None => "every function listed".into(),
        });
        self.filter = filter;
        self.search_order_stale = true;
        self.resort();
        self.browse.list.select(0, self.browse.order.len());
        if let Some(&f) = self.browse.order.first() {
            self.set_current(f);
        }
    }
}
