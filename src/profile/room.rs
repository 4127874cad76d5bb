//! Room for what the rest of a file is likely to hold. A table that grows
//! a little at a time is copied each time it outgrows its room; one that
//! grows toward a guess from the part of the file read so far is copied a
//! few times at most, and many threads' copies left in the allocator do
//! not add up at the peak.

/// How many a table of `len` should have room for when it must take
/// `additional` more: `expected` in all where that is more, but at most
/// four times what it must hold (a guess from the start of a file can be
/// far too high).
pub fn room(len: usize, additional: usize, expected: usize) -> usize {
    let needed = len.saturating_add(additional);
    expected.clamp(needed, needed.saturating_mul(4))
}

/// Makes room in `v` for `additional` more, as `room` says.
pub fn reserve_toward<T>(v: &mut Vec<T>, additional: usize, expected: usize) {
    if v.capacity() - v.len() < additional {
        v.reserve_exact(room(v.len(), additional, expected) - v.len());
    }
}

/// What a table of `now` entries, made from the part `share` (0 to 1) of a
/// file, holds at the end of the file if the rest is like what was read.
pub fn expected_at_end(now: usize, share: f64) -> usize {
    (now as f64 / share.max(1e-3)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_follows_the_guess_within_four_times_the_need() {
        assert_eq!(room(10, 5, 100), 60, "at most four times");
        assert_eq!(room(10, 5, 40), 40, "the guess");
        assert_eq!(room(10, 5, 0), 15, "at least what is needed");
        let mut v: Vec<u8> = Vec::new();
        reserve_toward(&mut v, 10, 30);
        assert_eq!(v.capacity(), 30);
        reserve_toward(&mut v, 30, 30);
        assert_eq!(v.capacity(), 30, "room enough: nothing done");
        assert_eq!(expected_at_end(10, 0.25), 40);
    }
}
