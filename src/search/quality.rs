//! Which scattered matches are weak: letters of the query found far
//! apart in a name (`most` in `m_ctx->os_st…t`) match almost any long
//! name, and a Python profile gave 132 such matches for `/most`. They
//! stay findable behind a line of their own, as fzf and zf users expect.

/// Whether a scattered match is close enough to rank with the others:
/// the matched letters (char `positions` in `name`, in order) lie within
/// a window at most twice the query's length plus two, or each starts a
/// word (an acronym: `gfn` for `get_function_name`, `GFN` for
/// `GetFunctionName`).
pub fn is_strong(name: &str, positions: &[usize]) -> bool {
    let (Some(&first), Some(&last)) = (positions.first(), positions.last()) else {
        return false;
    };
    if last - first < 2 * positions.len() + 2 {
        return true;
    }
    let chars: Vec<char> = name.chars().collect();
    positions.iter().all(|&p| starts_word(&chars, p))
}

/// A word starts at the first character, after one that is not a letter
/// or a digit, and at a capital after a small letter.
fn starts_word(chars: &[char], at: usize) -> bool {
    let Some(&c) = chars.get(at) else {
        return false;
    };
    match at.checked_sub(1).and_then(|p| chars.get(p)) {
        None => true,
        Some(&before) => !before.is_alphanumeric() || (before.is_lowercase() && c.is_uppercase()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_letters_and_acronyms_are_strong_far_letters_are_not() {
        // "most" in "almost_done": m,o,s,t together.
        assert!(is_strong("almost_done", &[2, 3, 4, 5]));
        // Within 2*4+2 = 10 cells: m at 0, t at 9.
        assert!(is_strong("m_o_s_xx_t", &[0, 2, 4, 9]));
        // Far apart and mid-word: weak.
        assert!(!is_strong("time_compute_rows_status", &[5, 6, 13, 19]));
        // Word starts, however far: strong.
        assert!(is_strong("get_function_name", &[0, 4, 13]));
        assert!(is_strong("GetFunctionName", &[0, 3, 11]));
        assert!(!is_strong("", &[]));
    }
}
