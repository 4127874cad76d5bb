//! The interactive browser. Only this module and `tui/` import ratatui or
//! crossterm. Flow: load (with a progress bar on stderr, before the
//! alternate screen; `q` aborts it), then `term::run`: key -> `Key` ->
//! keymap -> `Action` -> `App::update`, and `view::draw(&App, frame)` after
//! each change. Exit statuses are in `exit`.

pub mod action;
pub mod app;
pub mod clipboard;
pub mod columns;
pub mod exit;
pub mod input;
mod job;
pub mod keymap;
pub mod layout;
mod load;
pub mod multiplexer;
mod procs;
pub mod screen;
pub mod scroll;
mod term;
pub mod theme;
pub mod view;
pub mod views;
pub mod widgets;

pub use app::App;
pub use app::start::{StartSort, ViewDefaults};
pub use keymap::{Key, parse_keys};
pub use theme::Theme;
pub use view::draw;

pub use exit::BrowseError;

use crate::locate::Locator;
use crate::parse::LoadOptions;
use std::path::PathBuf;

/// What the browser is given (plain options: `cli` turns the command line
/// into these).
#[derive(Clone, Debug)]
pub struct BrowseOptions {
    /// Profile files (`-` is standard input); empty: the newest
    /// `callgrind.out.*` in the current directory.
    pub files: Vec<PathBuf>,
    pub load: LoadOptions,
    /// Where source files are looked for; the profiles' folders are added.
    pub sources: Locator,
    /// Where object files are looked for, to disassemble them.
    pub objects: Locator,
    /// ASCII glyphs whatever the locale says.
    pub ascii: bool,
    /// Mouse capture at the start: `None`, the automatic choice (on,
    /// except under GNU screen: see `multiplexer`).
    pub mouse: Option<bool>,
    /// The colour of each role of the theme.
    pub palette: theme::Palette,
    /// What the browser shows first.
    pub view: ViewDefaults,
    /// `--base`: the files of the profile to compare with (none: browse
    /// one profile), and how their functions are matched.
    pub base: Vec<PathBuf>,
    pub matching: crate::analysis::diff::MatchOptions,
    /// `--metric` and the configuration's formulas: those that sum events
    /// are added as derived events (see `metric::add_sums_as_events`), the
    /// others are metrics for the column chooser.
    pub metrics: Vec<crate::metric::Definition>,
    /// A quotient's smallest denominator shown (`--min-denominator`).
    pub min_denominator: f64,
}

impl Default for BrowseOptions {
    fn default() -> Self {
        BrowseOptions {
            files: Vec::new(),
            load: LoadOptions::default(),
            sources: Locator::default(),
            objects: Locator::default(),
            ascii: false,
            mouse: None,
            palette: theme::Palette::DEFAULT,
            metrics: Vec::new(),
            min_denominator: crate::metric::DEFAULT_MIN_DENOMINATOR,
            view: ViewDefaults::default(),
            base: Vec::new(),
            matching: Default::default(),
        }
    }
}

/// `cgtui FILE...`: load, then browse until the user quits; the exit
/// status (see `exit`). The files are checked before any terminal is
/// opened, so a missing one is reported as missing even without a terminal.
pub fn browse(options: BrowseOptions) -> Result<u8, BrowseError> {
    let files = if options.files.is_empty() {
        vec![load::newest_profile()?]
    } else {
        options.files
    };
    crate::cli_support::stdin_once(&options.base, &files)?;
    let set = crate::parse::file_set(&files, options.load)?;
    let signals = exit::Signals::install().map_err(|source| BrowseError::Io {
        what: "catching signals",
        source,
    })?;
    let mut input = input::Terminal::open().map_err(BrowseError::NoTerminal)?;
    exit::spawn_watchdog(signals.clone());
    let locator = options.sources.with_profile_dirs(&files);
    let mut theme = Theme::from_env();
    theme.ascii |= options.ascii;
    theme.palette = options.palette;
    let (mouse, why) = multiplexer::initial_mouse(options.mouse);
    let view = options.view;
    let base = if options.base.is_empty() {
        None
    } else {
        Some(crate::parse::file_set(&options.base, options.load)?)
    };
    let (load, matching, metrics) = (options.load, options.matching, options.metrics);
    let objects = options.objects;
    let min_denominator = options.min_denominator;
    let make = move |mut profile: crate::profile::Profile| {
        crate::metric::add_sums_as_events(&mut profile.events, &metrics)?;
        let mut app = match base {
            None => App::new(profile, theme, locator),
            Some(set) => {
                let mut base = crate::parse::load_set(&set, load, &mut |_, _| {})?;
                crate::cli_support::comparable(&base, &profile)?;
                crate::metric::add_sums_as_events(&mut base.events, &metrics)?;
                App::comparing(profile, base, &matching, theme, locator)
            }
        };
        app.set_mouse(mouse);
        app.disasm.options.objects = objects;
        app.set_metrics(&metrics, min_denominator)?;
        app.start_with(&view);
        if app.message.is_none() {
            app.message = why.map(String::from);
        }
        Ok(app)
    };
    let mut app = match load::load(set, options.load, &signals, &mut input, make)? {
        load::Loaded::Done(app) => app,
        load::Loaded::Aborted(status) => return Ok(status),
    };
    // The tests' way to a panic in a view (debug and release builds alike).
    if std::env::var_os("CGTUI_TEST_BREAK_VIEW").is_some() {
        app.break_for_tests();
    }
    term::run(&mut app, &signals, &mut input).map_err(|e| BrowseError::Terminal(format!("{e:#}")))
}
