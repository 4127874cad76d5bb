//! The browser in a real tmux, as a user over SSH meets it: a clean screen
//! with the alternate screen off (as GNU screen and mosh have it), a
//! redirected standard output, Ctrl-Z and `fg`, junk written on the
//! terminal then Ctrl-L, a terminal that reports 0x0.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tmux;

use crate::support::tui as support;

use tmux::Tmux;

fn cgtui() -> &'static str {
    env!("CARGO_BIN_EXE_cgtui")
}

#[test]
fn old_shell_output_never_shows_through_without_an_alternate_screen() {
    let t = Tmux::start("altoff", (80, 24), &["alternate-screen off"]);
    t.line(&format!(
        "seq -f 'old shell output %g' 1 30; {} samples/recursion.callgrind",
        cgtui()
    ));
    let screen = t.wait_for("Callees of");
    assert!(!screen.contains("old shell output"), "{screen}");
    assert!(!screen.contains("ll ou"), "{screen}");
    t.keys("q");
}

#[test]
fn with_standard_output_redirected_it_draws_on_the_terminal() {
    let t = Tmux::start("redirect", (80, 24), &[]);
    let out = std::env::temp_dir().join(format!("cgtui-redirect-{}.txt", std::process::id()));
    t.line(&format!(
        "{} samples/recursion.callgrind > '{}'",
        cgtui(),
        out.display()
    ));
    t.wait_for("Callees of");
    t.keys("q");
    t.wait_for("$ ");
    let written = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    assert!(
        written.is_empty(),
        "{} bytes went to the file",
        written.len()
    );
}

#[test]
fn ctrl_z_suspends_and_fg_comes_back_drawn_and_answering() {
    crate::support::tools::require(&["pgrep"]);
    let t = Tmux::start("suspend", (80, 24), &[]);
    t.line(&format!("{} samples/recursion.callgrind", cgtui()));
    t.wait_for("Callees of");
    t.keys("C-z");
    let screen = t.wait_for("Stopped");
    assert!(!screen.contains("Callees of"), "{screen}");
    t.line("fg");
    t.wait_for("Callees of");
    // Raw mode again: a key is read at once.
    t.keys("/");
    t.wait_for("Search:");
    t.keys("Escape");
    // SIGTSTP from elsewhere does the same.
    let pid = t.run(&["display", "-p", "-t", "0", "#{pane_pid}"]);
    let pid = pid.trim();
    let child = std::process::Command::new("pgrep")
        .args(["-P", pid])
        .output()
        .unwrap();
    let child = String::from_utf8_lossy(&child.stdout).trim().to_string();
    std::process::Command::new("kill")
        .args(["-TSTP", &child])
        .status()
        .unwrap();
    t.wait_for("Stopped");
    t.line("fg");
    t.wait_for("Callees of");
    t.keys("q");
    t.wait_for("$ ");
}

#[test]
fn ctrl_l_repaints_over_junk_another_program_wrote() {
    let t = Tmux::start("junk", (80, 24), &[]);
    t.line(&format!("{} samples/recursion.callgrind", cgtui()));
    t.wait_for("Callees of");
    std::fs::write(t.tty(), "\x1b[6;10HJUNK FROM WALL").unwrap();
    t.wait_for("JUNK FROM WALL");
    t.keys("C-l");
    let start = std::time::Instant::now();
    while t.screen().contains("JUNK") {
        assert!(start.elapsed().as_secs() < 10, "{}", t.screen());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(t.screen().contains("Callees of"));
    t.keys("q");
}

#[test]
fn a_terminal_reporting_0x0_is_drawn_at_lines_by_columns() {
    let t = Tmux::start("zero", (100, 30), &[]);
    t.line(&format!(
        "stty rows 0 cols 0; LINES=24 COLUMNS=80 {} samples/recursion.callgrind",
        cgtui()
    ));
    let screen = t.wait_for("Callees of");
    let widest = screen
        .lines()
        .map(|l| l.trim_end().chars().count())
        .max()
        .unwrap();
    assert!(widest <= 80, "{screen}");
    t.keys("q");
}

#[test]
fn under_gnu_screen_in_a_c_locale_the_screen_is_clean_and_ascii() {
    crate::support::tools::require(&["screen"]);
    let t = Tmux::start("screen", (80, 24), &[]);
    // GNU screen's default: no alternate screen; LANG=C: no UTF-8.
    t.line("LANG=C LC_ALL=C screen -q");
    // Screen clears the terminal once it has its window (and reads keys).
    t.wait_until("GNU screen's window", |s| !s.contains("screen -q"));
    t.line(&format!(
        "seq -f 'old shell output %g' 1 30; {} samples/recursion.callgrind",
        cgtui()
    ));
    let screen = t.wait_for("Callees of");
    assert!(!screen.contains("old shell output"), "{screen}");
    assert!(screen.contains("Inclv"), "{screen}");
    assert!(screen.is_ascii(), "{screen}");
    // Scrolling by the terminal's scroll region is right under screen too.
    for _ in 0..15 {
        t.keys("j");
    }
    // The same keys on the library, drawn in ASCII: the rows must agree.
    let mut app = support::sample_app("recursion.callgrind");
    app.theme.ascii = true;
    support::press(&mut app, &"j".repeat(15));
    let want = support::text(&support::render(&mut app, 80, 24));
    let rows = |s: &str| -> Vec<String> {
        s.lines()
            .take(22)
            .map(|l| l.trim_end().to_string())
            .collect()
    };
    t.wait_until("the rows the library draws", |s| rows(s) == rows(&want));
    t.keys("q");
    t.line("exit");
}

#[test]
fn ctrl_z_while_loading_from_a_slow_pipe_and_fg() {
    let t = Tmux::start("loadstop", (80, 24), &[]);
    let profile = "samples/cpp-names.callgrind";
    t.line(&format!(
        "(head -c 20000 {profile}; sleep 2; tail -c +20001 {profile}) | {} -",
        cgtui()
    ));
    // The bar counts the bytes read so far (the size of a pipe is unknown).
    t.wait_for("loading 0.0 MB");
    t.keys("C-z");
    t.wait_for("Stopped");
    t.line("fg");
    t.wait_for("Callees of");
    t.keys("q");
    t.wait_for("$ ");
}

/// The pane's process: the shell, or what it `exec`ed.
fn pane_pid(t: &Tmux) -> String {
    t.run(&["display", "-p", "-t", "0", "#{pane_pid}"])
        .trim()
        .to_string()
}

fn signal(sig: &str, pid: &str) {
    let ok = std::process::Command::new("kill")
        .args([sig, pid])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig} {pid}");
}

#[test]
fn ctrl_z_without_a_job_control_shell_stays_and_says_why() {
    // As `ssh -t host cgtui FILE`, `mosh host -- cgtui FILE` and
    // `tmux new 'exec cgtui FILE'` start it: leading a session of its
    // own, with no shell that could ever resume it.
    let t = Tmux::start("nojobs", (100, 24), &[]);
    t.line(&format!("exec {} samples/recursion.callgrind", cgtui()));
    t.wait_for("Callees of");
    t.keys("C-z");
    t.wait_for("no shell to resume cgtui here");
    // Still there and answering; SIGTSTP from elsewhere is refused too.
    signal("-TSTP", &pane_pid(&t));
    t.keys("/");
    t.wait_for("Search:");
    t.keys("Escape");
    t.wait_for("Tab pane");
    t.keys("q");
    let start = std::time::Instant::now();
    while pane_pid(&t).parse::<u32>().is_ok() {
        assert!(start.elapsed().as_secs() < 30, "q did not end it");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn under_gnu_screen_esc_leaves_a_view_at_once() {
    crate::support::tools::require(&["screen"]);
    let t = Tmux::start("screenesc", (100, 30), &[]);
    // screen's window runs cgtui itself; screen holds a lone Esc back
    // while mouse reporting is on, so the mouse starts off there.
    t.line(&format!(
        "screen -q {} samples/recursion.callgrind",
        cgtui()
    ));
    t.wait_for("mouse off under GNU screen");
    for view in ["s", "t", "f"] {
        t.keys(view);
        t.wait_for("close");
        t.keys("Escape");
        // No other key follows: the Esc alone must close the view.
        t.wait_for("Tab pane");
        // And the view's own key closes it without Esc.
        t.keys(view);
        t.wait_for("close");
        t.keys(view);
        t.wait_for("Tab pane");
    }
    t.keys("q");
    t.wait_for("$ ");
}

#[test]
fn without_an_alternate_screen_the_prompt_comes_back_on_its_own_line() {
    let t = Tmux::start("prompt", (80, 24), &["alternate-screen off"]);
    for quit in ["q", "C-c"] {
        t.line("clear");
        t.line(&format!("{} samples/recursion.callgrind", cgtui()));
        t.wait_for("Callees of");
        t.keys(quit);
        let start = std::time::Instant::now();
        let lines = loop {
            let screen = t.screen();
            let lines: Vec<String> = screen
                .lines()
                .map(|l| l.trim_end().to_string())
                .filter(|l| !l.is_empty())
                .collect();
            if lines.last().is_some_and(|l| l == "$") {
                break lines;
            }
            assert!(
                start.elapsed().as_secs() < 30,
                "{quit}: no prompt:\n{screen}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        // The last frame stays whole above the prompt, its hints included.
        let above = &lines[lines.len() - 2];
        assert!(above.starts_with("Tab pane"), "{quit}: {lines:#?}");
    }
}
