//! The browser on a comparison (`cgtui --base OLD NEW`): snapshots at
//! 80x24 and 120x40 of the pairs samples/regenerate.sh makes, the biggest
//! change first at every size, and the source view's changes per line
//! (the trees and the flame graph: `tui_diff_trees.rs`). Expected numbers
//! are the differences of each side's own `cgtui report` (tests/diff.rs checks
//! those against cg_diff and against each side).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;

use cgtui::analysis::diff::Side;
use support::*;

const O0: &str = "diff-branches-64.callgrind";
const O2: &str = "diff-branches-O2.callgrind";

#[test]
fn comparison_snapshots() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = comparison_app(O0, O2);
        let screen = text(&render(&mut app, w, h));
        insta::assert_snapshot!(format!("list_{w}x{h}"), screen);
        // It opens on main, whose own cost changed most.
        assert_eq!(current(&app), "main");
        press(&mut app, "s");
        let screen = text(&render(&mut app, w, h));
        insta::assert_snapshot!(format!("source_{w}x{h}"), screen);
    }
}

/// The first row at every size, and the current function, is the
/// biggest change of self cost: main's own, 86,044 -> 18,064 = -67,980
/// instructions, as `cgtui report --base` lists; not the wrappers above
/// main, whose change of inclusive cost (-216,849) is main's and its
/// callees' and would tie.
#[test]
fn the_biggest_change_of_self_cost_comes_first_at_every_size() {
    for (w, h) in [(80, 24), (120, 40), (250, 70), (40, 10)] {
        let mut app = comparison_app(O0, O2);
        assert_eq!(current(&app), "main");
        let buf = render(&mut app, w, h);
        // The row under the list's header (at 40x10 there is no title).
        let header = (0..h).find(|&y| row(&buf, y).contains("Change▼")).unwrap();
        let first = row(&buf, header + 1);
        for cell in ["-67,980", "main"] {
            assert!(first.contains(cell), "{w}x{h}: {first}");
        }
        let screen = text(&buf);
        assert!(screen.contains('→'), "{w}x{h}: both runs named\n{screen}");
    }
    let mut app = comparison_app(O0, O2);
    let buf = render(&mut app, 120, 40);
    for cell in ["86,044", "18,064", "-67,980", "main"] {
        assert!(row(&buf, 3).contains(cell), "{}", row(&buf, 3));
    }
    // No function's self cost changed more (each side's own costs).
    let j = app.diff.clone().unwrap();
    let c = &j.comparison;
    let biggest = (0..c.pairs.len())
        .map(|p| {
            let side = |a, s| c.self_cost(a, s, p, 0);
            (side(&j.new_analysis, Side::New) - side(&j.base_analysis, Side::Base)).abs()
        })
        .max()
        .unwrap();
    assert_eq!(biggest, 67_980);
    // Sorted by inclusive cost (`i`): the whole run, -216,849, first.
    press(&mut app, "i");
    let first = row(&render(&mut app, 120, 40), 3);
    assert!(first.contains("-216,849"), "{first}");
}

#[test]
fn functions_of_one_side_are_marked() {
    let mut app = comparison_app(O0, O2);
    let screen = text(&render(&mut app, 120, 70));
    let line = |name: &str| {
        screen
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} listed\n{screen}"))
            .to_string()
    };
    // count_big is inlined as count_big.constprop.0 at -O2.
    assert!(
        line("count_big.constprop.0").contains("count_big.constprop.0 new "),
        "{screen}"
    );
    assert!(
        line("count_big ").contains("gone") || screen.contains("count_big gone"),
        "{screen}"
    );
}

#[test]
fn the_source_view_goes_to_the_biggest_change_of_a_line() {
    let mut app = comparison_app(O0, O2);
    press(&mut app, "/main<Enter>s");
    let view = app.source().expect("the source view is open");
    let row = &view.rows[view.scroll.selected];
    // Line 65 (`matrix[i][j] = i * N + j;`) cost 52,029 fewer instructions.
    let cgtui::tui::views::source::Row::Line { line, .. } = row else {
        panic!("a line is selected: {row:?}");
    };
    assert_eq!(*line, 65);
    let screen = text(&render(&mut app, 120, 40));
    assert!(screen.contains("-52,029"), "{screen}");
}

#[test]
fn a_profile_compared_with_itself_shows_no_change() {
    let mut app = comparison_app("cpp-names.callgrind", "cpp-names.callgrind");
    let screen = text(&render(&mut app, 120, 40));
    let rows: Vec<&str> = screen.lines().skip(3).take(10).collect();
    for r in rows {
        let cells: Vec<&str> = r.split_whitespace().collect();
        assert_eq!(
            (cells[0], cells[2], cells[3]),
            (cells[1], "0", "0.00%"),
            "{r}"
        );
    }
}

/// Parts select the new side's parts; the base stays whole. A set of
/// dumps compared with itself changes by minus the parts switched off.
#[test]
fn parts_select_the_new_sides_parts() {
    let mut app = comparison_app("dumps/callgrind.out.1000", "dumps/callgrind.out.1000");
    assert!(app.profile.parts.len() > 1);
    assert_eq!(app.analysis.totals[0], 0);
    let part_total = |app: &cgtui::tui::App, i: usize| -> i64 {
        let j = app.diff.as_ref().unwrap();
        let only: Vec<bool> = (0..app.profile.parts.len()).map(|k| k == i).collect();
        cgtui::analysis::Analysis::with_parts(&j.base, &only).totals[0]
    };
    let first = part_total(&app, 0);
    press(&mut app, "p<Space><Esc>");
    assert_eq!(app.analysis.totals[0], -first);
    press(&mut app, "pa<Esc>");
    assert_eq!(app.analysis.totals[0], 0);
}

#[test]
fn events_of_one_profile_are_left_out_and_e_skips_them() {
    // cachesim has Ir, Dr, Dw and cache and branch events; recursion Ir only.
    let mut app = comparison_app("recursion.callgrind", "cachesim.callgrind");
    let name = |app: &cgtui::tui::App| app.profile.events.events[app.event].name.clone();
    assert_eq!(name(&app), "Ir");
    press(&mut app, "e");
    assert_eq!(name(&app), "Ir", "Ir is the only event both have");
    let screen = text(&render(&mut app, 250, 70));
    assert!(screen.contains("Dr (new profile only)"), "{screen}");
}

/// The comparison of two profiles given as text.
fn text_comparison(base: &str, new: &str) -> cgtui::tui::App {
    use cgtui::parse::load_reader;
    let mut app = cgtui::tui::App::comparing(
        load_reader("new.callgrind", new.as_bytes()).unwrap(),
        load_reader("base.callgrind", base.as_bytes()).unwrap(),
        &cgtui::analysis::diff::MatchOptions::default(),
        cgtui::tui::Theme::plain_colors(),
        cgtui::locate::Locator::default(),
    );
    app.resize(80, 24);
    app
}

/// A change needs 65 bits where a cost has 64: from -9e18 (as `cg_diff`
/// writes costs) to +9e18 the list showed `+9,223,372,036,854,775,807`
/// and `-102.48%` as if real. It now shows the exact change and share from
/// both sides; the calls pane, which has only the 64-bit change, writes it
/// as a bound; and a warning (printed before the screen opens, and under
/// `w`) says which event's changes reached the limit.
#[test]
fn a_change_beyond_64_bits_is_exact_in_the_list_and_a_bound_elsewhere() {
    // main calls f, which costs it all: each side's total fits.
    let profile = |f: &str| {
        format!("events: Ir\nfl=a.c\nfn=main\n1 0\ncfn=f\ncalls=1 5\n2 {f}\nfn=f\n5 {f}\n")
    };
    let mut app = text_comparison(
        &profile("-9000000000000000000"),
        &profile("9000000000000000000"),
    );
    // Inclusive costs: main's change is f's (it opens by self cost).
    press(&mut app, "i");
    let screen = text(&render(&mut app, 250, 30));
    // A list row: base, new, change, %base, then the function's name.
    let row = |name: &str| -> Vec<String> {
        screen
            .lines()
            .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
            .find(|words| words.get(4).is_some_and(|w| w == name))
            .unwrap_or_else(|| panic!("{name} listed\n{screen}"))[..4]
            .to_vec()
    };
    let main = row("main");
    assert_eq!(
        main[..4],
        [
            "-9,000,000,000,000,000,000",
            "9,000,000,000,000,000,000",
            "+18,000,000,000,000,000,000",
            "-200.00%"
        ],
        "{screen}"
    );
    assert_eq!(main, row("f"), "{screen}");
    // The header: both totals, and the share of the exact change.
    assert!(
        screen.contains("Ir -9,000,000,000,000,000,000→9,000,000,000,000,000,000 (-200.00%)"),
        "{screen}"
    );
    assert!(!screen.contains("102.48"), "{screen}");
    let warning = app
        .profile
        .diagnostics
        .iter()
        .find(|d| {
            d.message
                .starts_with("changes of Ir reach the 64-bit limit")
        })
        .unwrap_or_else(|| panic!("{:?}", app.profile.diagnostics));
    assert_eq!(warning.file, "new.callgrind");
    // main's call of f, in the calls pane: a bound.
    press(&mut app, "/main<Enter>");
    let screen = text(&render(&mut app, 250, 30));
    assert!(screen.contains(">=+9,223,372,036,854,775,807"), "{screen}");
    assert_eq!(
        screen.matches("9,223,372,036,854,775,807").count(),
        screen.matches(">=+9,223,372,036,854,775,807").count(),
        "{screen}"
    );
}

/// A comparison whose changes all fit has no such warning.
#[test]
fn changes_that_fit_raise_no_warning() {
    let app = comparison_app(O0, O2);
    assert!(
        !app.profile
            .diagnostics
            .iter()
            .any(|d| d.message.contains("64-bit")),
        "{:?}",
        app.profile.diagnostics
    );
}

/// The browser refuses what `report` and `annotate` refuse, alike and
/// before its screen opens: profiles with no event in common (it opened
/// with zero changes) and standard input on both sides.
#[cfg(unix)]
#[test]
fn the_browser_refuses_what_cannot_be_compared_before_its_screen() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let ir = write("ir.out", "events: Ir\nfl=a.c\nfn=main\n1 5\n");
    let dr = write("dr.out", "events: Dr\nfl=a.c\nfn=main\n1 5\n");
    for (args, message) in [
        (
            format!("--base '{ir}' '{dr}'"),
            format!(
                "cgtui: {ir} and {dr} have no event in common (base: Ir; new: Dr): nothing to compare"
            ),
        ),
        (
            format!("--base - - < '{ir}'"),
            "cgtui: standard input (`-`) is named on both sides of the comparison, and it can be read only once: save one side to a file".to_string(),
        ),
    ] {
        let mut pty = Pty::spawn(&args);
        let status = pty.finish();
        assert!(
            matches!(status, WaitStatus::Exited(_, 2)),
            "{args}: {status:?}"
        );
        let raw = String::from_utf8_lossy(&pty.raw);
        assert!(raw.contains(&message), "{args}: {raw:?}");
        assert!(!raw.contains("\x1b[?1049h"), "{args}: {raw:?}");
    }
}

/// Two thread files of one run compare as two threads in the browser
/// too (each side the file named); the header shows both totals.
#[cfg(unix)]
#[test]
fn the_browser_compares_two_threads_as_named() {
    let t = |n: u32| sample(&format!("threads/callgrind.out.1000-0{n}"));
    let total = |n: u32| {
        let options = cgtui::parse::LoadOptions {
            siblings: false,
            ..Default::default()
        };
        let p = cgtui::parse::load_paths(&[t(n)], options).unwrap();
        cgtui::analysis::Analysis::new(&p).totals[0]
    };
    let (a, b) = (total(1), total(2));
    assert_ne!(a, b);
    let thousands = cgtui::format::thousands;
    let header = format!("Ir {}→{}", thousands(a), thousands(b));
    let mut pty = Pty::spawn_with(
        &format!("--base '{}' '{}'", t(1).display(), t(2).display()),
        (120, 30),
        &[],
    );
    pty.wait_for(&header);
    pty.send("q");
    let status = pty.finish();
    assert!(matches!(status, WaitStatus::Exited(_, 0)), "{status:?}");
}

/// The browser warns of the parts' sums past 64 bits as `report` does,
/// before its screen opens and under `w`.
#[test]
fn the_browser_warns_of_sums_past_64_bits() {
    let app = text_app(
        "events: Ir\nfn=main\n1 5000000000000000000\npart: 2\nfn=main\n1 5000000000000000000\n",
    );
    assert!(
        app.profile.diagnostics.iter().any(|d| d.message
            == "the costs of Ir of the parts selected add up beyond the signed 64-bit range: sums at the limit are saturated, not exact"),
        "{:?}",
        app.profile.diagnostics
    );
}

/// Selecting parts says so too when the sums of the new selection pass
/// 64 bits (the load's warning is of all parts), and not when they fit.
#[test]
fn selecting_parts_whose_sums_pass_64_bits_says_so() {
    let mut app = text_app(
        "events: Ir\nfn=main\n1 5000000000000000000\npart: 2\nfn=main\n1 5000000000000000000\n",
    );
    press(&mut app, "p<Space>");
    assert!(!app.analysis.is_cut(0));
    assert!(
        !app.message.as_deref().unwrap_or("").contains("64 bits"),
        "{:?}",
        app.message
    );
    press(&mut app, "<Space>");
    assert!(app.analysis.is_cut(0));
    assert_eq!(
        app.message.as_deref(),
        Some("some sums of these parts pass 64 bits: those at the limit are saturated, not exact")
    );
}

/// A rate's column in a comparison: its value in each profile and the
/// change, in percentage points (not the rate of the changes), in the
/// list and in the callers pane; sorting by it puts the biggest change
/// of the rate first. By hand: `hot` reads 1,000 bytes with 10 misses
/// (1.00%) in the base and 2,000 with 60 (3.00%) in the new profile,
/// +2.00pp, though the rate of the changes would be 50 / 1,000 = 5.00%;
/// `cold` 4.00% then 4.50%, +0.50pp; main's call to hot costs what
/// hot does.
#[test]
fn a_rate_column_compares_the_rates_of_each_side() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, hot: (u32, u32), cold: (u32, u32)| {
        let text = format!(
            "events: Ir Dr D1mr\nfn=main\n1 10 0 0\ncfn=hot\ncalls=1 1\n1 100 {} {}\n\
             cfn=cold\ncalls=1 1\n1 100 {} {}\nfn=hot\n1 100 {} {}\nfn=cold\n1 100 {} {}\n",
            hot.0, hot.1, cold.0, cold.1, hot.0, hot.1, cold.0, cold.1
        );
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let base = write("base", (1000, 10), (4000, 160));
    let new = write("new", (2000, 60), (4000, 180));
    let load = |p: &std::path::Path| {
        cgtui::parse::load_paths(&[p.to_path_buf()], Default::default()).unwrap()
    };
    let mut app = cgtui::tui::App::comparing(
        load(&new),
        load(&base),
        &Default::default(),
        cgtui::tui::Theme::plain_colors(),
        Default::default(),
    );
    let rate = app.columns.metrics.index_of("D1mrRate").unwrap();
    // The chooser's row of D1mrRate, shown; then the list sorted by it.
    press(&mut app, &format!("m{}<Space><Esc>", "j".repeat(rate)));
    let buf = render(&mut app, 200, 20);
    let screen = text(&buf);
    let header = (0..20)
        .find(|&y| row(&buf, y).contains("D1mrRate chg"))
        .unwrap();
    let line = |name: &str| {
        (header..20)
            .map(|y| row(&buf, y))
            .find(|r| r.contains(&format!(" {name} ")) || r.ends_with(&format!(" {name}")))
            .unwrap_or_else(|| panic!("no row of {name}\n{screen}"))
    };
    for cell in ["+2.00pp", "1.00%", "3.00%"] {
        assert!(line("hot").contains(cell), "{}\n{screen}", line("hot"));
    }
    for cell in ["+0.500pp", "4.00%", "4.50%"] {
        assert!(line("cold").contains(cell), "{}\n{screen}", line("cold"));
    }
    assert!(
        !screen.contains("5.00%"),
        "the rate of the changes\n{screen}"
    );
    press(&mut app, &format!("m{}<Enter><Esc>", "j".repeat(rate)));
    let buf = render(&mut app, 200, 20);
    let first = row(&buf, header + 1);
    assert!(
        first.contains("hot") && first.contains("+2.00pp"),
        "{first}"
    );
    // The callers pane of hot: main's call, the same change.
    press(&mut app, "g");
    assert_eq!(current(&app), "hot");
    let buf = render(&mut app, 200, 20);
    let pane = text(&buf);
    assert!(
        (0..20).any(|y| {
            let r = row(&buf, y);
            r.contains("main") && r.matches("+2.00pp").count() == 2
        }),
        "{pane}"
    );
    // The call tree of main: hot's node on each side, from each side's
    // own tree; the flame graph's status of hot's box the same.
    press(&mut app, "/main<Enter>t*");
    assert_eq!(current(&app), "main");
    let buf = render(&mut app, 250, 20);
    let tree = text(&buf);
    let hot = (0..20)
        .map(|y| row(&buf, y))
        .find(|r| r.trim_end().ends_with(" hot"))
        .unwrap_or_else(|| panic!("{tree}"));
    for cell in ["+2.00pp", "1.00%", "3.00%"] {
        assert!(hot.contains(cell), "{hot}\n{tree}");
    }
    press(&mut app, "<Esc>f");
    for _ in 0..3 {
        let screen = text(&render(&mut app, 250, 20));
        if screen.contains("hot: base") {
            assert!(
                screen.contains("D1mrRate 1.00%→3.00% (+2.00pp)"),
                "{screen}"
            );
            return;
        }
        press(&mut app, "j");
    }
    panic!(
        "no box of hot selected\n{}",
        text(&render(&mut app, 250, 20))
    );
}
