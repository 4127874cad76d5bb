//! The assembly view (`A`) on the committed sample built from
//! samples/src/asm_hash.c (its binary beside it, found through an object
//! root as `--object-root /tmp/cgtui-samples=samples/src` does): costs,
//! source lines, jump arrows, moving between costed instructions,
//! following a jump, and closing; screens at the three sizes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui::*;
use cgtui::tui::App;

fn asm_app() -> App {
    let mut app = sample_app("asm-hash.callgrind");
    let root = sample("src").display().to_string();
    app.disasm.options.objects.rewrites = vec![("/tmp/cgtui-samples".into(), root)];
    press(&mut app, "/main<Enter>A");
    app.wait_background();
    app
}

/// The selected instruction's text; empty on a source line.
fn selected_text(app: &mut App) -> String {
    let view = match app.views.top() {
        Some(cgtui::tui::views::View::Asm(v)) => v.clone(),
        _ => panic!("no assembly view"),
    };
    let l = view.listing.clone().expect("a listing");
    view.selected_instruction()
        .map_or(String::new(), |i| l.instructions[i].text.clone())
}

#[test]
fn the_assembly_view_shows_costs_arrows_and_follows_jumps() {
    let mut app = asm_app();
    // As it opens: the screen of the guide.
    insta::assert_snapshot!("asm_open_80x24", text(&render(&mut app, 80, 24)));
    let screen = text(&render(&mut app, 120, 40));
    assert!(screen.contains("Assembly of main"), "{screen}");
    assert!(screen.contains("asm_hash.c:"), "{screen}");
    assert!(screen.contains("mov"), "{screen}");
    // The loop's back edge is drawn as an arrow ending at its target.
    assert!(screen.contains('►'), "{screen}");
    // It opens at the hottest instruction; `]` goes to the next costed.
    let first = selected_text(&mut app);
    assert!(!first.is_empty());
    press(&mut app, "]");
    assert_ne!(selected_text(&mut app), first);
    // `v` hides the source lines, `v` shows them again.
    press(&mut app, "v");
    assert!(!text(&render(&mut app, 120, 40)).contains("asm_hash.c:"));
    press(&mut app, "v");
    // Enter on a conditional jump selects its target.
    press(&mut app, "g");
    for _ in 0..200 {
        if selected_text(&mut app).starts_with('j') {
            break;
        }
        press(&mut app, "j");
    }
    let jump = selected_text(&mut app);
    assert!(jump.starts_with('j'), "{jump}");
    // Its target as objdump writes it (`jg 10df <main+0x5f>`).
    let target = jump.split_whitespace().nth(1).unwrap().to_string();
    press(&mut app, "<Enter>");
    let view = match app.views.top() {
        Some(cgtui::tui::views::View::Asm(v)) => v.clone(),
        _ => panic!("no assembly view"),
    };
    let at = view.listing.as_ref().unwrap().instructions[view.selected_instruction().unwrap()].addr;
    assert_eq!(format!("{at:x}"), target);
    // h comes back to the jump, l goes to its target again.
    press(&mut app, "h");
    assert_eq!(selected_text(&mut app), jump);
    press(&mut app, "l");
    app.wait_background();
    let view = match app.views.top() {
        Some(cgtui::tui::views::View::Asm(v)) => v.clone(),
        _ => panic!("no assembly view"),
    };
    assert_eq!(
        view.selected_address().map(|a| format!("{a:x}")),
        Some(target.clone())
    );
    // Esc closes it, back to the list; A again opens it from the cache.
    press(&mut app, "<Esc>");
    assert!(app.views.top().is_none());
    press(&mut app, "A");
    assert!(!app.busy(), "kept, not made again");
    for (w, h) in [(80, 24), (40, 10), (250, 70)] {
        insta::assert_snapshot!(format!("asm_{w}x{h}"), text(&render(&mut app, w, h)));
    }
    let ascii = {
        app.theme.ascii = true;
        text(&render(&mut app, 120, 40))
    };
    assert!(ascii.contains("+->") || ascii.contains("+-"), "{ascii}");
    assert!(ascii.is_ascii(), "{ascii}");
}
