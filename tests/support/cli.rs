//! Running the `cgtui` binary from the repository's root.

use assert_cmd::Command;
use std::path::PathBuf;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Standard output of a successful run.
pub fn stdout_of(args: &[&str]) -> String {
    let out = Command::cargo_bin("cgtui")
        .unwrap()
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Standard error of a run that fails with status 2.
pub fn error_of(args: &[&str]) -> String {
    let out = Command::cargo_bin("cgtui")
        .unwrap()
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

/// `samples/src/recursion.c` copied to `dir/elsewhere`, where the profile
/// does not say it is (the tests of source roots); gives that directory.
pub fn moved_recursion_source(dir: &std::path::Path) -> PathBuf {
    let moved = dir.join("elsewhere");
    std::fs::create_dir_all(&moved).unwrap();
    std::fs::copy(
        root().join("samples/src/recursion.c"),
        moved.join("recursion.c"),
    )
    .unwrap();
    moved
}
