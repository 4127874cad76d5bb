//! Folding C++ template argument lists (`std::vector<int, std::allocator<int> >`
//! becomes `std::vector<…>`), as KCachegrind's "shorten templates": what
//! makes long demangled names readable in a column. A `<` opens a list only
//! right after a name (or after an `operator<<`-like token and a space);
//! `operator<`, `operator<<`, `operator->` and friends are operators, and a
//! `<` that starts a word (`<lambda()>`, Python's `<module>`, `<cycle 1>`)
//! is text. A list that never closes is left as it is.

use super::scan::{Brackets, ident, operator_at};
use std::borrow::Cow;

/// `name` with every outermost template argument list replaced by
/// `ellipsis` (`<…>`); `<>` stays.
pub fn fold_templates<'a>(name: &'a str, ellipsis: &str) -> Cow<'a, str> {
    let b = name.as_bytes();
    // Lists that never close are read past in one pass (`Brackets`).
    let brackets = Brackets::new(b);
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    // The next `<` opens a list (it follows `operator<<` and a space).
    let mut opens = false;
    while i < b.len() {
        if let Some((next, symbol)) = operator_at(b, i) {
            i = next;
            if symbol && b.get(i) == Some(&b' ') && b.get(i + 1) == Some(&b'<') {
                i += 1;
            }
            opens = symbol && b.get(i) == Some(&b'<');
            continue;
        }
        let template = b[i] == b'<' && (opens || (i > 0 && ident(b[i - 1])));
        opens = false;
        if template && let Some(close) = brackets.closing(i) {
            if close > i + 1 {
                out.push_str(&name[copied..=i]);
                out.push_str(ellipsis);
                copied = close;
            }
            i = close + 1;
            continue;
        }
        i += 1;
    }
    if copied == 0 {
        return Cow::Borrowed(name);
    }
    out.push_str(&name[copied..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::fold_templates;

    fn fold(name: &str) -> String {
        fold_templates(name, "…").into_owned()
    }

    #[test]
    fn outermost_argument_lists_fold() {
        assert_eq!(
            fold("std::vector<int, std::allocator<int> >::push_back(int const&)"),
            "std::vector<…>::push_back(int const&)"
        );
        assert_eq!(
            fold(
                "void std::__introsort_loop<__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, long, __gnu_cxx::__ops::_Iter_less_iter>(__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, __gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, long, __gnu_cxx::__ops::_Iter_less_iter)"
            ),
            "void std::__introsort_loop<…>(__gnu_cxx::__normal_iterator<…>, __gnu_cxx::__normal_iterator<…>, long, __gnu_cxx::__ops::_Iter_less_iter)"
        );
        assert_eq!(
            fold("std::function<void ()>::operator()() const"),
            "std::function<…>::operator()() const"
        );
        // Rust closes two lists with `>>`.
        assert_eq!(
            fold("core::ptr::drop_in_place<alloc::vec::Vec<u8>>"),
            "core::ptr::drop_in_place<…>"
        );
        assert_eq!(fold("f<>()"), "f<>()");
        assert_eq!(fold_templates("a<b>", "..."), "a<...>");
    }

    #[test]
    fn operators_are_not_brackets() {
        for same in [
            "std::ostream::operator<<(double)",
            "bool operator<(Foo const&, Foo const&)",
            "Foo::operator->() const",
            "operator<=>(A const&, A const&)",
            "std::istream::operator>>(int&)",
            "Foo::operator->*(int)",
            "operator new(unsigned long)",
        ] {
            assert_eq!(fold(same), same);
        }
        assert_eq!(
            fold(
                "std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char const*)"
            ),
            "std::basic_ostream<…>& std::operator<< <…>(std::basic_ostream<…>&, char const*)"
        );
        assert_eq!(
            fold("bool operator< <int>(A<int> const&, A<int> const&)"),
            "bool operator< <…>(A<…> const&, A<…> const&)"
        );
        assert_eq!(
            fold("std::unique_ptr<Foo, std::default_delete<Foo> >::operator->() const"),
            "std::unique_ptr<…>::operator->() const"
        );
        assert_eq!(fold("my_operator<int>"), "my_operator<…>");
        assert_eq!(
            fold("bool __gnu_cxx::operator!=<int*, std::vector<int> >(A const&)"),
            "bool __gnu_cxx::operator!=<…>(A const&)"
        );
        assert_eq!(fold("X::operator()<int>(int)"), "X::operator()<…>(int)");
        assert_eq!(fold("X::operator[](int)"), "X::operator[](int)");
        assert_eq!(fold("bool operator==(A, B)"), "bool operator==(A, B)");
        assert_eq!(fold("f<decltype(a->b)>(int)"), "f<…>(int)");
    }

    #[test]
    fn angle_brackets_that_start_a_word_are_text() {
        for same in [
            "<lambda()>",
            "Foo::<lambda()>::operator()",
            "<module>",
            "<cycle 1>",
            "main::{lambda(int)#1}::operator()(int) const",
            "java.lang.Object.<init>",
            "unclosed<int",
        ] {
            assert_eq!(fold(same), same);
        }
        assert_eq!(
            fold("<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop"),
            "<alloc::vec::Vec<…> as core::ops::drop::Drop>::drop"
        );
    }
}
