//! The terminal: raw mode and the alternate screen, the event loop, and
//! restoring the terminal on every way out (quit, error, panic, Ctrl-C,
//! SIGTERM/SIGHUP). Signals only set a flag (`exit::Signals`); the loop
//! polls with a timeout and exits cleanly, so the restore always runs on
//! this thread (the watchdog in `exit` covers a loop that cannot).

use super::app::App;
use super::exit::Signals;
use super::keymap::Key;
use super::view;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::time::Duration;

/// How often the loop wakes up to look at the signal flag.
const TICK: Duration = Duration::from_millis(100);
/// The longest time events are read before they are handled and drawn.
const BATCH: Duration = Duration::from_millis(30);
/// How long a batch waits for one more event. Not zero: crossterm's
/// `/dev/tty` reader (`use-dev-tty`) answers a zero-timeout poll without
/// looking at the events it has already read, which would draw after each
/// key of a paste.
const NEXT: Duration = Duration::from_millis(1);

/// Browses until a quit key or a signal; the exit status.
pub fn run(app: &mut App, signals: &Signals) -> color_eyre::Result<u8> {
    // ratatui installs a panic hook that restores the terminal before the
    // previous (color-eyre) hook prints the report.
    let mut terminal = ratatui::try_init()?;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(std::io::stdout(), crossterm::cursor::Show);
        previous(info);
    }));
    let result = event_loop(&mut terminal, app, signals);
    let restored = ratatui::try_restore();
    let shown = crossterm::execute!(std::io::stdout(), crossterm::cursor::Show);
    result?;
    restored?;
    shown?;
    Ok(signals.status().unwrap_or(app.exit_status))
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    signals: &Signals,
) -> color_eyre::Result<()> {
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    let mut dirty = true;
    while !app.quit && signals.status().is_none() {
        if dirty {
            terminal.draw(|frame| view::draw(app, frame))?;
            dirty = false;
        }
        if !event::poll(TICK)? {
            continue;
        }
        // Handle every pending event before drawing again (key repeat, a
        // paste): keys in one batch, so a pasted query runs once.
        let mut keys = Vec::new();
        let batch = std::time::Instant::now();
        loop {
            match event::read()? {
                Event::Key(k) if k.kind == KeyEventKind::Press => {
                    keys.extend(convert(k));
                }
                Event::Resize(w, h) => {
                    app.keys(&std::mem::take(&mut keys));
                    app.resize(w, h);
                    dirty = true;
                }
                _ => {}
            }
            // A flood of input is still drawn now and then.
            if batch.elapsed() > BATCH || !event::poll(NEXT)? {
                break;
            }
        }
        if !keys.is_empty() {
            app.keys(&keys);
            dirty = true;
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
