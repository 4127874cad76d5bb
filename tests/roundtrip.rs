//! Property test of the loader: random valid profiles are generated as a
//! model (functions, self costs per line, calls with counts and inclusive
//! costs, jumps, several parts and events), written out with random choices
//! of everything the format leaves to the writer (name compression, absolute,
//! hex, relative and `*` subpositions, `cfi=`/`cfl=`, `fi=`/`fe=`, comments,
//! blank lines, trailing blanks, dropped zero costs, CRLF, final newline,
//! parts in one file or in several), loaded back, and compared with the model:
//! self costs, call edges, line costs, jumps and totals of every part.
//!
//! Subpositions follow Valgrind's writer: only a plain cost line moves the
//! last position; `calls=`/`jump=` targets and the rows after them are
//! written relative to it without moving it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cgtui::analysis::Analysis;
use cgtui::parse::{LoadOptions, Plan, load_paths, load_reader};
use cgtui::profile::{FnId, Profile};
use proptest::prelude::*;
use std::collections::BTreeMap;
use writer::{Names, Style, style, write};

#[path = "roundtrip/writer.rs"]
mod writer;

// ------------------------------------------------------------------ model

const EVENTS: [&str; 5] = ["Ir", "Dr", "Dw", "I1mr", "sysTime"];
const FILES: [&str; 8] = [
    "a.c",
    "samples/src/inline_helpers.h",
    "./elf/../sysdeps/x86_64/dl-trampoline.h",
    "???",
    "~",
    "<frozen importlib._bootstrap>",
    "dir with space/x.c",
    "ünï/cödé.rs",
];
const OBJECTS: [&str; 4] = ["/tmp/prog", "/usr/lib/libc.so.6", "obj with space", "ld.so"];
const NAMES: [&str; 12] = [
    "main",
    "fib'2",
    "(below main)",
    "std::vector<int, std::allocator<int> >::push_back(int const&)",
    "0x000000000001ab70",
    "__libc_start_main@@GLIBC_2.34",
    "<built-in method builtins.isinstance>",
    "{closure:a.php:36-36}",
    "f(1) = g",
    "#not a comment",
    "名前",
    "x",
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Line,
    InstrLine,
    Instr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    addr: u64,
    line: u64,
}

#[derive(Clone, Debug)]
struct Func {
    name: usize,
    file: usize,
    object: usize,
}

#[derive(Clone, Debug)]
enum Item {
    Cost {
        pos: Pos,
        costs: Vec<i64>,
    },
    Call {
        callee: usize,
        count: u64,
        target: Pos,
        at: Pos,
        costs: Vec<i64>,
    },
    Jump {
        executed: Option<u64>,
        taken: u64,
        target: Pos,
        at: Pos,
    },
}

/// Items of one function, each in a source file (`None`: the function's own;
/// another one is written with `fi=`/`fe=`).
#[derive(Clone, Debug)]
struct Block {
    func: usize,
    items: Vec<(Option<usize>, Item)>,
}

#[derive(Clone, Debug)]
struct Model {
    events: usize,
    kind: Kind,
    objects: bool,
    functions: Vec<Func>,
    parts: Vec<Vec<Block>>,
}

fn pos(kind: Kind) -> impl Strategy<Value = Pos> {
    let addr = prop_oneof![
        4 => 0x40_0000u64..0x40_0100,
        1 => 0u64..8,
        1 => u64::MAX - 8..=u64::MAX,
    ];
    (addr, prop_oneof![4 => 0u64..60, 1 => 0u64..100_000]).prop_map(move |(addr, line)| Pos {
        addr: if kind == Kind::Line { 0 } else { addr },
        line: if kind == Kind::Instr { 0 } else { line },
    })
}

fn costs(n: usize) -> impl Strategy<Value = Vec<i64>> {
    let one = prop_oneof![3 => Just(0i64), 6 => 0i64..1000, 1 => -1000i64..0, 1 => 0i64..1 << 50];
    prop::collection::vec(one, n)
}

fn item(kind: Kind, events: usize, functions: usize) -> impl Strategy<Value = Item> {
    prop_oneof![
        6 => (pos(kind), costs(events)).prop_map(|(pos, costs)| Item::Cost { pos, costs }),
        3 => (0..functions, prop_oneof![Just(0u64), 1u64..10, 0u64..1 << 40], pos(kind), pos(kind), costs(events))
            .prop_map(|(callee, count, target, at, costs)| Item::Call { callee, count, target, at, costs }),
        1 => (prop::option::of(0u64..100), 0u64..100, pos(kind), pos(kind))
            .prop_map(|(executed, taken, target, at)| Item::Jump { executed, taken, target, at }),
    ]
}

fn model() -> impl Strategy<Value = Model> {
    let kind = prop_oneof![Just(Kind::Line), Just(Kind::InstrLine), Just(Kind::Instr)];
    (1..=EVENTS.len(), kind, any::<bool>(), 1usize..7).prop_flat_map(
        |(events, kind, objects, nf)| {
            let func = (0..NAMES.len(), 0..FILES.len(), 0..OBJECTS.len())
                .prop_map(|(name, file, object)| Func { name, file, object });
            let located = (
                prop::option::weighted(0.2, 0..FILES.len()),
                item(kind, events, nf),
            );
            let block = (0..nf, prop::collection::vec(located, 1..7))
                .prop_map(|(func, items)| Block { func, items });
            let parts = prop::collection::vec(prop::collection::vec(block, 1..5), 1..4);
            (prop::collection::vec(func, nf), parts).prop_map(move |(functions, parts)| Model {
                events,
                kind,
                objects,
                functions,
                parts,
            })
        },
    )
}

// --------------------------------------------------------------- expected

/// A function as the profile names it: (name, file, object).
type Key = (String, String, String);

/// (function, file, line, address, target line, target address, taken, executed).
type JumpFact = (Key, String, u64, u64, u64, u64, u64, Option<u64>);

/// (caller, callee, count, file, line, address, target line, target address, cost).
type SiteFact = (Key, Key, u64, String, u64, u64, u64, u64, Vec<i64>);

/// What a part says, in names rather than ids; records sorted.
#[derive(Debug, Default, PartialEq)]
struct Facts {
    self_costs: BTreeMap<Key, Vec<i64>>,
    edges: BTreeMap<(Key, Key), (u64, Vec<i64>)>,
    /// (function, file, line, address) -> cost.
    lines: BTreeMap<(Key, String, u64, u64), Vec<i64>>,
    jumps: Vec<JumpFact>,
    sites: Vec<SiteFact>,
    totals: Vec<i64>,
}

fn add(sum: &mut Vec<i64>, costs: &[i64]) {
    sum.resize(sum.len().max(costs.len()), 0);
    for (s, c) in sum.iter_mut().zip(costs) {
        *s += c;
    }
}

impl Facts {
    /// Drops what is all zero (a function may exist without cost) and sorts.
    fn settle(mut self) -> Self {
        let zero = |v: &[i64]| v.iter().all(|&c| c == 0);
        self.self_costs.retain(|_, v| !zero(v));
        self.lines.retain(|_, v| !zero(v));
        self.edges.retain(|_, (n, c)| *n != 0 || !zero(c));
        self.jumps.sort();
        self.sites.sort();
        self
    }
}

impl Model {
    fn key(&self, f: usize) -> Key {
        let f = &self.functions[f];
        let object = if self.objects { OBJECTS[f.object] } else { "" };
        (NAMES[f.name].into(), FILES[f.file].into(), object.into())
    }

    fn expected(&self, part: usize) -> Facts {
        let mut facts = Facts {
            totals: vec![0; self.events],
            ..Facts::default()
        };
        for block in &self.parts[part] {
            let key = self.key(block.func);
            for (file, item) in &block.items {
                let file = FILES[file.unwrap_or(self.functions[block.func].file)].to_string();
                match item {
                    Item::Cost { pos, costs } => {
                        add(facts.self_costs.entry(key.clone()).or_default(), costs);
                        let at = (key.clone(), file, pos.line, pos.addr);
                        add(facts.lines.entry(at).or_default(), costs);
                        add(&mut facts.totals, costs);
                    }
                    Item::Call {
                        callee,
                        count,
                        target,
                        at,
                        costs,
                    } => {
                        let callee = self.key(*callee);
                        let edge = facts.edges.entry((key.clone(), callee.clone()));
                        let edge = edge.or_default();
                        edge.0 += count;
                        add(&mut edge.1, costs);
                        facts.sites.push((
                            key.clone(),
                            callee,
                            *count,
                            file,
                            at.line,
                            at.addr,
                            target.line,
                            target.addr,
                            costs.clone(),
                        ));
                    }
                    Item::Jump {
                        executed,
                        taken,
                        target,
                        at,
                    } => facts.jumps.push((
                        key.clone(),
                        file,
                        at.line,
                        at.addr,
                        target.line,
                        target.addr,
                        *taken,
                        *executed,
                    )),
                }
            }
        }
        facts.settle()
    }
}

fn key_of(p: &Profile, f: FnId) -> Key {
    let (name, file, object) = (p.fn_name(f), p.fn_file(f), p.fn_object(f));
    (name.into(), file.into(), object.into())
}

/// The same facts read from a loaded profile, for part `i` alone.
fn loaded(p: &Profile, i: usize) -> Facts {
    let selected: Vec<bool> = (0..p.parts.len()).map(|j| j == i).collect();
    let a = Analysis::with_parts(p, &selected);
    let mut facts = Facts {
        totals: a.totals.clone(),
        ..Facts::default()
    };
    for f in (0..p.functions.len()).map(FnId::from_index) {
        let cost = a.self_cost(f).to_vec();
        facts.self_costs.insert(key_of(p, f), cost);
    }
    for (j, e) in a.edges.iter().enumerate() {
        let key = (key_of(p, e.caller), key_of(p, e.callee));
        facts.edges.insert(key, (e.count, a.edge_cost(j).to_vec()));
    }
    let part = p.parts[i].decode(p);
    assert_eq!(part.error, None);
    for (j, l) in part.lines.iter().enumerate() {
        let at = (
            key_of(p, l.func),
            p.file_name(l.file).into(),
            l.line,
            l.addr,
        );
        add(facts.lines.entry(at).or_default(), part.line_cost(j));
    }
    for j in &part.jumps {
        assert_eq!((j.target_func, j.target_file), (j.func, j.file));
        facts.jumps.push((
            key_of(p, j.func),
            p.file_name(j.file).into(),
            j.line,
            j.addr,
            j.target_line,
            j.target_addr,
            j.taken,
            j.executed,
        ));
    }
    for (j, c) in part.calls.iter().enumerate() {
        facts.sites.push((
            key_of(p, c.caller),
            key_of(p, c.callee),
            c.count,
            p.file_name(c.file).into(),
            c.line,
            c.addr,
            c.target_line,
            c.target_addr,
            part.call_cost(j).to_vec(),
        ));
    }
    facts.settle()
}

// ------------------------------------------------------------------ tests

/// Loads the written files: one from memory (`load_reader`) without a
/// `plan`, or from files cut as `plan` says. The directory the files are
/// in must outlive the profile: detail is read from them again.
fn load(texts: &[String], plan: Option<Plan>) -> (Profile, Option<tempfile::TempDir>) {
    if let ([text], None) = (texts, plan) {
        return (load_reader("roundtrip.cg", text.as_bytes()).unwrap(), None);
    }
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<_> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let path = dir.path().join(format!("part{i}.cg"));
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    let options = LoadOptions {
        siblings: false,
        plan: plan.unwrap_or_else(Plan::automatic),
    };
    (load_paths(&paths, options).unwrap(), Some(dir))
}

fn check(m: &Model, texts: &[String], plan: Option<Plan>) -> Result<(), TestCaseError> {
    let (p, _dir) = load(texts, plan);
    prop_assert!(p.diagnostics.is_empty(), "{:#?}", p.diagnostics);
    prop_assert_eq!(p.skipped_lines, 0);
    let names: Vec<&str> = p.events.events.iter().map(|e| e.name.as_str()).collect();
    prop_assert_eq!(&names[..], &EVENTS[..m.events]);
    prop_assert_eq!(p.parts.len(), m.parts.len());
    let mut totals = vec![0; m.events];
    for i in 0..m.parts.len() {
        let want = m.expected(i);
        add(&mut totals, &want.totals);
        let got = loaded(&p, i);
        prop_assert_eq!(
            &got.self_costs,
            &want.self_costs,
            "self costs of part {}",
            i
        );
        prop_assert_eq!(&got.edges, &want.edges, "calls of part {}", i);
        prop_assert_eq!(&got.lines, &want.lines, "line costs of part {}", i);
        prop_assert_eq!(&got.jumps, &want.jumps, "jumps of part {}", i);
        prop_assert_eq!(&got.sites, &want.sites, "call sites of part {}", i);
        prop_assert_eq!(&got.totals, &want.totals, "totals of part {}", i);
        prop_assert_eq!(&p.parts[i].total, &want.totals, "part {} total", i);
    }
    prop_assert_eq!(Analysis::new(&p).totals, totals);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn written_profiles_load_back_to_the_model(m in model(), s in style()) {
        let texts = write(&m, &s);
        check(&m, &texts, None).map_err(|e| {
            TestCaseError::fail(format!("{e}\n--- written:\n{}", texts.join("\n--- next file:\n")))
        })?;
    }

    /// The same from files cut into many chunks (where the chunks give up,
    /// one chunk reads each body: either way the result must be the model).
    #[test]
    fn written_profiles_load_back_in_parallel(m in model(), s in style(), chunks in 1usize..6) {
        let texts = write(&m, &s);
        let plan = Plan { chunks, threads: 2 };
        check(&m, &texts, Some(plan)).map_err(|e| {
            TestCaseError::fail(format!("{e}\n--- written:\n{}", texts.join("\n--- next file:\n")))
        })?;
    }
}

/// The plainest writing of a model (an empty tape, no compression) loads too:
/// a check of the checker.
#[test]
fn the_plainest_style_round_trips() {
    let m = Model {
        events: 2,
        kind: Kind::InstrLine,
        objects: true,
        functions: vec![
            Func {
                name: 0,
                file: 0,
                object: 0,
            },
            Func {
                name: 1,
                file: 1,
                object: 1,
            },
        ],
        parts: vec![vec![Block {
            func: 0,
            items: vec![
                (
                    None,
                    Item::Cost {
                        pos: Pos {
                            addr: 0x10,
                            line: 3,
                        },
                        costs: vec![5, 1],
                    },
                ),
                (
                    Some(2),
                    Item::Call {
                        callee: 1,
                        count: 2,
                        target: Pos {
                            addr: 0x20,
                            line: 7,
                        },
                        at: Pos {
                            addr: 0x11,
                            line: 4,
                        },
                        costs: vec![9, 0],
                    },
                ),
            ],
        }]],
    };
    let s = Style {
        names: [Names::Plain; 3],
        first_id: 1,
        redefine_per_part: false,
        files_per_part: false,
        crlf: false,
        final_newline: true,
        summary: false,
        totals: false,
        tape: Vec::new(),
    };
    let texts = write(&m, &s);
    assert_eq!(
        texts,
        vec![
            "# callgrind format\nversion: 1\ncreator: roundtrip\npositions: instr line\nevents: Ir Dr\nob=/tmp/prog\nfl=a.c\nfn=main\n16 3 5 1\nfi=./elf/../sysdeps/x86_64/dl-trampoline.h\ncob=/usr/lib/libc.so.6\ncfi=samples/src/inline_helpers.h\ncfn=fib'2\ncalls=2 32 7\n17 4 9 0\n"
        ]
    );
    check(&m, &texts, None).unwrap();
}
