//! What the terminal is, where it changes a default: GNU screen 4.09
//! holds a lone Esc back while mouse reporting is on (until the next key
//! arrives, then both act together), so under screen the mouse starts off
//! and Esc works at once; `M` still switches it on. tmux passes Esc on at
//! once, so inside tmux the mouse stays on. Each passes its variable
//! (`STY`, `TMUX`) on to what runs in it, so with both set (one inside the
//! other) the nearer of the two among our ancestors decides.

/// Why the mouse starts off, for the status line.
pub const SCREEN_MOUSE_OFF: &str =
    "mouse off under GNU screen, which holds Esc back while it is on (M: on)";

/// A terminal multiplexer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Multiplexer {
    Screen,
    Tmux,
}

/// Whether the terminal is GNU screen, from the environment: `STY` (set by
/// screen for its windows) without `TMUX`; with both, `nearest` (which of
/// the two is the nearer ancestor; unknown: screen, where Esc then works);
/// with neither, a `TERM` of `screen*` (over ssh from a screen window).
pub fn under_gnu_screen(
    var: impl Fn(&str) -> Option<String>,
    nearest: impl FnOnce() -> Option<Multiplexer>,
) -> bool {
    let set = |k: &str| var(k).is_some_and(|v| !v.is_empty());
    match (set("STY"), set("TMUX")) {
        (true, false) => true,
        (false, true) => false,
        (true, true) => nearest() != Some(Multiplexer::Tmux),
        (false, false) => var("TERM").is_some_and(|t| t.starts_with("screen")),
    }
}

/// The multiplexer nearest among our ancestors: screen's windows are
/// children of its `screen` process, tmux's panes of `tmux: server`.
fn nearest_ancestor() -> Option<Multiplexer> {
    let me = super::procs::read(None)?;
    super::procs::ancestors(me)
        .map_while(|p| p)
        .find_map(|p| match p.name.as_str() {
            "screen" | "SCREEN" => Some(Multiplexer::Screen),
            name if name.starts_with("tmux") => Some(Multiplexer::Tmux),
            _ => None,
        })
}

/// The mouse at the start: as asked (`--no-mouse`, the config), else on
/// except under GNU screen; with the message saying why it is off.
pub fn initial_mouse(asked: Option<bool>) -> (bool, Option<&'static str>) {
    match asked {
        Some(on) => (on, None),
        None if under_gnu_screen(|k| std::env::var(k).ok(), nearest_ancestor) => {
            (false, Some(SCREEN_MOUSE_OFF))
        }
        None => (true, None),
    }
}

#[cfg(test)]
mod tests {
    use super::{Multiplexer, under_gnu_screen};

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_string())
        }
    }

    fn unknown() -> Option<Multiplexer> {
        None
    }

    #[test]
    fn screen_is_told_by_sty_or_term() {
        let vars = [("STY", "123.pts-0.host"), ("TERM", "xterm")];
        assert!(under_gnu_screen(env(&vars), unknown));
        // Over ssh from a screen window: only TERM comes along.
        assert!(under_gnu_screen(
            env(&[("TERM", "screen.xterm-256color")]),
            unknown
        ));
        assert!(under_gnu_screen(env(&[("TERM", "screen")]), unknown));
    }

    #[test]
    fn tmux_and_plain_terminals_are_not_screen() {
        let vars = [
            ("TMUX", "/tmp/tmux-0/default,1,0"),
            ("TERM", "screen-256color"),
        ];
        assert!(!under_gnu_screen(env(&vars), unknown));
        assert!(!under_gnu_screen(
            env(&[("TERM", "xterm-256color")]),
            unknown
        ));
        let vars = [("STY", ""), ("TERM", "tmux-256color")];
        assert!(!under_gnu_screen(env(&vars), unknown));
        assert!(!under_gnu_screen(env(&[]), unknown));
    }

    #[test]
    fn one_inside_the_other_the_nearer_decides() {
        let both = [
            ("TMUX", "/tmp/tmux-0/default,1,0"),
            ("STY", "123.pts-0.host"),
            ("TERM", "screen"),
        ];
        assert!(under_gnu_screen(env(&both), || Some(Multiplexer::Screen)));
        assert!(!under_gnu_screen(env(&both), || Some(Multiplexer::Tmux)));
        assert!(under_gnu_screen(env(&both), unknown));
    }
}
