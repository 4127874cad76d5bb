//! Mangled names made readable: Itanium C++ (`_Z…`), Rust legacy (`_ZN…17h…E`)
//! and Rust v0 (`_R…`), as profiles made with `--demangle=no`, pprof, xtree
//! or some Xdebug extensions carry them. Valgrind's suffixes stay: a
//! recursion level (`'2`) and a clone (`[clone .cold]`, or the mangled
//! `.cold` / `.constprop.0` tail).
//!
//! A mangled name refers back to its own parts, so a few hundred bytes can
//! stand for gigabytes of text (each level of templates naming the one
//! before twice). The readable form is written through `Bounded`, which
//! stops the demangler once it passes `limit` (the demangler stops at the
//! first write that fails, so the work is bounded too); such a name is
//! shown as written, marked `TOO_LONG`, and counted (`too_long_count`).

use std::collections::BTreeSet;
use std::fmt::{self, Write};
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, PoisonError};

/// A readable name may be this many times as long as its mangled form:
/// the most of the 433 C++ names in `samples/` is 9.2 (a `__normal_iterator`
/// of a `vector` of `pair`s with `std::string`s), the longest 1,604 bytes.
pub const RATIO: usize = 32;
/// ... but always this long (`Ss` is `std::string`),
pub const FLOOR: usize = 256;
/// ... and never longer than this.
pub const CEILING: usize = 64 << 10;

/// What a name too long to demangle is shown with, after its mangled form.
pub const TOO_LONG: &str = " [too long to demangle]";

/// The longest readable form of a mangled name of `len` bytes.
pub fn limit(len: usize) -> usize {
    len.saturating_mul(RATIO).clamp(FLOOR, CEILING)
}

/// What demangling a name gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Demangled {
    /// Its readable form, with Valgrind's suffixes.
    Readable(String),
    /// Its readable form would pass `limit`.
    TooLong,
}

/// Hashes of the names found too long to demangle in this process, for
/// one message after a report (`too_long_count`). Only such names are
/// added, so it stays as small as they are few.
static FOUND_TOO_LONG: Mutex<BTreeSet<u64>> = Mutex::new(BTreeSet::new());

/// How many different names this process has found too long to demangle.
pub fn too_long_count() -> usize {
    FOUND_TOO_LONG
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .len()
}

/// The one line that says `count` names were too long to demangle.
pub fn too_long_note(count: usize) -> String {
    // Short enough for a status line of 80 columns; the mark is on the
    // names themselves.
    format!("{count} name(s) too long to demangle: shown mangled and marked")
}

fn found_too_long(name: &str) {
    let mut h = rustc_hash::FxHasher::default();
    name.hash(&mut h);
    FOUND_TOO_LONG
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(h.finish());
}

/// The readable form of `name`, or `None` if it is not mangled; a name
/// too long to demangle is given as written, with `TOO_LONG` after it.
pub fn demangle(name: &str) -> Option<String> {
    match demangle_bounded(name)? {
        Demangled::Readable(readable) => Some(readable),
        Demangled::TooLong => Some(format!("{name}{TOO_LONG}")),
    }
}

/// What `name` demangles to, or `None` if it is not mangled.
pub fn demangle_bounded(name: &str) -> Option<Demangled> {
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
    let readable = match rust(symbol).or_else(|| cpp(symbol))? {
        Ok(readable) => readable,
        Err(Full) => {
            found_too_long(name);
            return Some(Demangled::TooLong);
        }
    };
    let mut readable = readable;
    if !clone.is_empty() {
        readable.push_str(" [clone ");
        readable.push_str(clone);
        readable.push(']');
    }
    readable.push_str(level);
    Some(Demangled::Readable(readable))
}

/// A readable form passed `limit`.
struct Full;

/// Text that refuses to grow past a limit: the write that would pass it
/// fails, and with it the demangler writing.
struct Bounded {
    text: String,
    room: usize,
    full: bool,
}

impl Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self.room.checked_sub(s.len()) {
            Some(room) => {
                self.room = room;
                self.text.push_str(s);
                Ok(())
            }
            None => {
                self.full = true;
                Err(fmt::Error)
            }
        }
    }
}

/// What `write` writes, up to `limit(symbol.len())` bytes: `None` if the
/// demangler fails on its own, `Err(Full)` if it passes the limit.
fn bounded(
    symbol: &str,
    write: impl FnOnce(&mut Bounded) -> fmt::Result,
) -> Option<Result<String, Full>> {
    let mut out = Bounded {
        text: String::new(),
        room: limit(symbol.len()),
        full: false,
    };
    match write(&mut out) {
        Ok(()) => Some(Ok(out.text)),
        Err(_) if out.full => Some(Err(Full)),
        Err(_) => None,
    }
}

/// A Rust symbol (legacy or v0), without its hash.
fn rust(symbol: &str) -> Option<Result<String, Full>> {
    let legacy = symbol.starts_with("_ZN") && symbol.ends_with('E') && symbol.contains("17h");
    if !(legacy || symbol.starts_with("_R")) {
        return None;
    }
    let readable = rustc_demangle::try_demangle(symbol).ok()?;
    bounded(symbol, |out| write!(out, "{readable:#}"))
}

/// A C++ symbol.
fn cpp(symbol: &str) -> Option<Result<String, Full>> {
    let parsed = cpp_demangle::Symbol::new(symbol).ok()?;
    let options = cpp_demangle::DemangleOptions::default();
    bounded(symbol, |out| parsed.structured_demangle(out, &options))
}

#[cfg(test)]
mod tests {
    use super::{CEILING, Demangled, TOO_LONG, demangle, demangle_bounded, limit};
    use std::time::{Duration, Instant};

    /// C++: `f(X<int, int>, X<that, that, that>, ...)`, 18 levels, each
    /// naming the one before three times: 244 bytes for about 7 GB.
    const CPP_BOMB: &str = "_Z1f1XIiiES_IS0_S0_S0_ES_IS1_S1_S1_ES_IS2_S2_S2_ES_IS3_S3_S3_ES_IS4_S4_S4_ES_IS5_S5_S5_ES_IS6_S6_S6_ES_IS7_S7_S7_ES_IS8_S8_S8_ES_IS9_S9_S9_ES_ISA_SA_SA_ES_ISB_SB_SB_ES_ISC_SC_SC_ES_ISD_SD_SD_ES_ISE_SE_SE_ES_ISF_SF_SF_ES_ISG_SG_SG_ES_ISH_SH_SH_E";
    /// Rust v0: `a::f000::<(i32, i32), (that, that), ...>`, 16 levels of
    /// back-references each naming the one before twice: 159 bytes for
    /// the megabyte rustc-demangle stops at.
    const RUST_BOMB: &str = "_RINvC1a4f000TllETBa_Ba_ETBe_Be_ETBm_Bm_ETBu_Bu_ETBC_BC_ETBK_BK_ETBS_BS_ETB10_B10_ETB18_B18_ETB1i_B1i_ETB1s_B1s_ETB1C_B1C_ETB1M_B1M_ETB1W_B1W_ETB26_B26_ETB2g_B2g_EE";

    /// Both bombs are shown as written, marked, and quickly: the
    /// demanglers stop at the limit rather than writing gigabytes (a
    /// tenth of a second is far above the time it takes, even in a debug
    /// build, and far below what the whole name would take).
    #[test]
    fn names_that_demangle_past_the_limit_are_shown_mangled() {
        for bomb in [CPP_BOMB, RUST_BOMB, &format!("{CPP_BOMB}.cold'2")] {
            let start = Instant::now();
            assert_eq!(demangle_bounded(bomb), Some(Demangled::TooLong), "{bomb}");
            assert_eq!(demangle(bomb), Some(format!("{bomb}{TOO_LONG}")));
            let took = start.elapsed();
            assert!(took < Duration::from_millis(500), "{bomb}: {took:?}");
        }
        // A level fewer of each is within the limit... and an order of
        // magnitude below it (the limit does not cut real names).
        let smaller = "_Z1f1XIiiES_IS0_S0_S0_ES_IS1_S1_S1_E";
        let Some(Demangled::Readable(r)) = demangle_bounded(smaller) else {
            panic!("{smaller}");
        };
        assert!(r.starts_with("f(X<int, int>, X<X<int, int>, X<int, int>, X<int, int> >"));
        assert!(r.len() <= limit(smaller.len()), "{}", r.len());
    }

    #[test]
    fn the_limit_grows_with_the_name() {
        assert_eq!(limit(0), 256);
        assert_eq!(limit(100), 3200);
        assert_eq!(limit(1 << 20), CEILING);
        // The longest C++ name of the samples, 9.2 times its mangled form.
        let name = "_ZN9__gnu_cxxmiIPSt4pairIiNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEESt6vectorIS8_SaIS8_EEEENS_17__normal_iteratorIT_T0_E15difference_typeERKSG_SJ_";
        let readable = demangle(name).unwrap();
        assert!(
            readable.starts_with("__gnu_cxx::__normal_iterator<"),
            "{readable}"
        );
        assert!(!readable.ends_with(TOO_LONG));
    }

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
