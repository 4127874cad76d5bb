//! Writes a large, realistic Callgrind profile, deterministically, and prints
//! the totals it wrote so a load can be checked for exactness at any size.
//!
//! `cargo run --release --example synth -- --size 1G --out big.callgrind [--seed N]`
//! `... -- --functions 1000000 --size 500M --out many.callgrind`: the usual
//! shape of a big program (3 events, several calls per function).
//! `... -- --tiny 5000000 --out tiny.callgrind`: `fn=fN` / `1 1` blocks.

#[path = "../benches/support/synth.rs"]
mod synth;

fn parse_size(s: &str) -> Option<u64> {
    let (num, mult) = match s.chars().last()? {
        'K' | 'k' => (&s[..s.len() - 1], 1 << 10),
        'M' | 'm' => (&s[..s.len() - 1], 1 << 20),
        'G' | 'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u64>().ok().map(|n| n * mult)
}

/// What to write: size, file, seed, and the many-functions or tiny shapes.
struct Args {
    size: u64,
    out: String,
    seed: u64,
    functions: Option<u64>,
    tiny: Option<u64>,
}

fn args() -> Result<Args, String> {
    let (mut size, mut out, mut seed) = (100 << 20, "synth.callgrind".to_string(), 1);
    let (mut functions, mut tiny) = (None, None);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--size" => size = parse_size(&value).ok_or("bad --size (e.g. 100M, 1G)")?,
            "--out" => out = value,
            "--seed" => seed = value.parse().map_err(|_| "bad --seed")?,
            "--functions" => functions = Some(value.parse().map_err(|_| "bad --functions")?),
            "--tiny" => tiny = Some(value.parse().map_err(|_| "bad --tiny")?),
            _ => {
                return Err(format!(
                    "unknown option {flag} (use --size, --out, --seed, --functions, --tiny)"
                ));
            }
        }
    }
    Ok(Args {
        size,
        out,
        seed,
        functions,
        tiny,
    })
}

fn main() -> std::io::Result<()> {
    let Args {
        size,
        out,
        seed,
        functions,
        tiny,
    } = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("synth: {e}");
            std::process::exit(2);
        }
    };
    let w = match (functions, tiny) {
        (_, Some(n)) => synth::write_tiny(&out, n)?,
        (Some(n), None) => synth::write_many(&out, n, size, seed)?,
        (None, None) => synth::write(&out, size, seed)?,
    };
    println!(
        "wrote {} bytes to {out}, {} functions",
        w.bytes, w.functions
    );
    for (e, t) in &w.totals {
        println!("total {e} {t}");
    }
    Ok(())
}
