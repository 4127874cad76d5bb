//! What the reader says about lines it cannot take as written: one
//! wording, noted by the scanner for the merge to say at the line (and
//! said by the loader of a header's lines).

use super::lines::SubPos;

/// A line longer than any reader keeps (`MAX_LINE`), skipped.
pub fn overlong_line() -> String {
    format!("line over {} bytes long skipped", super::MAX_LINE)
}

/// Why a text whose line `line` is longer than any reader keeps, before
/// an `events:` line, is no profile.
pub fn overlong_before_events(line: usize) -> String {
    format!("line {line} is over {} bytes long", super::MAX_LINE)
}

/// A cost line where no `events:` line has said what its counters are.
pub const COST_LINE_BEFORE_EVENTS: &str = "cost line before the `events:` header";

/// A cost line where no function is current.
pub const COST_LINE_WITHOUT_FUNCTION: &str = "cost line before any `fn=`";

/// A call's cost line where no function is current to make it.
pub const CALL_WITHOUT_FUNCTION: &str = "call before any `fn=`";

/// A `calls=` line not followed by its cost line.
pub const CALL_WITHOUT_COST_LINE: &str = "`calls=` is not followed by a cost line; call dropped";

/// A cost line that stops making sense at `at` (the rest of the line).
pub fn unreadable_cost_line(at: &[u8]) -> String {
    let shown = String::from_utf8_lossy(&at[..at.len().min(30)]).into_owned();
    format!("cannot read cost line at `{}`", shown.escape_debug())
}

/// A relative position `p` from `last` that leaves the 64-bit range.
pub fn position_out_of_range(p: SubPos, last: u64) -> String {
    let way = match p {
        SubPos::Rel { negative: true, .. } => "below zero",
        _ => "beyond 64 bits",
    };
    format!("relative position goes {way} (last was {last})")
}

/// Counters of a line that were saturated at the signed 64-bit limits.
pub fn saturated_counters(overflows: usize) -> String {
    format!("{overflows} counter(s) beyond the signed 64-bit range saturated")
}

/// A cost line with `counters` counters for `width` events.
pub fn extra_counters(counters: usize, width: usize) -> String {
    format!("{counters} counters but {width} events; the extra ones are ignored")
}

/// A line that is neither a cost line, a comment, `key=value` nor a header.
pub fn not_a_profile_line(line: &[u8]) -> String {
    format!("not a profile line: {}", line_start(line))
}

/// What a message may quote of a line: its first 40 bytes in backquotes
/// (a byte that is not UTF-8 as `\u{fffd}`); a line of binary data (a
/// control byte other than a tab) as its first 8 bytes in hexadecimal.
pub fn line_start(line: &[u8]) -> String {
    let binary = line.iter().any(|&b| b < 0x20 && b != b'\t' || b == 0x7f);
    if binary {
        let hex: Vec<String> = line.iter().take(8).map(|b| format!("{b:02x}")).collect();
        let cut = if line.len() > 8 { " …" } else { "" };
        return format!("binary data ({}{cut})", hex.join(" "));
    }
    let shown = String::from_utf8_lossy(&line[..line.len().min(40)]).into_owned();
    let cut = if line.len() > 40 { "…" } else { "" };
    format!("`{}{cut}`", shown.escape_debug())
}

/// A `calls=` line whose count cannot be read.
pub const UNREADABLE_CALL_COUNT: &str = "cannot read `calls=` count";

/// A `calls=` line with no `cfn=` before it.
pub const CALL_WITHOUT_CALLEE: &str = "`calls=` without a `cfn=` before it";

/// A `calls=` count saturated at the 64-bit limit.
/// Said where an ID is used before any definition (it is named
/// `idmap::placeholder` until it has one).
pub fn used_before_defined(id: u64) -> String {
    format!("name ({id}) used before it was defined")
}

/// Said of a name that cannot be read (the line sets none).
pub const UNREADABLE_NAME: &str = "cannot read name";
/// Said of a name whose `(id)` does not fit (the line sets none).
pub const NAME_ID_BEYOND_64_BITS: &str = "name ID does not fit in 64 bits";

/// Said once per file, where a sum of costs first saturates.
pub const SUM_SATURATED: &str =
    "costs add up beyond the signed 64-bit range: the sum is saturated, not exact";

pub const SATURATED_CALL_COUNT: &str = "call count beyond 64 bits saturated";

/// A jump count saturated at the 64-bit limit.
pub const SATURATED_JUMP_COUNT: &str = "jump count beyond 64 bits saturated";

/// A jump line before any `fn=`.
pub const JUMP_WITHOUT_FUNCTION: &str = "jump before any `fn=`";

/// A `jump=` or `jcnd=` (`key`) line whose counts cannot be read.
pub fn unreadable_jump_counts(key: &str) -> String {
    format!("cannot read `{key}=` counts")
}

/// A target position (of a call or jump) that cannot be read at `rest`.
pub fn unreadable_target(rest: &[u8]) -> String {
    format!(
        "cannot read target position `{}`",
        String::from_utf8_lossy(rest)
    )
}
