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
        let mut app = comparison_app("diff-branches-64.callgrind", "diff-branches-O2.callgrind");
        press(&mut app, "o");
        let screen = text(&render(&mut app, w, h));
        insta::assert_snapshot!(format!("comparison_objects_{w}x{h}"), screen);
    }
}

fn names(app: &cgtui::tui::App) -> Vec<String> {
    app.browse
        .order
        .iter()
        .map(|&f| app.name(f).into_owned())
        .collect()
}

#[test]
fn a_group_filters_the_list_and_the_search_and_esc_clears_it() {
    let mut app = sample_app("cpp-names.callgrind");
    let all = app.browse.order.len();
    press(&mut app, "o<Tab><Tab>");
    assert_eq!(app.groups.by.label(), "class");
    let i = app
        .groups
        .list
        .iter()
        .position(|g| g.name == "std::vector<int, std::allocator<int> >")
        .unwrap();
    let members = app.groups.list[i].functions.len();
    for _ in 0..i {
        press(&mut app, "j");
    }
    press(&mut app, "<Enter>");
    assert!(app.popup.is_none());
    assert_eq!(app.browse.order.len(), members);
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
    let kept: Vec<u32> = app.browse.order.iter().map(|f| f.0).collect();
    assert!(app.search.results().iter().all(|r| kept.contains(r)));
    assert!(
        app.search.results().len() < members,
        "main itself is not a member"
    );
    press(&mut app, "<Esc><Esc>");
    assert!(app.filter.is_none());
    assert_eq!(app.browse.order.len(), all);
    // Enter in the prompt of `/` still goes to a function.
    press(&mut app, "/main<Enter>");
    assert_eq!(current(&app), "main");
}

#[test]
fn f_filters_by_text_regex_exclusion_and_threshold() {
    let mut app = sample_app("cpp-names.callgrind");
    let all = app.browse.order.len();
    press(&mut app, "Fpush_back<Enter>");
    assert!(
        names(&app).iter().all(|n| n.contains("push_back")),
        "{:?}",
        names(&app)
    );
    assert!(!app.browse.order.is_empty());
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
    assert!(app.browse.order.len() < all);
    press(&mut app, "<Esc>F>5%<Enter>");
    let total = app.analysis.totals[0];
    for &f in app.browse.order.iter() {
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
    let view = app.tree().expect("the call tree is open");
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
    let all = app.browse.order.len();
    press(&mut app, "Fvector<Enter>");
    assert!(app.browse.order.len() < all);
    press(&mut app, "o<Tab><Tab><Tab><Tab>");
    assert_eq!(app.groups.by.label(), "none");
    assert_eq!(app.groups.list.len(), 1);
    assert_eq!(app.groups.list[0].inclusive[0], app.analysis.totals[0]);
    press(&mut app, "<Enter>");
    assert!(app.filter.is_none());
    assert_eq!(app.browse.order.len(), all);
}

/// A threshold filter takes a number from 0 to 100, as `--threshold`
/// does: `>nan%` (which kept nothing and said "at least NaN%"), an
/// infinity, a negative number or one over 100 is refused with the rule,
/// and the list stays as it was.
#[test]
fn a_threshold_filter_refuses_what_is_not_a_percentage() {
    let mut app = sample_app("cpp-names.callgrind");
    let all = app.browse.order.len();
    for bad in ["nan", "NaN", "inf", "-inf", "-1", "101", "1e999", "x"] {
        press(&mut app, &format!("<Esc>F>{bad}%<Enter>"));
        assert!(app.filter.is_none(), ">{bad}%");
        assert_eq!(app.browse.order.len(), all, ">{bad}%");
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

/// The popup's header row (the row under its title) and its rows, read
/// from the screen.
fn popup_rows(buf: &ratatui::buffer::Buffer) -> Vec<String> {
    let screen = text(buf);
    screen
        .lines()
        .skip_while(|l| !l.contains("Groups by"))
        .skip(1)
        .take_while(|l| !l.contains('└'))
        .map(|l| l.split('│').nth(1).unwrap_or("").to_string())
        .collect()
}

/// A group's self and inclusive cost, functions and shown name.
type Row = (i64, i64, usize, String);

/// Whether rows are in some order.
type Sorted = fn(&[Row]) -> bool;

fn at(app: &cgtui::tui::App, i: usize) -> Row {
    let g = &app.groups.list[i];
    (
        g.self_cost[0],
        g.inclusive[0],
        g.functions.len(),
        g.short.clone(),
    )
}

/// "Which library costs most": the groups by self cost, the largest
/// first; the popup's own keys sort the groups (again: reversed) and mark
/// the header, while the list behind keeps its order and its sort.
#[test]
fn groups_sort_by_self_cost_and_their_keys_leave_the_list_alone() {
    let mut app = sample_app("cpp-names.callgrind");
    let (order, sort) = (app.browse.order.clone(), app.browse.sort);
    press(&mut app, "o");
    let n = app.groups.list.len();
    assert!(n >= 5, "cpp-names has several objects");
    let self_costs: Vec<i64> = (0..n).map(|i| at(&app, i).0).collect();
    assert!(self_costs.is_sorted_by(|a, b| a >= b), "{self_costs:?}");
    // ld.so does most of this small program's work by itself.
    assert_eq!(app.groups.list[0].short, "ld-linux-x86-64.so.2");
    let header = &popup_rows(&render(&mut app, 80, 24))[0];
    assert!(header.contains("Self▼"), "{header}");
    assert!(!header.contains("Incl▼"), "{header}");

    let keys: [(&str, &str, Sorted); 6] = [
        ("S", "Self▲", |v| v.is_sorted_by(|a, b| a.0 <= b.0)),
        ("i", "Incl▼", |v| v.is_sorted_by(|a, b| a.1 >= b.1)),
        ("i", "Incl▲", |v| v.is_sorted_by(|a, b| a.1 <= b.1)),
        ("c", "Functions▼", |v| v.is_sorted_by(|a, b| a.2 >= b.2)),
        ("a", "object▼", |v| v.is_sorted_by(|a, b| a.3 <= b.3)),
        ("a", "object▲", |v| v.is_sorted_by(|a, b| a.3 >= b.3)),
    ];
    for (key, mark, sorted) in keys {
        press(&mut app, key);
        assert!(matches!(app.popup, Some(cgtui::tui::app::Popup::Groups(_))));
        let rows: Vec<_> = (0..n).map(|i| at(&app, i)).collect();
        assert!(sorted(&rows), "{key}: {rows:?}");
        let buf = render(&mut app, 80, 24);
        let header = &popup_rows(&buf)[0];
        assert!(header.contains(mark), "{key}: {header}");
        // The list behind: the same order, the same header.
        assert_eq!(app.browse.order, order, "{key}");
        assert_eq!(app.browse.sort, sort, "{key}");
        assert!(row(&buf, 2).contains("Incl▼"), "{}", row(&buf, 2));
    }
    // Closed, the list's keys sort the list again.
    press(&mut app, "<Esc>S");
    assert_ne!(app.browse.sort, sort);
    // In ASCII the marks are v and ^, as the list's.
    let mut app = sample_app("cpp-names.callgrind");
    app.theme.ascii = true;
    press(&mut app, "oS");
    let buf = render(&mut app, 80, 24);
    let header = text(&buf)
        .lines()
        .find(|l| l.contains("Functions"))
        .unwrap()
        .to_string();
    assert!(header.contains("Self^"), "{header}");
}

/// Objects by their file name, not their path cut in the middle; the
/// selected group's whole path on the popup's details line.
#[test]
fn groups_show_short_names_and_the_selected_ones_path() {
    let mut app = sample_app("cpp-names.callgrind");
    press(&mut app, "o");
    let i = app
        .groups
        .list
        .iter()
        .position(|g| g.name.ends_with("/libstdc++.so.6.0.30"))
        .unwrap();
    for _ in 0..i {
        press(&mut app, "j");
    }
    let rows = popup_rows(&render(&mut app, 80, 24));
    let names: Vec<&str> = rows[1..rows.len() - 2]
        .iter()
        .map(|r| r.split_whitespace().last().unwrap())
        .collect();
    for name in [
        "libstdc++.so.6.0.30",
        "libc.so.6",
        "ld-linux-x86-64.so.2",
        "cpp_names",
    ] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
    assert!(rows.iter().all(|r| !r.contains('…')), "{rows:?}");
    let details = rows[rows.len() - 2].trim();
    assert_eq!(details, app.groups.list[i].name);
    assert!(details.starts_with('/') && details.len() > "libstdc++.so.6.0.30".len());
    // Files: two `string.h`-like names keep as much path as tells them
    // apart; every shown name differs.
    press(&mut app, "<Tab>");
    let mut shown: Vec<&str> = app.groups.list.iter().map(|g| g.short.as_str()).collect();
    shown.sort_unstable();
    let before = shown.len();
    shown.dedup();
    assert_eq!(shown.len(), before, "{shown:?}");
}

/// A name from the profile reaches the popup escaped, on its row and on
/// the details line.
#[test]
fn group_names_are_escaped() {
    let mut app = text_app(
        "events: Ir\nob=/lib/ev\u{1b}]52;c;aGk=\u{7}il.so\nfn=main\n1 10\nob=/lib/b.so\nfn=f\n1 5\n",
    );
    press(&mut app, "o");
    let screen = text(&render(&mut app, 80, 24));
    assert!(
        !screen.contains('\u{1b}') && !screen.contains('\u{7}'),
        "{screen}"
    );
    let shown = cgtui::format::printable("/lib/ev\u{1b}]52;c;aGk=\u{7}il.so").into_owned();
    assert_ne!(shown, "/lib/ev\u{1b}]52;c;aGk=\u{7}il.so");
    assert!(screen.contains(&shown), "details line\n{screen}");
    let short = shown.trim_start_matches("/lib/");
    assert!(
        screen
            .lines()
            .any(|l| l.contains(short) && !l.contains("/lib/")),
        "row\n{screen}"
    );
}

/// In a comparison each group shows its cost in the base, in the new
/// profile, and the change: the groups partition both sides, so their
/// columns sum to each side's total (the header's 543,386 -> 326,537),
/// and libc's own cost is the sum of its functions' in each profile.
#[test]
fn groups_of_a_comparison_show_both_sides_and_the_change() {
    let (o0, o2) = ("diff-branches-64.callgrind", "diff-branches-O2.callgrind");
    let mut app = comparison_app(o0, o2);
    press(&mut app, "o");
    let buf = render(&mut app, 120, 40);
    let rows = popup_rows(&buf);
    for cell in ["Base", "New", "Change▼", "%base"] {
        assert!(rows[0].contains(cell), "{}", rows[0]);
    }
    let n = app.groups.list.len();
    let sides: Vec<(i64, i64)> = (0..n).map(|i| app.group_sides(i, false).unwrap()).collect();
    let sum = |f: fn(&(i64, i64)) -> i64| sides.iter().map(f).sum::<i64>();
    assert_eq!((sum(|s| s.0), sum(|s| s.1)), (543_386, 326_537));
    let changes: Vec<i64> = sides.iter().map(|(b, n)| (n - b).abs()).collect();
    assert!(changes.is_sorted_by(|a, b| a >= b), "{changes:?}");
    // libc.so.6 in each profile loaded alone.
    let libc = |name: &str| {
        let p = cgtui::parse::load_paths(&[sample(name)], Default::default()).unwrap();
        let a = cgtui::analysis::Analysis::new(&p);
        (0..p.functions.len())
            .map(cgtui::profile::FnId::from_index)
            .filter(|&f| p.fn_object(f).ends_with("/libc.so.6"))
            .map(|f| a.self_cost(f)[0])
            .sum::<i64>()
    };
    let (b, n) = (libc(o0), libc(o2));
    let line = rows
        .iter()
        .find(|r| r.trim_end().ends_with(" libc.so.6"))
        .unwrap();
    let cells: Vec<&str> = line.split_whitespace().collect();
    let thousands = cgtui::format::thousands;
    assert_eq!(
        cells[..3],
        [thousands(b), thousands(n), format!("{:+}", n - b)],
        "{line}"
    );
    // Sorted by inclusive cost, the columns are inclusive and say so.
    press(&mut app, "i");
    let rows = popup_rows(&render(&mut app, 120, 40));
    assert!(rows.last().unwrap().contains("inclusive cost"), "{rows:?}");
    assert_eq!(app.group_sides(0, true).unwrap(), (543_386, 326_537));
}

/// The popup's keys are in the help and its status line, both made from
/// the keymap.
#[test]
fn the_groups_sort_keys_are_in_the_help_and_the_hints() {
    let mut app = sample_app("cpp-names.callgrind");
    press(&mut app, "o");
    let buf = render(&mut app, 120, 40);
    let status = row(&buf, 39);
    for hint in ["S self", "i incl", "a name"] {
        assert!(status.contains(hint), "{status}");
    }
    let help = cgtui::tui::keymap::help_lines(false);
    let groups = help
        .iter()
        .skip_while(|l| l.0 != Some("Groups popup"))
        .take_while(|l| l.0.is_none() || l.0 == Some("Groups popup"))
        .map(|l| format!("{} {}", l.1, l.2))
        .collect::<Vec<_>>();
    for key in [
        "S sort the groups by self",
        "i sort the groups by inclusive",
        "c sort the groups by their number",
        "a sort the groups by name",
    ] {
        assert!(
            groups.iter().any(|l| l.starts_with(key)),
            "{key}: {groups:?}"
        );
    }
}
