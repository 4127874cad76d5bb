//! `--mod-filename` and `--mod-funcname`: Perl-style `s/OLD/NEW/[gi]`
//! rewrites (as cg_annotate and cg_diff take them), applied to names
//! before two profiles' functions are matched.

use regex::{Regex, RegexBuilder};
use std::borrow::Cow;

/// One `s/OLD/NEW/` rewrite.
#[derive(Clone, Debug)]
pub struct Rewrite {
    pattern: Regex,
    replacement: String,
    all: bool,
}

impl Rewrite {
    /// Parses `s/OLD/NEW/` with optional `g` (every match) and `i` (any
    /// case) flags; any character may stand for `/`, as in Perl. `NEW`
    /// refers to groups as `$1` or `${name}`.
    pub fn parse(text: &str) -> Result<Rewrite, String> {
        let usage = || format!("expected s/REGEX/REPLACEMENT/ (flags g, i), got `{text}`");
        let rest = text.strip_prefix('s').ok_or_else(usage)?;
        let sep = rest
            .chars()
            .next()
            .filter(|c| !c.is_alphanumeric() && !c.is_whitespace());
        let sep = sep.ok_or_else(usage)?;
        let fields: Vec<&str> = rest[sep.len_utf8()..].split(sep).collect();
        let [old, new, flags] = fields[..] else {
            return Err(usage());
        };
        if let Some(bad) = flags.chars().find(|c| !matches!(c, 'g' | 'i')) {
            return Err(format!("unknown flag `{bad}` in `{text}` (flags: g, i)"));
        }
        let pattern = RegexBuilder::new(old)
            .case_insensitive(flags.contains('i'))
            .size_limit(1 << 20)
            .build()
            .map_err(|e| format!("in `{text}`: {e}"))?;
        Ok(Rewrite {
            pattern,
            replacement: new.to_string(),
            all: flags.contains('g'),
        })
    }

    /// `name` rewritten (the first match only, without `g`).
    pub fn apply<'a>(&self, name: &'a str) -> Cow<'a, str> {
        if self.all {
            self.pattern.replace_all(name, self.replacement.as_str())
        } else {
            self.pattern.replace(name, self.replacement.as_str())
        }
    }
}

/// `name` after every rewrite in turn.
pub fn apply_all<'a>(rewrites: &[Rewrite], name: &'a str) -> Cow<'a, str> {
    let mut out = Cow::Borrowed(name);
    for r in rewrites {
        if let Cow::Owned(s) = r.apply(&out) {
            out = Cow::Owned(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_as_perl_does() {
        let r = Rewrite::parse("s/prog[0-9]/progN/").unwrap();
        assert_eq!(r.apply("prog1/prog2.c"), "progN/prog2.c");
        let g = Rewrite::parse("s/prog[0-9]/progN/g").unwrap();
        assert_eq!(g.apply("prog1/prog2.c"), "progN/progN.c");
        let i = Rewrite::parse("s#/HOME/[a-z]+#~#i").unwrap();
        assert_eq!(i.apply("/home/ann/a.c"), "~/a.c");
        let groups = Rewrite::parse("s/(\\w+)_v[0-9]+/$1/").unwrap();
        assert_eq!(groups.apply("parse_v2"), "parse");
        assert_eq!(
            apply_all(&[r, groups], "prog7_v3"),
            "progN",
            "the first rewrite's result is the second's input"
        );
    }

    #[test]
    fn bad_rewrites_say_what_is_expected() {
        for bad in ["", "x/a/b/", "s/a/b", "s/a/b/c/", "sa", "s/(/x/"] {
            assert!(Rewrite::parse(bad).is_err(), "{bad}");
        }
        let e = Rewrite::parse("s/a/b/x").unwrap_err();
        assert!(e.contains("unknown flag `x`"), "{e}");
    }
}
