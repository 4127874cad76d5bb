//! Bytes written to the terminal per key, cgtui beside less, recorded from
//! a real pseudo-terminal: what a key costs on an SSH connection. Prints
//! the table README.md shows. `cargo bench --bench keys`.

#[path = "../tests/support/tui.rs"]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod support;

use support::Pty;

/// The most bytes any of `n` presses of `key` wrote.
fn most(pty: &mut Pty, key: &str, n: usize) -> usize {
    (0..n).map(|_| pty.bytes_for(key)).max().unwrap_or(0)
}

fn cgtui(size: (u16, u16)) -> Vec<(&'static str, usize)> {
    let mut pty = Pty::spawn_with("samples/cpp-names.callgrind", size, &[]);
    pty.wait_for("Callees of");
    let repaint = pty.bytes_for("\x0c");
    pty.send("g");
    let within = most(&mut pty, "j", 5);
    for _ in 0..size.1 {
        pty.send("j");
    }
    let scroll = most(&mut pty, "j", 10);
    let open = pty.bytes_for("/");
    let first = pty.bytes_for("v");
    let typed = "ec"
        .chars()
        .map(|c| pty.bytes_for(&c.to_string()))
        .max()
        .unwrap_or(0);
    let close = pty.bytes_for("\x1b");
    let help = pty.bytes_for("?");
    pty.send("\x1bq");
    pty.finish();
    vec![
        ("`j` within the page", within),
        ("`j` scrolling the list", scroll),
        ("`/` (open search)", open),
        ("first search character (fills the results)", first),
        ("a search character narrowing them", typed),
        ("Esc (close search)", close),
        ("`?` (help)", help),
        ("Ctrl-L (whole screen)", repaint),
    ]
}

fn less(size: (u16, u16)) -> Vec<(&'static str, usize)> {
    let mut pty = Pty::spawn_command("less -S samples/cpp-names.callgrind", size, &[("LESS", "")]);
    pty.wait_for("version: 1");
    let scroll = most(&mut pty, "j", 10);
    pty.send("q");
    pty.finish();
    vec![("`j` scrolling (less -S)", scroll)]
}

fn main() {
    // `cargo bench` passes `--bench`; nothing to parse.
    println!("| key | 80x24 | 200x60 |");
    println!("|---|---|---|");
    let small = cgtui((80, 24)).into_iter().chain(less((80, 24)));
    let big: Vec<_> = cgtui((200, 60))
        .into_iter()
        .chain(less((200, 60)))
        .collect();
    for ((what, a), (_, b)) in small.zip(big) {
        println!("| {what} | {a} | {b} |");
    }
}
