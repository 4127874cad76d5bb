//! Finding a profile's source files on this machine: `--source-root OLD=NEW`
//! prefix rewrites, `-I DIR` search directories (as callgrind_annotate's
//! `--include`), the profile's own directory and the current directory.
//! Must not import `tui`, ratatui or crossterm.

use std::path::{Path, PathBuf};

/// Where to look for source files.
#[derive(Clone, Debug, Default)]
pub struct Locator {
    /// `(OLD, NEW)`: a path starting with OLD is tried with NEW instead.
    pub rewrites: Vec<(String, String)>,
    /// Search directories, tried in order.
    pub include: Vec<PathBuf>,
    /// Directories of the loaded profile files.
    pub profile_dirs: Vec<PathBuf>,
}

/// A source file that could not be found, and where it was looked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotFound {
    pub path: String,
    pub searched: Vec<PathBuf>,
    /// The names `--source-root` rewrites gave for it, tried first.
    pub rewritten: Vec<String>,
    /// The profile names no file (`???`, or nothing): no option can help.
    pub unknown: bool,
}

/// What `fl=` says when the compiler left no file name (no `-g`).
pub const UNKNOWN_FILE: &str = "???";

impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.unknown {
            return write!(
                f,
                "the profile names no source file ({UNKNOWN_FILE}): the code has no debug information"
            );
        }
        let rewritten = if self.rewritten.is_empty() {
            String::new()
        } else {
            format!("; --source-root gave {}", self.rewritten.join(", "))
        };
        let dirs: Vec<String> = self
            .searched
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        write!(
            f,
            "source file {} not found (searched: {}{rewritten}); use --source-root OLD=NEW or -I DIR",
            self.path,
            dirs.join(", ")
        )
    }
}

/// Parses `OLD=NEW`.
pub fn parse_rewrite(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((old, new)) if !old.is_empty() => Ok((old.to_string(), new.to_string())),
        _ => Err(format!("expected OLD=NEW, got `{s}`")),
    }
}

impl Locator {
    /// The directories searched for relative names, in order.
    pub fn search_dirs(&self) -> Vec<PathBuf> {
        let mut dirs = vec![PathBuf::from(".")];
        for d in self.profile_dirs.iter().chain(&self.include) {
            if !dirs.contains(d) {
                dirs.push(d.clone());
            }
        }
        dirs
    }

    /// This locator, also searching the folders of the `profiles` loaded.
    pub fn with_profile_dirs(mut self, profiles: &[PathBuf]) -> Locator {
        for p in profiles {
            if let Some(d) = p.parent().filter(|d| !d.as_os_str().is_empty())
                && !self.profile_dirs.iter().any(|known| known == d)
            {
                self.profile_dirs.push(d.to_path_buf());
            }
        }
        self
    }

    /// The names the `--source-root` rewrites give for `name`, last given
    /// first. OLD matches whole path components: `/src/foo` rewrites
    /// `/src/foo/a.c`, not `/src/foobar/a.c`.
    pub fn rewritten(&self, name: &str) -> Vec<String> {
        let mut names = Vec::new();
        for (old, new) in &self.rewrites {
            let Some(rest) = name.strip_prefix(old.as_str()) else {
                continue;
            };
            if rest.is_empty() || rest.starts_with('/') || old.ends_with('/') {
                names.insert(0, format!("{new}{rest}"));
            }
        }
        names
    }

    /// Every path tried for `name`, in order.
    pub fn candidates(&self, name: &str) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut names = self.rewritten(name);
        names.push(name.to_string());
        for n in &names {
            let path = Path::new(n);
            if path.is_absolute() {
                out.push(path.to_path_buf());
            } else {
                for d in self.search_dirs() {
                    out.push(d.join(path));
                }
            }
        }
        // Search directories also get each trailing part of the path:
        // -I /src finds /build/x/src/a/b.c as /src/a/b.c or /src/b.c.
        let parts: Vec<_> = Path::new(name)
            .components()
            .filter(|c| matches!(c, std::path::Component::Normal(_)))
            .collect();
        for d in &self.include {
            for skip in 1..parts.len() {
                out.push(d.join(parts[skip..].iter().collect::<PathBuf>()));
            }
        }
        out
    }

    /// The first existing file for `name`.
    pub fn locate(&self, name: &str) -> Result<PathBuf, NotFound> {
        if name.is_empty() || name == UNKNOWN_FILE {
            return Err(NotFound {
                path: UNKNOWN_FILE.into(),
                searched: Vec::new(),
                rewritten: Vec::new(),
                unknown: true,
            });
        }
        self.candidates(name)
            .into_iter()
            .find(|p| p.is_file())
            .ok_or_else(|| NotFound {
                path: name.to_string(),
                searched: self.search_dirs(),
                rewritten: self.rewritten(name),
                unknown: false,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_and_include_dirs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/fib.c"), "int main;\n").unwrap();
        let mut loc = Locator::default();
        assert!(loc.locate("/build/proj/src/fib.c").is_err());
        loc.rewrites
            .push(parse_rewrite(&format!("/build/proj={}", dir.path().display())).unwrap());
        assert_eq!(
            loc.locate("/build/proj/src/fib.c").unwrap(),
            dir.path().join("src/fib.c")
        );
        let mut loc = Locator::default();
        loc.include.push(dir.path().to_path_buf());
        assert_eq!(
            loc.locate("/elsewhere/src/fib.c").unwrap(),
            dir.path().join("src/fib.c")
        );
        let err = loc.locate("nope.c").unwrap_err();
        assert!(err.to_string().contains("nope.c not found"));
        assert!(err.searched.contains(&dir.path().to_path_buf()));
        assert!(parse_rewrite("noequals").is_err());
    }

    #[test]
    fn rewrites_match_whole_components() {
        let mut loc = Locator::default();
        loc.rewrites.push(parse_rewrite("/src/foo=/new").unwrap());
        assert_eq!(loc.rewritten("/src/foo/a.c"), vec!["/new/a.c"]);
        assert_eq!(loc.rewritten("/src/foo"), vec!["/new"]);
        assert!(loc.rewritten("/src/foobar/a.c").is_empty());
        loc.rewrites.push(parse_rewrite("/src/=/other/").unwrap());
        assert_eq!(loc.rewritten("/src/foobar/a.c"), vec!["/other/foobar/a.c"]);
        let err = loc.locate("/src/foo/x.c").unwrap_err();
        assert_eq!(err.rewritten, vec!["/other/foo/x.c", "/new/x.c"]);
        assert!(
            err.to_string()
                .contains("--source-root gave /other/foo/x.c, /new/x.c")
        );
        let unknown = loc.locate("???").unwrap_err();
        assert!(unknown.unknown && !unknown.to_string().contains("--source-root"));
    }
}
