//! The terminal: raw mode and the alternate screen, the event loop, and
//! restoring the terminal on every way out (quit, error, panic, Ctrl-C,
//! SIGTERM/SIGHUP). Signals only set a flag; the loop polls with a timeout
//! and exits cleanly, so the restore always runs on this thread.

use super::app::App;
use super::keymap::Key;
use super::view;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the loop wakes up to look at the signal flag.
const TICK: Duration = Duration::from_millis(100);

pub fn run(app: &mut App) -> color_eyre::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
    ] {
        signal_hook::flag::register(sig, stop.clone())?;
    }
    // ratatui installs a panic hook that restores the terminal before the
    // previous (color-eyre) hook prints the report.
    let mut terminal = ratatui::try_init()?;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(std::io::stdout(), crossterm::cursor::Show);
        previous(info);
    }));
    let result = event_loop(&mut terminal, app, &stop);
    let restored = ratatui::try_restore();
    let shown = crossterm::execute!(std::io::stdout(), crossterm::cursor::Show);
    result?;
    restored?;
    shown?;
    Ok(())
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    stop: &AtomicBool,
) -> color_eyre::Result<()> {
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    let mut dirty = true;
    while !app.quit && !stop.load(Ordering::Relaxed) {
        if dirty {
            terminal.draw(|frame| view::draw(app, frame))?;
            dirty = false;
        }
        if !event::poll(TICK)? {
            continue;
        }
        // Handle every pending event before drawing again (key repeat).
        loop {
            match event::read()? {
                Event::Key(k) if k.kind == KeyEventKind::Press => {
                    if let Some(key) = convert(k) {
                        app.key(key);
                        dirty = true;
                    }
                }
                Event::Resize(w, h) => {
                    app.resize(w, h);
                    dirty = true;
                }
                _ => {}
            }
            if app.quit || !event::poll(Duration::ZERO)? {
                break;
            }
        }
    }
    Ok(())
}

/// A crossterm key event as our `Key`, if cgtui knows the key.
fn convert(k: KeyEvent) -> Option<Key> {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    Some(match k.code {
        KeyCode::Char(c) if ctrl => Key::Ctrl(c.to_ascii_lowercase()),
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        _ => return None,
    })
}
