//! Real Callgrind runs of three builds of one small program
//! (`tests/runs/series.c`): `WORK=1000`, `WORK=1050` and `WORK=4000` with
//! `EXTRA` (a function more). Built with the C compiler and profiled with
//! valgrind once per test process, in Cargo's temporary directory for
//! tests; each build runs as `./series` in its own folder, so the three
//! profiles name the same command. What the tests compare against is read
//! here without cgtui: the `totals:` lines, and callgrind_annotate's
//! output.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The builds: folder and the compiler's `-D` options.
const BUILDS: [(&str, &[&str]); 3] = [
    ("a", &["-DWORK=1000"]),
    ("b", &["-DWORK=1050"]),
    ("c", &["-DWORK=4000", "-DEXTRA"]),
];

/// The three profiles, in the order of the builds.
pub fn profiles() -> &'static [PathBuf; 3] {
    static MADE: OnceLock<[PathBuf; 3]> = OnceLock::new();
    MADE.get_or_init(make)
}

fn make() -> [PathBuf; 3] {
    crate::support::tools::require(&["gcc", "valgrind", "callgrind_annotate"]);
    let source = source_path();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cgtui-runs");
    BUILDS.map(|(name, defines)| {
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        let status = Command::new("gcc")
            .args(["-O0", "-g", "-gdwarf-4"])
            .args(defines)
            .arg(&source)
            .arg("-o")
            .arg(folder.join("series"))
            .status()
            .expect("gcc runs");
        assert!(status.success(), "gcc failed on {}", source.display());
        let profile = folder.join("callgrind.out");
        let _ = std::fs::remove_file(&profile);
        // The same small environment each time: ld.so's start-up work
        // depends on it.
        let status = Command::new("valgrind")
            .current_dir(&folder)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .args([
                "-q",
                "--tool=callgrind",
                "--callgrind-out-file=callgrind.out",
            ])
            .arg("./series")
            .status()
            .expect("valgrind runs");
        assert!(status.success(), "valgrind failed in {}", folder.display());
        profile
    })
}

pub fn source_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/runs/series.c")
}

/// The line of `series.c` marked `/* the hot line */`.
pub fn hot_line() -> u64 {
    let text = std::fs::read_to_string(source_path()).unwrap();
    let at = text
        .lines()
        .position(|l| l.contains("/* the hot line */"))
        .unwrap();
    at as u64 + 1
}

/// The `totals:` line Callgrind writes last, read here as text.
pub fn totals(profile: &Path) -> i64 {
    let text = std::fs::read_to_string(profile).unwrap();
    let line = text
        .lines()
        .rev()
        .find(|l| l.starts_with("totals:"))
        .unwrap();
    line["totals:".len()..].trim().parse().unwrap()
}

/// callgrind_annotate's self (or, with `inclusive`, inclusive) Ir of the
/// function `name` of series.c (0 where it lists none).
pub fn annotated(profile: &Path, name: &str, inclusive: bool) -> i64 {
    let out = Command::new("callgrind_annotate")
        .arg(format!(
            "--inclusive={}",
            if inclusive { "yes" } else { "no" }
        ))
        .args(["--threshold=100", "--auto=no"])
        .arg(profile)
        .output()
        .expect("callgrind_annotate runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // `40,012 (23.91%)  /path/series.c:hot [/path/series]`
    let wanted = format!("series.c:{name} ");
    text.lines().find(|l| l.contains(&wanted)).map_or(0, |l| {
        l.split_whitespace()
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap()
    })
}
