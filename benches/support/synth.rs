//! A deterministic generator of large, realistic Callgrind profiles, shared
//! by `examples/synth.rs` (the command) and `benches/load.rs`.
//!
//! It writes what Valgrind's `--dump-instr=yes --collect-jumps=yes
//! --cache-sim=yes` output has: `positions: instr line`, 9 events with
//! trailing zeros dropped, name compression for objects, files and C++-length
//! function names, relative subpositions (`+3 -1`, `*`), `fi=`/`fe=` inlined
//! lines, `calls=` with `cfi=`, `jcnd=TAKEN/TOTAL` and `jump=` with their
//! position rows, deep call chains, self recursion and cycles; `totals:` at
//! the end.

use std::io::{BufWriter, Write};

pub const EVENTS: [&str; 9] = [
    "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
];

/// xorshift64*: small, fast and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn function_name(i: u64, rng: &mut Rng) -> String {
    let ns = ["llvm", "clang", "std", "mlir", "absl", "boost"][rng.below(6) as usize];
    let class = [
        "SmallVector",
        "DenseMap",
        "StringRef",
        "APInt",
        "Parser",
        "Sema",
    ][rng.below(6) as usize];
    let method = [
        "insert",
        "lookup",
        "grow",
        "visit",
        "emit",
        "parse",
        "operator[]",
    ][rng.below(7) as usize];
    format!(
        "{ns}::detail{}::{class}<std::pair<unsigned int, {ns}::Value*>, {}u>::{method}{i}(unsigned long, char const*) const",
        i % 97,
        i % 13
    )
}

struct Writer<W: Write> {
    out: W,
    rng: Rng,
    totals: [u128; 9],
    written: u64,
}

impl<W: Write> Writer<W> {
    fn line(&mut self, s: &str) -> std::io::Result<()> {
        self.written += s.len() as u64 + 1;
        self.out.write_all(s.as_bytes())?;
        self.out.write_all(b"\n")
    }

    /// Cost columns, trailing zeros dropped (as Valgrind writes them).
    fn costs(&mut self, self_cost: bool) -> String {
        let ir = 1 + self.rng.below(40);
        let mut c = [ir, 0, 0, 0, 0, 0, 0, 0, 0];
        if self.rng.below(3) == 0 {
            c[1] = self.rng.below(ir + 1);
            c[2] = self.rng.below(ir / 2 + 1);
        }
        if self.rng.below(20) == 0 {
            c[4] = self.rng.below(3);
            c[7] = self.rng.below(2);
        }
        if self_cost {
            for (t, v) in self.totals.iter_mut().zip(c) {
                *t += u128::from(v);
            }
        }
        let last = c.iter().rposition(|&v| v != 0).unwrap_or(0);
        c[..=last]
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl<W: Write> Writer<W> {
    /// `write_many`'s self cost columns (Ir Dr Dw), trailing zeros dropped;
    /// one in 500 is a counter of 10 to 12 digits.
    fn many_costs(&mut self) -> String {
        let ir = if self.rng.below(500) == 0 {
            1_000_000_000 + self.rng.below(900_000_000_000)
        } else {
            1 + self.rng.below(60)
        };
        let mut c = [ir, 0, 0];
        if self.rng.below(2) == 0 {
            c[1] = self.rng.below(ir / 2 + 1);
            c[2] = self.rng.below(ir / 4 + 1);
        }
        for (t, v) in self.totals.iter_mut().zip(c) {
            *t += u128::from(v);
        }
        let last = c.iter().rposition(|&v| v != 0).unwrap_or(0);
        c[..=last]
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// What a run wrote: bytes, functions, and the total of every event.
pub struct Written {
    pub bytes: u64,
    pub functions: u64,
    pub totals: Vec<(&'static str, u128)>,
}

/// Writes a profile of about `size` bytes to `out`, deterministically for `seed`.
pub fn write(out: &str, size: u64, seed: u64) -> std::io::Result<Written> {
    let functions = (size / 4096).clamp(200, 1_000_000);
    let files = (functions / 8).max(10);
    let file = std::fs::File::create(out)?;
    let mut w = Writer {
        out: BufWriter::with_capacity(1 << 20, file),
        rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
        totals: [0; 9],
        written: 0,
    };
    // Names do not depend on the seed: files of other seeds are other runs
    // of the same program (what a comparison matches).
    let mut names_rng = Rng(1 ^ 0xDEAD_BEEF);
    let names: Vec<String> = (0..functions)
        .map(|i| function_name(i, &mut names_rng))
        .collect();
    let mut defined_fn = vec![false; functions as usize];
    let mut defined_file = vec![false; files as usize];
    w.line("# callgrind format")?;
    w.line("version: 1")?;
    w.line("creator: cgtui synth")?;
    w.line("pid: 4242")?;
    w.line("cmd:  synth")?;
    w.line("part: 1")?;
    w.line("positions: instr line")?;
    w.line(&format!("events: {}", EVENTS.join(" ")))?;
    w.line("ob=(1) /usr/lib/libsynth.so")?;
    w.line("ob=(2) /usr/bin/synth")?;
    let file_ref = |id: u64, defined: &mut Vec<bool>| {
        if std::mem::replace(&mut defined[id as usize], true) {
            format!("({})", id + 1)
        } else {
            format!("({}) /build/src/module{}/file{id}.cpp", id + 1, id % 50)
        }
    };
    let fn_ref = |id: u64, defined: &mut Vec<bool>, names: &[String]| {
        if std::mem::replace(&mut defined[id as usize], true) {
            format!("({})", id + 1)
        } else {
            format!("({}) {}", id + 1, names[id as usize])
        }
    };
    let mut f = 0u64;
    while w.written < size {
        let fl = f % files;
        w.line("")?;
        let fl_line = format!("fl={}", file_ref(fl, &mut defined_file));
        w.line(&fl_line)?;
        let fn_line = format!("fn={}", fn_ref(f, &mut defined_fn, &names));
        w.line(&fn_line)?;
        let base = 0x40_0000 + f * 0x400;
        // The line column's last value: relative rows must not go below 1.
        let mut last_line = 10 + f % 500;
        let first = format!("{base:#x} {last_line} {}", w.costs(true));
        w.line(&first)?;
        let rows = 20 + w.rng.below(60);
        for _ in 0..rows {
            match w.rng.below(40) {
                0 => {
                    // A call deeper into the graph, to itself, or back (a cycle).
                    let callee = match w.rng.below(10) {
                        0 => f,
                        1 => f.saturating_sub(1 + w.rng.below(5)),
                        _ => (f + 1 + w.rng.below(8)) % functions,
                    };
                    let cf = callee % files;
                    if cf != fl {
                        let cfi = format!("cfi={}", file_ref(cf, &mut defined_file));
                        w.line(&cfi)?;
                    }
                    let cfn = format!("cfn={}", fn_ref(callee, &mut defined_fn, &names));
                    w.line(&cfn)?;
                    let count = 1 + w.rng.below(1000);
                    w.line(&format!(
                        "calls={count} {:#x} {}",
                        0x40_0000 + callee * 0x400,
                        10 + callee % 500
                    ))?;
                    let incl = w.costs(false);
                    w.line(&format!("* * {incl}00"))?;
                }
                1 => {
                    let taken = w.rng.below(100);
                    let (total, delta) = (taken + w.rng.below(100), 2 + w.rng.below(30));
                    w.line(&format!("jcnd={taken}/{total} +{delta} *"))?;
                    w.line("* *")?;
                }
                2 => {
                    let (count, back) = (1 + w.rng.below(50), 1 + w.rng.below(8));
                    w.line(&format!("jump={count} -{back} *"))?;
                    w.line("* *")?;
                }
                3 => {
                    let inl = (fl + 1 + w.rng.below(3)) % files;
                    let fi = format!("fi={}", file_ref(inl, &mut defined_file));
                    w.line(&fi)?;
                    let c = w.costs(true);
                    let (da, line) = (1 + w.rng.below(6), 1 + w.rng.below(200));
                    last_line = line;
                    w.line(&format!("+{da} {line} {c}"))?;
                    let fe = format!("fe={}", file_ref(fl, &mut defined_file));
                    w.line(&fe)?;
                }
                r => {
                    let dl = match r % 4 {
                        1 => {
                            let d = 1 + w.rng.below(3);
                            last_line += d;
                            format!("+{d}")
                        }
                        2 if last_line > 3 => {
                            let d = 1 + w.rng.below(2);
                            last_line -= d;
                            format!("-{d}")
                        }
                        _ => "*".to_string(),
                    };
                    let c = w.costs(true);
                    let da = 1 + w.rng.below(7);
                    w.line(&format!("+{da} {dl} {c}"))?;
                }
            }
        }
        f = (f + 1) % functions;
    }
    let totals: Vec<String> = w.totals.iter().map(u128::to_string).collect();
    w.line(&format!("totals: {}", totals.join(" ")))?;
    w.out.flush()?;
    Ok(Written {
        bytes: w.written,
        functions,
        totals: EVENTS.iter().copied().zip(w.totals).collect(),
    })
}

/// The events of `write_many`'s profiles.
pub const MANY_EVENTS: [&str; 3] = ["Ir", "Dr", "Dw"];

/// Writes a profile of `functions` functions and about `size` bytes in the
/// usual shape of a big C++ or Rust program's profile (issue 18): 3 events,
/// line positions mostly relative, name compression, each function defined
/// once with a few cost lines and several calls (a few of them back up the
/// chain, making small cycles), now and then a counter of 10 to 12 digits.
pub fn write_many(out: &str, functions: u64, size: u64, seed: u64) -> std::io::Result<Written> {
    let files = (functions / 20).max(1);
    let file = std::fs::File::create(out)?;
    let mut w = Writer {
        out: BufWriter::with_capacity(1 << 20, file),
        rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
        totals: [0; 9],
        written: 0,
    };
    let mut names_rng = Rng(7 ^ 0xDEAD_BEEF);
    let mut defined_fn = vec![false; functions as usize];
    let mut defined_file = vec![false; files as usize];
    w.line("# callgrind format")?;
    w.line("version: 1")?;
    w.line("creator: cgtui synth (many functions)")?;
    w.line("pid: 4343")?;
    w.line("cmd:  synth-many")?;
    w.line("positions: line")?;
    w.line(&format!("events: {}", MANY_EVENTS.join(" ")))?;
    w.line("ob=(1) /usr/bin/synth-many")?;
    // Bytes a function may take beyond its definition lines.
    let budget = size / functions.max(1);
    for f in 0..functions {
        let start = w.written;
        let fl = f % files;
        let fl_text = if std::mem::replace(&mut defined_file[fl as usize], true) {
            format!("fl=({})", fl + 1)
        } else {
            format!("fl=({}) /src/lib{}/unit{fl}.cc", fl + 1, fl % 64)
        };
        w.line(&fl_text)?;
        let fn_text = if std::mem::replace(&mut defined_fn[f as usize], true) {
            format!("fn=({})", f + 1)
        } else {
            format!("fn=({}) {}", f + 1, function_name(f, &mut names_rng))
        };
        w.line(&fn_text)?;
        let mut line = 1 + w.rng.below(2000);
        let first = w.many_costs();
        w.line(&format!("{line} {first}"))?;
        // Lines average about 16 bytes: stop within one of the budget.
        while w.written - start + 16 < budget {
            if w.rng.below(5) == 0 {
                // A call: mostly further down the chain; now and then back
                // into the function's group of 8 (a small cycle, as mutual
                // recursion is in real programs).
                let callee = match w.rng.below(40) {
                    0 => f - f % 8 + w.rng.below(8).min(functions - 1 - f + f % 8),
                    _ => f + 1 + w.rng.below(64),
                };
                if callee >= functions {
                    continue;
                }
                let cf = callee % files;
                if cf != fl {
                    let cfi = if std::mem::replace(&mut defined_file[cf as usize], true) {
                        format!("cfi=({})", cf + 1)
                    } else {
                        format!("cfi=({}) /src/lib{}/unit{cf}.cc", cf + 1, cf % 64)
                    };
                    w.line(&cfi)?;
                }
                let cfn = if std::mem::replace(&mut defined_fn[callee as usize], true) {
                    format!("cfn=({})", callee + 1)
                } else {
                    format!(
                        "cfn=({}) {}",
                        callee + 1,
                        function_name(callee, &mut names_rng)
                    )
                };
                w.line(&cfn)?;
                let count = 1 + w.rng.below(5000);
                let target = 1 + w.rng.below(3000);
                w.line(&format!("calls={count} {target}"))?;
                let (ir, dr) = (count * (5 + w.rng.below(400)), count * w.rng.below(100));
                w.line(&format!("* {ir} {dr}"))?;
            } else {
                let d = w.rng.below(4);
                let step = if d == 0 {
                    "*".to_string()
                } else if w.rng.below(4) == 0 && line > d {
                    line -= d;
                    format!("-{d}")
                } else {
                    line += d;
                    format!("+{d}")
                };
                let c = w.many_costs();
                w.line(&format!("{step} {c}"))?;
            }
        }
        w.line("")?;
    }
    let totals: Vec<String> = w.totals[..3].iter().map(u128::to_string).collect();
    w.line(&format!("totals: {}", totals.join(" ")))?;
    w.out.flush()?;
    Ok(Written {
        bytes: w.written,
        functions,
        totals: MANY_EVENTS.iter().copied().zip(w.totals).collect(),
    })
}

/// The other extreme of many functions: `fn=fN` and one cost line each,
/// names not compressed (issue 16, case 26).
pub fn write_tiny(out: &str, functions: u64) -> std::io::Result<Written> {
    let file = std::fs::File::create(out)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut bytes = 0;
    let head = "events: Ir\n";
    out.write_all(head.as_bytes())?;
    bytes += head.len() as u64;
    for f in 0..functions {
        let block = format!("fn=f{f}\n1 1\n");
        out.write_all(block.as_bytes())?;
        bytes += block.len() as u64;
    }
    out.flush()?;
    Ok(Written {
        bytes,
        functions,
        totals: vec![("Ir", u128::from(functions))],
    })
}
