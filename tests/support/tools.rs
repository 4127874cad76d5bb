//! The programs some tests run beside cgtui (tmux, GNU screen, a C
//! compiler...). A missing one fails the test with one message naming it
//! and its package, never with an error that reads like a bug of cgtui.
//! `scripts/install-test-tools` installs them all (`.ci/run` runs it).

#![allow(dead_code)]

use std::path::Path;

/// Each tool and the Debian/Ubuntu package that has it.
const PACKAGES: &[(&str, &str)] = &[
    ("tmux", "tmux"),
    ("screen", "screen"),
    ("/usr/bin/time", "time"),
    ("gcc", "gcc"),
    ("objdump", "binutils"),
    ("addr2line", "binutils"),
    ("script", "bsdutils"),
    ("/usr/bin/script", "bsdutils"),
    ("setsid", "util-linux"),
    ("pgrep", "procps"),
    ("mkfifo", "coreutils"),
    ("man", "man-db"),
    ("bash", "bash"),
    ("valgrind", "valgrind"),
    ("callgrind_annotate", "valgrind"),
    ("sqlite3", "sqlite3"),
];

/// Whether `tool` (a name looked up on `PATH`, or an absolute path) is there.
pub fn found(tool: &str) -> bool {
    if tool.starts_with('/') {
        return Path::new(tool).is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()))
}

/// Fails the test, saying what to install, unless every tool is there.
pub fn require(tools: &[&str]) {
    let missing: Vec<&str> = tools.iter().copied().filter(|t| !found(t)).collect();
    if missing.is_empty() {
        return;
    }
    let packages: Vec<&str> = missing
        .iter()
        .map(|t| {
            PACKAGES
                .iter()
                .find(|(name, _)| name == t)
                .map_or(*t, |(_, package)| package)
        })
        .collect();
    panic!(
        "this test runs {} beside cgtui, and it is not installed: \
         `apt-get install {}` (Debian/Ubuntu), or scripts/install-test-tools for \
         everything the tests need",
        missing.join(", "),
        packages.join(" ")
    );
}

/// Runs `command` (needing `tool`, which `require` checks) with `input`
/// on its standard input; its output, standard output and error kept.
pub fn piped(
    tool: &str,
    command: &mut std::process::Command,
    input: &[u8],
) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    require(&[tool]);
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}
