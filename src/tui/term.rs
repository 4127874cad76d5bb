//! The browser's loop: keys -> `App`, then a frame drawn on the `Screen`
//! (`/dev/tty`), and everything a user does to a terminal around it:
//! resizes, Ctrl-L, Ctrl-Z and `fg`, another process writing on it,
//! signals, the terminal going away. Signals only set a flag
//! (`exit::Signals`) and wake the loop through the input channel; the loop
//! exits cleanly, so the terminal is restored on this thread (the watchdog
//! in `exit` covers a loop that cannot). The loop sleeps until something
//! happens: no periodic wake-ups while idle.

use super::app::App;
use super::exit::{self, Signals};
use super::input;
use super::job;
use super::screen::{self, Screen};
use super::view;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::time::Duration;

/// The longest time input is read before it is handled and drawn.
const BATCH: Duration = Duration::from_millis(30);

/// Browses until a quit key, a signal or a hang-up; the exit status.
pub fn run(
    app: &mut App,
    signals: &Signals,
    input: &mut input::Terminal,
) -> color_eyre::Result<u8> {
    let mut screen = Screen::open()?;
    // The terminal is put back before the previous hook prints a report.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        screen::restore();
        previous(info);
    }));
    let result = event_loop(&mut screen, app, signals, input);
    let left = screen.leave();
    if input.gone() {
        // The terminal went away: nothing left to restore or report to.
        return Ok(exit::for_signal(signal_hook::consts::SIGHUP));
    }
    result?;
    left?;
    Ok(signals.status().unwrap_or(app.exit_status))
}

fn event_loop(
    screen: &mut Screen,
    app: &mut App,
    signals: &Signals,
    input: &mut input::Terminal,
) -> color_eyre::Result<()> {
    let area = screen::size();
    app.resize(area.width, area.height);
    let mut dirty = true;
    while !app.quit && signals.status().is_none() && !input.gone() {
        screen.set_mouse(app.mouse)?;
        if let Some(text) = app.clipboard.take() {
            screen.send(&super::clipboard::osc52(&text))?;
        }
        if dirty {
            draw(screen, app)?;
            dirty = false;
        }
        // Every key that arrived together (key repeat, a paste) is handled
        // before drawing again, so a pasted query runs once.
        let keys = input.keys(None, BATCH);
        if input.resized() {
            let area = screen::size();
            app.resize(area.width, area.height);
            dirty = true;
        }
        if !keys.is_empty() {
            app.keys(&keys);
            dirty = true;
        }
        if input.suspend() || std::mem::take(&mut app.suspend) {
            match job::can_suspend() {
                Ok(()) => suspend(screen)?,
                Err(why) => app.message = Some(why.into()),
            }
            dirty = true;
        }
        if input.continued() {
            // Stopped by someone else (SIGSTOP) and continued: the shell
            // may have put the terminal back in its own modes.
            screen.enter()?;
            dirty = true;
        }
        if std::mem::take(&mut app.redraw) {
            screen.clear()?;
            dirty = true;
        }
    }
    Ok(())
}

/// Draws the app on the screen, letting the terminal scroll the panes'
/// rows where they moved.
fn draw(screen: &mut Screen, app: &App) -> std::io::Result<()> {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    let mut frame = Buffer::empty(area);
    view::render(app, area, &mut frame);
    let a = app.areas();
    // Under a popup nothing moves (keys go to it); in it, rows do (search
    // results narrowing, help scrolled).
    let panes = if app.popup.is_some() {
        vec![Rect::new(
            0,
            a.popup.y + 1,
            0,
            a.popup.height.saturating_sub(2),
        )]
    } else {
        [a.list, a.callers, a.callees, a.source]
            .iter()
            .map(|p| p.body)
            .collect()
    };
    let regions: Vec<(u16, u16)> = panes
        .iter()
        .filter(|b| b.height > 1)
        .map(|b| (b.y, b.y + b.height))
        .collect();
    screen.show(frame, &regions)
}

/// Ctrl-Z: the terminal restored, the process stopped as a shell expects;
/// after `fg`, raw mode and the screen again, cleared and drawn whole.
fn suspend(screen: &mut Screen) -> std::io::Result<()> {
    screen.leave()?;
    input::stop_job();
    screen.enter()
}
