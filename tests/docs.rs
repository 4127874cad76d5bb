//! README.md, docs/ and assets/ show what the code draws: the screens in
//! them are the snapshot tests' screens, the key table (docs/guide.md) is
//! made from the keymap. `CGTUI_UPDATE_DOCS=1 cargo test --test docs`
//! writes them again after the snapshots were accepted.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support::tui as support;

use std::path::{Path, PathBuf};
use support::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn updating() -> bool {
    std::env::var_os("CGTUI_UPDATE_DOCS").is_some()
}

/// A snapshot's screen, without insta's header (`test__name`, or `name`
/// of tests/tui_screens.rs).
fn snapshot(name: &str) -> String {
    let name = if name.contains("__") {
        name.to_string()
    } else {
        format!("tui_screens__{name}")
    };
    let path = root().join(format!("tests/snapshots/suite__{name}.snap"));
    let text = std::fs::read_to_string(&path).unwrap();
    let body = text.splitn(3, "---\n").nth(2).unwrap();
    body.trim_end().to_string() + "\n"
}

/// Checks (or, updating, writes) the part of `text` between `start` and
/// `end` markers against `want`.
pub(crate) fn section(path: &Path, start: &str, end: &str, want: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{start} missing"))
        + start.len();
    let to = from + text[from..].find(end).unwrap();
    if updating() {
        let new = format!("{}{want}{}", &text[..from], &text[to..]);
        std::fs::write(path, new).unwrap();
    } else {
        assert_eq!(
            &text[from..to],
            want,
            "{} is stale: CGTUI_UPDATE_DOCS=1",
            path.display()
        );
    }
}

/// Screens: (snapshot, keys that make it on the same sample).
const SCREENS: [(&str, &str, &str); 4] = [
    ("flat", "recursion.callgrind", ""),
    (
        "calls",
        "recursion-separate-recs1.callgrind",
        "/is_even<Enter><Tab><Tab>",
    ),
    ("source", "recursion.callgrind", "/fib'2<Enter>s"),
    ("search", "recursion.callgrind", "/fib"),
];

/// The pages that show screens: the front page and the user guide's.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut guide: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    guide.sort();
    pages.extend(guide);
    pages
}

/// The snapshot names a page marks with `<!-- screen NAME -->`.
fn marked_screens(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap();
    text.split("<!-- screen ")
        .skip(1)
        .filter_map(|rest| rest.split_once(" -->").map(|(name, _)| name.to_string()))
        .collect()
}

#[test]
fn the_screens_of_the_docs_are_the_snapshots() {
    let mut all = Vec::new();
    for page in pages() {
        for name in marked_screens(&page) {
            let want = format!("\n```text\n{}```\n", snapshot(&name));
            section(
                &page,
                &format!("<!-- screen {name} -->"),
                "<!-- /screen -->",
                &want,
            );
            all.push(name);
        }
    }
    // The front page shows one screen; the guide the other views.
    assert!(!marked_screens(&root().join("README.md")).is_empty());
    assert!(all.len() >= 6, "{all:?}");
}

#[test]
fn the_assets_are_the_snapshots() {
    for (name, sample, keys) in SCREENS {
        let txt = root().join(format!("assets/screen-{name}.txt"));
        let want = snapshot(&format!("{name}_120x40"));
        let mut app = sample_app(sample);
        press(&mut app, keys);
        let ansi = cgtui::tui::screen::ansi_text(&render(&mut app, 120, 40));
        let ansi_path = root().join(format!("assets/screen-{name}.ansi"));
        if updating() {
            std::fs::write(&txt, &want).unwrap();
            std::fs::write(&ansi_path, &ansi).unwrap();
        } else {
            assert_eq!(std::fs::read_to_string(&txt).unwrap(), want, "{name}");
            assert_eq!(std::fs::read_to_string(&ansi_path).unwrap(), ansi, "{name}");
        }
    }
}

#[test]
fn the_guide_key_table_is_the_keymap() {
    let want = format!("\n{}", cgtui::tui::keymap::markdown());
    section(
        &root().join("docs/guide.md"),
        "<!-- keys -->",
        "<!-- /keys -->",
        &want,
    );
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces
/// as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings, outside code blocks.
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of a page's `[text](target)` links, outside code blocks.
fn links(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for rest in line.split("](").skip(1) {
            if let Some((target, _)) = rest.split_once(')') {
                out.push(target.to_string());
            }
        }
    }
    out
}

/// A link within the docs leads to a file that exists, and to a heading
/// it has: moving a section cannot leave a link behind.
#[test]
fn the_links_of_the_docs_lead_somewhere() {
    let mut pages = pages();
    for page in [
        "CONTRIBUTING.md",
        "benches/README.md",
        "samples/README.md",
        "tests/README.md",
        "fuzz/README.md",
    ] {
        let path = root().join(page);
        if path.exists() {
            pages.push(path);
        }
    }
    let mut checked = 0;
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let file = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            assert!(file.exists(), "{}: {target}: no such file", page.display());
            if !fragment.is_empty() {
                let there = std::fs::read_to_string(&file).unwrap();
                assert!(
                    anchors(&there).iter().any(|a| a == fragment),
                    "{}: {target}: no such heading",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} links");
}
