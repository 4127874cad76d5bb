//! The browser's loop: keys -> `App`, then a frame drawn on the `Screen`
//! (`/dev/tty`), and everything a user does to a terminal around it:
//! resizes, Ctrl-L, Ctrl-Z and `fg`, another process writing on it,
//! signals, the terminal going away. Signals only set a flag
//! (`exit::Signals`) and wake the loop through the input channel; the loop
//! exits cleanly, so the terminal is restored on this thread (the watchdog
//! in `exit` covers a loop that cannot). The loop sleeps until something
//! happens: no periodic wake-ups while idle.
//!
//! Keys that only move the list's selection are drawn at once, with the
//! call panes, the details line and the breadcrumb held as they were;
//! those follow once no key came for `REST`. A key held down
//! (auto-repeat) then writes the two list rows whose highlight moved, not
//! the calls of every function it passes (at 200x60, under 300 bytes a
//! key instead of 900), and the panes are right a tenth of a second after
//! the keys stop.

use super::app::App;
use super::exit::{self, Signals};
use super::input;
use super::job;
use super::screen::{self, Screen};
use super::view;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::time::{Duration, Instant};

/// The longest time input is read before it is handled and drawn.
const BATCH: Duration = Duration::from_millis(30);

/// How often background work is looked for while it runs.
const BACKGROUND: Duration = Duration::from_millis(30);
/// How long keys rest before the call panes follow the list's selection:
/// longer than the interval of a held key's auto-repeat (30 to 40 ms on
/// most systems, 90 ms at macOS's default) with an SSH link's jitter, and
/// short enough that the panes seem to follow at once.
pub const REST: Duration = Duration::from_millis(100);

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
    // While the list's selection moves, when the held panes follow it.
    let mut follow_at: Option<Instant> = None;
    while !app.quit && signals.status().is_none() && !input.gone() {
        screen.set_mouse(app.mouse)?;
        if let Some(text) = app.clipboard.take() {
            screen.send(&super::clipboard::osc52(&text))?;
        }
        if dirty {
            draw(screen, app, follow_at.is_some())?;
            dirty = false;
        }
        // Every key that arrived together (key repeat, a paste) is handled
        // before drawing again, so a pasted query runs once.
        let mut wait = follow_at.map(|at| at.saturating_duration_since(Instant::now()));
        // Background work (a disassembly) is looked for between keys.
        if app.busy() {
            wait = Some(wait.map_or(BACKGROUND, |w| w.min(BACKGROUND)));
        }
        let keys = input.keys(wait, BATCH);
        if app.poll_background() {
            dirty = true;
        }
        let resized = input.resized();
        if resized {
            let area = screen::size();
            app.resize(area.width, area.height);
            dirty = true;
        }
        if keys.is_empty() {
            if follow_at.is_some_and(|at| Instant::now() >= at) {
                follow_at = None;
                dirty = true;
            }
        } else {
            let moves = app.only_moves_list(&keys);
            let before = app.current;
            app.keys(&keys);
            dirty = true;
            // Held while the keys move the selection to another function,
            // or again while it was held already (the panes are behind).
            let hold = moves && !resized && (app.current != before || follow_at.is_some());
            follow_at = hold.then(|| Instant::now() + REST);
        }
        if resized {
            follow_at = None;
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
/// rows where they moved; with `hold`, the call panes, the details line
/// and the status line (its breadcrumb ends at the current function) stay
/// as the terminal shows them (the list's selection is moving).
fn draw(screen: &mut Screen, app: &App, hold: bool) -> std::io::Result<()> {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    let mut frame = Buffer::empty(area);
    view::render(app, area, &mut frame);
    let a = app.areas();
    if hold {
        let held = [
            a.callers.title,
            a.callers.body,
            a.callees.title,
            a.callees.body,
            a.details,
            a.status,
        ];
        screen.keep(&mut frame, &held);
    }
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
