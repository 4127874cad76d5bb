//! How the browser shows costs and names when it opens: the `[view]` table
//! of the configuration file. A key added here is a field, its default and
//! one line of `App::start_with`; serde refuses every key not listed.

use super::{App, SortKey};

/// The list's sort on opening.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartSort {
    #[default]
    Inclusive,
    #[serde(rename = "self")]
    SelfCost,
    Calls,
    Name,
}

/// What the browser shows first (each can be changed by its key later).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct ViewDefaults {
    /// The event shown and sorted by (`e`/`E` later); unset: the first.
    pub event: Option<String>,
    /// The list's sort (`i`, `S`, `c`, `a` later); unset: by inclusive
    /// cost, or by the change of self cost in a comparison.
    pub sort: Option<StartSort>,
    /// Costs as percent of the total (`%`).
    pub percent: bool,
    /// C++ template arguments folded to `<…>` (`T`).
    pub fold_templates: bool,
    /// Mangled names shown demangled (`D`).
    pub demangle: bool,
    /// Metric columns beside the list's costs (`m`): `NAME` for the
    /// inclusive value, `NAME:self` for the self value.
    pub columns: Vec<String>,
}

impl Default for ViewDefaults {
    fn default() -> Self {
        ViewDefaults {
            event: None,
            sort: None,
            percent: false,
            fold_templates: false,
            demangle: true,
            columns: Vec::new(),
        }
    }
}

impl App {
    /// Shows what `view` asks for. An event the profile lacks leaves the
    /// first one shown and says so on the status line.
    pub fn start_with(&mut self, view: &ViewDefaults) {
        self.percent = view.percent;
        self.fold_templates = view.fold_templates;
        self.raw_names = !view.demangle;
        let mut unknown = Vec::new();
        for name in &view.columns {
            match self.columns.parse(name) {
                Some(c) if !self.columns.is_chosen(c) => {
                    self.columns.toggle(c);
                }
                Some(_) => {}
                None => unknown.push(crate::format::printable(name).into_owned()),
            }
        }
        if !unknown.is_empty() {
            self.message = Some(format!(
                "the configuration's columns are not metrics of this profile: {}",
                unknown.join(", ").chars().take(80).collect::<String>()
            ));
        }
        if let Some(name) = &view.event {
            match self.event_named(name) {
                Some(e) if e != self.event => {
                    self.event = e;
                    self.costs_changed();
                }
                Some(_) => {}
                None => {
                    let name: String = name.chars().take(40).collect();
                    self.message = Some(format!(
                        "the configuration's event `{}` is not in this profile",
                        crate::format::printable(&name)
                    ));
                }
            }
        }
        let sort = match view.sort {
            // The sort the app opened with (a comparison's is by self).
            None => self.browse.sort,
            Some(StartSort::Inclusive) => SortKey::Inclusive,
            Some(StartSort::SelfCost) => SortKey::SelfCost,
            Some(StartSort::Calls) => SortKey::Calls,
            Some(StartSort::Name) => SortKey::Name,
        };
        if sort != self.browse.sort {
            self.set_sort(sort);
        }
    }

    /// The user's metrics (`--metric`, `[metrics]`): those already events
    /// (sums added by `metric::add_sums_as_events`) are left to be events.
    pub fn set_metrics(
        &mut self,
        definitions: &[crate::metric::Definition],
        min_denominator: f64,
    ) -> Result<(), crate::metric::MetricError> {
        let events = &self.profile.events;
        let quotients: Vec<_> = (definitions.iter())
            .filter(|d| events.index_of(&d.name).is_none())
            .cloned()
            .collect();
        let metrics = crate::metric::Metrics::new(events, &quotients, min_denominator)?;
        self.columns = crate::tui::columns::Columns::new(metrics);
        Ok(())
    }

    /// The column of event `name`; in a comparison, only an event of both
    /// profiles.
    fn event_named(&self, name: &str) -> Option<usize> {
        let e = self.profile.events.index_of(name)?;
        let shown = self
            .diff
            .as_ref()
            .is_none_or(|j| j.comparison.events.iter().any(|c| c.new == e));
        shown.then_some(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::Theme;

    fn app() -> App {
        let text = "events: Ir Dr\nfn=main\n1 10 7\ncfn=work\ncalls=1 2\n1 90 1\nfn=work\n2 90 1\n";
        let profile = crate::parse::load_reader("t.callgrind", text.as_bytes()).unwrap();
        App::new(profile, Theme::plain_colors(), Default::default())
    }

    #[test]
    fn the_defaults_change_nothing() {
        let mut a = app();
        let before = (
            a.event,
            a.browse.sort,
            a.percent,
            a.fold_templates,
            a.raw_names,
        );
        let order = a.browse.order.clone();
        a.start_with(&ViewDefaults::default());
        assert_eq!(
            (
                a.event,
                a.browse.sort,
                a.percent,
                a.fold_templates,
                a.raw_names
            ),
            before
        );
        assert_eq!(a.browse.order, order);
        assert!(!a.browse.reversed);
        assert_eq!(a.message, None);
    }

    #[test]
    fn the_view_opens_as_asked() {
        let mut a = app();
        a.start_with(&ViewDefaults {
            event: Some("Dr".into()),
            sort: Some(StartSort::SelfCost),
            percent: true,
            fold_templates: true,
            demangle: false,
            columns: vec!["Dr:self".into(), "Nope".into()],
        });
        assert_eq!(a.event, 1);
        assert_eq!(a.browse.sort, SortKey::SelfCost);
        assert!(!a.browse.reversed);
        assert!(a.percent && a.fold_templates && a.raw_names);
        // By Dr's self cost main (7) comes before work (1).
        let first = a.browse.order[0];
        assert_eq!(a.profile.fn_name(first), "main");
        let dr = a.columns.parse("Dr:self").unwrap();
        assert_eq!(a.columns.chosen, [dr]);
        let message = a.message.clone().unwrap();
        assert!(
            message.contains("not metrics of this profile: Nope"),
            "{message}"
        );
    }

    #[test]
    fn an_event_the_profile_lacks_is_said_on_the_status_line() {
        let mut a = app();
        a.start_with(&ViewDefaults {
            event: Some("Bc\u{1b}[2J".into()),
            ..ViewDefaults::default()
        });
        assert_eq!(a.event, 0);
        let message = a.message.clone().unwrap();
        assert!(message.contains("`Bc"), "{message}");
        assert!(!message.contains('\u{1b}'), "{message}");
    }
}
