//! The scope of a function: the class or namespace of a C++ name, the
//! module (or the type of an `impl`) of a Rust path; what grouping by class
//! or module groups by. It is the qualified name's prefix before its last
//! `::`, read past what a demangled name carries around it: a return type
//! (`std::ostream& geo::operator<< <double>(...)`), the parameter list and
//! qualifiers (`(int) const`), Valgrind's suffixes (`'2` for a recursion
//! level, ` [clone .cold]`); template arguments, operators (`operator()`,
//! `operator<<`, `operator new`), lambdas (`{lambda(int)#1}`) and
//! `(anonymous namespace)` are read as parts of names. A Rust
//! `<Type as Trait>::method` belongs to `Type`.

use super::scan::{Brackets, ident, operator_at};

/// The scope of `name`, or `None` for a name without one (`main`,
/// `malloc`, `operator new(unsigned long)`).
pub fn scope(name: &str) -> Option<&str> {
    let name = without_suffixes(name);
    // Most names are plain `a::b::f(args)` or `a::b::f`: no templates,
    // return type, operator or lambda before the parameters.
    let open = name.find('(').unwrap_or(name.len());
    let head = &name[..open];
    let plain = !head.is_empty()
        && !head.contains(['<', ' ', '{', '[', ')'])
        && !head.contains("operator")
        && (open == name.len()
            || matching(&Brackets::new(name.as_bytes()), open)
                .is_some_and(|close| only_qualifiers(&name[close + 1..])));
    if plain {
        return head.rfind("::").map(|at| &head[..at]);
    }
    let head = &name[..params(name, &Brackets::new(name.as_bytes())).unwrap_or(name.len())];
    let qualified = &head[name_start(&Brackets::new(head.as_bytes()))..];
    let brackets = Brackets::new(qualified.as_bytes());
    if qualified.starts_with('<')
        && let Some(close) = matching(&brackets, 0)
        && qualified[close + 1..].starts_with("::")
    {
        // `<Type as Trait>::f`, `<Type>::f`: the type's own path.
        let inner = &qualified[1..close];
        let bytes = inner.as_bytes();
        // Byte indexes: a name may have any character after one.
        let ty = match top_level(&Brackets::new(bytes)).find(|&i| bytes[i..].starts_with(b" as ")) {
            Some(at) => &inner[..at],
            None => inner,
        };
        return Some(ty);
    }
    let b = qualified.as_bytes();
    let last = top_level(&brackets)
        .filter(|&i| b[i..].starts_with(b"::"))
        .last()?;
    Some(&qualified[..last])
}

/// `name` without Valgrind's recursion level (`'2`) and clone suffixes.
fn without_suffixes(name: &str) -> &str {
    let mut name = name.trim_end();
    if let Some(at) = name.rfind('\'')
        && at + 1 < name.len()
        && name[at + 1..].bytes().all(|c| c.is_ascii_digit())
    {
        name = &name[..at];
    }
    while let Some(at) = name.rfind(" [clone ") {
        if !name.ends_with(']') {
            break;
        }
        name = name[..at].trim_end();
    }
    name
}

/// The indexes of a name outside brackets (template arguments,
/// parentheses, braces), operator tokens skipped.
fn top_level<'a>(brackets: &'a Brackets<'a>) -> impl Iterator<Item = usize> + 'a {
    let b = brackets.bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        if i >= b.len() {
            return None;
        }
        let at = i;
        if let Some((next, symbol)) = operator_at(b, i) {
            i = next;
            // `operator==<int>`, `operator<< <char>`: its arguments.
            let t = if b[i..].starts_with(b" <") { i + 1 } else { i };
            if symbol
                && b.get(t) == Some(&b'<')
                && let Some(close) = brackets.closing(t)
            {
                i = close + 1;
            }
        } else if let Some(close) = matching(brackets, i) {
            i = close + 1;
        } else {
            i += 1;
        }
        Some(at)
    })
}

/// Where the bracket opened at `i` closes: `(`, `[`, `{`, and a `<` that
/// opens a template argument list (after a name, or at the start of a
/// Rust `<Type as Trait>`).
fn matching(brackets: &Brackets<'_>, i: usize) -> Option<usize> {
    let b = brackets.bytes();
    match b[i] {
        b'(' | b'[' | b'{' => brackets.pair(i),
        b'<' if i == 0 || ident(b[i - 1]) || b[i - 1] == b' ' => brackets.closing(i),
        _ => None,
    }
}

/// The `(` of the parameter list of `name` (whose brackets `brackets`
/// finds): a top-level `(` whose `)` only qualifiers follow (`const`, `&`,
/// `noexcept`...).
fn params(name: &str, brackets: &Brackets<'_>) -> Option<usize> {
    let b = brackets.bytes();
    top_level(brackets)
        .filter(|&i| b[i] == b'(')
        .find(|&i| matching(brackets, i).is_some_and(|close| only_qualifiers(&name[close + 1..])))
}

/// Whether what follows a parameter list is only its qualifiers. Read up
/// to the first word that is not one, and no further into a word than
/// the longest is long: asked after each top-level `(` of a name, it
/// reads each stretch of the name once.
fn only_qualifiers(rest: &str) -> bool {
    const QUALIFIERS: [&str; 6] = ["const", "volatile", "&", "&&", "noexcept", "override"];
    const LONGEST: usize = 8;
    let mut chars = rest.char_indices().peekable();
    loop {
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let Some(&(start, _)) = chars.peek() else {
            return true;
        };
        let mut end = start;
        while let Some((i, c)) = chars.next_if(|(_, c)| !c.is_whitespace()) {
            end = i + c.len_utf8();
            if end - start > LONGEST {
                return false;
            }
        }
        if !QUALIFIERS.contains(&&rest[start..end]) {
            return false;
        }
    }
}

/// Where the function's qualified name starts: after the return type (the
/// last top-level space, but not the one in `operator<< <T>` or
/// `operator new`).
fn name_start(brackets: &Brackets<'_>) -> usize {
    let b = brackets.bytes();
    let mut start = 0;
    for i in top_level(brackets) {
        let before_operator = b[..i].ends_with(b"operator");
        if b[i] == b' ' && b.get(i + 1) != Some(&b'<') && !before_operator {
            start = i + 1;
        }
    }
    start
}

#[cfg(test)]
mod tests {
    use super::scope;
    use crate::symbols::fold_templates;
    use std::time::{Duration, Instant};

    /// Names of many brackets that never close, or of many parameter
    /// lists: each bracket was read on to the end of the name (quadratic:
    /// in a release build 30 KB of `(` took 3.1 s, 60 KB 11 s, and 30 KB
    /// of `<a` 11 s). Now each name is read a few times over (300 KB in
    /// 0.12 s); the bound is far above that in a debug build on a busy
    /// machine.
    #[test]
    fn scopes_and_folds_cost_the_length_of_the_name() {
        let n = 100_000;
        // What the quadratic reading gave at 30 bytes, as it gives now.
        for (name, want) in [
            (format!("a::{}", "(".repeat(n)), Some("a")),
            (format!("a::f{}", "()".repeat(n / 2)), Some("a")),
            (format!("a::f{} x", "()".repeat(n / 2)), None),
            (format!("a{}", "<a".repeat(n / 2)), None),
            (format!("a::{}", "{".repeat(n)), Some("a")),
            (format!("a::b{}", "[".repeat(n)), Some("a")),
            (format!("a::f{}", "<b>".repeat(n / 3)), Some("a")),
            (format!("x::{}", "operator<".repeat(n / 9)), Some("x")),
            ("a<(b".repeat(n / 4), None),
        ] {
            let start = Instant::now();
            assert_eq!(scope(&name), want, "{}", &name[..20]);
            let folded = fold_templates(&name, "…");
            let took = start.elapsed();
            assert!(took < Duration::from_secs(5), "{}: {took:?}", &name[..20]);
            // Only the first list of `f<b><b>...` folds (`b` to `…`).
            let grown = if name.starts_with("a::f<b>") { 2 } else { 0 };
            assert_eq!(folded.len(), name.len() + grown, "{}", &name[..20]);
        }
    }

    #[test]
    fn names_with_wide_characters_have_scopes() {
        let name = "<std::sys::sync::once::futex::\u{fffd}Once as core::fmt::Debug>::fmt";
        assert_eq!(
            scope(name),
            Some("std::sys::sync::once::futex::\u{fffd}Once")
        );
        let name = "<é\u{fffd}é as Tr>::f";
        assert_eq!(scope(name), Some("é\u{fffd}é"));
        assert_eq!(scope("<\u{fffd}>::\u{fffd}(é)"), Some("\u{fffd}"));
    }

    #[test]
    fn cpp_scopes() {
        for (name, want) in [
            ("main", None),
            (
                "std::vector<int, std::allocator<int> >::push_back(int const&)",
                Some("std::vector<int, std::allocator<int> >"),
            ),
            (
                "std::ostream& geo::detail::operator<< <double, 3>(std::ostream&, geo::detail::Vec<double, 3> const&)",
                Some("geo::detail"),
            ),
            (
                "geo::detail::Vec<double, 3>::operator+(geo::detail::Vec<double, 3> const&) const",
                Some("geo::detail::Vec<double, 3>"),
            ),
            (
                "(anonymous namespace)::Accumulator::operator()(int, int) const",
                Some("(anonymous namespace)::Accumulator"),
            ),
            (
                "main::{lambda(int)#2}::operator()(int) const",
                Some("main::{lambda(int)#2}"),
            ),
            ("operator new(unsigned long)", None),
            ("Foo::operator new(unsigned long)", Some("Foo")),
            ("Foo::operator bool() const", Some("Foo")),
            (
                "bool __gnu_cxx::operator!=<int*, std::vector<int> >(A const&)",
                Some("__gnu_cxx"),
            ),
            (
                "std::function<void ()>::operator()() const",
                Some("std::function<void ()>"),
            ),
            (
                "llvm::FPPassManager::runOnFunction(llvm::Function&) [clone .warm]",
                Some("llvm::FPPassManager"),
            ),
            (
                "llvm::FPPassManager::runOnFunction(llvm::Function&)'2",
                Some("llvm::FPPassManager"),
            ),
            (
                "void std::__introsort_loop<int*, long>(int*, int*, long)",
                Some("std"),
            ),
            ("fib'2", None),
            ("ns3::Parser5::compute_12(int)", Some("ns3::Parser5")),
            (
                "foo::bar(int)::{lambda()#1}::operator()() const",
                Some("foo::bar(int)::{lambda()#1}"),
            ),
            ("foo::bar(int) [clone .cold]", Some("foo")),
        ] {
            assert_eq!(scope(name), want, "{name}");
        }
    }

    #[test]
    fn rust_scopes() {
        for (name, want) in [
            ("rust_names::fib", Some("rust_names")),
            (
                "std::rt::lang_start::{{closure}}",
                Some("std::rt::lang_start"),
            ),
            (
                "<rustc_session::config::Options as core::default::Default>::default",
                Some("rustc_session::config::Options"),
            ),
            (
                "<std::sys::thread::unix::Thread>::new::thread_start",
                Some("std::sys::thread::unix::Thread"),
            ),
            (
                "core::ptr::drop_in_place<alloc::vec::Vec<u8>>",
                Some("core::ptr"),
            ),
            (
                "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop",
                Some("alloc::vec::Vec<T>"),
            ),
        ] {
            assert_eq!(scope(name), want, "{name}");
        }
    }
}
