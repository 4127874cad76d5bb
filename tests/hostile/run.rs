//! Running the binary on hostile input: with a time limit, checking the exit
//! status, the message and that nothing panicked; measured runs also record
//! the wall time and the peak memory of the child.

use assert_cmd::Command;
use serde_json::Value;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Time limit for a small input: generous for a debug build on a busy machine.
pub const SMALL: Duration = Duration::from_secs(20);

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_cgtui"))
}

/// What one run of the binary did.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `cgtui ARGS FILE` with a time limit; it must end on its own, with an
/// exit status, and without a panic.
pub fn cgtui(args: &[&str], file: &Path, limit: Duration) -> Run {
    let start = Instant::now();
    let out = Command::new(bin())
        .args(args)
        .arg(file)
        .timeout(limit)
        .output()
        .unwrap();
    let run = Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    let what = format!("cgtui {} {}", args.join(" "), file.display());
    assert!(
        run.code.is_some(),
        "{what}: killed after {:?} (time limit {limit:?}, or a signal); stderr: {}",
        start.elapsed(),
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{what}: {}", run.stderr);
    run
}

/// Both reports of a file that is not a profile: status 2, nothing on
/// standard output, one line on standard error naming the file and `reason`.
pub fn refused(file: &Path, reason: &str) -> String {
    let mut message = String::new();
    for args in [&["report"][..], &["report", "--json"]] {
        let run = cgtui(args, file, SMALL);
        assert_eq!(
            run.code,
            Some(2),
            "{args:?} {}: {}",
            file.display(),
            run.stderr
        );
        assert!(run.stdout.is_empty(), "{}", run.stdout);
        assert_eq!(run.stderr.trim_end().lines().count(), 1, "{}", run.stderr);
        assert!(
            run.stderr
                .starts_with(&format!("cgtui: {}: ", file.display())),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.contains(reason),
            "want {reason:?}: {}",
            run.stderr
        );
        message = run.stderr;
    }
    message
}

/// Both reports of a file that loads: status 0, the same diagnostics on
/// standard error, and JSON that parses.
pub struct Loaded {
    pub path: String,
    pub text: String,
    pub stderr: String,
    pub json: Value,
}

pub fn loads(file: &Path) -> Loaded {
    let text = cgtui(&["report"], file, SMALL);
    assert_eq!(text.code, Some(0), "{}: {}", file.display(), text.stderr);
    let json = cgtui(&["report", "--json"], file, SMALL);
    assert_eq!(json.code, Some(0), "{}: {}", file.display(), json.stderr);
    assert_eq!(text.stderr, json.stderr);
    Loaded {
        path: file.display().to_string(),
        text: text.stdout,
        stderr: text.stderr,
        json: serde_json::from_str(&json.stdout).unwrap(),
    }
}

impl Loaded {
    /// A diagnostic `PATH:LINE: SEVERITY: ...FRAGMENT...` on standard error,
    /// and the same in the JSON.
    pub fn has(&self, line: usize, severity: &str, fragment: &str) -> &Self {
        let prefix = format!("{}:{line}: {severity}: ", self.path);
        assert!(
            self.stderr
                .lines()
                .any(|l| l.starts_with(&prefix) && l.contains(fragment)),
            "want `{prefix}...{fragment}...` in:\n{}",
            self.stderr
        );
        let found = self.diagnostics().iter().any(|d| {
            d["file"] == self.path.as_str()
                && d["line"] == line
                && d["severity"] == severity
                && d["message"].as_str().unwrap().contains(fragment)
        });
        assert!(found, "{:#?}", self.json["diagnostics"]);
        self
    }

    pub fn diagnostics(&self) -> &Vec<Value> {
        self.json["diagnostics"].as_array().unwrap()
    }

    pub fn clean(&self) -> &Self {
        assert!(self.stderr.is_empty(), "{}", self.stderr);
        assert_eq!(self.diagnostics().len(), 0);
        self
    }

    pub fn total(&self, event: &str) -> i64 {
        self.json["totals"][event].as_i64().unwrap()
    }

    pub fn function(&self, name: &str) -> &Value {
        self.json["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("no function {name:?}: {:#}", self.json["functions"]))
    }

    pub fn self_cost(&self, name: &str, event: &str) -> i64 {
        self.function(name)["self"][event].as_i64().unwrap()
    }
}

pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Deterministic pseudo-random bytes (xorshift64*).
pub fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
        })
        .collect()
}

// ------------------------------------------------- big inputs, measured

/// A run of the binary with its stdout and stderr in files, its wall time,
/// and the peak resident memory it reached (`VmHWM`, polled, so a lower
/// bound; 0 where /proc is not there).
pub struct Measured {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
    pub peak_kib: u64,
}

/// Runs `cgtui ARGS FILE` under `sh -c 'ulimit -v KIB; exec ...'`: the
/// address-space limit makes unbounded reading fail instead of swapping.
/// Killed at `limit`.
pub fn measured(args: &[&str], file: &Path, limit: Duration, max_vm_kib: u64) -> Measured {
    let dir = tempfile::tempdir().unwrap();
    let (out_path, err_path) = (dir.path().join("out"), dir.path().join("err"));
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {max_vm_kib} && exec \"$0\" \"$@\""))
        .arg(bin())
        .args(args)
        .arg(file)
        .stdin(std::process::Stdio::null())
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        let status = std::fs::read_to_string(&status_file).unwrap_or_default();
        // Until it runs cgtui, the child is this test process (its memory)
        // or the shell: only cgtui's own peak counts.
        let kib = (status.lines().any(|l| l == "Name:\tcgtui"))
            .then(|| status.lines().find_map(|l| l.strip_prefix("VmHWM:")))
            .flatten()
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
        peak_kib = peak_kib.max(kib.unwrap_or(0));
        std::thread::sleep(Duration::from_millis(1));
    };
    let elapsed = start.elapsed();
    let run = Measured {
        code: status.and_then(|s| s.code()),
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: String::from_utf8_lossy(&std::fs::read(&err_path).unwrap()).into_owned(),
        elapsed,
        peak_kib,
    };
    let what = format!("cgtui {} {}", args.join(" "), file.display());
    eprintln!(
        "{what}: {:.2} s, peak RSS {} MiB, status {:?}",
        run.elapsed.as_secs_f64(),
        run.peak_kib >> 10,
        run.code
    );
    assert!(
        status.is_some(),
        "{what}: still running after {limit:?}; killed"
    );
    assert!(!run.stderr.contains("panicked"), "{what}: {}", run.stderr);
    assert!(
        run.code.is_some(),
        "{what}: killed by a signal: {}",
        run.stderr
    );
    run
}

/// Writes `len` bytes of `byte` in 1 MiB chunks, after `head`.
pub fn write_filled(path: &Path, head: &[u8], byte: u8, len: usize) {
    let mut f = BufWriter::new(File::create(path).unwrap());
    f.write_all(head).unwrap();
    let chunk = vec![byte; 1 << 20];
    let mut left = len;
    while left > 0 {
        let n = left.min(chunk.len());
        f.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    f.flush().unwrap();
}

pub const MIB: u64 = 1024;
pub const GIB_KIB: u64 = 1024 * 1024;
