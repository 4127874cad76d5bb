//! What the command line tells about itself and what it reads besides the
//! profiles: `--help` and `-h`, `cgtui completions`, `cgtui man`, and
//! the configuration file (docs/config.md's example, errors, and the
//! command line winning over it).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use cgtui::cli::Cli;
use cgtui::config::Config;
use cgtui::tui::theme::{Paint, Palette};
use cgtui::tui::{StartSort, ViewDefaults};
use clap::{CommandFactory, Parser};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The binary in `dir`, with a configuration directory of its own (empty
/// unless a test writes a file into it) so the user's file plays no part.
fn cgtui_in(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("cgtui").unwrap();
    c.current_dir(dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("CGTUI_ASCII");
    c
}

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn run(dir: &Path, args: &[&str]) -> Run {
    let out = cgtui_in(dir).args(args).output().unwrap();
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn ok(args: &[&str]) -> String {
    let r = run(&root(), args);
    assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

/// Every long option of `cmd` and its subcommands (but `help`'s).
fn long_options(cmd: &clap::Command) -> Vec<String> {
    let mut out: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long())
        .map(|l| format!("--{l}"))
        .collect();
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        out.extend(long_options(sub));
    }
    out.sort();
    out.dedup();
    out
}

fn subcommands() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .filter(|n| n != "help")
        .collect()
}

#[test]
fn the_command_line_definition_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn dash_h_is_short_and_dash_dash_help_is_long() {
    let mut commands = vec![vec![]];
    commands.extend(subcommands().into_iter().map(|s| vec![s]));
    for words in commands {
        let args = |flag: &str| {
            let mut v: Vec<&str> = words.iter().map(String::as_str).collect();
            v.push(flag);
            ok(&v)
        };
        // Words, not bytes: -h pads its columns with spaces.
        let words_of = |s: &str| s.split_whitespace().count();
        let (short, long) = (words_of(&args("-h")), words_of(&args("--help")));
        assert!(short < long, "{words:?}: -h {short} words, --help {long}");
    }
    let long = ok(&["--help"]);
    assert!(long.contains("Examples:"), "{long}");
    assert!(long.contains("config.toml"), "{long}");
    assert!(!ok(&["-h"]).contains("Examples:"));
}

#[test]
fn every_shell_gets_a_completion_script() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = ok(&["completions", shell]);
        assert!(script.contains("cgtui"), "{shell}");
        // fish writes `-l source-root`.
        for word in ["report", "annotate", "source-root", "config"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    let r = run(&root(), &["completions", "tcsh"]);
    assert_eq!(r.status, 2, "{}", r.stderr);
}

#[test]
fn the_bash_script_names_every_command_and_bash_accepts_it() {
    let script = ok(&["completions", "bash"]);
    for sub in subcommands() {
        assert!(script.contains(&sub), "{sub}");
    }
    for option in [
        "--threshold",
        "--json",
        "--no-mouse",
        "--no-config",
        "--include",
    ] {
        assert!(script.contains(option), "{option}");
    }
    let mut bash = std::process::Command::new("bash");
    let out = crate::support::tools::piped("bash", bash.arg("-n"), script.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// roff text as read: `\-` is a hyphen, `\(aq` a quote, `\fB` a font.
fn unroff(text: &str) -> String {
    text.replace("\\-", "-")
        .replace("\\(aq", "'")
        .replace("\\*(Aq", "'")
        .replace("\\fB", "")
        .replace("\\fR", "")
        .replace("\\fI", "")
        .replace("\\&", "")
        .replace("\\e", "\\")
}

#[test]
fn the_man_page_has_every_option_and_the_keys() {
    let page = ok(&["man"]);
    assert!(
        page.starts_with(".TH cgtui 1") || page.contains("\n.TH "),
        "{page}"
    );
    // roff's preamble once (clap_mangen writes it before each section).
    assert_eq!(page.matches(".ds Aq").count(), 2, "{page}");
    let text = unroff(&page);
    for option in long_options(&Cli::command()) {
        assert!(text.contains(&option), "{option} missing");
    }
    for sub in subcommands() {
        assert!(text.contains(&format!("cgtui {sub}")), "{sub}");
    }
    // Every binding of the keymap, as the help screen writes it.
    let keys = text.split(".SH KEYS").nth(1).expect("a KEYS section");
    for (title, keys_text, help) in cgtui::tui::keymap::help_lines(true) {
        match title {
            Some(title) => assert!(keys.contains(title), "{title}"),
            None => {
                assert!(keys.contains(&keys_text), "{keys_text}");
                assert!(keys.contains(help), "{help}");
            }
        }
    }
    assert!(keys.contains("fuzzy search over all function names"));
}

#[test]
fn man_renders_the_page() {
    let page = ok(&["man"]);
    let mut man = std::process::Command::new("man");
    man.args(["-l", "-"])
        .env("MANWIDTH", "100")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat");
    let out = crate::support::tools::piped("man", &mut man, page.as_bytes());
    let shown = String::from_utf8_lossy(&out.stdout);
    let warnings = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{warnings}");
    assert!(warnings.trim().is_empty(), "{warnings}");
    for heading in ["NAME", "SYNOPSIS", "OPTIONS", "COMMANDS", "KEYS", "FILES"] {
        assert!(shown.lines().any(|l| l == heading), "{heading}\n{shown}");
    }
    assert!(shown.contains("--source-root"), "{shown}");
}

/// The fenced ```toml block of docs/config.md.
fn documented_example() -> String {
    let doc = std::fs::read_to_string(root().join("docs/config.md")).unwrap();
    let start = doc.find("```toml\n").expect("a toml example") + "```toml\n".len();
    let end = start + doc[start..].find("```").unwrap();
    doc[start..end].to_string()
}

#[test]
fn the_documented_example_is_read_with_the_values_it_says() {
    let example = documented_example();
    let c = cgtui::config::parse(&example, Path::new("docs/config.md")).unwrap();
    assert_eq!(c.mouse, Some(true));
    assert!(!c.ascii);
    assert_eq!(
        c.source_roots,
        [("/build/myapp".into(), "/home/me/src/myapp".into())]
    );
    assert_eq!(c.include.len(), 1);
    assert!(c.include[0].ends_with("src/myapp/include"));
    // "with its default value": the view's and the colours' (but columns).
    assert_eq!(
        c.view,
        ViewDefaults {
            event: Some("Ir".into()),
            sort: Some(StartSort::Inclusive),
            percent: false,
            fold_templates: false,
            demangle: true,
            columns: vec!["D1mrRate".into(), "CEst:self".into()],
        }
    );
    assert_eq!(c.palette, Palette::DEFAULT);
    let metrics: Vec<(&str, &str)> = (c.metrics.iter())
        .map(|d| (d.name.as_str(), d.formula.as_str()))
        .collect();
    assert_eq!(metrics, [("miss", "D1mr / Dr"), ("cost", "Ir + 10 L1m")]);
    assert_eq!(
        c.min_denominator,
        Some(cgtui::metric::DEFAULT_MIN_DENOMINATOR)
    );
    // Every colour is in the example: set each one it names to "default"
    // and none is left.
    let colors = example.split("[colors]").nth(1).unwrap();
    let defaulted: String = colors
        .lines()
        .map(|l| match l.split_once(" = ") {
            Some((key, _)) if !l.starts_with('#') => format!("{key} = \"default\"\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    let text = format!("[colors]\n{defaulted}");
    let none = Paint(None);
    let all_default = Palette {
        header_fg: none,
        header_bg: none,
        title_fg: none,
        title_bg: none,
        title_inactive_fg: none,
        title_inactive_bg: none,
        selected_fg: none,
        selected_bg: none,
        selected_inactive_fg: none,
        selected_inactive_bg: none,
        current: none,
        matched: none,
        bar: none,
        hot: none,
        call: none,
        dim: none,
        marker: none,
        grown: none,
        shrunk: none,
        warning: none,
        key: none,
    };
    let c = cgtui::config::parse(&text, Path::new("t.toml")).unwrap();
    assert_eq!(c.palette, all_default);
}

fn write_config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("config/cgtui/config.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_bad_configuration_file_is_one_line_naming_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let sample = root().join("samples/recursion.callgrind");
    let sample = sample.to_str().unwrap();
    let cases = [
        (
            "mouse = true\n\n[view]\nprecent = true\n",
            ":4: view.precent: unknown field `precent`",
        ),
        (
            "[colors]\nbar = \"orange\"\n",
            ":2: colors.bar: unknown colour `orange`",
        ),
        ("ascii = 1\n", ":1: ascii: invalid type: integer `1`"),
    ];
    for (text, want) in cases {
        let path = write_config(dir.path(), text);
        for args in [vec![], vec!["report", sample], vec!["annotate", sample]] {
            let r = run(dir.path(), &args);
            assert_eq!(r.status, 2, "{args:?} {text:?}: {}", r.stderr);
            let want = format!("cgtui: {}{want}", path.display());
            assert!(
                r.stderr.starts_with(&want),
                "{args:?}: {}\nwant {want}",
                r.stderr
            );
            assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
            assert!(r.stdout.is_empty());
        }
        // --no-config reads none; completions and man read none.
        assert_eq!(
            run(dir.path(), &["--no-config", "report", sample]).status,
            0
        );
        assert_eq!(
            run(dir.path(), &["report", sample, "--no-config"]).status,
            0
        );
        assert_eq!(run(dir.path(), &["man"]).status, 0);
    }
}

#[test]
fn a_missing_config_file_is_an_error_only_when_named() {
    let dir = tempfile::tempdir().unwrap();
    let sample = root().join("samples/recursion.callgrind");
    let sample = sample.to_str().unwrap();
    // No file at the default place: fine.
    assert_eq!(run(dir.path(), &["report", sample]).status, 0);
    let r = run(dir.path(), &["--config", "nothing.toml", "report", sample]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .starts_with("cgtui: nothing.toml: reading the configuration file: "),
        "{}",
        r.stderr
    );
    let r = run(dir.path(), &["--config", "x.toml", "--no-config"]);
    assert_eq!(r.status, 2, "{}", r.stderr);
}

#[test]
fn annotate_looks_for_sources_where_the_file_says() {
    let dir = tempfile::tempdir().unwrap();
    let moved = crate::support::cli::moved_recursion_source(dir.path());
    let profile = root().join("samples/recursion.callgrind");
    let args = ["annotate", profile.to_str().unwrap(), "--function", "fib'2"];
    let lost = run(dir.path(), &args);
    assert!(lost.stdout.contains("not found"), "{}", lost.stdout);
    let toml_path = |p: &Path| p.display().to_string().replace('\\', "\\\\");
    for text in [
        format!("[sources]\ninclude = [\"{}\"]\n", toml_path(&moved)),
        format!(
            "[sources]\nroots = [\"samples/src={}\"]\n",
            toml_path(&moved)
        ),
    ] {
        write_config(dir.path(), &text);
        let found = run(dir.path(), &args);
        assert_eq!(found.status, 0, "{}", found.stderr);
        assert!(
            !found.stdout.contains("not found"),
            "{text}: {}",
            found.stdout
        );
        assert!(found.stdout.contains("fib(n"), "{}", found.stdout);
        // --no-config: lost again.
        let r = run(dir.path(), &[&["--no-config"][..], &args].concat());
        assert!(r.stdout.contains("not found"), "{}", r.stdout);
    }
}

#[test]
fn browser_options_before_a_command_are_refused_but_the_config_ones_are_not() {
    let refused = Cli::checked(["cgtui", "--ascii", "report", "f"]).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("--ascii is an option of the browser"),
        "{refused}"
    );
    assert!(Cli::checked(["cgtui", "-I", "d", "annotate", "f"]).is_err());
    for args in [
        &["cgtui", "--no-config", "report", "f"][..],
        &["cgtui", "report", "f", "--no-config"],
        &["cgtui", "--config", "c.toml", "annotate", "f"],
        &["cgtui", "--config", "c.toml", "f", "--ascii"],
    ] {
        let cli = Cli::checked(args).unwrap();
        assert_eq!(
            cli.config.choice() == cgtui::config::Choice::Nothing,
            args.contains(&"--no-config"),
            "{args:?}"
        );
    }
    let r = run(
        &root(),
        &["--ascii", "report", "samples/recursion.callgrind"],
    );
    assert_eq!(r.status, 2, "{}", r.stderr);
}

/// The browser's options for `args` with `config`.
fn browse(args: &[&str], config: &Config) -> cgtui::tui::BrowseOptions {
    let cli = Cli::try_parse_from([&["cgtui"][..], args].concat()).unwrap();
    cli.browse.options(config)
}

#[test]
fn the_command_line_wins_over_the_file_which_wins_over_the_default() {
    let none = Config::default();
    let off = Config {
        mouse: Some(false),
        ..Config::default()
    };
    let on = Config {
        mouse: Some(true),
        ..Config::default()
    };
    // Nothing said: the automatic choice.
    assert_eq!(browse(&[], &none).mouse, None);
    assert_eq!(browse(&[], &off).mouse, Some(false));
    assert_eq!(browse(&["--mouse"], &off).mouse, Some(true));
    assert_eq!(browse(&["--no-mouse"], &on).mouse, Some(false));
    // The last of the two flags counts.
    assert_eq!(browse(&["--mouse", "--no-mouse"], &none).mouse, Some(false));
    assert_eq!(browse(&["--no-mouse", "--mouse"], &none).mouse, Some(true));
    let ascii = Config {
        ascii: true,
        ..Config::default()
    };
    assert!(browse(&[], &ascii).ascii);
    assert!(browse(&["--ascii"], &none).ascii);
    assert!(!browse(&[], &none).ascii);
    // Source places: the command line's first, then the file's.
    let sources = Config {
        source_roots: vec![("/a".into(), "/b".into())],
        include: vec!["conf".into()],
        ..Config::default()
    };
    let o = browse(&["--source-root", "/a=/c", "-I", "cli"], &sources);
    assert_eq!(
        o.sources.rewrites,
        [("/a".into(), "/c".into()), ("/a".into(), "/b".into())]
    );
    assert_eq!(o.sources.include, [PathBuf::from("cli"), "conf".into()]);
    // The view and the colours come from the file.
    let view = Config {
        view: ViewDefaults {
            percent: true,
            ..ViewDefaults::default()
        },
        palette: Palette {
            bar: Paint(None),
            ..Palette::DEFAULT
        },
        ..Config::default()
    };
    let o = browse(&[], &view);
    assert!(o.view.percent);
    assert_eq!(o.palette.bar, Paint(None));
}
