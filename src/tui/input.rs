//! Reading the terminal: a thread reads `/dev/tty` with plain blocking
//! reads and another waits for signals (SIGWINCH, job control, the ones
//! that end the browser), both sending to one channel, so the browser
//! sleeps until something happens (no periodic wake-ups); `keys` turns the
//! bytes into our `Key`s (the rules, and the one place where timing decides
//! what bytes mean, a lone Esc, are in `keys`' own doc). crossterm's reader
//! is not used:
//! in 0.29 its default one reads 1 KiB per wake-up of an edge-triggered
//! epoll, so a paste over 4 KiB leaves input in the kernel that never wakes
//! it again and the browser stops answering keys (crossterm PR #1057), and
//! it spins forever once the terminal is gone (issue #793). A blocking read
//! has neither problem: it returns whatever is there, and end of file or an
//! error when the terminal goes away. Draws nothing, changes no state.

mod keys;

pub use keys::{Parser, Pending, STALE};
use nix::sys::signal::{SigSet, SigmaskHow, Signal, pthread_sigmask};
use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// What the terminal sent.
#[derive(Debug)]
pub enum Input {
    /// Bytes read, when (a sequence's age is counted from its arrival,
    /// not from when a busy browser got to it), and the `EPOCH` they were
    /// read in.
    Bytes(Vec<u8>, Instant, u64),
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

/// How long a lone Esc waits for the rest of an escape sequence (a
/// sequence begun waits for its end however long; see `keys`).
pub const ESC_WAIT: Duration = Duration::from_millis(30);

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
        // Set by SIGCONT's handler, which runs on the reader thread alone
        // (blocked in this thread and so in every thread it starts later):
        // the reader wakes from a stop with the bytes typed meanwhile, and
        // the handler has run before its read returns, whereas the signal
        // thread below may run milliseconds later, after the bytes were
        // taken as keys.
        let resuming = std::sync::Arc::new(AtomicBool::new(false));
        signal_hook::flag::register(SIGCONT, resuming.clone())?;
        let cont = continue_signal();
        pthread_sigmask(SigmaskHow::SIG_BLOCK, Some(&cont), None)?;
        let reader = resuming.clone();
        spawn("cgtui-tty", tx.clone(), move |tx| {
            // Cannot fail: the arguments are valid.
            let _ = pthread_sigmask(SigmaskHow::SIG_UNBLOCK, Some(&cont), None);
            read_tty(tty, &reader, tx);
        })?;
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
                        resuming.store(false, Ordering::SeqCst);
                        Input::Continue
                    }
                    _ => Input::Signal,
                };
                if tx.send(input).is_err() {
                    return;
                }
            }
        })?;
        Ok(Terminal::on(rx, tx))
    }

    /// A terminal reading `rx` (`tx` for its waker).
    fn on(rx: Receiver<Input>, tx: Sender<Input>) -> Terminal {
        Terminal {
            rx,
            tx,
            parser: Parser::default(),
            gone: false,
            resized: false,
            suspend: false,
            continued: false,
            unread: Vec::new(),
        }
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
        // A lone Esc is Esc unless more comes at once. A sequence begun
        // stays in the parser until its end arrives, however late: the
        // keys before it are handled meanwhile.
        while self.parser.pending() == Pending::Esc && !self.gone {
            match self.rx.recv_timeout(ESC_WAIT) {
                Ok(more) => self.take(more, &mut keys),
                Err(_) => self.parser.flush_at(Instant::now(), &mut keys),
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
            Input::Bytes(_, _, epoch) if epoch < EPOCH.load(Ordering::SeqCst) => {}
            Input::Bytes(bytes, at, _) => self.parser.feed_at(&bytes, at, keys),
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

fn continue_signal() -> SigSet {
    let mut set = SigSet::empty();
    set.add(Signal::SIGCONT);
    set
}

/// Reads the terminal until it is gone. Bytes read between a continue
/// and its flush (`resuming` set) were typed while stopped: dropped here,
/// and those read before that carry the old epoch and are dropped later.
fn read_tty(mut tty: std::fs::File, resuming: &AtomicBool, tx: Sender<Input>) {
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let input = match tty.read(&mut buf) {
            Ok(0) => Input::Gone,
            Ok(_) if resuming.load(Ordering::SeqCst) => continue,
            Ok(n) => Input::Bytes(
                buf[..n].to_vec(),
                Instant::now(),
                EPOCH.load(Ordering::SeqCst),
            ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::Key::{self, Char, Esc};

    /// A terminal fed by the test through the returned sender.
    fn fake() -> (Terminal, Sender<Input>) {
        let (tx, rx) = mpsc::channel();
        (Terminal::on(rx, tx.clone()), tx)
    }

    fn send(tx: &Sender<Input>, bytes: &[u8], at: Instant) {
        tx.send(Input::Bytes(
            bytes.to_vec(),
            at,
            EPOCH.load(Ordering::SeqCst),
        ))
        .unwrap();
    }

    /// The keys of everything sent so far (the batch only bounds
    /// taking what is already there).
    fn read(t: &mut Terminal) -> Vec<Key> {
        t.keys(Some(Duration::ZERO), Duration::from_secs(60))
    }

    #[test]
    fn a_report_whose_tail_comes_late_is_not_keys() {
        let (mut t, tx) = fake();
        let t0 = Instant::now();
        // Before, the head was flushed after 30 ms as Esc `[` `M`, and
        // the tail ` qq` read as keys: `M` (mouse off), Space, `q`.
        send(&tx, b"j\x1b[M", t0);
        assert_eq!(read(&mut t), [Char('j')], "the keys before it at once");
        assert_eq!(t.parser.pending(), Pending::Sequence);
        assert_eq!(read(&mut t), []);
        send(&tx, b" qq", t0 + Duration::from_millis(150));
        assert_eq!(read(&mut t), []);
        send(&tx, b"\x1b[<0;1", t0 + Duration::from_millis(200));
        send(
            &tx,
            b"2;5m\x1b]11;rgb:0/0/0\x1b",
            t0 + Duration::from_millis(900),
        );
        send(&tx, b"\\k", t0 + Duration::from_millis(1_500));
        assert_eq!(read(&mut t), [Char('k')]);
    }

    #[test]
    fn a_lone_esc_is_esc_and_the_rest_after_it_is_dropped() {
        let (mut t, tx) = fake();
        send(&tx, b"\x1b", Instant::now());
        // Nothing follows within ESC_WAIT: Esc.
        assert_eq!(read(&mut t), [Esc]);
        assert_eq!(t.parser.pending(), Pending::Nothing);
        // The rest of an X10 report cut right after its ESC.
        send(&tx, b"[M qq", Instant::now());
        assert_eq!(read(&mut t), []);
        send(&tx, b"q", Instant::now());
        assert_eq!(read(&mut t), [Char('q')]);
        // Esc and a key together: two keys, no wait.
        send(&tx, b"\x1bS", Instant::now());
        assert_eq!(read(&mut t), [Esc, Char('S')]);
    }

    #[test]
    fn a_sequence_unfinished_for_longer_than_stale_is_given_up() {
        let (mut t, tx) = fake();
        let t0 = Instant::now();
        send(&tx, b"\x1b[<0;1", t0);
        assert_eq!(read(&mut t), []);
        send(&tx, b"j", t0 + STALE + Duration::from_millis(1));
        assert_eq!(read(&mut t), [Char('j')]);
        // The terminal gone: an unfinished sequence is dropped, a lone
        // Esc is Esc.
        send(&tx, b"\x1b]11;", t0);
        tx.send(Input::Gone).unwrap();
        assert_eq!(read(&mut t), []);
        assert!(t.gone());
    }
}
