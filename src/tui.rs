//! The interactive browser. Only this module and `tui/` import ratatui or
//! crossterm. Flow: load (with a progress bar on stderr, before the
//! alternate screen; `q` aborts it), then `term::run`: key -> `Key` ->
//! keymap -> `Action` -> `App::update`, and `view::draw(&App, frame)` after
//! each change. Exit statuses are in `exit`.

pub mod action;
pub mod app;
pub mod clipboard;
pub mod exit;
pub mod input;
pub mod keymap;
pub mod layout;
mod load;
pub mod scroll;
pub mod source;
mod term;
pub mod theme;
pub mod view;
pub mod widgets;

pub use app::App;
pub use keymap::{Key, parse_keys};
pub use theme::Theme;
pub use view::draw;

use crate::cli::BrowseArgs;
use color_eyre::eyre::WrapErr;

/// `cgtui FILE...`: load, then browse until the user quits. A quit with
/// another status than 0 (Ctrl-C, a signal, see `exit`) ends the process
/// here, once the terminal is restored.
pub fn browse(args: &BrowseArgs) -> color_eyre::Result<()> {
    let signals = exit::Signals::install()?;
    exit::spawn_watchdog(signals.clone());
    let files = if args.files.is_empty() {
        vec![load::newest_profile()?]
    } else {
        args.files.clone()
    };
    let locator = args.sources.locator(&files);
    let theme = Theme::from_env();
    let make = move |profile| App::new(profile, theme, locator);
    let mut input = input::Terminal::open().wrap_err("opening the terminal (/dev/tty)")?;
    let mut app = match load::load(&files, &args.load, &signals, &mut input, make)? {
        load::Loaded::Done(app) => app,
        load::Loaded::Aborted(status) => std::process::exit(status.into()),
    };
    #[cfg(debug_assertions)]
    if std::env::var_os("CGTUI_TEST_BREAK_VIEW").is_some() {
        app.break_for_tests();
    }
    match term::run(&mut app, &signals, &mut input)? {
        exit::QUIT => Ok(()),
        status => std::process::exit(status.into()),
    }
}
