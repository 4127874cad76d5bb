//! Making the app: the profile's analysis, name order and search index
//! computed on the cores there are, and the first screen's place.

use super::orders::{self, Orders};
use super::{App, Pane, SortKey, lists, rows};
use crate::analysis::Analysis;
use crate::analysis::diff::{Joined, MatchOptions};
use crate::locate::Locator;
use crate::profile::{FnId, Profile};
use crate::search::{Search, Texts};
use crate::threads::both;
use crate::tui::scroll::Scroll;
use crate::tui::theme::Theme;
use std::sync::Arc;
use std::time::Instant;

/// The search over every function's name (a mangled one's readable form
/// and the name as written, so that either finds it) and, after them, the
/// cycles' `<cycle N>` (ids as in `rows`), its masks made on another
/// thread. It reads the names from the profile: no copy of them is kept.
fn search_index(
    profile: &Arc<Profile>,
    analysis: &Analysis,
    demangled: &Arc<rustc_hash::FxHashMap<u32, Box<str>>>,
) -> Search {
    Search::in_background(Arc::new(SearchNames {
        profile: profile.clone(),
        demangled: demangled.clone(),
        cycles: analysis.cycles.len(),
    }))
}

/// The names the search reads, by search id (see `search_index`).
struct SearchNames {
    profile: Arc<Profile>,
    demangled: Arc<rustc_hash::FxHashMap<u32, Box<str>>>,
    cycles: usize,
}

impl Texts for SearchNames {
    fn len(&self) -> usize {
        self.profile.functions.len() + self.cycles
    }

    fn text<'a>(&'a self, id: u32, buf: &'a mut String) -> &'a str {
        let (i, n) = (id as usize, self.profile.functions.len());
        if i >= n {
            *buf = if i < self.len() {
                rows::cycle_name(i - n + 1)
            } else {
                String::new()
            };
            return buf;
        }
        let name = self.profile.fn_name(FnId::from_index(i));
        match self.demangled.get(&id) {
            Some(readable) => {
                buf.clear();
                buf.push_str(readable);
                buf.push(' ');
                buf.push_str(name);
                buf
            }
            None => name,
        }
    }
}

/// The readable forms of the profile's mangled names (one too long to
/// demangle as written, marked: `demangle::TOO_LONG`), and how many were
/// too long.
fn demangled_names(profile: &Profile) -> (rustc_hash::FxHashMap<u32, Box<str>>, usize) {
    use crate::symbols::demangle::{Demangled, TOO_LONG, demangle_bounded};
    let mut too_long = 0;
    let names = (0..profile.functions.len())
        .filter_map(|i| {
            let name = profile.fn_name(FnId::from_index(i));
            let readable = match demangle_bounded(name)? {
                Demangled::Readable(readable) => readable,
                Demangled::TooLong => {
                    too_long += 1;
                    format!("{name}{TOO_LONG}")
                }
            };
            Some((i as u32, readable.into_boxed_str()))
        })
        .collect();
    (names, too_long)
}

/// A warning on the new profile per event whose changes reached a 64-bit
/// limit: shown before the browser opens and under `w`, so that no bound
/// (and no sum of one, in a tree or a group) passes for an exact change.
fn warn_of_cut_changes(new: &mut Profile, difference: &Analysis) {
    let file = new.loaded_sources().next().unwrap_or_default().to_string();
    for (ev, event) in new.events.events.clone().iter().enumerate() {
        if difference.is_cut(ev) {
            let message = format!(
                "changes of {} reach the 64-bit limit: those shown >= or <= are bounds, and sums that include them are not exact",
                event.name
            );
            new.diagnose(&file, 0, crate::profile::Severity::Warning, message);
        }
    }
}

/// KCachegrind's derived events the profile's events allow (`CEst`,
/// `L1m`...), added as derived events so that every view has them.
fn with_builtin_sums(profile: &mut Profile) {
    // Without user formulas nothing can fail.
    let _ = crate::metric::add_sums_as_events(&mut profile.events, &[]);
}

impl App {
    pub fn new(profile: Profile, theme: Theme, locator: Locator) -> Self {
        let mut profile = profile;
        with_builtin_sums(&mut profile);
        Self::build(profile, None, theme, locator)
    }

    /// The browser on a comparison (`--base`): every view shows the new
    /// profile minus the base, the list and panes both sides beside it;
    /// the list sorted by the change of self cost, on the largest.
    pub fn comparing(
        mut new: Profile,
        base: Profile,
        options: &MatchOptions,
        theme: Theme,
        locator: Locator,
    ) -> Self {
        let mut base = base;
        with_builtin_sums(&mut base);
        with_builtin_sums(&mut new);
        let (mut joined, difference) = Joined::new(base, &mut new, options);
        joined.base_analysis.warn_of_cut_sums(&mut joined.base);
        joined.new_analysis.warn_of_cut_sums(&mut new);
        warn_of_cut_changes(&mut new, &difference);
        let first_common = joined.comparison.events.first().map_or(0, |e| e.new);
        let mut app = Self::build(new, Some(difference), theme, locator);
        app.diff = Some(Arc::new(joined));
        app.event = first_common;
        // The first screen shows what changed most by itself: sorted by
        // the change of self cost, not of inclusive cost, where every
        // wrapper of a change (main, its callers) ties with what it calls.
        app.browse.sort = SortKey::SelfCost;
        app.costs_changed();
        if let Some(&f) = app.browse.order.first() {
            app.set_current(f);
            app.browse.moved = false;
        }
        app
    }

    /// The app on `profile`, with its analysis given or computed.
    fn build(profile: Profile, given: Option<Analysis>, theme: Theme, locator: Locator) -> Self {
        // Inclusive costs and the demangled names at once; the search
        // index after them, on a thread of its own, and the name order
        // with the orders (after the first screen's on a large profile).
        let comparing = given.is_some();
        let (analysis, ((demangled, too_long), qualifiers)) = both(
            || given.unwrap_or_else(|| Analysis::new(&profile)),
            || (demangled_names(&profile), lists::qualifiers(&profile)),
        );
        let mut profile = profile;
        if !comparing {
            analysis.warn_of_cut_sums(&mut profile);
        }
        let (analysis, demangled) = (Arc::new(analysis), Arc::new(demangled));
        let profile = Arc::new(profile);
        let search = search_index(&profile, &analysis, &demangled);
        let diagnostics = profile.diagnostics.len();
        let part_totals = lists::part_totals(&profile);
        let profile_events = profile.events.clone();
        let names = orders::Names::new(profile.clone());
        let background = profile.functions.len() >= orders::BACKGROUND_FROM;
        let orders = Orders::new(analysis.clone(), names.clone(), 0, background);
        let mut app = App {
            profile,
            analysis,
            diff: None,
            filter: None,
            filtering: false,
            groups: Default::default(),
            theme,
            locator,
            event: 0,
            percent: false,
            browse: super::browse::Browse {
                sort: SortKey::Inclusive,
                reversed: false,
                moved: false,
                order: Arc::new([]),
                orders,
                names,
                list: Scroll::default(),
                focus: Pane::List,
            },
            current: None,
            panes: Default::default(),
            back: Vec::new(),
            forward: Vec::new(),
            search,
            search_order_stale: true,
            match_index: 0,
            popup: None,
            views: Default::default(),
            disasm: Default::default(),
            size: (80, 24),
            quit: false,
            suspend: false,
            redraw: false,
            exit_status: crate::tui::exit::QUIT,
            columns: crate::tui::columns::Columns::new(crate::metric::Metrics::of_events(
                &profile_events,
            )),
            part_totals,
            qualifiers,
            diagnostics,
            message: (too_long > 0).then(|| crate::symbols::demangle::too_long_note(too_long)),
            search_cursor: 0,
            fold_templates: false,
            demangled,
            raw_names: false,
            source_shift: 0,
            mouse: true,
            clipboard: None,
            pointer: (0, 0),
            last_click: None,
            now: Instant::now(),
        };
        app.resort();
        if let Some(f) = lists::opening_function(&app.profile, &app.browse.order) {
            app.set_current(f);
            // Opening there was not the user's move.
            app.browse.moved = false;
        }
        app
    }
}
