//! `cgtui man`: the man page, made from the command line's definition
//! (clap_mangen) and the browser's keymap, so that neither can drift from
//! the page: every option of every command, then a KEYS section written
//! from the same bindings as the help screen.

use crate::tui::keymap;
use clap::CommandFactory;
use roff::{Roff, bold, roman};
use std::io::{self, Write};

/// The page's extra sections, after the options.
const FILES: &str = "$XDG_CONFIG_HOME/cgtui/config.toml, else ~/.config/cgtui/config.toml: \
the configuration file (source roots, colours, the mouse, what the browser shows first). \
Options on the command line win over it; --config FILE reads another file, --no-config none.";

const ENVIRONMENT: [(&str, &str); 3] = [
    ("NO_COLOR", "When set and not empty, draw without colours."),
    (
        "CGTUI_ASCII",
        "When set and not 0, draw with ASCII only (as --ascii); also the default where the locale is not UTF-8.",
    ),
    (
        "XDG_CONFIG_HOME",
        "Where the configuration file is looked for (default: ~/.config).",
    ),
];

/// The two lines roff puts before each section it renders (clap_mangen
/// renders each section on its own): the page needs them once.
const PREAMBLE: [&str; 2] = [".ie \\n(.g .ds Aq \\(aq", ".el .ds Aq '"];

/// Writes the whole man page to `out`, the roff preamble once.
pub fn write(out: &mut dyn Write) -> io::Result<()> {
    let mut page = Vec::new();
    write_sections(&mut page)?;
    let page = String::from_utf8_lossy(&page);
    let mut preambles = 0;
    for line in page.lines() {
        if PREAMBLE.contains(&line) {
            preambles += 1;
            if preambles > PREAMBLE.len() {
                continue;
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn write_sections(out: &mut dyn Write) -> io::Result<()> {
    let mut cmd = super::Cli::command();
    cmd.build();
    let page = clap_mangen::Man::new(cmd.clone());
    page.render_title(out)?;
    page.render_name_section(out)?;
    page.render_synopsis_section(out)?;
    page.render_description_section(out)?;
    page.render_options_section(out)?;
    // clap_mangen's list names a page per command (cgtui-report(1)); the
    // commands are described on this page instead.
    let commands = || cmd.get_subcommands().filter(|s| s.get_name() != "help");
    let mut roff = Roff::new();
    roff.control("SH", ["COMMANDS"]);
    for sub in commands() {
        roff.control("TP", []);
        roff.text([bold(format!("cgtui {}", sub.get_name()))]);
        roff.text([roman(
            sub.get_about().map(|a| a.to_string()).unwrap_or_default(),
        )]);
    }
    roff.to_writer(out)?;
    for sub in commands().filter(|s| s.get_arguments().any(is_shown)) {
        write_command(out, sub)?;
    }
    let mut roff = Roff::new();
    roff.control("SH", ["KEYS"]);
    roff.text([roman(
        "The browser's keys, as its help screen (?) lists them. Plain keys only: they work over SSH and in tmux.",
    )]);
    for (title, keys, help) in keymap::help_lines(true) {
        match title {
            Some(title) => {
                roff.control("SS", [title]);
            }
            None => {
                roff.control("TP", []);
                roff.text([bold(keys)]);
                roff.text([roman(help)]);
            }
        }
    }
    roff.control("SH", ["FILES"]);
    roff.text([roman(FILES)]);
    roff.control("SH", ["ENVIRONMENT"]);
    for (name, what) in ENVIRONMENT {
        roff.control("TP", []);
        roff.text([bold(name)]);
        roff.text([roman(what)]);
    }
    roff.control("SH", ["EXIT STATUS"]);
    roff.text([roman(
        "0 on success and when the browser is left with q; 2 for a usage error, \
         a file that cannot be read or a bad configuration file; 130 after Ctrl-C; \
         129 and 143 after SIGHUP and SIGTERM.",
    )]);
    roff.to_writer(out)?;
    page.render_version_section(out)
}

fn is_shown(arg: &clap::Arg) -> bool {
    !arg.is_hide_set()
}

/// A subcommand's own section: its description, synopsis and options,
/// their headings one level down.
fn write_command(out: &mut dyn Write, sub: &clap::Command) -> io::Result<()> {
    let page = clap_mangen::Man::new(sub.clone());
    let mut text = Vec::new();
    page.render_description_section(&mut text)?;
    page.render_synopsis_section(&mut text)?;
    page.render_options_section(&mut text)?;
    let text = String::from_utf8_lossy(&text);
    let name = sub.get_bin_name().unwrap_or(sub.get_name());
    let mut roff = Roff::new();
    roff.control("SH", [name.to_uppercase().as_str()]);
    roff.to_writer(out)?;
    for line in text.lines() {
        match line.strip_prefix(".SH ") {
            Some(heading) => writeln!(out, ".SS {heading}")?,
            None => writeln!(out, "{line}")?,
        }
    }
    Ok(())
}
