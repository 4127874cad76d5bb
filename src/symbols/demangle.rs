//! Mangled names made readable: Itanium C++ (`_Z…`), Rust legacy (`_ZN…17h…E`)
//! and Rust v0 (`_R…`), as profiles made with `--demangle=no`, pprof, xtree
//! or some Xdebug extensions carry them. Valgrind's suffixes stay: a
//! recursion level (`'2`) and a clone (`[clone .cold]`, or the mangled
//! `.cold` / `.constprop.0` tail).

/// The readable form of `name`, or `None` if it is not mangled.
pub fn demangle(name: &str) -> Option<String> {
    let (symbol, level) = match name.rfind('\'') {
        Some(at) if name[at + 1..].bytes().all(|c| c.is_ascii_digit()) && at + 1 < name.len() => {
            (&name[..at], &name[at..])
        }
        _ => (name, ""),
    };
    if !(symbol.starts_with("_Z") || symbol.starts_with("_R") || symbol.starts_with("__Z")) {
        return None;
    }
    // GCC's clones: `_Z3foov.cold`, `_Z3foov.constprop.0`.
    let (symbol, clone) = match symbol.find('.') {
        Some(at) => (&symbol[..at], &symbol[at..]),
        None => (symbol, ""),
    };
    let readable = rust(symbol).or_else(|| cpp(symbol))?;
    let clone = if clone.is_empty() {
        String::new()
    } else {
        format!(" [clone {clone}]")
    };
    Some(format!("{readable}{clone}{level}"))
}

/// A Rust symbol (legacy or v0), without its hash.
fn rust(symbol: &str) -> Option<String> {
    let legacy = symbol.starts_with("_ZN") && symbol.ends_with('E') && symbol.contains("17h");
    if !(legacy || symbol.starts_with("_R")) {
        return None;
    }
    rustc_demangle::try_demangle(symbol)
        .ok()
        .map(|d| format!("{d:#}"))
}

fn cpp(symbol: &str) -> Option<String> {
    let symbol = cpp_demangle::Symbol::new(symbol).ok()?;
    symbol.demangle().ok()
}

#[cfg(test)]
mod tests {
    use super::demangle;

    #[test]
    fn cpp_and_rust_names() {
        for (mangled, readable) in [
            ("_ZNSt6localeC1Ev", "std::locale::locale()"),
            ("_Z3fooi", "foo(int)"),
            ("_Z3fooi'2", "foo(int)'2"),
            ("_Z3fooi.cold", "foo(int) [clone .cold]"),
            ("_ZN10rust_names3fib17h0123456789abcdefE", "rust_names::fib"),
            ("_RNvCs1234_10rust_names3fib", "rust_names::fib"),
        ] {
            assert_eq!(demangle(mangled).as_deref(), Some(readable), "{mangled}");
        }
        for plain in [
            "main",
            "fib'2",
            "0x0000000000001050",
            "_start",
            "_Zfoo garbage",
        ] {
            assert_eq!(demangle(plain), None, "{plain}");
        }
    }
}
