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
/// The longest time events are read before they are handled and drawn.
const BATCH: Duration = Duration::from_millis(30);

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
    spawn_watchdog(stop.clone());
    let result = event_loop(&mut terminal, app, &stop);
    let restored = ratatui::try_restore();
    let shown = crossterm::execute!(std::io::stdout(), crossterm::cursor::Show);
    result?;
    restored?;
    shown?;
    Ok(())
}

/// How often the watchdog looks at the terminal and the signal flag, and how
/// long it lets the event loop finish on its own.
const WATCH: Duration = Duration::from_millis(500);
const GRACE: Duration = Duration::from_secs(1);

/// crossterm 0.29 never returns from `event::poll` once the terminal is gone
/// (its reader retries end-of-file forever: crossterm issue #793), so neither
/// a hang-up nor a SIGHUP flag would ever be seen by the event loop, and the
/// process would spin. This thread ends the process when the terminal is
/// gone (exit status 129, as for SIGHUP) or when a signal asked to stop and
/// the loop did not within a second (143). There is no terminal left to
/// restore in the first case; in the second it restores what it can.
fn spawn_watchdog(stop: Arc<AtomicBool>) {
    let spawned = std::thread::Builder::new()
        .name("terminal-watchdog".into())
        .spawn(move || {
            loop {
                std::thread::sleep(WATCH);
                let gone = crossterm::terminal::size().is_err();
                if gone || stop.load(Ordering::Relaxed) {
                    std::thread::sleep(GRACE);
                    if !gone {
                        let _ = ratatui::try_restore();
                        let _ = crossterm::execute!(std::io::stdout(), crossterm::cursor::Show);
                    }
                    std::process::exit(if gone { 129 } else { 143 });
                }
            }
        });
    // Without the watchdog cgtui still works; only a dropped terminal is not noticed.
    drop(spawned);
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
            if batch.elapsed() > BATCH || !event::poll(Duration::ZERO)? {
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
