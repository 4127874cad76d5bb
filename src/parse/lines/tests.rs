//! Unit tests for the per-line nom parsers: what each returns, where it
//! stops, and how it fails.

use super::*;

fn num(value: u64) -> Num {
    Num {
        value,
        overflow: false,
    }
}

fn rel(negative: bool, delta: u64) -> SubPos {
    SubPos::Rel { negative, delta }
}

/// Runs `cost_line` and returns (result, positions, costs).
fn costs_of(line: &[u8], npos: usize) -> (Result<usize, &[u8]>, [SubPos; 3], Vec<i64>) {
    let mut pos = [SubPos::Same; 3];
    let mut costs = vec![99, 99];
    let r = cost_line(line, npos, &mut pos, &mut costs);
    (r, pos, costs)
}

// ---- number ----

#[test]
fn number_decimal_stops_at_the_first_non_digit() {
    assert_eq!(number(b"123 rest"), Ok((&b" rest"[..], num(123))));
    assert_eq!(number(b"0"), Ok((&b""[..], num(0))));
    assert_eq!(number(b"007x"), Ok((&b"x"[..], num(7))));
}

#[test]
fn number_hex_lower_and_upper() {
    assert_eq!(number(b"0x7b"), Ok((&b""[..], num(123))));
    assert_eq!(number(b"0x7B"), Ok((&b""[..], num(123))));
    assert_eq!(number(b"0X7b"), Ok((&b""[..], num(123))));
    assert_eq!(number(b"0xDeadBeef z"), Ok((&b" z"[..], num(0xdead_beef))));
    assert_eq!(number(b"0x80001234"), Ok((&b""[..], num(0x8000_1234))));
}

#[test]
fn number_at_the_64_bit_limit_does_not_overflow() {
    assert_eq!(
        number(b"18446744073709551615"),
        Ok((&b""[..], num(u64::MAX)))
    );
    assert_eq!(number(b"0xffffffffffffffff"), Ok((&b""[..], num(u64::MAX))));
}

#[test]
fn number_beyond_64_bits_saturates_and_says_so() {
    let saturated = Num {
        value: u64::MAX,
        overflow: true,
    };
    assert_eq!(number(b"18446744073709551616"), Ok((&b""[..], saturated)));
    assert_eq!(
        number(b"99999999999999999999999999 x"),
        Ok((&b" x"[..], saturated))
    );
    assert_eq!(number(b"0x10000000000000000"), Ok((&b""[..], saturated)));
}

#[test]
fn number_rejects_what_is_not_a_number() {
    assert!(number(b"").is_err());
    assert!(number(b"abc").is_err());
    assert!(number(b"-1").is_err());
    assert!(number(b" 1").is_err());
}

#[test]
fn number_0x_without_hex_digits_is_the_number_zero() {
    // `0x` alone is not hex: it reads as the decimal `0`, leaving `x...`.
    assert_eq!(number(b"0xg"), Ok((&b"xg"[..], num(0))));
}

// ---- subpos ----

#[test]
fn subpos_kinds() {
    assert_eq!(subpos(b"*"), Ok((&b""[..], SubPos::Same)));
    assert_eq!(subpos(b"* 5"), Ok((&b" 5"[..], SubPos::Same)));
    assert_eq!(subpos(b"+3"), Ok((&b""[..], rel(false, 3))));
    assert_eq!(subpos(b"-12 7"), Ok((&b" 7"[..], rel(true, 12))));
    assert_eq!(subpos(b"+0x10"), Ok((&b""[..], rel(false, 16))));
    assert_eq!(subpos(b"-0x10"), Ok((&b""[..], rel(true, 16))));
    assert_eq!(
        subpos(b"0x80001234 90"),
        Ok((&b" 90"[..], SubPos::Abs(0x8000_1234)))
    );
    assert_eq!(subpos(b"90 1"), Ok((&b" 1"[..], SubPos::Abs(90))));
    assert_eq!(subpos(b"0"), Ok((&b""[..], SubPos::Abs(0))));
}

#[test]
fn subpos_rejects_garbage() {
    assert!(subpos(b"").is_err());
    assert!(subpos(b"+").is_err());
    assert!(subpos(b"-").is_err());
    assert!(subpos(b"x").is_err());
    assert!(subpos(b"+x").is_err());
}

// ---- cost_line ----

#[test]
fn cost_line_one_position() {
    let (r, pos, costs) = costs_of(b"16 20 12", 1);
    assert_eq!(r, Ok(0));
    assert_eq!(pos[0], SubPos::Abs(16));
    assert_eq!(costs, vec![20, 12]);
}

#[test]
fn cost_line_two_positions() {
    let (r, pos, costs) = costs_of(b"0x80001234 90 1", 2);
    assert_eq!(r, Ok(0));
    assert_eq!(pos[..2], [SubPos::Abs(0x8000_1234), SubPos::Abs(90)]);
    assert_eq!(costs, vec![1]);

    let (r, pos, costs) = costs_of(b"+3 * 5", 2);
    assert_eq!(r, Ok(0));
    assert_eq!(pos[..2], [rel(false, 3), SubPos::Same]);
    assert_eq!(costs, vec![5]);
}

#[test]
fn cost_line_three_positions() {
    let (r, pos, costs) = costs_of(b"0x10 -2 +7 4 5 6", 3);
    assert_eq!(r, Ok(0));
    assert_eq!(pos, [SubPos::Abs(16), rel(true, 2), rel(false, 7)]);
    assert_eq!(costs, vec![4, 5, 6]);
}

#[test]
fn cost_line_no_positions_is_a_summary() {
    let (r, _, costs) = costs_of(b"1 2 3", 0);
    assert_eq!(r, Ok(0));
    assert_eq!(costs, vec![1, 2, 3]);
}

#[test]
fn cost_line_tabs_trailing_blanks_and_carriage_return() {
    let (r, pos, costs) = costs_of(b"16\t20  30 \t", 1);
    assert_eq!(r, Ok(0));
    assert_eq!(pos[0], SubPos::Abs(16));
    assert_eq!(costs, vec![20, 30]);

    let (r, _, costs) = costs_of(b"16 20\r", 1);
    assert_eq!(r, Ok(0));
    assert_eq!(costs, vec![20]);

    // A position-only row as Valgrind writes it after `jump=`: `* * `.
    let (r, pos, costs) = costs_of(b"* * ", 2);
    assert_eq!(r, Ok(0));
    assert_eq!(pos[..2], [SubPos::Same, SubPos::Same]);
    assert!(costs.is_empty());
}

#[test]
fn cost_line_fewer_costs_than_events_gives_fewer_costs() {
    let (r, _, costs) = costs_of(b"16", 1);
    assert_eq!(r, Ok(0));
    assert!(costs.is_empty(), "costs are cleared first");
    let (r, _, costs) = costs_of(b"16 5", 1);
    assert_eq!(r, Ok(0));
    assert_eq!(costs, vec![5]);
}

#[test]
fn cost_line_negative_costs() {
    let (r, _, costs) = costs_of(b"5 -3 4 -0", 1);
    assert_eq!(r, Ok(0));
    assert_eq!(costs, vec![-3, 4, 0]);
}

#[test]
fn cost_line_garbage_returns_the_rest_of_the_line() {
    assert_eq!(costs_of(b"16 20 x5 7", 1).0, Err(&b"x5 7"[..]));
    // A field that runs into garbage without a blank.
    assert_eq!(costs_of(b"16 20x 5", 1).0, Err(&b"x 5"[..]));
    // Garbage where a position should be.
    assert_eq!(costs_of(b"abc 5", 1).0, Err(&b"abc 5"[..]));
    assert_eq!(costs_of(b"16+2 5", 1).0, Err(&b"+2 5"[..]));
    // Two positions declared, one given.
    assert_eq!(costs_of(b"5", 2).0, Err(&b""[..]));
    // A lone minus sign is not a cost.
    assert_eq!(costs_of(b"5 - 3", 1).0, Err(&b"- 3"[..]));
}

#[test]
fn cost_line_counters_beyond_i64_or_u64_are_counted_as_overflows() {
    // i64::MAX itself is fine; one more is beyond what a cost can hold; the
    // third is beyond u64 too.
    let (r, _, costs) = costs_of(
        b"1 9223372036854775807 9223372036854775808 18446744073709551616 5",
        1,
    );
    assert_eq!(r, Ok(2));
    assert_eq!(costs, vec![i64::MAX, i64::MAX, i64::MAX, 5]);

    let (r, _, costs) = costs_of(b"1 -99999999999999999999", 1);
    assert_eq!(r, Ok(1));
    assert_eq!(costs, vec![i64::MIN]);
}

#[test]
fn cost_line_reads_i64_min_exactly() {
    // cg_diff can write it; it is a cost, not an overflow.
    let (r, _, costs) = costs_of(b"1 -9223372036854775808 -9223372036854775809", 1);
    assert_eq!(r, Ok(1));
    assert_eq!(costs, vec![i64::MIN, i64::MIN]);
}

// ---- compressed_name ----

fn name_of(i: &[u8]) -> (Option<Num>, &[u8]) {
    let (rest, out) = compressed_name(i).unwrap();
    assert!(rest.is_empty(), "compressed_name takes the whole value");
    out
}

#[test]
fn compressed_name_definition_reference_and_plain() {
    assert_eq!(name_of(b"(12) name"), (Some(num(12)), &b"name"[..]));
    assert_eq!(name_of(b"(12)"), (Some(num(12)), &b""[..]));
    assert_eq!(name_of(b"(12)  "), (Some(num(12)), &b""[..]));
    assert_eq!(name_of(b"(12)name"), (Some(num(12)), &b"name"[..]));
    assert_eq!(name_of(b"(0x1f) hexid"), (Some(num(31)), &b"hexid"[..]));
    assert_eq!(name_of(b"main"), (None, &b"main"[..]));
    assert_eq!(name_of(b"  padded  "), (None, &b"padded"[..]));
    assert_eq!(name_of(b""), (None, &b""[..]));
}

#[test]
fn compressed_name_keeps_spaces_parentheses_and_commas() {
    assert_eq!(
        name_of(b"operator()(int) const"),
        (None, &b"operator()(int) const"[..])
    );
    assert_eq!(
        name_of(b"(7) std::map<int, std::pair<a, b> >::find(int const&) const"),
        (
            Some(num(7)),
            &b"std::map<int, std::pair<a, b> >::find(int const&) const"[..]
        )
    );
    assert_eq!(
        name_of(b"(3) (below main)"),
        (Some(num(3)), &b"(below main)"[..])
    );
}

#[test]
fn compressed_name_parenthesis_without_a_number_is_a_plain_name() {
    assert_eq!(name_of(b"(below main)"), (None, &b"(below main)"[..]));
    assert_eq!(name_of(b"(12 unclosed"), (None, &b"(12 unclosed"[..]));
    assert_eq!(name_of(b"()"), (None, &b"()"[..]));
}

#[test]
fn compressed_name_id_beyond_64_bits_is_flagged() {
    let (id, name) = name_of(b"(99999999999999999999) x");
    assert_eq!(
        id,
        Some(Num {
            value: u64::MAX,
            overflow: true
        })
    );
    assert_eq!(name, b"x");
}

// ---- count_then_target ----

#[test]
fn count_then_target_returns_the_count_and_the_raw_target() {
    assert_eq!(count_then_target(b"1 50"), Ok((&b"50"[..], num(1))));
    assert_eq!(
        count_then_target(b" 3 0x40 12"),
        Ok((&b"0x40 12"[..], num(3)))
    );
    assert_eq!(count_then_target(b"0 +5 * "), Ok((&b"+5 * "[..], num(0))));
    // xdebug: `calls=1 0 0`, an extra field the caller ignores.
    assert_eq!(count_then_target(b"1 0 0"), Ok((&b"0 0"[..], num(1))));
    assert_eq!(count_then_target(b"0x10 1"), Ok((&b"1"[..], num(16))));
    assert_eq!(count_then_target(b"7"), Ok((&b""[..], num(7))));
}

#[test]
fn count_then_target_needs_a_count() {
    assert!(count_then_target(b"").is_err());
    assert!(count_then_target(b"x 5").is_err());
    assert!(count_then_target(b"+1 5").is_err());
}

// ---- jcnd_counts ----

#[test]
fn jcnd_counts_valgrind_style_is_taken_over_executed() {
    assert_eq!(
        jcnd_counts(b"1/2 +22 0"),
        Ok((&b"+22 0"[..], (num(1), num(2))))
    );
    assert_eq!(
        jcnd_counts(b"4032/4096 +1 "),
        Ok((&b"+1 "[..], (num(4032), num(4096))))
    );
}

#[test]
fn jcnd_counts_grammar_style_is_executed_then_taken() {
    assert_eq!(jcnd_counts(b"2 1 +3"), Ok((&b"+3"[..], (num(1), num(2)))));
    assert_eq!(jcnd_counts(b" 10\t4 *"), Ok((&b"*"[..], (num(4), num(10)))));
}

#[test]
fn jcnd_counts_needs_two_counts() {
    assert!(jcnd_counts(b"5").is_err());
    assert!(jcnd_counts(b"1/ 2").is_err());
    assert!(jcnd_counts(b"x/2 5").is_err());
    assert!(jcnd_counts(b"").is_err());
}

// ---- header ----

#[test]
fn header_key_and_trimmed_value() {
    assert_eq!(
        header(b"events: Ir Dr"),
        Ok((&b""[..], (&b"events"[..], &b"Ir Dr"[..])))
    );
    assert_eq!(
        header(b"cmd:  ./prog arg  "),
        Ok((&b""[..], (&b"cmd"[..], &b"./prog arg"[..])))
    );
    assert_eq!(
        header(b"desc: I1 cache: "),
        Ok((&b""[..], (&b"desc"[..], &b"I1 cache:"[..])))
    );
    assert_eq!(
        header(b"event: Ir : Instruction Fetches"),
        Ok((&b""[..], (&b"event"[..], &b"Ir : Instruction Fetches"[..])))
    );
    assert_eq!(
        header(b"totals:"),
        Ok((&b""[..], (&b"totals"[..], &b""[..])))
    );
    assert_eq!(
        header(b"my_key2: v"),
        Ok((&b""[..], (&b"my_key2"[..], &b"v"[..])))
    );
}

#[test]
fn header_needs_the_colon_right_after_the_key() {
    assert!(header(b"events : Ir").is_err());
    assert!(header(b"fn=main").is_err());
    assert!(header(b": value").is_err());
    assert!(header(b"==== NEW PROFILING FILE ====").is_err());
    assert!(header(b"").is_err());
}

// ---- spec ----

#[test]
fn spec_key_and_raw_value() {
    assert_eq!(
        spec(b"fn=(1) main"),
        Ok((&b""[..], (&b"fn"[..], &b"(1) main"[..])))
    );
    assert_eq!(
        spec(b"calls=1 50 "),
        Ok((&b""[..], (&b"calls"[..], &b"1 50 "[..])))
    );
    assert_eq!(spec(b"fn="), Ok((&b""[..], (&b"fn"[..], &b""[..]))));
    // Only the first `=` separates.
    assert_eq!(spec(b"fn=a=b"), Ok((&b""[..], (&b"fn"[..], &b"a=b"[..]))));
    assert_eq!(spec(b"cfl=~"), Ok((&b""[..], (&b"cfl"[..], &b"~"[..]))));
}

#[test]
fn spec_key_is_lowercase_letters_followed_by_equals() {
    assert!(spec(b"Fn=x").is_err());
    assert!(spec(b"fn =x").is_err());
    assert!(spec(b"=x").is_err());
    assert!(spec(b"events: Ir").is_err());
    assert!(spec(b"f1=x").is_err());
    assert!(spec(b"").is_err());
}

// ---- names ----

#[test]
fn names_split_on_blanks() {
    let got: Vec<&[u8]> = names(b" Ir  Dr\tI1mr ").collect();
    assert_eq!(got, vec![&b"Ir"[..], b"Dr", b"I1mr"]);
    assert_eq!(names(b"").count(), 0);
    assert_eq!(names(b" \t ").count(), 0);
    let got: Vec<&[u8]> = names(b"Time_(10ns) Memory_(bytes)").collect();
    assert_eq!(got, vec![&b"Time_(10ns)"[..], b"Memory_(bytes)"]);
}

// ---- formula ----

#[test]
fn formula_terms_with_and_without_star() {
    let want: Vec<(i64, &[u8])> = vec![(1, b"Ir"), (2, b"Dr")];
    assert_eq!(formula(b"Ir + 2 Dr"), Some(want.clone()));
    assert_eq!(formula(b"Ir + 2 * Dr"), Some(want.clone()));
    assert_eq!(formula(b" Ir+2*Dr "), Some(want));
    assert_eq!(formula(b"3Ir"), Some(vec![(3, &b"Ir"[..])]));
    assert_eq!(formula(b"0x10 Ir"), Some(vec![(16, &b"Ir"[..])]));
    assert_eq!(formula(b"I1mr"), Some(vec![(1, &b"I1mr"[..])]));
    assert_eq!(
        formula(b"Ir + Dr + 10 * Dw"),
        Some(vec![(1, &b"Ir"[..]), (1, b"Dr"), (10, b"Dw")])
    );
}

#[test]
fn formula_bad_input_is_none() {
    assert_eq!(formula(b""), None);
    assert_eq!(formula(b"Ir +"), None);
    assert_eq!(formula(b"+ Ir"), None);
    assert_eq!(formula(b"Ir + + Dr"), None);
    assert_eq!(formula(b"Ir Dr"), None);
    assert_eq!(formula(b"2"), None);
    assert_eq!(formula(b"2 *"), None);
    assert_eq!(formula(b"Ir - Dr"), None);
    // A factor that does not fit an i64.
    assert_eq!(formula(b"9223372036854775808 Ir"), None);
    assert_eq!(formula(b"99999999999999999999 Ir"), None);
}
