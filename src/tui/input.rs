//! Reading the terminal: a thread reads `/dev/tty` with plain blocking
//! reads and another waits for signals (SIGWINCH, job control, the ones
//! that end the browser), both sending to one channel, so the browser
//! sleeps until something happens (no periodic wake-ups); `keys` turns the
//! bytes into our `Key`s. crossterm's reader is not used:
//! in 0.29 its default one reads 1 KiB per wake-up of an edge-triggered
//! epoll, so a paste over 4 KiB leaves input in the kernel that never wakes
//! it again and the browser stops answering keys (crossterm PR #1057), and
//! it spins forever once the terminal is gone (issue #793). A blocking read
//! has neither problem: it returns whatever is there, and end of file or an
//! error when the terminal goes away. Draws nothing, changes no state.

mod keys;

pub use keys::Parser;
use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// What the terminal sent.
#[derive(Debug)]
pub enum Input {
    /// Bytes read, with the `EPOCH` of the read that returned them.
    Bytes(u64, Vec<u8>),
    /// The window was resized.
    Resize,
    /// SIGTSTP: the user (or `kill -TSTP`) asks to suspend.
    Suspend,
    /// SIGCONT: back from a stop (`fg`), the terminal's modes unknown.
    Continue,
    /// SIGINT, SIGTERM or SIGHUP (their flags are in `exit::Signals`).
    Signal,
    /// Another thread's work is done (`Waker`).
    Wake,
    /// The terminal is gone (end of file or a read error): a hang-up.
    Gone,
}

/// Set while cgtui stops its own job: the SIGTSTP it sends itself then is
/// not a request to suspend.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Stops the job as the terminal's Ctrl-Z would (the terminal is in raw
/// mode, so it does not): SIGTSTP to the process group, so a pipeline
/// feeding cgtui stops too and the shell sees the job stopped, then
/// SIGSTOP to cgtui itself (its SIGTSTP is caught). Returns after `fg`.
pub fn stop_job() {
    use signal_hook::consts::SIGSTOP;
    STOPPING.store(true, Ordering::SeqCst);
    if rustix::process::kill_current_process_group(rustix::process::Signal::TSTP).is_err() {
        STOPPING.store(false, Ordering::SeqCst);
    }
    let _ = signal_hook::low_level::raise(SIGSTOP);
}

/// Counts the continues (SIGCONT). At one, what waits in the terminal was
/// typed while cgtui was stopped (for no one, after a `kill -STOP`; a
/// stranded `fg` and Enter would open views): the signal thread flushes
/// it, and bytes read before that, still tagged with the epoch before,
/// are dropped when they reach the loop after it.
static EPOCH: AtomicU64 = AtomicU64::new(0);

/// How long a lone Esc waits for the rest of an escape sequence.
const ESC_WAIT: Duration = Duration::from_millis(30);

/// The terminal's input: a channel fed by the reader and SIGWINCH threads,
/// and the parser of the bytes received.
pub struct Terminal {
    rx: Receiver<Input>,
    /// For `waker`.
    tx: Sender<Input>,
    parser: Parser,
    gone: bool,
    resized: bool,
    suspend: bool,
    continued: bool,
    /// Keys read but handed back (`unread`), returned first next time.
    unread: Vec<crate::tui::Key>,
}

impl Terminal {
    /// Starts reading `/dev/tty` and watching the signals.
    pub fn open() -> std::io::Result<Terminal> {
        use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP, SIGWINCH};
        let tty = std::fs::File::open("/dev/tty")?;
        let flush = tty.try_clone()?;
        let (tx, rx) = mpsc::channel();
        spawn("cgtui-tty", tx.clone(), move |tx| read_tty(tty, tx))?;
        let mut signals = signal_hook::iterator::Signals::new([
            SIGWINCH, SIGTSTP, SIGCONT, SIGINT, SIGTERM, SIGHUP,
        ])?;
        spawn("cgtui-signals", tx.clone(), move |tx| {
            for sig in signals.forever() {
                let input = match sig {
                    SIGWINCH => Input::Resize,
                    SIGTSTP if STOPPING.swap(false, Ordering::SeqCst) => continue,
                    SIGTSTP => Input::Suspend,
                    SIGCONT => {
                        // What waits in the terminal was typed while stopped.
                        let _ = rustix::termios::tcflush(
                            &flush,
                            rustix::termios::QueueSelector::IFlush,
                        );
                        EPOCH.fetch_add(1, Ordering::SeqCst);
                        Input::Continue
                    }
                    _ => Input::Signal,
                };
                if tx.send(input).is_err() {
                    return;
                }
            }
        })?;
        Ok(Terminal {
            rx,
            tx,
            parser: Parser::default(),
            gone: false,
            resized: false,
            suspend: false,
            continued: false,
            unread: Vec::new(),
        })
    }

    /// Waits up to `wait` for input (`None`: until something happens),
    /// then takes everything that arrives within `batch` of it (a paste
    /// comes in many reads): the keys, in order. `gone()`, `resized()`,
    /// `suspend()` and `continued()` tell what else happened.
    pub fn keys(&mut self, wait: Option<Duration>, batch: Duration) -> Vec<crate::tui::Key> {
        // Keys handed back come first; with nothing else to wait for
        // (`None`), at once.
        let mut keys = std::mem::take(&mut self.unread);
        if !keys.is_empty() && wait.is_none() {
            return keys;
        }
        let first = match wait {
            Some(wait) => self.recv_until(Instant::now() + wait),
            None => Some(self.rx.recv().unwrap_or(Input::Gone)),
        };
        let Some(first) = first else {
            return keys;
        };
        self.take(first, &mut keys);
        let end = Instant::now() + batch;
        while let Ok(more) = self.rx.try_recv() {
            self.take(more, &mut keys);
            if Instant::now() > end {
                break;
            }
        }
        // A lone Esc, or the start of a sequence split between reads.
        while self.parser.pending() && !self.gone {
            match self.rx.recv_timeout(ESC_WAIT) {
                Ok(more) => self.take(more, &mut keys),
                Err(_) => self.parser.flush(&mut keys),
            }
        }
        keys
    }

    /// Hands keys back: the next `keys` returns them (keys typed ahead
    /// while loading are for the browser).
    pub fn unread(&mut self, mut keys: Vec<crate::tui::Key>) {
        keys.append(&mut self.unread);
        self.unread = keys;
    }

    /// Whether the terminal went away.
    pub fn gone(&self) -> bool {
        self.gone
    }

    /// Whether the window was resized since the last call.
    pub fn resized(&mut self) -> bool {
        std::mem::take(&mut self.resized)
    }

    /// Whether SIGTSTP asked to suspend since the last call.
    pub fn suspend(&mut self) -> bool {
        std::mem::take(&mut self.suspend)
    }

    /// Whether the process was continued (SIGCONT) since the last call.
    pub fn continued(&mut self) -> bool {
        std::mem::take(&mut self.continued)
    }

    fn recv_until(&mut self, deadline: Instant) -> Option<Input> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(input) => Some(input),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Input::Gone),
        }
    }

    /// Ends the wait of `keys` from another thread: a load done is seen
    /// at once, not at the next tick (a small profile's browser opened
    /// after 55 ms, the tick, where loading it takes 2).
    pub fn waker(&self) -> Waker {
        Waker(self.tx.clone())
    }

    fn take(&mut self, input: Input, keys: &mut Vec<crate::tui::Key>) {
        match input {
            Input::Bytes(epoch, _) if epoch < EPOCH.load(Ordering::SeqCst) => {}
            Input::Bytes(_, bytes) => self.parser.feed(&bytes, keys),
            Input::Resize => self.resized = true,
            Input::Suspend => self.suspend = true,
            Input::Continue => self.continued = true,
            Input::Signal | Input::Wake => {}
            Input::Gone => {
                self.parser.flush(keys);
                self.gone = true;
            }
        }
    }
}

/// Wakes a `Terminal` waiting for keys.
pub struct Waker(Sender<Input>);

impl Waker {
    pub fn wake(&self) {
        let _ = self.0.send(Input::Wake);
    }
}

fn spawn(
    name: &str,
    tx: Sender<Input>,
    work: impl FnOnce(Sender<Input>) + Send + 'static,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || work(tx))
        .map(drop)
}

fn read_tty(mut tty: std::fs::File, tx: Sender<Input>) {
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let input = match tty.read(&mut buf) {
            Ok(0) => Input::Gone,
            // Read at a resume, before SIGCONT's handling flushed the
            // terminal: the epoch is still the old one, and they are dropped.
            Ok(n) => Input::Bytes(EPOCH.load(Ordering::SeqCst), buf[..n].to_vec()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => Input::Gone,
        };
        let gone = matches!(input, Input::Gone);
        if gone {
            // As the kernel does on a hang-up: the loops and the watchdog
            // see it even where they cannot read this channel.
            let _ = signal_hook::low_level::raise(signal_hook::consts::SIGHUP);
        }
        if tx.send(input).is_err() || gone {
            return;
        }
    }
}
