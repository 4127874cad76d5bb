//! The configuration file: `--config FILE`, else
//! `$XDG_CONFIG_HOME/cgtui/config.toml`, else `~/.config/cgtui/config.toml`
//! (none with `--no-config`; a default file that is not there is no
//! error). Every key is checked: an unknown key or a bad value is one error
//! naming the file, the line and the key, never ignored. What the file may
//! hold is the struct `File` and the tables it names (the view's and the
//! theme's are defined beside the code they set, so a key is added in one
//! place). `cli` merges the result with the command line, which wins.
//! Must not import ratatui or crossterm.

use crate::tui::ViewDefaults;
use crate::tui::theme::Palette;
use std::path::{Path, PathBuf};

/// A configuration file larger than this is refused (a real one is a few
/// hundred bytes).
pub const MAX_BYTES: u64 = 1 << 20;

/// The file's settings as plain values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// Mouse capture at the start; `None`: the automatic choice.
    pub mouse: Option<bool>,
    /// ASCII glyphs whatever the locale.
    pub ascii: bool,
    /// `(OLD, NEW)` source path rewrites, as `--source-root OLD=NEW`.
    pub source_roots: Vec<(String, String)>,
    /// Source search directories, as `-I DIR`.
    pub include: Vec<PathBuf>,
    pub view: ViewDefaults,
    pub palette: Palette,
    /// `[metrics] formulas`: metrics defined as `--metric` does.
    pub metrics: Vec<crate::metric::Definition>,
    /// `[metrics] min-denominator`, as `--min-denominator`.
    pub min_denominator: Option<f64>,
}

/// Why the configuration could not be read; `main` prints it on one line.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{}: reading the configuration file: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: the configuration file is larger than {MAX_BYTES} bytes", path.display())]
    TooBig { path: PathBuf },
    #[error("{}:{line}: {key}: {message}", path.display())]
    Bad {
        path: PathBuf,
        line: usize,
        /// The dotted key (`colors.header-fg`), or `-` where none is known.
        key: String,
        message: String,
    },
}

/// The file as written.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
struct File {
    mouse: Option<bool>,
    ascii: bool,
    sources: Sources,
    view: ViewDefaults,
    colors: Palette,
    metrics: MetricsTable,
}

/// The `[metrics]` table.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
struct MetricsTable {
    /// `"NAME = FORMULA"`, each kept with its place for its error.
    formulas: Vec<toml::Spanned<String>>,
    min_denominator: Option<toml::Spanned<f64>>,
}

/// The `[sources]` table.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
struct Sources {
    /// `"OLD=NEW"`, each kept with its place for the error it may cause.
    roots: Vec<toml::Spanned<String>>,
    include: Vec<String>,
}

/// Which file to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// `--no-config`.
    Nothing,
    /// `--config FILE`: it must be there.
    Given(PathBuf),
    /// The default place: read if it is there.
    Default,
}

/// The default place of the file, from the environment: `None` when
/// neither `XDG_CONFIG_HOME` (absolute, as the XDG spec asks) nor `HOME`
/// is set.
pub fn default_path(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let set = |k: &str| var(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = match set("XDG_CONFIG_HOME").filter(|p| p.is_absolute()) {
        Some(dir) => dir,
        None => set("HOME")?.join(".config"),
    };
    Some(base.join("cgtui").join("config.toml"))
}

/// The configuration `choice` names (the defaults when there is none).
pub fn load(choice: &Choice) -> Result<Config, ConfigError> {
    let (path, required) = match choice {
        Choice::Nothing => return Ok(Config::default()),
        Choice::Given(path) => (path.clone(), true),
        Choice::Default => match default_path(|k| std::env::var_os(k)) {
            Some(path) => (path, false),
            None => return Ok(Config::default()),
        },
    };
    let text = match read_bounded(&path) {
        Ok(text) => text,
        Err(ConfigError::Read { source, .. }) if !required && out_of_reach(&path, &source) => {
            return Ok(Config::default());
        }
        Err(e) => return Err(e),
    };
    parse(&text, &path)
}

/// Whether a default file that could not be opened is simply not there
/// for this user: missing, or behind a directory they may not enter (a
/// user running with another's HOME). A file they can see but not read
/// is an error.
fn out_of_reach(path: &Path, error: &std::io::Error) -> bool {
    match error.kind() {
        std::io::ErrorKind::NotFound => true,
        std::io::ErrorKind::PermissionDenied => std::fs::metadata(path).is_err(),
        _ => false,
    }
}

/// The file's text, refused past `MAX_BYTES` or when it is not UTF-8.
fn read_bounded(path: &Path) -> Result<String, ConfigError> {
    use std::io::Read;
    let read = |source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read)?;
    if file.metadata().map_err(read)?.is_dir() {
        return Err(read(std::io::Error::other("is a directory")));
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(ConfigError::TooBig {
            path: path.to_path_buf(),
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..at]).into_owned();
        bad(path, &text, at, "not UTF-8 text".into())
    })
}

/// The configuration `text` (read from `path`, which errors name) holds.
pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    let file: File = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        // toml's messages may run over lines; errors are one line.
        let message: Vec<&str> = e.message().lines().map(str::trim).collect();
        bad(path, text, at, message.join("; "))
    })?;
    let mut source_roots = Vec::new();
    for root in &file.sources.roots {
        let pair = crate::locate::parse_rewrite(root.get_ref())
            .map_err(|message| bad(path, text, root.span().start, message))?;
        source_roots.push(pair);
    }
    let include = file.sources.include.iter().map(|d| home(d)).collect();
    let mut metrics = Vec::new();
    for formula in &file.metrics.formulas {
        let definition = formula.get_ref().parse().map_err(|message| {
            match bad(path, text, formula.span().start, message) {
                // The key is the list's, not what the string holds.
                ConfigError::Bad {
                    path,
                    line,
                    message,
                    ..
                } => ConfigError::Bad {
                    path,
                    line,
                    key: "metrics.formulas".into(),
                    message,
                },
                other => other,
            }
        })?;
        metrics.push(definition);
    }
    let min_denominator = match &file.metrics.min_denominator {
        Some(n) if !(*n.get_ref() >= 0.0 && n.get_ref().is_finite()) => {
            let message = "must be a number from 0 up".to_string();
            return Err(bad(path, text, n.span().start, message));
        }
        n => n.as_ref().map(|n| *n.get_ref()),
    };
    Ok(Config {
        metrics,
        min_denominator,
        mouse: file.mouse,
        ascii: file.ascii,
        source_roots,
        include,
        view: file.view,
        palette: file.colors,
    })
}

/// `~/rest` under the home directory; other paths as written.
fn home(dir: &str) -> PathBuf {
    match (dir.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) if !home.is_empty() => PathBuf::from(home).join(rest),
        _ => PathBuf::from(dir),
    }
}

/// The error at byte `at` of `text`: its line, and the key written there
/// (or on the nearest line above that has one, for a value that runs over
/// lines), under the table it is in.
fn bad(path: &Path, text: &str, at: usize, message: String) -> ConfigError {
    let at = at.min(text.len());
    let before = &text.as_bytes()[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let lines: Vec<&str> = text.lines().take(line).collect();
    let mut key = None;
    let mut table = None;
    for l in lines.iter().rev() {
        let l = l.trim();
        if let Some(header) = table_header(l) {
            table = Some(header);
            break;
        }
        if key.is_none() {
            key = key_of(l);
        }
    }
    let key = match (table, key) {
        (Some(t), Some(k)) => format!("{t}.{k}"),
        (Some(t), None) => t,
        (None, Some(k)) => k,
        (None, None) => "-".into(),
    };
    ConfigError::Bad {
        path: path.to_path_buf(),
        line,
        key: crate::format::printable(&key.chars().take(60).collect::<String>()).into_owned(),
        message: message.chars().take(300).collect(),
    }
}

/// `table` of a line `[table]` or `[[table]]` (or `[table` unclosed).
fn table_header(line: &str) -> Option<String> {
    let inner = line.strip_prefix('[')?;
    let end = inner.find(']').unwrap_or(inner.len());
    let name = inner[..end].trim_start_matches('[').trim();
    Some(name.replace(['"', '\''], ""))
}

/// `key` of a line `key = value` (quotes dropped).
fn key_of(line: &str) -> Option<String> {
    let (key, _) = line.split_once('=')?;
    let key = key.trim().replace(['"', '\''], "");
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_. ".contains(c);
    (!key.is_empty() && key.chars().all(plain)).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::StartSort;
    use crate::tui::theme::Paint;

    fn parsed(text: &str) -> Result<Config, String> {
        parse(text, Path::new("c.toml")).map_err(|e| e.to_string())
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        assert_eq!(parsed("").unwrap(), Config::default());
        assert_eq!(parsed("# nothing\n\n").unwrap(), Config::default());
    }

    #[test]
    fn every_table_is_read() {
        let c = parsed(
            "mouse = false\nascii = true\n[sources]\nroots = [\"/build=/src\"]\n\
             include = [\"inc\"]\n[view]\nevent = \"Dr\"\nsort = \"self\"\n\
             percent = true\n[colors]\nheader-bg = \"light-blue\"\nbar = \"default\"\n",
        )
        .unwrap();
        assert_eq!(c.mouse, Some(false));
        assert!(c.ascii);
        assert_eq!(c.source_roots, [("/build".into(), "/src".into())]);
        assert_eq!(c.include, [PathBuf::from("inc")]);
        assert_eq!(c.view.event.as_deref(), Some("Dr"));
        assert_eq!(c.view.sort, Some(StartSort::SelfCost));
        assert!(c.view.percent && c.view.demangle && !c.view.fold_templates);
        assert_eq!(c.palette.header_bg, Paint::named("light-blue").unwrap());
        assert_eq!(c.palette.bar, Paint(None));
        // What the file leaves out keeps its default.
        assert_eq!(c.palette.header_fg, Paint::named("black").unwrap());
    }

    #[test]
    fn an_unset_mouse_is_automatic() {
        assert_eq!(parsed("ascii = false").unwrap().mouse, None);
        assert_eq!(parsed("mouse = true").unwrap().mouse, Some(true));
    }

    #[test]
    fn errors_name_the_file_line_and_key() {
        let cases = [
            (
                "mouse = true\nmose = false\n",
                "c.toml:2: mose: unknown field `mose`",
            ),
            (
                "\n[colors]\n\nbar = \"pink\"\n",
                "c.toml:4: colors.bar: unknown colour `pink`",
            ),
            (
                "[view]\nsort = \"size\"\n",
                "c.toml:2: view.sort: unknown variant `size`",
            ),
            (
                "[view]\npercent = \"yes\"\n",
                "c.toml:2: view.percent: invalid type",
            ),
            (
                "[colours]\nbar = \"red\"\n",
                "c.toml:1: colours: unknown field `colours`",
            ),
            (
                "[sources]\nroots = [\n  \"/a=/b\",\n  \"nothing\",\n]\n",
                "c.toml:4: sources.roots: ",
            ),
            ("mouse = yes\n", "c.toml:1: mouse: "),
            ("[view\n", "c.toml:1: view: "),
        ];
        for (text, want) in cases {
            let got = parsed(text).unwrap_err();
            assert!(got.starts_with(want), "{text:?}: {got}");
            assert!(!got.contains('\n'), "{got}");
        }
    }

    #[test]
    fn a_missing_default_file_is_no_error_but_a_missing_given_one_is() {
        let dir = std::env::temp_dir().join(format!("cgtui-config-{}", std::process::id()));
        let missing = dir.join("none.toml");
        let e = load(&Choice::Given(missing.clone()))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(&missing.display().to_string()), "{e}");
        assert_eq!(load(&Choice::Nothing).unwrap(), Config::default());
    }

    #[test]
    fn hostile_files_are_refused_in_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            load(&Choice::Given(path)).unwrap_err().to_string()
        };
        let big = write("big.toml", &vec![b'#'; MAX_BYTES as usize + 1]);
        assert!(big.ends_with("larger than 1048576 bytes"), "{big}");
        let binary = write("bin.toml", b"mouse = true\nascii = \xff\n");
        assert!(
            binary.contains("bin.toml:2: ascii: not UTF-8 text"),
            "{binary}"
        );
        let deep = format!("a = {}{}", "[".repeat(100_000), "]".repeat(100_000));
        let deep = write("deep.toml", deep.as_bytes());
        assert!(deep.contains("deep.toml:1: a: "), "{deep}");
        let control = write("esc.toml", b"[colors]\nbar = \"\\u001b[2J\"\n");
        assert!(
            control.contains("esc.toml:2: colors.bar: unknown colour"),
            "{control}"
        );
        let e = load(&Choice::Given(dir.path().to_path_buf())).unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        for e in [big, binary, deep] {
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn a_default_file_behind_a_closed_directory_is_not_there() {
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        // Nothing there at all (a closed directory fails `metadata` alike).
        assert!(out_of_reach(&file, &denied));
        // There, but not readable: an error.
        std::fs::write(&file, "mouse = true\n").unwrap();
        assert!(!out_of_reach(&file, &denied));
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert!(out_of_reach(&file, &missing));
        assert!(!out_of_reach(&file, &std::io::Error::other("disk")));
    }

    #[test]
    fn the_default_place_follows_xdg() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let p = |s: &str| Some(PathBuf::from(s));
        assert_eq!(
            default_path(env(&[("XDG_CONFIG_HOME", "/x"), ("HOME", "/h")])),
            p("/x/cgtui/config.toml")
        );
        assert_eq!(
            default_path(env(&[("XDG_CONFIG_HOME", "rel"), ("HOME", "/h")])),
            p("/h/.config/cgtui/config.toml")
        );
        assert_eq!(
            default_path(env(&[("XDG_CONFIG_HOME", ""), ("HOME", "/h")])),
            p("/h/.config/cgtui/config.toml")
        );
        assert_eq!(default_path(env(&[])), None);
    }
}
