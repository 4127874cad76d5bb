//! Key-sequence tests: drive the app with key strings and check the current
//! function, the history and the screen.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;

use cgtui::tui::app::{Pane, Popup, SortKey};
use cgtui::tui::views::source::{Body, Row};
use support::*;

#[test]
fn search_go_to_a_callee_and_back_and_forward() {
    let mut app = sample_app("recursion.callgrind");
    let top = current(&app);
    press(&mut app, "/fib<Enter>");
    assert_eq!(current(&app), "fib");
    assert_eq!(history(&app), [top.as_str()]);
    // Tab twice: callees of fib; the first is the recursive fib'2.
    press(&mut app, "<Tab><Tab>");
    assert_eq!(app.browse.focus, Pane::Callees);
    press(&mut app, "<Enter>");
    assert_eq!(current(&app), "fib'2");
    assert_eq!(history(&app), [top.as_str(), "fib"]);
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("fib › fib'2"), "{screen}");
    assert!(screen.contains("↻ recursive"), "{screen}");
    press(&mut app, "<BS>");
    assert_eq!(current(&app), "fib");
    press(&mut app, "l");
    assert_eq!(current(&app), "fib'2");
    press(&mut app, "hh");
    assert_eq!(current(&app), top);
    assert!(app.back.is_empty());
}

#[test]
fn the_example_sequence_from_the_issue() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/fib<Enter><Tab>j<Enter><BS>");
    // Callers of fib: only main; j stays on it; Enter goes there; BS back.
    assert_eq!(current(&app), "fib");
    assert_eq!(app.forward.len(), 1);
    assert_eq!(app.profile.fn_name(app.forward[0].func), "main");
    assert_eq!(app.browse.focus, Pane::Callers);
}

#[test]
fn search_ranks_substrings_first_and_n_steps_through_results() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/cycle_");
    assert!(matches!(app.popup, Some(Popup::Search(_))));
    let names: Vec<String> = app
        .search
        .results()
        .iter()
        .map(|&i| app.search.name(i))
        .take(3)
        .collect();
    assert!(names.iter().all(|n| n.starts_with("cycle_")), "{names:?}");
    press(&mut app, "<Esc>");
    assert!(app.popup.is_none());
    press(&mut app, "/cycle_<Down><Enter>");
    let second = current(&app);
    press(&mut app, "n");
    assert_ne!(current(&app), second);
    press(&mut app, "N");
    assert_eq!(current(&app), second);
    // Typing q in the prompt types it; it does not quit.
    press(&mut app, "/q");
    assert!(!app.quit);
    assert_eq!(app.search.query(), "q");
    press(&mut app, "<Esc>q");
    assert!(app.quit);
}

#[test]
fn cycles_are_marked_in_the_list() {
    let mut app = sample_app("recursion-separate-recs1.callgrind");
    press(&mut app, "/cycle_a<Enter>");
    let screen = text(&render(&mut app, 120, 40));
    assert!(screen.contains("cycle_a <cycle 2>"), "{screen}");
    assert!(app.analysis.cycle_of(app.current.unwrap()).is_some());
    // The call to cycle_b stays inside the cycle: marked recursive.
    assert!(screen.contains("cycle_b <cycle 2> ↻ recursive"), "{screen}");
}

#[test]
fn sort_keys_event_and_percent() {
    let mut app = sample_app("cachesim.callgrind");
    press(&mut app, "S");
    assert_eq!(app.browse.sort, SortKey::SelfCost);
    let selfs: Vec<i64> = app
        .browse
        .order
        .iter()
        .map(|&f| app.analysis.self_cost(f)[0])
        .collect();
    assert!(selfs.windows(2).all(|w| w[0] >= w[1]));
    press(&mut app, "a");
    assert_eq!(app.browse.sort, SortKey::Name);
    press(&mut app, "c");
    assert_eq!(app.browse.sort, SortKey::Calls);
    press(&mut app, "i");
    assert_eq!(app.browse.sort, SortKey::Inclusive);
    press(&mut app, "e");
    assert_eq!(app.event, 1);
    press(&mut app, "E");
    assert_eq!(app.event, 0);
    press(&mut app, "%");
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("100.00%"), "{screen}");
}

#[test]
fn parts_switch_off_and_costs_follow() {
    let mut app = sample_app("threads/callgrind.out.1000");
    assert!(app.profile.parts.len() > 1);
    let before = app.analysis.totals[0];
    press(&mut app, "p<Space>");
    assert!(!app.analysis.parts[0]);
    assert_ne!(app.analysis.totals[0], before);
    press(&mut app, "a");
    assert_eq!(app.analysis.totals[0], before);
    press(&mut app, "<Esc>");
    assert!(app.popup.is_none());
}

#[test]
fn source_view_opens_at_the_hottest_line_and_walks_hot_lines() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/fib'2<Enter>s");
    let view = app.source().unwrap();
    assert!(matches!(view.body, Body::Text(_)), "{:?}", view.body);
    let hottest = view.scroll.selected;
    let cost = |app: &cgtui::tui::App, i: usize| {
        let v = app.source().unwrap();
        v.row_cost(&v.rows[i], 0).unwrap_or(0)
    };
    let max = (0..view.rows.len())
        .filter(|&i| matches!(view.rows[i], Row::Line { .. }))
        .map(|i| cost(&app, i))
        .max()
        .unwrap();
    assert_eq!(cost(&app, hottest), max);
    press(&mut app, "g]");
    let first_hot = app.source().unwrap().scroll.selected;
    assert!(cost(&app, first_hot) > 0);
    press(&mut app, "]");
    assert!(app.source().unwrap().scroll.selected > first_hot);
    press(&mut app, "[");
    assert_eq!(app.source().unwrap().scroll.selected, first_hot);
    // Follow the recursive call line to fib'2 itself.
    let call = app
        .source()
        .unwrap()
        .rows
        .iter()
        .position(|r| matches!(r, Row::Call(_)))
        .unwrap();
    press(&mut app, "g");
    for _ in 0..call {
        press(&mut app, "j");
    }
    press(&mut app, "<Enter>");
    assert_eq!(current(&app), "fib'2");
    press(&mut app, "<Esc>");
    assert!(app.source().is_none());
}

#[test]
fn missing_source_names_the_path_and_still_lists_costs() {
    let mut app = text_app(
        "events: Ir\nfl=/nowhere/src/gone.c\nfn=work\n3 100\n7 50\ncfn=leaf\ncalls=2 1\n7 30\nfn=leaf\n1 30\n",
    );
    press(&mut app, "/work<Enter>s");
    let screen = text(&render(&mut app, 100, 24));
    assert!(
        screen.contains("source file /nowhere/src/gone.c not found (searched: ."),
        "{screen}"
    );
    assert!(screen.contains("100"), "{screen}");
    assert!(screen.contains("=> leaf (2×) 30"), "{screen}");
}

#[test]
fn instruction_only_profiles_show_costs_per_address() {
    let mut app = text_app("events: Ir\npositions: instr\nfl=a.c\nfn=main\n0x1000 5\n+4 7\n");
    press(&mut app, "s");
    let view = app.source().unwrap();
    assert_eq!(view.body, Body::Addresses);
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("0x00001004"), "{screen}");
    assert!(screen.contains("only instruction addresses"), "{screen}");
}

#[test]
fn help_lists_every_binding_and_closes() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "?");
    let screen = text(&render(&mut app, 120, 40));
    assert!(screen.contains("fuzzy search over all function names"));
    press(&mut app, "<PgDn><PgDn>");
    let screen = text(&render(&mut app, 120, 40));
    assert!(
        ["Assembly view", "Search prompt", "Parts popup"]
            .iter()
            .any(|t| screen.contains(t)),
        "{screen}"
    );
    press(&mut app, "<Esc>");
    assert!(app.popup.is_none());
}

#[test]
fn names_with_control_characters_cannot_garble_the_screen() {
    let mut app = text_app("events: Ir\nfl=a.c\nfn=evil\u{1b}[2Jname\n1 5\n");
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("evil\\e[2Jname"), "{screen}");
    assert!(!screen.contains('\u{1b}'));
}

#[test]
fn a_tiny_terminal_does_not_panic() {
    let mut app = sample_app("recursion.callgrind");
    for (w, h) in [(1, 1), (10, 3), (20, 5), (0, 0)] {
        render(&mut app, w.max(1), h.max(1));
        press(&mut app, "jjk/f<Enter>s]?<Esc>p<Esc>");
    }
}

/// Scattered matches whose letters lie far apart wait behind a line of
/// their own (issue 40: `/most` gave 132 matches on a Python profile);
/// Enter on that line lists them, and they are found as any other.
#[test]
fn weak_search_matches_wait_behind_a_line() {
    let mut app = text_app(
        "events: Ir\nfn=almost\n1 30\nfn=m_o_s_t\n1 20\nfn=mat_row_sort_apply_filter_tail\n1 10\nfn=main\n1 5\n",
    );
    press(&mut app, "/most");
    for (w, h) in [(80, 24), (40, 10)] {
        let screen = text(&render(&mut app, w, h));
        insta::assert_snapshot!(format!("weak_matches_{w}x{h}"), screen);
    }
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("3 matches"), "{screen}");
    assert!(screen.contains("1 weaker matches"), "{screen}");
    assert!(!screen.contains("mat_row_sort"), "{screen}");
    // The line is the third row: Enter on it lists the weak match.
    press(&mut app, "<Down><Down><Enter>");
    let screen = text(&render(&mut app, 80, 24));
    assert!(
        screen.contains("mat_row_sort_apply_filter_tail"),
        "{screen}"
    );
    assert!(!screen.contains("weaker matches"), "{screen}");
    press(&mut app, "<Enter>");
    assert_eq!(current(&app), "mat_row_sort_apply_filter_tail");
    // n steps through the matches as listed: the strong ones only.
    press(&mut app, "/most<Enter>");
    assert_eq!(current(&app), "almost");
    press(&mut app, "nn");
    assert_eq!(current(&app), "almost");
}

/// Rows whose names would read the same once cut are cut where they
/// differ instead (issue 40: `bool std::has_facet<std::n…ocale const&)`
/// twice with the same numbers).
#[test]
fn rows_that_would_read_the_same_are_told_apart() {
    let put = "bool std::has_facet<std::num_put<char, std::ostreambuf_iterator<char, std::char_traits<char> > > >(std::locale const&)";
    let get = "bool std::has_facet<std::num_get<char, std::istreambuf_iterator<char, std::char_traits<char> > > >(std::locale const&)";
    let mut app = text_app(&format!(
        "events: Ir\nfn=main\n1 5\ncfn={put}\ncalls=1 0\n1 40\ncfn={get}\ncalls=1 0\n1 40\nfn={put}\n1 40\nfn={get}\n1 40\n"
    ));
    for (w, h) in [(80, 24), (40, 10), (250, 70)] {
        let buf = render(&mut app, w, h);
        let screen = text(&buf);
        let rows: Vec<String> = (0..h)
            .map(|y| row(&buf, y))
            .filter(|r| r.contains("has_facet") || r.contains('…'))
            .collect();
        let put_rows = rows.iter().filter(|r| r.contains("_put")).count();
        let get_rows = rows.iter().filter(|r| r.contains("_get")).count();
        // The list and the callees pane each show both, told apart.
        let both = if w == 40 { 1 } else { 2 };
        assert!(put_rows >= both && get_rows >= both, "{w}x{h}\n{screen}");
    }
    insta::assert_snapshot!("told_apart_80x24", text(&render(&mut app, 80, 24)));
}
