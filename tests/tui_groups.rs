//! The groups popup (`o`) and the list's filter (`F`): snapshots, and key
//! sequences that group, filter, search within the filter and clear it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;

use support::*;

#[test]
fn groups_popup_snapshots() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = sample_app("cpp-names.callgrind");
        press(&mut app, "o");
        insta::assert_snapshot!(format!("objects_{w}x{h}"), text(&render(&mut app, w, h)));
        press(&mut app, "<Tab><Tab>");
        insta::assert_snapshot!(format!("classes_{w}x{h}"), text(&render(&mut app, w, h)));
    }
}

fn names(app: &cgtui::tui::App) -> Vec<String> {
    app.order
        .iter()
        .map(|&f| app.name(f).into_owned())
        .collect()
}

#[test]
fn a_group_filters_the_list_and_the_search_and_esc_clears_it() {
    let mut app = sample_app("cpp-names.callgrind");
    let all = app.order.len();
    press(&mut app, "o<Tab><Tab>");
    assert_eq!(app.grouping.label(), "class");
    let i = app
        .groups
        .iter()
        .position(|g| g.name == "std::vector<int, std::allocator<int> >")
        .unwrap();
    let members = app.groups[i].functions.len();
    for _ in 0..i {
        press(&mut app, "j");
    }
    press(&mut app, "<Enter>");
    assert!(app.popup.is_none());
    assert_eq!(app.order.len(), members);
    assert!(
        names(&app)
            .iter()
            .all(|n| n.contains("std::vector<int, std::allocator<int> >::"))
    );
    let screen = text(&render(&mut app, 120, 40));
    assert!(
        screen.contains("only those of class std::vector<int"),
        "{screen}"
    );
    // The search finds only the group's functions.
    press(&mut app, "/main");
    let kept: Vec<u32> = app.order.iter().map(|f| f.0).collect();
    assert!(app.search.results().iter().all(|r| kept.contains(r)));
    assert!(
        app.search.results().len() < members,
        "main itself is not a member"
    );
    press(&mut app, "<Esc><Esc>");
    assert!(app.filter.is_none());
    assert_eq!(app.order.len(), all);
    // Enter in the prompt of `/` still goes to a function.
    press(&mut app, "/main<Enter>");
    assert_eq!(current(&app), "main");
}

#[test]
fn f_filters_by_text_regex_exclusion_and_threshold() {
    let mut app = sample_app("cpp-names.callgrind");
    let all = app.order.len();
    press(&mut app, "Fpush_back<Enter>");
    assert!(
        names(&app).iter().all(|n| n.contains("push_back")),
        "{:?}",
        names(&app)
    );
    assert!(!app.order.is_empty());
    press(&mut app, "<Esc>Fre:^std::(map|pair)<<Enter>");
    let picked = names(&app);
    assert!(!picked.is_empty());
    assert!(
        picked
            .iter()
            .all(|n| n.starts_with("std::map<") || n.starts_with("std::pair<")),
        "{picked:?}"
    );
    press(&mut app, "<Esc>F!std::<Enter>");
    assert!(names(&app).iter().all(|n| !n.contains("std::")));
    assert!(app.order.len() < all);
    press(&mut app, "<Esc>F>5%<Enter>");
    let total = app.analysis.totals[0];
    for &f in app.order.iter() {
        assert!(
            app.analysis.inclusive(f)[0] * 20 >= total,
            "{}",
            app.name(f)
        );
    }
    press(&mut app, "<Esc>Fre:(<Enter>");
    assert!(
        app.message
            .as_deref()
            .unwrap()
            .contains("not a regular expression")
    );
}

#[test]
fn the_trees_show_the_filters_functions_and_the_paths_to_them() {
    let mut app = sample_app("cpp-names.callgrind");
    press(&mut app, "Fpush_back<Enter>t*");
    let view = app.tree.as_ref().expect("the call tree is open");
    assert!(view.tree.node(0).func.is_none(), "the whole program's tree");
    assert!(view.rows.len() > 1, "push_back is reached from the roots");
    let t = &view.tree;
    for &n in &view.rows[1..] {
        // Every row is push_back or has push_back below it.
        let mut below = vec![n];
        let mut found = false;
        while let Some(m) = below.pop() {
            let name = app.profile.fn_name(t.node(m).func.unwrap());
            found |= name.contains("push_back");
            below.extend(t.children_of(m));
        }
        assert!(found, "{}", app.profile.fn_name(t.node(n).func.unwrap()));
    }
    let screen = text(&render(&mut app, 120, 40));
    assert!(screen.contains("push_back"), "{screen}");
}

#[test]
fn no_grouping_is_one_group_and_enter_on_it_lists_every_function() {
    let mut app = sample_app("cpp-names.callgrind");
    let all = app.order.len();
    press(&mut app, "Fvector<Enter>");
    assert!(app.order.len() < all);
    press(&mut app, "o<Tab><Tab><Tab><Tab>");
    assert_eq!(app.grouping.label(), "none");
    assert_eq!(app.groups.len(), 1);
    assert_eq!(app.groups[0].inclusive[0], app.analysis.totals[0]);
    press(&mut app, "<Enter>");
    assert!(app.filter.is_none());
    assert_eq!(app.order.len(), all);
}

/// A threshold filter takes a number from 0 to 100, as `--threshold`
/// does: `>nan%` (which kept nothing and said "at least NaN%"), an
/// infinity, a negative number or one over 100 is refused with the rule,
/// and the list stays as it was.
#[test]
fn a_threshold_filter_refuses_what_is_not_a_percentage() {
    let mut app = sample_app("cpp-names.callgrind");
    let all = app.order.len();
    for bad in ["nan", "NaN", "inf", "-inf", "-1", "101", "1e999", "x"] {
        press(&mut app, &format!("<Esc>F>{bad}%<Enter>"));
        assert!(app.filter.is_none(), ">{bad}%");
        assert_eq!(app.order.len(), all, ">{bad}%");
        assert_eq!(
            app.message.as_deref(),
            Some("a threshold is >N% (N from 0 to 100)"),
            ">{bad}%"
        );
    }
    press(&mut app, "<Esc>F>100%<Enter>");
    assert!(app.filter.is_some());
    press(&mut app, "<Esc>F>0%<Enter>");
    assert_eq!(
        app.filter.as_ref().unwrap().count(),
        app.profile.functions.len()
    );
}
