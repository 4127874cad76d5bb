//! The interactive browser. Only this module and `tui/` import ratatui or
//! crossterm. Flow: load (with a progress line on stderr, before the
//! alternate screen), then `term::run`: key -> `Key` -> keymap -> `Action`
//! -> `App::update`, and `view::draw(&App, frame)` after each change.

pub mod action;
pub mod app;
pub mod keymap;
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

/// `cgtui FILE...`: load, then browse until the user quits.
pub fn browse(args: &BrowseArgs) -> color_eyre::Result<()> {
    let files = if args.files.is_empty() {
        vec![load::newest_profile()?]
    } else {
        args.files.clone()
    };
    let profile = load::load(&files, &args.load)?;
    let locator = args.sources.locator(&files);
    let mut app = App::new(profile, Theme::from_env(), locator);
    term::run(&mut app)
}
