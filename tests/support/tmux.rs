//! A shell in a real tmux, driven as a person would (send-keys,
//! capture-pane), on a server of its own so tests do not meet.

#![allow(dead_code)]
use super::tools;

use std::process::Command;
use std::time::{Duration, Instant};

pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// A `w`x`h` window running a shell in the crate's directory; `options`
    /// are tmux `set` commands applied first (e.g. `alternate-screen off`).
    pub fn start(name: &str, (w, h): (u16, u16), options: &[&str]) -> Tmux {
        tools::require(&["tmux"]);
        let t = Tmux {
            socket: format!("cgtui-test-{name}-{}", std::process::id()),
        };
        t.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            &w.to_string(),
            "-y",
            &h.to_string(),
        ]);
        for o in options {
            let mut args = vec!["set", "-g"];
            args.extend(o.split_whitespace());
            t.run(&args);
        }
        t.keys(&format!(
            "cd '{}' && PS1='$ ' && clear",
            env!("CARGO_MANIFEST_DIR")
        ));
        t.keys("Enter");
        t
    }

    pub fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `tmux send-keys` with these words (`Enter`, `C-z`, or literal text).
    pub fn keys(&self, keys: &str) {
        self.run(&["send-keys", "-t", "0", keys]);
    }

    /// Types a command line and Enter.
    pub fn line(&self, text: &str) {
        self.run(&["send-keys", "-t", "0", "-l", text]);
        self.keys("Enter");
    }

    pub fn screen(&self) -> String {
        self.run(&["capture-pane", "-t", "0", "-p"])
    }

    /// The pane's terminal device, to write on it as another program would.
    pub fn tty(&self) -> String {
        self.run(&["display", "-p", "-t", "0", "#{pane_tty}"])
            .trim()
            .to_string()
    }

    /// Waits until the screen shows `text` (30 s at most).
    pub fn wait_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Waits until the screen is as `wanted` says (30 s at most), and
    /// returns it; `what` names the wait when it fails.
    pub fn wait_until(&self, what: &str, wanted: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if wanted(&s) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "never showed {what}:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}
