//! Browsing people can rely on (issue "trust"): the panes follow the
//! cursor, the browser opens on `main`, Back returns to the same source
//! line, keys from less and vim work, small terminals keep the list, calls
//! of unknown count and recursive calls say what they are, shared names
//! are told apart, and the load warnings can be read.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;

use cgtui::tui::app::{Pane, Popup, rows};
use cgtui::tui::views::source::Row;
use support::*;

/// The name the callers pane is titled with.
fn callers_title(screen: &str) -> String {
    let line = screen.lines().find(|l| l.contains("Callers of ")).unwrap();
    let rest = line.split("Callers of ").nth(1).unwrap();
    rest.rsplit_once(": ").unwrap().0.to_string()
}

#[test]
fn the_panes_follow_the_highlighted_row() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "jjjjj");
    let highlighted = app.browse.order[app.browse.list.selected];
    assert_eq!(app.current, Some(highlighted));
    let screen = text(&render(&mut app, 80, 24));
    assert_eq!(callers_title(&screen), current(&app));
    // Cursor moves are not history.
    assert!(app.back.is_empty(), "{:?}", history(&app));
    // `s` shows the highlighted function.
    press(&mut app, "s");
    assert_eq!(app.source().unwrap().func, highlighted);
}

#[test]
fn opens_on_main_with_the_list_by_inclusive_cost() {
    let app = sample_app("recursion.callgrind");
    assert_eq!(current(&app), "main");
    assert_eq!(
        app.browse.order[app.browse.list.selected],
        app.current.unwrap()
    );
    let incl = |i: usize| cgtui::tui::app::rows::inclusive(&app.analysis, app.browse.order[i])[0];
    assert!((1..app.browse.order.len()).all(|i| incl(i - 1) >= incl(i)));
    // Without a `main`: the costliest function that has a name.
    let app = text_app(
        "events: Ir\nfn=0x000000000001ab70\n1 100\ncfn=work\ncalls=1 1\n1 50\nfn=work\n1 50\n",
    );
    assert_eq!(current(&app), "work");
}

#[test]
fn back_returns_to_the_same_source_line() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/fib<Enter>s");
    let view = app.source().unwrap();
    let call = view
        .rows
        .iter()
        .position(|r| matches!(r, Row::Call(_)))
        .unwrap();
    // Move to the call line, away from the hottest line, and follow it.
    press(&mut app, "gG");
    let rows = app.source().unwrap().rows.len();
    for _ in 0..rows {
        press(&mut app, "k");
        if app.source().unwrap().scroll.selected == call {
            break;
        }
    }
    let before = app.source().unwrap().scroll;
    assert_eq!(before.selected, call);
    press(&mut app, "<Enter>");
    assert_eq!(current(&app), "fib'2");
    press(&mut app, "h");
    assert_eq!(current(&app), "fib");
    assert_eq!(app.source().unwrap().scroll, before);
    // Forward again, and back again: the same line.
    press(&mut app, "lh");
    assert_eq!(app.source().unwrap().scroll, before);
}

#[test]
fn jump_lines_can_be_followed_and_shift_tab_goes_to_the_previous_file() {
    let mut app = sample_app("jumps-lines.callgrind");
    press(&mut app, "/classify<Enter>s");
    let view = app.source().unwrap();
    let (i, target) = view
        .rows
        .iter()
        .enumerate()
        .find_map(|(i, r)| match r {
            Row::Jump(j) => {
                let j = &view.data.jumps[*j];
                (j.target_func == view.func).then_some((i, j.target_line))
            }
            _ => None,
        })
        .unwrap();
    app.views.source_mut().unwrap().scroll.selected = i;
    press(&mut app, "<Enter>");
    let view = app.source().unwrap();
    assert!(
        matches!(view.rows[view.scroll.selected], Row::Line { line, .. } if line == target),
        "not on line {target}"
    );
    // Back returns to the jump line.
    press(&mut app, "h");
    assert_eq!(app.source().unwrap().scroll.selected, i);

    let mut app = sample_app("inline.callgrind");
    press(&mut app, "/work<Enter>s");
    let files = app.source().unwrap().files.len();
    assert!(files >= 2, "{files}");
    let first = app.source().unwrap().file;
    press(&mut app, "<Tab>");
    assert_eq!(app.source().unwrap().file, (first + 1) % files);
    press(&mut app, "<BackTab>");
    assert_eq!(app.source().unwrap().file, first);
    press(&mut app, "<BackTab>");
    assert_eq!(app.source().unwrap().file, (first + files - 1) % files);
}

#[test]
fn keys_people_already_know() {
    let mut app = sample_app("recursion.callgrind");
    // q and Esc close the help; they do not quit.
    press(&mut app, "?q");
    assert!(app.popup.is_none() && !app.quit);
    press(&mut app, "?<Esc>");
    assert!(app.popup.is_none() && !app.quit);
    // Space, Ctrl-F and Ctrl-D page down; Ctrl-B and Ctrl-U page up.
    press(&mut app, "g");
    let page = app.areas().list.body.height as usize;
    for (keys, at) in [
        ("<Space>", page),
        ("<C-f>", 2 * page),
        ("<C-d>", 3 * page),
        ("<C-b>", 2 * page),
        ("<C-u>", page),
    ] {
        press(&mut app, keys);
        assert_eq!(app.browse.list.selected, at, "{keys}");
    }
}

#[test]
fn a_sort_shows_the_top_and_the_same_key_reverses_it() {
    let mut app = sample_app("recursion.callgrind");
    // Not moved yet: a sort shows its top row, selected.
    press(&mut app, "S");
    assert_eq!((app.browse.list.selected, app.browse.list.offset), (0, 0));
    let top = app.browse.order[0];
    assert!(
        rows::self_cost(&app.analysis, top)[0]
            >= rows::self_cost(&app.analysis, app.browse.order[1])[0]
    );
    press(&mut app, "S");
    assert!(app.browse.reversed);
    assert!(
        rows::self_cost(&app.analysis, app.browse.order[0])[0]
            <= rows::self_cost(&app.analysis, top)[0]
    );
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("Self▲"), "{screen}");
    // Moved: the function stays selected, the list shown from its top.
    press(&mut app, "ijj");
    let chosen = app.current;
    press(&mut app, "c");
    assert_eq!(app.current, chosen);
    assert_eq!(app.browse.order[app.browse.list.selected], chosen.unwrap());
}

#[test]
fn the_list_stays_usable_at_40x10() {
    for (w, h) in [(40, 10), (40, 16)] {
        let mut app = sample_app("recursion.callgrind");
        let screen = text(&render(&mut app, w, h));
        assert!(screen.contains("Function"), "{w}x{h}\n{screen}");
        assert!(screen.contains(" main"), "{w}x{h}\n{screen}");
        // From the top where main is on the first page, else the header
        // says that rows are above.
        let top = screen.contains("0x000000000001ab70");
        assert!(top != screen.contains(" above)"), "{w}x{h}\n{screen}");
        assert_eq!(top, h == 16, "{w}x{h}\n{screen}");
        // Tab shows the focused pane in the list's place.
        press(&mut app, "<Tab>");
        assert_eq!(app.browse.focus, Pane::Callers);
        let screen = text(&render(&mut app, w, h));
        // Too narrow for the name beside "Callers of": the status line has it.
        assert!(screen.contains("Callers"), "{w}x{h}\n{screen}");
        assert!(!screen.contains("of :"), "no empty name: {w}x{h}\n{screen}");
    }
}

/// The callees pane's title of the function `keys` go to in `sample`, on
/// a screen `w` columns wide.
fn callees_title(sample: &str, keys: &str, w: u16) -> String {
    let mut app = sample_app(sample);
    press(&mut app, keys);
    let screen = text(&render(&mut app, w, 10));
    (screen.lines().find(|l| l.contains("%fn")))
        .unwrap_or_else(|| panic!("{w} columns: no callees pane\n{screen}"))
        .to_string()
}

/// At 40 columns `main`'s 35 callees left a title of ten cells, and
/// "Callees: 35" was cut to "Callees: 3": a count is shown whole or not at
/// all, never as other digits.
#[test]
fn a_narrow_pane_title_never_cuts_its_count() {
    for w in 36..=60 {
        let title = callees_title("cpp-names.callgrind", "/main<Enter><Enter>", w);
        let count = (title.split([' ', ':']).rfind(|w| !w.is_empty())).unwrap();
        assert!(
            count == "35" || !count.chars().all(|c| c.is_ascii_digit()),
            "{w} columns: {title:?}"
        );
    }
}

/// A name with a qualifier (namesakes in two objects) in a narrow title
/// read "Callees of (… …: 1": a short name is shown whole before its
/// qualifier is, and a cut one never leaves too little to read.
#[test]
fn a_narrow_title_keeps_the_name_rather_than_two_ellipses() {
    for w in 40..=70 {
        let title = callees_title("recursion.callgrind", "/below<Enter><Enter>", w);
        assert!(title.matches('…').count() <= 1, "{w} columns: {title:?}");
    }
}

/// The help in a narrow terminal cut its lines silently ("call tree of",
/// "quit (exit s"), then with an ellipsis; at 80x24 a key ran into its
/// text (`PgDn Space Ctrl-f Ctrl-dpage down`). Now texts wrap onto the
/// rows below, at 40x10 and at 80x24 alike, and no row is cut.
#[test]
fn a_narrow_help_wraps_its_text_and_keeps_keys_apart() {
    for (w, h, wrapped) in [
        (40, 10, "current function"),
        (80, 24, "program from a root)"),
    ] {
        let mut app = sample_app("cpp-names.callgrind");
        press(&mut app, "?");
        let screen = text(&render(&mut app, w, h));
        let at = (screen.lines().position(|l| l.contains("call tree")))
            .unwrap_or_else(|| panic!("no help line\n{screen}"));
        let next = screen.lines().nth(at + 1).unwrap();
        assert!(next.contains(wrapped), "{w}x{h}: {next:?}\n{screen}");
        // Inside the popup's frame (the list behind it cuts its names).
        let mut inside = screen.lines().filter_map(|l| l.split('│').nth(1));
        assert!(
            inside.all(|l| !l.contains('…')),
            "{w}x{h}: a cut line\n{screen}"
        );
        // Scrolled to the page keys: their own row, the text below.
        let mut all = String::new();
        for _ in 0..40 {
            all.push_str(&text(&render(&mut app, w, h)));
            press(&mut app, "j");
        }
        assert!(!all.contains("Ctrl-dpage"), "{w}x{h}\n{all}");
    }
}

/// The warnings of a file that has none said "0-0 of 0".
#[test]
fn no_load_warnings_say_so() {
    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "w");
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("Load warnings: 0"), "{screen}");
    assert!(screen.contains("None: every line"), "{screen}");
    assert!(!screen.contains("0-0 of 0"), "{screen}");
}

#[test]
fn unknown_counts_and_recursive_calls_say_what_they_are() {
    let mut app = sample_app("xtree-memory.callgrind");
    press(&mut app, "/make_list<Enter><Tab>");
    let screen = text(&render(&mut app, 100, 30));
    assert!(screen.contains("?×"), "{screen}");
    assert!(!screen.contains("  ×"), "{screen}");

    let mut app = sample_app("recursion.callgrind");
    press(&mut app, "/fib'2<Enter>s%");
    let screen = text(&render(&mut app, 120, 40));
    let call = screen.lines().find(|l| l.contains("=> fib'2")).unwrap();
    assert!(call.contains("↻ recursive"), "{call}");
    assert!(call.contains("incl. nested calls"), "{call}");
    // No share above 100% anywhere.
    for word in screen.split_whitespace() {
        if let Some(p) = word.strip_suffix('%')
            && let Ok(p) = p.parse::<f64>()
        {
            assert!(p <= 100.0, "{word} in\n{screen}");
        }
    }
}

#[test]
fn functions_of_one_name_are_told_apart() {
    let profile = "events: Ir\nob=/bin/a\nfl=a.c\nfn=main\n1 30\nfl=b.c\nfn=main\n1 20\nob=/lib/c.so\nfl=a.c\nfn=main\n1 10\n";
    let mut app = text_app(profile);
    let screen = text(&render(&mut app, 80, 24));
    let mains: Vec<&str> = screen
        .lines()
        .filter(|l| l.contains(" main (") && l.contains('█'))
        .collect();
    assert_eq!(mains.len(), 3, "{screen}");
    let mut distinct = mains.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{screen}");
    // The details line names the selected one's file and object in full.
    assert!(screen.contains("main  a.c  [/bin/a]"), "{screen}");
    // Search results too.
    press(&mut app, "/main");
    let screen = text(&render(&mut app, 80, 24));
    for q in ["main (a.c a)", "main (b.c a)", "main (a.c c.so)"] {
        assert_eq!(screen.matches(q).count(), 1, "{q}\n{screen}");
    }
}

#[test]
fn load_warnings_can_be_read() {
    let mut app = text_app("events: Ir\nfn=f\n1 5\nbogus line\n2 7\n");
    assert!(app.diagnostics > 0);
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("load warnings (w)"), "{screen}");
    press(&mut app, "w");
    assert!(matches!(app.popup, Some(Popup::Warnings(..))));
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("test.callgrind:4:"), "{screen}");
    press(&mut app, "q");
    assert!(app.popup.is_none() && !app.quit);
}

#[test]
fn cycles_are_rows_with_their_callers_members_and_callees() {
    let mut app = sample_app("recursion.callgrind");
    let screen = text(&render(&mut app, 120, 40));
    assert!(!screen.contains("<cycle 1>  "), "{screen}");
    // Found by search, like any function.
    press(&mut app, "/<cycle 1<Enter>");
    assert_eq!(current(&app), "<cycle 1>");
    let cycle = app.analysis.cycles[0].clone();
    let incl = cycle.inclusive[0];
    let screen = text(&render(&mut app, 120, 40));
    // Its row in the list, with the cycle's inclusive cost.
    let row = screen
        .lines()
        .find(|l| l.trim_end().ends_with("<cycle 1>") && !l.contains("of"))
        .unwrap();
    assert!(row.contains(&cgtui::format::thousands(incl)), "{row}");
    // Callers: from outside the cycle; callees: the members first.
    assert!(screen.contains("Callers of <cycle 1>: 1"), "{screen}");
    let callers = screen.split("Callers of").nth(1).unwrap();
    let caller = callers.lines().nth(1).unwrap();
    assert!(caller.trim_end().ends_with(" is_odd"), "{screen}");
    for &m in &cycle.members {
        let name = app.name(m).into_owned();
        assert!(
            screen
                .lines()
                .any(|l| l.contains("member") && l.contains(&name)),
            "{name}\n{screen}"
        );
    }
    // Enter on a member goes to it; `C` comes back to the cycle.
    press(&mut app, "<Tab><Tab><Enter>");
    assert!(cycle.members.contains(&app.current.unwrap()));
    press(&mut app, "<Esc>C");
    assert_eq!(current(&app), "<cycle 1>");
    // A cycle has no source of its own.
    press(&mut app, "s");
    assert!(app.source().is_none());
    assert!(app.message.as_deref().unwrap_or("").contains("no source"));
}

#[test]
fn wide_characters_are_counted_in_screen_cells() {
    use unicode_width::UnicodeWidthStr;
    let name = "数据处理管道::批量写入缓冲区::刷新全部待处理记录";
    let profile =
        format!("events: Ir\nob=/lib/libdata.so\nfl=a.c\nfn={name}\n1 30\nfn=plain\n1 20\n");
    let mut app = text_app(&profile);
    // The screen as a terminal shows it: a wide character takes its cell
    // and the next one.
    let shown = |buf: &ratatui::buffer::Buffer| {
        let mut out = String::new();
        for y in 0..buf.area.height {
            let mut x = 0;
            while x < buf.area.width {
                let symbol = buf[(x, y)].symbol();
                out.push_str(symbol);
                x += symbol.width().max(1) as u16;
            }
            out.push('\n');
        }
        out
    };
    let screen = shown(&render(&mut app, 200, 40));
    // The object starts in the Object column: the wide name did not push it.
    let column = |line: &str, word: &str| line.find(word).map(|i| line[..i].width());
    let header = screen.lines().find(|l| l.contains("Object")).unwrap();
    let row = screen
        .lines()
        .find(|l| l.contains("数据") && l.contains("libdata"))
        .expect(&screen);
    assert_eq!(
        column(row, "libdata.so"),
        column(header, "Object"),
        "{screen}"
    );
    // At 45 columns the name is cut with an ellipsis, within the line.
    let screen = shown(&render(&mut app, 45, 20));
    let row = screen.lines().find(|l| l.contains("数据")).expect(&screen);
    assert!(row.contains('…'), "{screen}");
    assert!(row.width() <= 45, "{row}");
}

/// At every size and in every view the last line points to the help
/// (issue 40: at 40x10 there was no hints line and nothing did) and
/// ends in no half hint.
#[test]
fn every_view_points_to_the_help_at_every_size() {
    for keys in ["", "s", "t", "b", "f", "<Tab>"] {
        for (w, h) in [(40, 10), (80, 24), (250, 70)] {
            let mut app = sample_app("recursion.callgrind");
            press(&mut app, keys);
            let screen = text(&render(&mut app, w, h));
            // The hints line, or on a short terminal the status line.
            let hints = screen.lines().last().unwrap();
            assert!(hints.contains("? help"), "{keys:?} {w}x{h}: {screen}");
            assert!(!hints.trim_end().ends_with("? hel"), "{hints}");
        }
    }
}

/// A source file that is not found said only "(not found)" in the title,
/// the notes naming where it was looked for being above the hottest line
/// the view opens at (issue 40): the status line says where it looked
/// and which options show it, at 250 columns whole.
#[test]
fn a_missing_source_says_where_it_looked_and_what_shows_it() {
    let mut app = sample_app("threads/callgrind.out.1000");
    press(&mut app, "/do_lookup_x<Enter>s");
    assert_eq!(current(&app), "do_lookup_x");
    let screen = text(&render(&mut app, 250, 20));
    let status = screen.lines().rev().nth(1).unwrap();
    for part in [
        // (An app made here searches the working directory only.)
        "source file ./elf/./elf/dl-lookup.c not found (searched: .)",
        "use --source-root OLD=NEW or -I DIR",
    ] {
        assert!(status.contains(part), "{part}\n{screen}");
    }
}

/// The load warnings popup cut long messages for good (`warning:…`):
/// `>` scrolls them sideways to their end, `<` back (issue 40), and the
/// foot says so where a message is cut.
#[test]
fn long_load_warnings_scroll_sideways() {
    // The message quotes the line's first 40 bytes: 87 cells in all.
    let line = "a line that is not part of any profile format";
    let mut app = text_app(&format!("events: Ir\nfn=main\n1 10\n{line}\n"));
    press(&mut app, "w");
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("> < scroll sideways"), "{screen}");
    assert!(!screen.contains("profile f…`"), "{screen}");
    press(&mut app, ">>");
    let screen = text(&render(&mut app, 80, 24));
    assert!(
        screen.contains("«ne: `a line that is not part of any profile f…`"),
        "{screen}"
    );
    press(&mut app, "<<");
    let screen = text(&render(&mut app, 80, 24));
    assert!(
        screen.contains("test.callgrind:4: error: not a profile line"),
        "{screen}"
    );
}
