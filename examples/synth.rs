//! Writes a large, realistic Callgrind profile, deterministically, and prints
//! the totals it wrote so a load can be checked for exactness at any size.
//!
//! `cargo run --release --example synth -- --size 1G --out big.callgrind [--seed N]`

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

fn args() -> Result<(u64, String, u64), String> {
    let (mut size, mut out, mut seed) = (100 << 20, "synth.callgrind".to_string(), 1);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--size" => size = parse_size(&value).ok_or("bad --size (e.g. 100M, 1G)")?,
            "--out" => out = value,
            "--seed" => seed = value.parse().map_err(|_| "bad --seed")?,
            _ => return Err(format!("unknown option {flag} (use --size, --out, --seed)")),
        }
    }
    Ok((size, out, seed))
}

fn main() -> std::io::Result<()> {
    let (size, out, seed) = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("synth: {e}");
            std::process::exit(2);
        }
    };
    let w = synth::write(&out, size, seed)?;
    println!(
        "wrote {} bytes to {out}, {} functions",
        w.bytes, w.functions
    );
    for (e, t) in &w.totals {
        println!("total {e} {t}");
    }
    Ok(())
}
