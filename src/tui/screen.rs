//! The terminal's screen, written to `/dev/tty` (as less and fzf do), so a
//! redirected standard output gets nothing: the modes (alternate screen,
//! hidden cursor, mouse reporting), and frames written as the difference
//! from the last one. A pane whose rows moved up or down (a list scrolled
//! by a few rows, search results with rows gone from the middle) is moved
//! by the terminal itself (a scroll region, then
//! line feeds or reverse index, which every VT100 descendant has, GNU
//! screen and mosh included) before the difference is taken, so a scroll
//! writes the rows that came in, not the whole pane. Nothing here asks the
//! terminal anything (ratatui's `clear()` asks for the cursor position and
//! our own reader would take the reply): clearing is written, and the last
//! frame forgotten.

mod align;
mod emit;
mod pen;
mod shift;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Enter the alternate screen, hide the cursor, clear.
const ENTER: &str = "\x1b[?1049h\x1b[?25l\x1b[0m\x1b[H\x1b[2J";
/// Mouse reporting off, the cursor on a fresh line below the last row
/// (`CSI 999;1H` stops at the last row; the line feed scrolls), shown,
/// main screen back. Where there is no alternate screen (GNU screen's
/// default, tmux `alternate-screen off`) the last frame stays and the
/// shell's prompt starts on a line of its own, as after less and htop;
/// where there is one, the main screen's cursor comes back as it was.
const LEAVE: &str = "\x1b[?1006l\x1b[?1000l\x1b[0m\x1b[999;1H\r\n\x1b[?25h\x1b[?1049l";
/// Mouse reporting: presses, releases and the wheel, in SGR coordinates.
const MOUSE_ON: &str = "\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF: &str = "\x1b[?1006l\x1b[?1000l";
/// Synchronized output (DEC mode 2026) around each frame: a terminal that
/// knows it (kitty, WezTerm, foot, iTerm2, Windows Terminal, tmux 3.4)
/// shows the frame whole even when a slow link delivers it in pieces;
/// others ignore it. 16 bytes a frame, and a frame's end anyone can see.
const FRAME_BEGIN: &str = "\x1b[?2026h";
const FRAME_END: &str = "\x1b[?2026l";
/// Whether the terminal is in our modes: leaving twice (a panic hook, then
/// the unwinding) writes once.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The terminal's screen as last written.
pub struct Screen {
    out: std::io::BufWriter<std::fs::File>,
    /// What the terminal shows now (blank after a clear).
    shown: Buffer,
    mouse: bool,
    /// Whether a frame was begun (and its end is owed).
    in_frame: bool,
    /// Bytes written so far (for the bytes-per-key benchmark and tests).
    pub written: u64,
}

/// The terminal's size: what it reports, else `LINES`x`COLUMNS` from the
/// environment, else 80x24 (a serial console or container reporting 0x0
/// would otherwise get a blank screen).
pub fn size() -> Rect {
    let reported = crossterm::terminal::size()
        .ok()
        .filter(|&(w, h)| w > 0 && h > 0);
    let env = |k: &str| {
        std::env::var(k)
            .ok()?
            .trim()
            .parse::<u16>()
            .ok()
            .filter(|&n| n > 0)
    };
    let (w, h) = reported.unwrap_or((env("COLUMNS").unwrap_or(80), env("LINES").unwrap_or(24)));
    Rect::new(0, 0, w, h)
}

/// Puts the terminal back as it was (raw mode off, main screen, cursor,
/// no mouse), writing to `/dev/tty`: for the panic hook and the watchdog,
/// which have no `Screen`. Errors are ignored: there is nothing left to
/// tell them to.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    if let Ok(mut tty) = std::fs::OpenOptions::new().write(true).open("/dev/tty") {
        let _ = tty.write_all(LEAVE.as_bytes());
        let _ = tty.flush();
    }
    let _ = crossterm::terminal::disable_raw_mode();
}

impl Screen {
    /// Raw mode, the alternate screen, a cleared screen.
    pub fn open() -> std::io::Result<Screen> {
        let tty = std::fs::OpenOptions::new().write(true).open("/dev/tty")?;
        crossterm::terminal::enable_raw_mode()?;
        let mut screen = Screen {
            out: std::io::BufWriter::with_capacity(1 << 16, tty),
            shown: Buffer::empty(Rect::default()),
            mouse: false,
            in_frame: false,
            written: 0,
        };
        screen.enter()?;
        Ok(screen)
    }

    /// Enters raw mode and the alternate screen again (after a suspend),
    /// cleared; the next frame is written whole.
    pub fn enter(&mut self) -> std::io::Result<()> {
        crossterm::terminal::enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        self.write(ENTER)?;
        if self.mouse {
            self.write(MOUSE_ON)?;
        }
        self.forget();
        self.out.flush()
    }

    /// Leaves the alternate screen and raw mode (before a suspend or exit).
    pub fn leave(&mut self) -> std::io::Result<()> {
        if !ACTIVE.swap(false, Ordering::SeqCst) {
            return Ok(());
        }
        // A clear not followed by its frame (a panic while drawing).
        if std::mem::take(&mut self.in_frame) {
            self.write(FRAME_END)?;
        }
        self.write(LEAVE)?;
        self.out.flush()?;
        crossterm::terminal::disable_raw_mode()
    }

    /// Clears the terminal (Ctrl-L, or junk another program wrote): the
    /// next frame is written whole.
    pub fn clear(&mut self) -> std::io::Result<()> {
        self.begin_frame()?;
        self.write("\x1b[0m\x1b[H\x1b[2J")?;
        self.forget();
        Ok(())
    }

    /// Mouse reporting on or off.
    pub fn set_mouse(&mut self, on: bool) -> std::io::Result<()> {
        if on != self.mouse {
            self.mouse = on;
            self.write(if on { MOUSE_ON } else { MOUSE_OFF })?;
            self.out.flush()?;
        }
        Ok(())
    }

    /// Writes `text` as it is (an OSC 52 copy, say) and flushes.
    pub fn send(&mut self, text: &str) -> std::io::Result<()> {
        self.write(text)?;
        self.out.flush()
    }

    /// The terminal now shows what the last frame was written over a
    /// cleared screen.
    fn forget(&mut self) {
        self.shown = Buffer::empty(Rect::default());
    }

    /// Begins a frame, once until it ends.
    fn begin_frame(&mut self) -> std::io::Result<()> {
        if !std::mem::replace(&mut self.in_frame, true) {
            self.write(FRAME_BEGIN)?;
        }
        Ok(())
    }

    fn write(&mut self, s: &str) -> std::io::Result<()> {
        self.written += s.len() as u64;
        self.out.write_all(s.as_bytes())
    }

    /// Puts into `frame` what the terminal shows now in `areas`, so they
    /// are not written: the call panes held while keys move the list.
    /// Nothing is kept after a clear or a resize (the screen is blank).
    pub fn keep(&self, frame: &mut Buffer, areas: &[Rect]) {
        if self.shown.area != frame.area {
            return;
        }
        for area in areas {
            let area = area.intersection(frame.area);
            for y in area.top()..area.bottom() {
                for x in area.left()..area.right() {
                    frame[(x, y)] = self.shown[(x, y)].clone();
                }
            }
        }
    }

    /// Writes `frame` as the difference from what is shown. `regions`
    /// are the row ranges (full-width bands, e.g. pane bodies) whose rows
    /// may have moved together.
    pub fn show(&mut self, frame: Buffer, regions: &[(u16, u16)]) -> std::io::Result<()> {
        if self.shown.area != frame.area {
            self.clear()?;
            self.shown = Buffer::empty(frame.area);
        }
        for &(top, bottom) in regions {
            for m in shift::plan(&self.shown, &frame, top, bottom) {
                self.scroll(m.top, m.bottom, m.shift)?;
            }
        }
        let mut bytes = String::new();
        emit::difference(&mut bytes, &self.shown, &frame);
        if !bytes.is_empty() {
            self.begin_frame()?;
            self.write(&bytes)?;
        }
        if std::mem::take(&mut self.in_frame) {
            self.write(FRAME_END)?;
        }
        self.out.flush()?;
        self.shown = frame;
        Ok(())
    }

    /// Moves rows `top..bottom` of the terminal by `shift` (positive: up,
    /// as a list scrolled down), and the record of what it shows with them.
    fn scroll(&mut self, top: u16, bottom: u16, shift: i32) -> std::io::Result<()> {
        self.begin_frame()?;
        let n = shift.unsigned_abs() as usize;
        let mut seq = format!("\x1b[0m\x1b[{};{}r", top + 1, bottom);
        if shift > 0 {
            seq.push_str(&format!("\x1b[{};1H", bottom));
            seq.push_str(&"\n".repeat(n));
        } else {
            seq.push_str(&format!("\x1b[{};1H", top + 1));
            seq.push_str(&"\x1bM".repeat(n));
        }
        seq.push_str("\x1b[r");
        self.write(&seq)?;
        shift_rows(&mut self.shown, top, bottom, shift);
        Ok(())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.leave();
    }
}

/// `buf` as lines of text with the escape codes of its styles (for the
/// screens in `assets/`, shown with `cat` or `less -R`).
pub fn ansi_text(buf: &Buffer) -> String {
    let w = buf.area.width;
    let mut out = String::new();
    for y in 0..buf.area.height {
        let row = (0..w).map(|x| (x, 0, &buf[(x, y)]));
        let mut line = String::new();
        emit::cells(&mut line, row, None);
        // The first cell's move is not wanted in a text file.
        let line = line.strip_prefix("\x1b[H").unwrap_or(&line);
        out.push_str(line.trim_end_matches(' '));
        out.push('\n');
    }
    out
}

/// Moves rows `top..bottom` of `buf` by `shift` (positive: up); rows that
/// come in are blank, as a terminal scrolling them in shows them.
pub fn shift_rows(buf: &mut Buffer, top: u16, bottom: u16, shift: i32) {
    let w = buf.area.width as usize;
    let row = |y: u16| y as usize * w;
    let (top, bottom) = (top.min(buf.area.height), bottom.min(buf.area.height));
    let n = shift.unsigned_abs() as u16;
    if n == 0 || top + n > bottom {
        return;
    }
    let band = &mut buf.content[row(top)..row(bottom)];
    let moved = n as usize * w;
    if shift > 0 {
        band.rotate_left(moved);
        let len = band.len();
        band[len - moved..].fill(ratatui::buffer::Cell::default());
    } else {
        band.rotate_right(moved);
        band[..moved].fill(ratatui::buffer::Cell::default());
    }
}
