//! Benchmarks on a synthetic profile with a million functions: a key press
//! handled and drawn, searches included (target: under 16 ms each), and
//! search results per keystroke. The figures are in benches/README.md,
//! "Browser keys".
//!
//! Run: `cargo bench --bench tui`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/timing.rs"]
mod timing;

use cgtui::locate::Locator;
use cgtui::parse::load_reader;
use cgtui::profile::Profile;
use cgtui::search::Search;
use cgtui::tui::{App, Key, Theme, draw, parse_keys};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::fmt::Write;
use std::hint::black_box;
use std::time::{Duration, Instant};

const FUNCTIONS: usize = 1_000_000;
/// A 22-character query, as pasted into the search prompt.
const PASTED: &str = "ns3::Matrix1::update_9";

/// A name like real C++ ones: namespaces, classes, methods.
fn name(i: usize) -> String {
    format!(
        "ns{}::{}{}::{}_{i}(int)",
        i % 37,
        ["Parser", "Buffer", "Widget", "Allocator", "Matrix"][i % 5],
        i % 1013,
        ["compute", "read", "write", "update", "visit", "reset"][i % 6],
    )
}

/// A binary call tree of `n` functions, as callgrind text.
fn profile(n: usize) -> Profile {
    let mut text = String::from("events: Ir Dr\nfl=src/big.cc\n");
    for i in 0..n {
        let _ = writeln!(
            text,
            "fn={}\n{} {} {}",
            name(i),
            1 + i % 50,
            1 + i % 997,
            i % 13
        );
        for c in [2 * i + 1, 2 * i + 2].into_iter().filter(|&c| c < n) {
            let _ = writeln!(
                text,
                "cfn={}\ncalls={} 1\n{} {} {}",
                name(c),
                1 + c % 5,
                1 + i % 50,
                1000 + c % 7919,
                c % 11
            );
        }
    }
    load_reader("big.callgrind", text.as_bytes()).unwrap()
}

fn keys_and_draw() {
    let profile = profile(FUNCTIONS);
    let start = Instant::now();
    let mut app = App::new(profile, Theme::plain_colors(), Locator::default());
    let opened = start.elapsed();
    // The list's orders for every sort key and event are computed by a
    // background thread after loading; the keys below measure them cached.
    app.complete_background();
    eprintln!(
        "App::new {opened:.0?}, every order of the flat list computed {:.0?} after it started",
        start.elapsed()
    );
    assert!(app.profile.functions.len() >= FUNCTIONS);
    app.resize(120, 40);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let mut group = timing::Group::new("1M functions, 120x40", 20);
    let mut step = |app: &mut App, keys: &[Key]| {
        app.keys(keys);
        terminal.draw(|f| draw(app, f)).unwrap();
    };
    group.bench_function("key j + draw", |b| {
        b.iter(|| step(&mut app, &[Key::Char('j')]))
    });
    group.bench_function("key PgDn + draw", |b| {
        b.iter(|| step(&mut app, &[Key::PageDown]))
    });
    group.bench_function("key Enter (go to) + draw", |b| {
        b.iter(|| step(&mut app, &[Key::Enter]))
    });
    group.bench_function("key Tab + draw", |b| b.iter(|| step(&mut app, &[Key::Tab])));
    group.bench_function("key s (source view on, off) + draw", |b| {
        b.iter(|| step(&mut app, &[Key::Char('s')]))
    });
    group.bench_function("key S (sort by self) then i (inclusive) + draw", |b| {
        b.iter(|| {
            step(&mut app, &[Key::Char('S')]);
            step(&mut app, &[Key::Char('i')]);
        })
    });
    // The first keystroke is the slowest (every name is a candidate); the
    // opening `/` and closing Esc are included.
    group.bench_function("search prompt: / m Esc, each drawn", |b| {
        b.iter(|| {
            step(&mut app, &[Key::Char('/')]);
            step(&mut app, &[Key::Char('m')]);
            step(&mut app, &[Key::Esc]);
        })
    });
    group.bench_function("key e (next event) + draw", |b| {
        b.iter(|| step(&mut app, &[Key::Char('e')]))
    });
    group.bench_function("key c (sort by calls) then a (by name) + draw", |b| {
        b.iter(|| {
            step(&mut app, &[Key::Char('c')]);
            step(&mut app, &[Key::Char('a')]);
        })
    });
    group.bench_function(
        "keys e / (search order of the next event) Esc + draw",
        |b| {
            b.iter(|| {
                step(&mut app, &[Key::Char('e')]);
                step(&mut app, &[Key::Char('/')]);
                step(&mut app, &[Key::Esc]);
            })
        },
    );
    step(&mut app, &[Key::Char('i')]);
    // A paste arrives as one burst of key events, handled before one draw.
    let pasted = parse_keys(PASTED);
    group.bench_function("search prompt: 22 characters pasted + draw", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                step(&mut app, &[Key::Char('/')]);
                let t = Instant::now();
                step(&mut app, &pasted);
                total += t.elapsed();
                step(&mut app, &[Key::Esc]);
            }
            total
        })
    });
    group.bench_function(
        "search prompt: Backspace after typing \"upd\" + draw",
        |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    for k in parse_keys("/upd") {
                        step(&mut app, &[k]);
                    }
                    let t = Instant::now();
                    step(&mut app, &[Key::Backspace]);
                    total += t.elapsed();
                    step(&mut app, &[Key::Esc]);
                }
                total
            })
        },
    );
    step(&mut app, &[Key::Char('/')]);
    step(&mut app, &[Key::Char('u')]);
    group.bench_function("search prompt: one more character (p, BS) + draw", |b| {
        b.iter(|| {
            step(&mut app, &[Key::Char('p')]);
            step(&mut app, &[Key::Backspace]);
        })
    });
    step(&mut app, &[Key::Esc]);
    metric_columns(&mut group, &mut app, &mut step);

    trees(&mut app, &mut terminal);
}

/// Six metric columns beside the costs, two of them a formula (`m`), and
/// the list sorted by the formula (`m`, Enter: every function's value
/// computed and sorted).
fn metric_columns(
    group: &mut timing::Group,
    app: &mut App,
    step: &mut impl FnMut(&mut App, &[Key]),
) {
    let formula: cgtui::metric::Definition = "r = Dr / (Ir + 1)".parse().unwrap();
    app.set_metrics(&[formula], 0.0).unwrap();
    for (name, scope) in [
        ("Ir", " "),
        ("Ir", "s"),
        ("Dr", " "),
        ("Dr", "s"),
        ("r", " "),
        ("r", "s"),
    ] {
        let i = app.columns.metrics.index_of(name).unwrap();
        step(app, &parse_keys(&format!("m{}{scope}<Esc>", "j".repeat(i))));
    }
    assert_eq!(app.columns.chosen.len(), 6);
    group.bench_function("key j + draw, six metric columns", |b| {
        b.iter(|| step(app, &[Key::Char('j')]))
    });
    let r = app.columns.metrics.index_of("r").unwrap();
    let sort = parse_keys(&format!("m{}<Enter>", "j".repeat(r)));
    group.bench_function("sort by a formula column (m, Enter) + draw", |b| {
        b.iter(|| step(app, &sort))
    });
    step(app, &[Key::Char('i')]);
}

/// The call tree, caller tree and flame graph: opening each on the root of
/// the million-function tree (the hottest path opened: 20 levels), and the
/// keys inside them.
fn trees(app: &mut App, terminal: &mut Terminal<TestBackend>) {
    let mut step = |app: &mut App, keys: &[Key]| {
        app.keys(keys);
        terminal.draw(|f| draw(app, f)).unwrap();
    };
    step(app, &[Key::Char('g')]);
    let mut group = timing::Group::new("1M functions, 120x40, trees", 20);
    for (open, what) in [
        ('t', "call tree"),
        ('b', "caller tree"),
        ('f', "flame graph"),
    ] {
        group.bench_function(
            format!("key {open} ({what} opened) + draw, Esc + draw"),
            |b| {
                b.iter(|| {
                    step(app, &[Key::Char(open)]);
                    step(app, &[Key::Esc]);
                })
            },
        );
    }
    step(app, &[Key::Char('t')]);
    step(app, &[Key::Char('g')]);
    group.bench_function("call tree: j + draw", |b| {
        b.iter(|| step(app, &[Key::Char('j')]))
    });
    group.bench_function("call tree: Left, Right (close, open) + draw", |b| {
        b.iter(|| {
            step(app, &[Key::Left]);
            step(app, &[Key::Right]);
        })
    });
    step(app, &[Key::Char('g')]);
    // Opens about 5,000 nodes, every one at least 1% of the root.
    group.bench_function(
        "call tree: * (open all from the root) + draw, then t",
        |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let t = Instant::now();
                    step(app, &[Key::Char('*')]);
                    total += t.elapsed();
                    step(app, &[Key::Esc]);
                    step(app, &[Key::Char('t')]);
                    step(app, &[Key::Char('g')]);
                }
                total
            })
        },
    );
    step(app, &[Key::Esc]);
    step(app, &[Key::Char('f')]);
    group.bench_function("flame graph: j, l, k + draw", |b| {
        b.iter(|| {
            step(app, &[Key::Char('j')]);
            step(app, &[Key::Char('l')]);
            step(app, &[Key::Char('k')]);
        })
    });
    step(app, &[Key::Char('j')]);
    group.bench_function(
        "flame graph: Enter (zoom in), Backspace (out) + draw",
        |b| {
            b.iter(|| {
                step(app, &[Key::Enter]);
                step(app, &[Key::Backspace]);
            })
        },
    );
    group.bench_function("flame graph: e (next event: the tree again) + draw", |b| {
        b.iter(|| step(app, &[Key::Char('e')]))
    });
    step(app, &[Key::Esc]);
    // The groups popup: by object, then each other grouping in turn.
    for (keys, what) in [
        (vec![Key::Char('o')], "o (groups by object)"),
        (vec![Key::Char('o'), Key::Tab], "o, Tab (by file)"),
        (
            vec![Key::Char('o'), Key::Tab, Key::Tab],
            "o, Tab, Tab (by class)",
        ),
    ] {
        group.bench_function(format!("{what} + draw, Esc"), |b| {
            b.iter(|| {
                for &k in &keys {
                    step(app, &[k]);
                }
                step(app, &[Key::Esc]);
            })
        });
    }
}

fn search() {
    let names: Vec<Box<str>> = (0..FUNCTIONS).map(|i| name(i).into()).collect();
    let mut s = Search::new(names);
    // Ties in cost order, as in the browser: neither id order nor reversed.
    let n = FUNCTIONS as u64;
    s.set_order((0..n).map(|i| (i * 7919 % n) as u32).collect());
    let mut group = timing::Group::new("search 1M names", 20);
    for q in ["m", "ma", "wid", "Widget", "rdx", "ns3::Matrix1::update_9"] {
        group.bench_function(format!("fresh query {q:?}"), |b| {
            b.iter(|| {
                s.set_query("");
                s.set_query(black_box(q));
                s.results().len()
            })
        });
    }
    // Typing one more character: only the previous matches are filtered.
    for (prev, q) in [("m", "ma"), ("wi", "wid"), ("up", "upd"), ("r", "rd")] {
        group.bench_function(format!("keystroke {prev:?} -> {q:?}"), |b| {
            b.iter_custom(|iters| {
                let mut total = std::time::Duration::ZERO;
                for _ in 0..iters {
                    s.set_query("");
                    s.set_query(prev);
                    let t = std::time::Instant::now();
                    s.set_query(black_box(q));
                    total += t.elapsed();
                }
                total
            })
        });
    }
}

fn main() {
    keys_and_draw();
    search();
}
