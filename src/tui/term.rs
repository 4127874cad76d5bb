//! The terminal: raw mode and the alternate screen, the event loop, and
//! restoring the terminal on every way out (quit, error, panic, Ctrl-C,
//! SIGTERM/SIGHUP, the terminal gone). Signals only set a flag
//! (`exit::Signals`); the loop waits for input with a timeout and exits
//! cleanly, so the restore always runs on this thread (the watchdog in
//! `exit` covers a loop that cannot). Input comes from `input`.

use super::app::App;
use super::exit::{self, Signals};
use super::input;
use super::view;
use std::time::Duration;

/// How often the loop wakes up to look at the signal flag.
const TICK: Duration = Duration::from_millis(100);
/// The longest time input is read before it is handled and drawn.
const BATCH: Duration = Duration::from_millis(30);

/// Browses until a quit key, a signal or a hang-up; the exit status.
pub fn run(
    app: &mut App,
    signals: &Signals,
    input: &mut input::Terminal,
) -> color_eyre::Result<u8> {
    // ratatui installs a panic hook that restores the terminal before the
    // previous (color-eyre) hook prints the report.
    let mut terminal = ratatui::try_init()?;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(std::io::stdout(), crossterm::cursor::Show);
        previous(info);
    }));
    let result = event_loop(&mut terminal, app, signals, input);
    let restored = ratatui::try_restore();
    let shown = crossterm::execute!(std::io::stdout(), crossterm::cursor::Show);
    if input.gone() || crossterm::terminal::size().is_err() {
        // The terminal went away: nothing left to restore or report to.
        return Ok(exit::for_signal(signal_hook::consts::SIGHUP));
    }
    result?;
    restored?;
    shown?;
    Ok(signals.status().unwrap_or(app.exit_status))
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    signals: &Signals,
    input: &mut input::Terminal,
) -> color_eyre::Result<()> {
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    let mut dirty = true;
    while !app.quit && signals.status().is_none() && !input.gone() {
        if dirty {
            terminal.draw(|frame| view::draw(app, frame))?;
            dirty = false;
        }
        // Every key that arrived together (key repeat, a paste) is handled
        // before drawing again, so a pasted query runs once.
        let keys = input.keys(TICK, BATCH);
        if input.resized() {
            let (w, h) = crossterm::terminal::size()?;
            app.resize(w, h);
            dirty = true;
        }
        if !keys.is_empty() {
            app.keys(&keys);
            dirty = true;
        }
    }
    Ok(())
}
