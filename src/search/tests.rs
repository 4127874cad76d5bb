//! Ranking, incremental queries, prefix reuse, and the scan's paths (one
//! thread or several, sorted or bucketed by rank) giving the same answer.

use super::*;

fn search(names: &[&str]) -> Search {
    Search::new(names.iter().copied())
}

fn ranked(s: &Search) -> Vec<String> {
    s.results().iter().map(|&i| s.name(i)).collect()
}

#[test]
fn substring_matches_rank_above_scattered_ones() {
    // Cost order is the given order: the scattered one is the costliest.
    let mut s = search(&["f_i_b_scattered", "calc_fib", "fibonacci", "fib", "xfibx"]);
    s.set_query("fib");
    assert_eq!(
        ranked(&s),
        ["fib", "calc_fib", "fibonacci", "xfibx", "f_i_b_scattered"]
    );
    assert_eq!(s.tier("f_i_b_scattered"), Some(Tier::Scattered));
    assert_eq!(s.tier("nothing"), None);
}

#[test]
fn incremental_query_gives_the_same_results_as_a_fresh_one() {
    let names = ["main", "fib", "fibonacci", "is_even", "is_odd", "cycle_a"];
    let mut inc = search(&names);
    for q in ["i", "is", "is_", "is_e"] {
        inc.set_query(q);
    }
    let mut fresh = search(&names);
    fresh.set_query("is_e");
    assert_eq!(ranked(&inc), ranked(&fresh));
    assert_eq!(ranked(&inc), ["is_even"]);
    inc.set_query("is");
    assert_eq!(ranked(&inc), ["is_even", "is_odd"]);
}

#[test]
fn backspace_goes_back_to_the_prefix_results_and_on_again() {
    let names = ["main", "fib", "fibonacci", "is_even", "is_odd", "cycle_a"];
    let mut s = search(&names);
    for q in ["f", "fi", "fib", "fibo"] {
        s.set_query(q);
    }
    assert_eq!(s.levels.len(), 4);
    s.set_query("fib");
    assert_eq!(s.levels.len(), 3, "reused, not scanned again");
    assert_eq!(ranked(&s), ["fib", "fibonacci"]);
    s.set_query("fi");
    s.set_query("fix");
    assert_eq!(s.query(), "fix");
    assert!(s.results().is_empty());
    s.set_query("m");
    assert_eq!(ranked(&s), ["main"]);
    assert_eq!(s.levels.len(), 1);
    s.set_query("");
    assert!(s.results().is_empty() && s.levels.is_empty());
}

#[test]
fn the_order_breaks_ties_and_leaves_out_ids_not_in_it() {
    let mut s = search(&["ab", "xab", "yab", "zab"]);
    s.set_query("ab");
    assert_eq!(ranked(&s), ["ab", "xab", "yab", "zab"]);
    s.set_order(vec![3, 0, 1, 3]);
    assert_eq!(ranked(&s), ["ab", "zab", "xab"]);
}

#[test]
fn smart_case_and_highlight() {
    let mut s = search(&["Foo::bar", "foo_bar"]);
    s.set_query("Foo");
    assert_eq!(ranked(&s), ["Foo::bar"]);
    s.set_query("bar");
    assert_eq!(s.highlight("Foo::bar"), vec![5, 6, 7]);
    s.set_query("fb");
    assert_eq!(s.highlight("foo_bar"), vec![0, 4]);
}

#[test]
fn non_ascii_names_and_queries() {
    let mut s = search(&["größe", "grosse", "Ärger", "ärger"]);
    s.set_query("öß");
    assert_eq!(ranked(&s), ["größe"]);
    s.set_query("Ä");
    assert_eq!(ranked(&s), ["Ärger"]);
    s.set_query("ger");
    assert_eq!(ranked(&s), ["Ärger", "ärger"]);
}

#[test]
fn large_scans_on_several_threads_equal_the_simple_definition() {
    let names: Vec<String> = (0..150_000)
        .map(|i| format!("ns{}::W{}::f_{i}", i % 7, i % 101))
        .collect();
    // A tie-break order that is neither id order nor its reverse.
    let order: Vec<u32> = (0..names.len() as u32)
        .map(|i| (i * 7919) % 150_000)
        .collect();
    let mut s = Search::new(&names);
    s.set_order(order.clone());
    for q in ["w1", "ns3::w", "f_99", "n3w9", "W10"] {
        s.set_query(q);
        let mut expect: Vec<(Tier, u32)> = Vec::new();
        let finder = memchr::memmem::Finder::new(q.as_bytes());
        for &id in &order {
            let name = &names[id as usize];
            let hay = if q.chars().any(char::is_uppercase) {
                name.clone()
            } else {
                name.to_ascii_lowercase()
            };
            if let Some(t) = scan::tier(hay.as_bytes(), &finder) {
                expect.push((t, id));
            }
        }
        // Stable: within a tier, the given order.
        expect.sort_by_key(|&(t, _)| t);
        let got = s.results();
        assert_eq!(got.len(), expect.len(), "{q}");
        let substrings = expect
            .iter()
            .take_while(|(t, _)| *t != Tier::Scattered)
            .count();
        let expect_ids: Vec<u32> = expect.iter().map(|&(_, i)| i).collect();
        assert_eq!(got[..substrings], expect_ids[..substrings], "{q}");
        let mut a = got[substrings..].to_vec();
        let mut b = expect_ids[substrings..].to_vec();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "{q}");
    }
}

#[test]
fn a_capital_typed_later_makes_the_refinement_case_sensitive() {
    let mut s = search(&["oxbA", "oxba", "OBxA"]);
    s.set_query("ob");
    assert_eq!(s.results().len(), 3);
    s.set_query("obA");
    assert_eq!(ranked(&s), ["oxbA"]);
    s.set_query("ob");
    assert_eq!(s.results().len(), 3);
}

#[test]
fn one_letter_queries_read_the_masks_and_agree_with_the_scan() {
    let names = ["a", "xa_b", "Ab", "bab", "b-a", "9a", "a9", "A", "ba"];
    let mut s = search(&names);
    for q in ["a", "9", "b"] {
        s.set_query(q);
        let by_mask = ranked(&s).join(" ");
        // The same query as the second character of a refinement is read
        // from the names.
        let mut t = search(&names);
        t.set_query("");
        let fresh: Vec<&str> = {
            let mut found: Vec<(Tier, &str)> = names
                .iter()
                .filter_map(|n| {
                    let f = memchr::memmem::Finder::new(q.as_bytes());
                    scan::tier(n.to_ascii_lowercase().as_bytes(), &f).map(|t| (t, *n))
                })
                .collect();
            found.sort_by_key(|&(t, _)| t);
            found.into_iter().map(|(_, n)| n).collect()
        };
        assert_eq!(by_mask, fresh.join(" "), "{q}");
    }
    s.set_query("a");
    assert_eq!(ranked(&s)[..2], ["a", "A"]);
    s.set_query("ab");
    assert_eq!(ranked(&s), ["Ab", "bab", "xa_b"]);
}

#[test]
fn names_indexed_on_another_thread_are_searched_alike() {
    let names: Vec<String> = (0..50_000)
        .map(|i| format!("ns{}::fn_{i}_{}", i % 7, i * 31 % 1000))
        .collect();
    let mut here = Search::new(&names);
    let mut there = Search::in_background(Arc::new(Owned::new(&names)));
    // Set before the index is asked for: it may still be being built.
    let order: Vec<u32> = (0..names.len() as u32).rev().collect();
    here.set_order(order.clone());
    there.set_order(order);
    for query in ["fn_4", "ns3::fn_12", "f9", "zz", "NS"] {
        here.set_query(query);
        there.set_query(query);
        assert_eq!(ranked(&here), ranked(&there), "{query}");
    }
    assert_eq!(there.name(12_345), names[12_345]);
}
