#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The reader cut into chunks against the same reader with each body in
//! one chunk, read in the file's order: on every real sample and on
//! generated profiles, cut into 2 to 7 chunks (and more), both must give
//! the same profile: names, functions and their ids, self costs, calls,
//! totals, diagnostics, and every per-line, call-site and jump record (read
//! again from the file). Where the chunks give up, `load_paths` must still
//! give what one chunk gives. What the profiles hold is asserted too.

use crate::support::synth;

use cgtui::parse::{LoadOptions, Plan, load_parallel, load_paths};
use cgtui::profile::{CallSite, Cost, Detail, Jump, LineCost, Part, Profile, Record};
use std::path::{Path, PathBuf};

/// `path` read with each body in one chunk, in the file's order, which
/// must not give up.
fn whole(path: &Path) -> Profile {
    load_parallel(&[path.to_path_buf()], Plan::one_chunk())
        .unwrap()
        .unwrap()
}

fn plan(chunks: usize) -> Plan {
    Plan {
        chunks,
        // Fewer threads than chunks: later chunks wait for the merge.
        threads: 2,
    }
}

fn names(i: &cgtui::profile::Interner) -> Vec<String> {
    (0..i.len() as u32).map(|n| i.name(n).to_string()).collect()
}

/// A part's fields, detail left out (compared separately, decoded).
fn shape(part: &Part) -> String {
    let mut part = part.clone();
    part.detail = Detail::default();
    format!("{part:?}")
}

fn assert_same(one: &Profile, par: &Profile, what: &str) {
    assert_eq!(one.sources, par.sources, "{what}: sources");
    assert_eq!(
        format!("{:?}", one.meta),
        format!("{:?}", par.meta),
        "{what}"
    );
    assert_eq!(
        format!("{:?}", one.events),
        format!("{:?}", par.events),
        "{what}: events"
    );
    assert_eq!(names(&one.files), names(&par.files), "{what}: files");
    assert_eq!(names(&one.objects), names(&par.objects), "{what}: objects");
    assert_eq!(names(&one.fn_names), names(&par.fn_names), "{what}: names");
    assert_eq!(one.functions, par.functions, "{what}: functions");
    assert_eq!(
        format!("{:?}", one.diagnostics),
        format!("{:?}", par.diagnostics),
        "{what}: diagnostics"
    );
    assert_eq!(
        (one.dropped_diagnostics, one.skipped_lines),
        (par.dropped_diagnostics, par.skipped_lines),
        "{what}: diagnostics dropped, lines skipped"
    );
    assert_eq!(one.parts.len(), par.parts.len(), "{what}: parts");
    for (a, b) in one.parts.iter().zip(&par.parts) {
        assert_eq!(shape(a), shape(b), "{what}: part");
        let (da, db) = (a.decode(one), b.decode(par));
        assert_eq!(db.error, None, "{what}");
        assert_eq!(da.lines, db.lines, "{what}: line records");
        assert_eq!(da.line_costs, db.line_costs, "{what}: line costs");
        assert_eq!(da.calls, db.calls, "{what}: call sites");
        assert_eq!(da.call_costs, db.call_costs, "{what}: call costs");
        assert_eq!(da.jumps, db.jumps, "{what}: jumps");
    }
    // One function's records, as the source view asks for them.
    for (f, _) in one.functions.iter().enumerate().step_by(7) {
        let f = cgtui::profile::FnId::from_index(f);
        for (a, b) in one.parts.iter().zip(&par.parts) {
            let (mut ra, mut rb) = (Vec::new(), Vec::new());
            a.detail
                .for_each_of(one, f, |r| ra.push(Owned::from(r)))
                .unwrap();
            b.detail
                .for_each_of(par, f, |r| rb.push(Owned::from(r)))
                .unwrap();
            assert_eq!(ra, rb, "{what}: records of function {f:?}");
        }
    }
}

/// A record kept after its visit (its costs copied): compared field by
/// field, where formatting each of a million records took seconds.
#[derive(Debug, PartialEq)]
enum Owned {
    Line(LineCost, Vec<Cost>),
    Call(CallSite, Vec<Cost>),
    Jump(Jump),
}

impl From<Record<'_>> for Owned {
    fn from(r: Record<'_>) -> Self {
        match r {
            Record::Line(l, c) => Owned::Line(l, c.to_vec()),
            Record::Call(s, c) => Owned::Call(s, c.to_vec()),
            Record::Jump(j) => Owned::Jump(j),
        }
    }
}

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut files: Vec<PathBuf> = ["", "threads", "dumps"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(dir.join(sub)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.contains("grind") && !name.ends_with(".gz")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_sample_loads_the_same_in_parallel() {
    let mut parallel = 0;
    for path in samples() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let one = match std::panic::catch_unwind(|| whole(&path)) {
            Ok(p) => p,
            Err(_) => continue, // not a profile on its own (a set's base file)
        };
        // One chunk is `whole` itself.
        for chunks in [2, 3, 7] {
            match load_parallel(std::slice::from_ref(&path), plan(chunks)).unwrap() {
                Ok(par) => {
                    assert_same(&one, &par, &format!("{name} in {chunks} chunks"));
                    parallel += 1;
                }
                Err(why) => panic!("{name}: the chunks gave up: {why}"),
            }
        }
        // Through the public entry point, giving up or not, the result is the same.
        loads_through_load_paths_as(&path, &one, &format!("{name} via load_paths"));
    }
    assert!(parallel >= 3 * 25, "only {parallel} parallel loads");
}

#[test]
fn generated_profiles_of_every_shape_load_the_same_in_parallel() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("synth.callgrind");
    let out = path.to_str().unwrap();
    type Write = fn(&str) -> std::io::Result<synth::Written>;
    let shapes: [(&str, Write); 3] = [
        // 1-1.5 MB each: 16 chunks still cut each shape into blocks of
        // many functions, and the chunks' edges fall at random places.
        ("instruction level", |out| synth::write(out, 1 << 20, 7)),
        ("many functions", |out| {
            synth::write_many(out, 6_000, 3 << 19, 7)
        }),
        ("tiny functions", |out| synth::write_tiny(out, 40_000)),
    ];
    for (shape, write) in shapes {
        let written = write(out).unwrap();
        assert_eq!(written.bytes, std::fs::metadata(&path).unwrap().len());
        let one = whole(&path);
        for chunks in [2, 5, 16] {
            let par = load_parallel(std::slice::from_ref(&path), plan(chunks))
                .unwrap()
                .unwrap();
            assert_same(&one, &par, &format!("{shape} in {chunks} chunks"));
            assert_eq!(par.functions.len() as u64, written.functions, "{shape}");
            for (event, total) in &written.totals {
                let i = par.events.index_of(event).unwrap();
                let part = &par.parts[0];
                let column = part.event_map.iter().position(|&e| e == i).unwrap();
                assert_eq!(part.total[column] as u128, *total, "{shape}: {event}");
            }
        }
    }
}

/// Found by the `parallel` fuzz target: a last line without its `\n` that
/// cannot be read (here a `summary:` with a stray letter) makes the
/// loader warn that the file looks truncated, cut into chunks too (it did
/// not in chunks before).
#[test]
fn an_unreadable_last_line_without_newline_is_called_truncated_by_both() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.callgrind");
    let mut text = String::from("events: Ir\n");
    for f in 0..40 {
        text.push_str(&format!("fn=f{f}\n{f} 10\n"));
    }
    text.push_str("summary: 400d");
    std::fs::write(&path, &text).unwrap();
    let one = whole(&path);
    let truncated = |p: &Profile| {
        p.diagnostics
            .iter()
            .any(|d| d.message.contains("looks truncated") && d.line == 82)
    };
    assert!(truncated(&one), "{:?}", one.diagnostics);
    for chunks in [1, 2, 3] {
        let par = load_parallel(std::slice::from_ref(&path), plan(chunks))
            .unwrap()
            .unwrap();
        assert_same(&one, &par, &format!("{chunks} chunks"));
        assert!(truncated(&par), "{chunks} chunks: {:?}", par.diagnostics);
    }
}

/// Found by the `parallel` fuzz target: a jump whose position row never
/// comes (the next line names a file) is made from the last position; the
/// parallel loader dropped it.
#[test]
fn a_jump_without_its_row_is_kept_by_both() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("jump.callgrind");
    let text = "events: Ir\npositions: instr line\nob=(1) a.so\nfl=(1) a.c\nfn=(1) f\n\
                0x10 5 1\n+1 * 1\njcnd=1/1 0x20 +1\nfl=(2) b.c\nfn=(2) g\n0x30 7 1\n";
    std::fs::write(&path, text).unwrap();
    let one = whole(&path);
    assert_eq!(one.parts[0].decode(&one).jumps.len(), 1);
    for chunks in [1, 2] {
        let par = load_parallel(std::slice::from_ref(&path), plan(chunks))
            .unwrap()
            .unwrap();
        assert_same(&one, &par, &format!("{chunks} chunks"));
    }
}

#[test]
fn a_changed_file_is_not_read_again_as_if_it_had_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.callgrind");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/inline.callgrind");
    std::fs::copy(&sample, &path).unwrap();
    let p = load_parallel(std::slice::from_ref(&path), plan(2))
        .unwrap()
        .unwrap();
    assert!(p.parts[0].decode(&p).error.is_none());
    let mut text = std::fs::read(&path).unwrap();
    text.extend_from_slice(b"# appended\n");
    std::fs::write(&path, text).unwrap();
    let error = p.parts[0].decode(&p).error.unwrap();
    assert!(
        error.contains("p.callgrind") && error.contains("changed"),
        "{error}"
    );
    std::fs::remove_file(&path).unwrap();
    assert!(p.parts[0].decode(&p).error.is_some());
}

/// The header is read 64 KiB at a time until its first `fn=` line: one
/// longer than that (a long `cmd:`), whose `\nfn=` is cut by the end of
/// the first read, still loads, per-line detail left in the file, cut
/// into chunks as in one.
#[test]
fn a_header_longer_than_the_first_read_loads_in_parallel() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long-header.callgrind");
    let (start, end) = ("version: 1\ncmd: ./run ", "\nevents: Ir\n");
    // The `\n` before the first `fn=` is the read's last byte but one.
    let pad = (64 << 10) - 1 - start.len() - end.len();
    let mut text = format!("{start}{}{end}", "x".repeat(pad));
    assert_eq!(text.len(), (64 << 10) - 1);
    for f in 0..2000 {
        text.push_str(&format!("fn=f{f}\n{f} 10\n"));
    }
    std::fs::write(&path, &text).unwrap();
    let one = whole(&path);
    assert_eq!(one.parts[0].total, [2000 * 10]);
    loads_cut_as_whole(&path, &one, &[1, 3]);
}

/// `text` written to a file `name` in a new folder (kept while the
/// returned handle lives).
fn written(name: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// Through the public entry point (in three chunks where they do not
/// give up, else in one), `path` gives `one`.
fn loads_through_load_paths_as(path: &Path, one: &Profile, what: &str) -> Profile {
    let options = LoadOptions {
        siblings: false,
        plan: plan(3),
    };
    let auto = load_paths(&[path.to_path_buf()], options).unwrap();
    assert_same(one, &auto, what);
    auto
}

/// `path` cut into each number of `chunks` loads without giving up and
/// gives `one`.
fn loads_cut_as_whole(path: &Path, one: &Profile, chunks: &[usize]) {
    for &chunks in chunks {
        let par = load_parallel(&[path.to_path_buf()], plan(chunks))
            .unwrap()
            .unwrap();
        assert_same(one, &par, &format!("{chunks} chunks"));
    }
}

/// Found by the `parallel` fuzz target: a file named in the header
/// (`fl=(1) a.c`), used by its ID in the body (`cfi=(1)`) and named again
/// there made the chunk reader give up on one chunk and, cut in three,
/// fail to read the per-line costs again. Named again, with the same name
/// or another, it loads in chunks.
#[test]
fn a_name_given_again_after_its_use_by_id_loads_in_parallel() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("again.callgrind");
    let text = |again: &str| {
        format!(
            "events: Ir\nfl=(1) a.c\nfn=(1) main\n1 1\ncfi=(1)\ncfn=(2) f\ncalls=1 2\n1 5\n\
             fl=(2) b.c\nfn=(2) f\n2 5\nfl=(1) {again}\nfn=(3) g\n3 7\n"
        )
    };
    std::fs::write(&path, text("a.c")).unwrap();
    loads_cut_as_whole(&path, &whole(&path), &[1, 2, 3]);
    std::fs::write(&path, text("other.c")).unwrap();
    loads_cut_as_whole(&path, &whole(&path), &[1, 2, 3]);
}

/// IDs used before any definition (named `(7)` until defined, said at the
/// use) and given other names part way (yappi and combined dumps do): each
/// use takes the name the ID had there, when loading and when a
/// function's lines are read again, in any chunking.
#[test]
fn names_used_before_their_definition_or_given_again_load_in_parallel() {
    let mut text = String::from("events: Ir\nfl=(1) a.c\n");
    for f in 0..300 {
        let (id, name) = (f % 7, f / 50);
        text += &format!("fn=(9{id}) f{name}_{id}\n{f} 1\ncfi=(7)\ncfn=(8)\ncalls=1 2\n3 4\n");
        if f % 100 == 50 {
            text += &format!("fl=(7) late{f}.c\nfn=(8) g{f}\n{f} 2\nfl=(1)\n");
        }
    }
    let (_dir, path) = written("renamed.callgrind", &text);
    let one = whole(&path);
    assert_says(&one, "name (7) used before it was defined");
    assert_says(&one, "name (8) used before it was defined");
    let names = names(&one.fn_names);
    for name in ["(8)", "g50", "g250", "f0_0", "f5_6"] {
        assert!(names.contains(&name.to_string()), "{name}: {names:?}");
    }
    loads_cut_as_whole(&path, &one, &[1, 2, 3, 7]);
}

/// Counters as `cg_diff` writes them (negative, one of them `i64::MIN`) and
/// in hex load in chunks, per-line detail left in the file. Near the
/// limits (`i64::MIN`, a counter beyond 64 bits, saturated and said),
/// costs of both signs are added in one chunk, in the file's order.
#[test]
fn signed_and_hex_counters_load_in_parallel() {
    let mut text = String::from("events: Ir Dr\n");
    for f in 0..300 {
        text.push_str(&format!("fn=f{f}\n{f} -{f} 0x1f\n+1 3 -4611686018427387\n"));
    }
    let (_dir, path) = written("diff.callgrind", &text);
    let one = whole(&path);
    assert_eq!(one.parts[0].total[0], -(299 * 300 / 2) + 3 * 300);
    loads_cut_as_whole(&path, &one, &[1, 4]);

    // Near the limits, costs of both signs are added in the file's order.
    text.push_str("fn=big\n1 -9223372036854775808 99999999999999999999\n");
    std::fs::write(&path, &text).unwrap();
    let one = whole(&path);
    assert!(!one.diagnostics.is_empty(), "the saturation is said");
    cut_gives_up_and_one_chunk_reads(&path, &one, "cost beyond 64 bits");
}

/// A sum that goes beyond 64 bits and comes back, by costs of both signs
/// in another chunk than the one it nears the limit in: saturated in the
/// file's order, where the chunk's own sum (10 - 10) does not go beyond.
/// Cut, the chunks give up; one chunk reads it.
#[test]
fn sums_of_both_signs_near_the_limit_are_added_in_the_files_order() {
    let text = "events: Ir\nfn=a\n1 9223372036854775800\nfn=b\n1 1\nfn=a\n1 10\n1 -10\n";
    saturates_in_the_files_order(text, (0, i64::MAX - 9), 7);
}

/// `text`, read in one chunk, gives part `part` the total `total`, the
/// saturation said at `line` alone; cut, the chunks give up, and
/// `load_paths` reads it in one chunk.
fn saturates_in_the_files_order(text: &str, (part, total): (usize, i64), line: usize) {
    let (_dir, path) = written("saturated.callgrind", text);
    let one = whole(&path);
    assert_eq!(one.parts[part].total, [total]);
    let said: Vec<_> = (one.diagnostics.iter()).map(|d| d.line).collect();
    assert_eq!(said, [line], "{:?}", one.diagnostics);
    cut_gives_up_and_one_chunk_reads(&path, &one, "cost beyond 64 bits");
}

/// As yappi writes: every name declared up front by a `fn=` no line uses,
/// then used in another order. A declaration becomes a function at its
/// first use, so functions are numbered alike in any chunking, and one
/// never used is none; chunks cut between the declarations too.
#[test]
fn functions_declared_up_front_load_in_parallel() {
    let mut text = String::from("events: Ticks\n");
    for f in 0..200 {
        text.push_str(&format!("fl=(1) a.py\nfn=({f}) f{f}\n"));
    }
    for f in (0..200).rev().filter(|f| f % 3 != 0) {
        text.push_str(&format!(
            "fn=({f})\n1 {f}\ncfn=({})\ncalls=1 1\n1 5\n",
            (f + 1) % 200
        ));
    }
    let (_dir, path) = written("declared.callgrind", &text);
    let one = whole(&path);
    let names: Vec<&str> = one
        .functions
        .iter()
        .map(|f| one.fn_names.name(f.name))
        .collect();
    assert_eq!(&names[..3], ["f199", "f0", "f197"], "numbered by first use");
    loads_cut_as_whole(&path, &one, &[1, 3, 7, 40]);
}

/// Several parts in one file (`--dump-before`, another set of events) and a
/// profile appended after it (xdebug), each part's body longer than a
/// chunk: each section's header is read by the loader and its body in
/// chunks, chunks of one section never running into the next, and per-line
/// costs read again stop at the part's end.
#[test]
fn several_parts_and_an_appended_profile_load_in_parallel() {
    let body = |text: &mut String, names: &str, costs: &str| {
        for f in 0..3000 {
            let callee = f / 2;
            text.push_str(&format!(
                "fl=(1) a.c\nfn=({f}) {names}{f}\n{f} {costs}\ncfn=({callee})\ncalls=2 9\n+1 {costs}\n"
            ));
        }
    };
    let mut text = String::from("version: 1\npid: 7\npart: 1\npositions: line\nevents: Ir\n");
    body(&mut text, "f", "5");
    text.push_str("totals: 1\n\npart: 2\ndesc: Trigger: x\npositions: line\nevents: Ir Dr\n");
    body(&mut text, "f", "3 4");
    text.push_str("==== NEW PROFILING FILE ====\nversion: 1\nevents: Time\n");
    body(&mut text, "g", "11");
    let (_dir, path) = written("parts.callgrind", &text);
    let one = whole(&path);
    assert_eq!(one.parts.len(), 3);
    loads_cut_as_whole(&path, &one, &[1, 3, 8]);

    // Header lines inside a part that neither start a part nor change what
    // its lines mean: applied at their line, as the loader applies them.
    let inside = text
        .replacen("fn=(10) f10\n", "desc: late\ncmd: b\nfn=(10) f10\n", 1)
        .replacen(
            "fn=(20) f20\n20 5\n",
            "fn=(20) f20\nevent: X = 2 Ir\nodd: 1\n20 5\n",
            1,
        );
    std::fs::write(&path, &inside).unwrap();
    let one = whole(&path);
    assert_eq!(one.parts[0].desc, ["late"]);
    assert_says(&one, "unknown header `odd:` ignored");
    loads_cut_as_whole(&path, &one, &[1, 3, 8]);
    // One that changes them before the part has data (so it starts no
    // other part): the function declared before it goes on after it.
    let events = text.replacen("fn=(0) f0\n", "fn=(0) f0\nevents: Ir Dr\n", 1);
    std::fs::write(&path, &events).unwrap();
    let one = whole(&path);
    assert_eq!(one.parts[0].event_map.len(), 2);
    loads_cut_as_whole(&path, &one, &[1, 3, 8]);
}

/// Found by the `parallel` fuzz target: the header of a later section
/// holding body lines (`fe=(27)` and a cost line after `pid:`), which
/// the loader reads with the function the body before left waiting
/// (`fn=(258)`, not yet used), in one chunk and cut alike.
/// Body lines after a later part's header belong to the function the
/// body before left current, with its files, its call's callee and a
/// `fn=` no line used yet: the part's body goes on from there, and so
/// does reading its lines again.
#[test]
fn a_later_header_with_body_lines_continues_the_function_in_parallel() {
    let text = "version: 1\nevents: Ir\nfn=(1) a\n0 1083\n\nfn=(258) b\npid: 1000\n\
                fe=(27) x.c\n1 5\n";
    let (_dir, path) = written("header-body.callgrind", text);
    let one = whole(&path);
    assert_eq!(one.functions.len(), 2, "b made by its use after the header");
    loads_cut_as_whole(&path, &one, &[1, 2]);
    let text = "events: Ir\nfn=a\n1 5\ncfn=b\ncalls=2 9\n3 4\ncfn=c\npart: 2\n2 7\n\
                fi=x.c\n4 1\ncalls=1 9\n5 2\nfn=b\n9 3\nfn=d\npart: 3\ndesc: x\n\
                events: Ir Dr\n+1 2 3\njump=1 +2\n+2\npart: 4\n+1 1 1\n";
    std::fs::write(&path, text).unwrap();
    let one = whole(&path);
    assert_eq!(one.parts.len(), 4);
    let c = one.find_function("c", "", "").unwrap();
    assert_eq!(
        one.parts[1].edges[0].callee, c,
        "the callee named before the header"
    );
    loads_cut_as_whole(&path, &one, &[1, 2, 3]);
    // What a jump's and a call's next lines name, said before the header.
    let text = "events: Ir\nfn=a\n1 1\njfi=j.c\njfn=b\ncob=lib\ncfi=c.c\npart: 2\n\
                jump=1 5\n3\ncfn=c\ncalls=1 5\n5 5\n";
    std::fs::write(&path, text).unwrap();
    let one = whole(&path);
    let jumps = one.parts[1].decode(&one).jumps;
    assert_eq!(one.files.name(jumps[0].target_file.0), "j.c");
    let c = one.functions[one.parts[1].edges[0].callee.index()];
    assert_eq!(one.objects.name(c.object.0), "lib");
    loads_cut_as_whole(&path, &one, &[1, 2]);
    // The fuzz target's own input, kept as it was found.
    let found = "# callgrind format\nversion: 0\ncreator: callgrind-3.19. \npid: 1000\nache:line\n\
                 events: Ir\nsumb=(4)_start_main@@GLIBC_2.34\ncalls=1 242 \n0 1083\n\n\
                 fn=(258) 0x00000000000format\nversion: 0\ncreator: callgrind-3.19.0\n\
                 pid: 1000\ncmd:  /tmp3\nfe=(27)\n1";
    std::fs::write(&path, found).unwrap();
    let one = whole(&path);
    loads_cut_as_whole(&path, &one, &[1, 2, 3]);
}

/// Found by the `parallel` fuzz target: an unknown `key=` line (said by
/// the merge after the chunk) in a chunk that ends with a `fn=` no line
/// used made that function, as if the key had used it.
#[test]
fn a_fn_the_chunk_leaves_unused_is_no_function_after_an_unknown_key() {
    let text = "events: Ir\nfn=a\n1 1\nodd=1\nfn=b";
    let (_dir, path) = written("unused.callgrind", text);
    let one = whole(&path);
    assert_eq!(one.functions.len(), 1);
    assert_says(&one, "unknown line `odd=` ignored");
    loads_cut_as_whole(&path, &one, &[1, 2]);
}

/// A body before any `events:` line: each cost line is an error (its
/// function used all the same, a call waiting on), and the function goes
/// on after the `events:` line. Too many errors before it make the file
/// no profile, said at the same line whichever path reads it, and so
/// does a line too long to read.
#[test]
fn a_body_before_the_events_line_loads_in_parallel() {
    let text = "fn=a\n1 5\ncfn=b\ncalls=1 2\n3 4\nfn=c\njump=1 +2\n4 4\n\
                events: Ir\n2 3\nfn=b\n1 1\n";
    let said = ["cost line before the `events:` header"];
    loads_in_parallel_saying(text, &said, &[1, 2]);
    // An appended profile has no events until its own `events:` line.
    let appended = "events: Ir\nfn=a\n1 1\n==== NEW PROFILING FILE ====\nfn=b\n2 2\n\
                    events: Ir\n3 3\n";
    loads_in_parallel_saying(appended, &said, &[1, 2]);
    let not_a_profile = |text: &str, why: &str| {
        let (_dir, path) = written("no-events.callgrind", text);
        let paths = [path];
        let options = LoadOptions {
            siblings: false,
            plan: Plan::one_chunk(),
        };
        let one = load_paths(&paths, options).err().unwrap().to_string();
        assert!(one.ends_with(why), "{one}");
        for chunks in [1, 2, 3] {
            let par = load_parallel(&paths, plan(chunks));
            assert_eq!(par.err().unwrap().to_string(), one, "{chunks} chunks");
        }
    };
    // The 20th error at the `events:` line itself (a call it ends) is
    // said, and the file read on (found by the `parallel` fuzz target).
    let twentieth = format!(
        "fn=a\ncfn=b\ncalls=1 1\n{}events: Ir\n2 2\n",
        "1 1\n".repeat(19)
    );
    loads_in_parallel_saying(&twentieth, &["`calls=` is not followed"], &[1]);
    let text = profile_of(30, |f| format!("fn=f{f}\n1 1\n")).replace("events: Ir\n", "");
    not_a_profile(
        &text,
        "20 unreadable lines and no `events:` line before line 40",
    );
    let max = cgtui::parse::MAX_LINE;
    let long = format!("fn=a\n1 {}\nevents: Ir\n", "1".repeat(max));
    not_a_profile(&long, &format!("line 2 is over {max} bytes long"));
}

/// A header ends at its first body line, whatever it is: lines before any
/// `fn=` are the body's (said to be out of place as the loader says it), a
/// byte order mark is read past, and a part whose costs run on for more
/// than any header may (4 MiB) without a `fn=` is still a body.
#[test]
fn a_header_ends_at_its_first_body_line() {
    let text = "events: Ir\n1 5\ncfn=b\ncalls=1 2\n3 4\nfn=a\n2 2\n";
    let said = ["cost line before any `fn=`", "call before any `fn=`"];
    loads_in_parallel_saying(text, &said, &[1, 2]);
    loads_in_parallel_saying("\u{feff}fn=a\n1 1\nevents: Ir\n2 2\n", &[], &[1, 2]);
    // 5 MiB of cost lines of 16 bytes: under a third of the records (read,
    // decoded and compared several times each) that lines of `+1 1` make.
    let lines = 5 << 16;
    let cost = "+1 100000000000\n";
    let long = "events: Ir\nfn=a\n1 1\npart: 2\n".to_string() + &cost.repeat(lines);
    assert!(long.len() > 5 << 20);
    let (_dir, path) = written("long.callgrind", &long);
    let one = whole(&path);
    assert_eq!(one.parts[1].total, [lines as i64 * 100_000_000_000]);
    loads_cut_as_whole(&path, &one, &[1, 3]);
}

/// A header of more lines than are read at once (over 4 MiB of `desc:`
/// lines) loads in parallel, the loader taking it in pieces; so does one
/// with a line longer than any reader keeps, said at its line.
#[test]
fn a_header_of_any_length_loads_in_parallel() {
    let desc = format!("desc: {}\n", "d".repeat(100));
    let text = "events: Ir\n".to_string() + &desc.repeat(50_000) + "fn=a\n1 1\n";
    let (_dir, path) = written("long.callgrind", &text);
    let one = whole(&path);
    assert_eq!(one.parts[0].desc.len(), 50_000);
    loads_cut_as_whole(&path, &one, &[1, 2]);
    let overlong = "x".repeat(cgtui::parse::MAX_LINE + 1);
    let text = format!("events: Ir\n{overlong}\nfn=a\n1 1\n");
    let (_dir, path) = written("overlong.callgrind", &text);
    let one = whole(&path);
    assert_says(&one, "line over 16777216 bytes long skipped");
    assert_eq!(one.diagnostics[0].line, 2);
    assert_eq!(one.parts[0].total, [1]);
    loads_cut_as_whole(&path, &one, &[1, 2]);
}

/// Asserts that `profile` has a diagnostic beginning with `said`.
fn assert_says(profile: &Profile, said: &str) {
    assert!(
        (profile.diagnostics.iter()).any(|d| d.message.starts_with(said)),
        "{said}: {:?}",
        profile.diagnostics
    );
}

/// Lines the loader reads its own way, warns about or skips
/// with an error (more counters than events, a counter beyond 64 bits, a
/// cost line it cannot read, a position that goes below zero, a `calls=`
/// followed by another line, a line that is not the format's, `calls=` and
/// jump lines it cannot use, whose next row it then skips) load in
/// parallel, saying the same at the same lines, in any chunking.
#[test]
fn lines_the_loader_warns_about_load_in_parallel() {
    let mut text = String::from("events: Ir Dr\npositions: line\n");
    for f in 0..300 {
        text.push_str(&format!("fn=f{f}\n{f} 1 2\n"));
        text.push_str(match f % 13 {
            0 => "+1 3 4 5 6\n",
            1 => "cfn=g1\ncalls=1 1\n+1 1 99999999999999999999\n",
            2 => "+1 3x\n+1 1\n",
            3 => "-99999 1\n*\n",
            4 => "cfn=g\ncalls=2 1\nfl=a.c\n+1 5\ncalls=1 1\nbb=9\n",
            5 => "what is this\n+1 1\n",
            6 => "cfn=g\ncalls=x 1\n+1 5\n+1 2\n",
            7 => "calls=1 1\n+1 5\n",
            8 => "cfn=g\ncalls=1 zz\n+1 5\n",
            9 => "jump=x 1\n+1\n+1 4\njcnd=1/2 +99999999999999999999\n+1 3\n",
            10 => "cfn=h\ncalls=99999999999999999999 +2\n+1 5\n",
            11 => "jump=99999999999999999999 +3\n+1\n",
            _ => "+2 3 0x10\n",
        });
    }
    let (_dir, path) = written("warned.callgrind", &text);
    let one = whole(&path);
    for said in [
        "4 counters but 2 events",
        "1 counter(s) beyond the signed 64-bit range saturated",
        "cannot read cost line at `x`",
        "relative position goes below zero (last was 3)",
        "`calls=` is not followed by a cost line",
        "not a profile line: `what is this`",
        "cannot read `calls=` count",
        "`calls=` without a `cfn=` before it",
        "cannot read target position `zz`",
        "cannot read `jump=` counts",
        "relative position goes beyond 64 bits",
        "call count beyond 64 bits saturated",
        "jump count beyond 64 bits saturated",
    ] {
        assert_says(&one, said);
    }
    loads_cut_as_whole(&path, &one, &[1, 2, 3, 7]);
}

/// More such lines than a profile keeps diagnostics for: cut or not, the
/// same first ones are kept and the rest counted, and the lines skipped.
#[test]
fn more_unreadable_lines_than_diagnostics_kept_load_in_parallel() {
    let mut text = String::from("events: Ir\n");
    for f in 0..6000 {
        text.push_str(&format!("fn=f{f}\n{f} 1\n+1 ?\nnonsense\n"));
    }
    let (_dir, path) = written("noisy.callgrind", &text);
    let one = whole(&path);
    assert_eq!(one.diagnostics.len(), cgtui::profile::KEPT_DIAGNOSTICS);
    assert_eq!(one.dropped_diagnostics, 12_000 - one.diagnostics.len());
    assert_eq!(one.skipped_lines, 12_000);
    loads_cut_as_whole(&path, &one, &[1, 3, 7]);
}

/// `text`, written to a file, says each of `said` when loaded in one chunk,
/// and loads in each number of `chunks` as it does so.
fn loads_in_parallel_saying(text: &str, said: &[&str], chunks: &[usize]) {
    let (_dir, path) = written("said.callgrind", text);
    let one = whole(&path);
    for said in said {
        assert_says(&one, said);
    }
    loads_cut_as_whole(&path, &one, chunks);
}

/// `events: Ir` and the blocks `block` writes for functions 0 to `n - 1`.
fn profile_of(n: usize, block: impl Fn(usize) -> String) -> String {
    (0..n).fold(String::from("events: Ir\n"), |text, f| text + &block(f))
}

/// Function `f`'s block: a cost line and a call with its cost line.
fn calling(f: usize) -> String {
    format!("fn=f{f}\n{f} 1\ncfn=g\ncalls=1 2\n3 4\n")
}

/// Found by the `parallel` fuzz target: a part whose last `calls=` has no
/// cost line before the next part's header loaded in parallel (the call
/// dropped, as one chunk drops it), but reading that
/// function's lines again gave up at the part's end.
#[test]
fn a_call_cut_off_by_the_next_part_is_dropped_when_read_again_too() {
    let mut text = profile_of(50, |f| {
        let end = if f == 49 { "\n" } else { "3 4\n" };
        format!("fn=f{f}\n{f} 1\ncfn=g\ncalls=1 2\n{end}")
    });
    text.push_str("part: 2\nevents: Ir\nfn=g\n2 5\n");
    loads_in_parallel_saying(&text, &["`calls=` is not followed"], &[1, 2, 3]);
}

/// A `calls=` line (read or not) whose cost line never comes, because the
/// next `fn=` follows it, is dropped and said at that line, wherever the
/// chunks are cut: every block here ends so, and some chunk boundary is
/// at one of those `fn=` lines in every chunking.
#[test]
fn calls_without_their_cost_line_before_a_chunks_end_load_in_parallel() {
    let text = profile_of(400, |f| {
        let call = if f % 2 == 0 { "calls=1 2" } else { "calls=x 2" };
        format!("fn=f{f}\n{f} 1\ncfn=g\n{call}\n")
    });
    let said = [
        "`calls=` is not followed by a cost line",
        "file ends after `calls=` without its cost line",
    ];
    loads_in_parallel_saying(&text, &said, &[1, 2, 3, 7]);
}

/// A file cut after a `calls=` line (a profile whose writer was stopped),
/// with or without the line's `\n`, or after an unreadable one: the call
/// is dropped and the file said to look truncated, in parallel too.
#[test]
fn a_file_that_ends_after_calls_loads_in_parallel() {
    for end in [
        "calls=1 2\n",
        "calls=1 2",
        "calls=? 2\n",
        "calls=1 2\n# a comment\n",
    ] {
        let mut text = profile_of(100, calling);
        text.push_str("fn=last\n7 1\ncfn=g\n");
        text.push_str(end);
        let said = ["file ends after `calls=` without its cost line"];
        loads_in_parallel_saying(&text, &said, &[1, 2, 5]);
    }
}

/// A line longer than any reader keeps (16 MiB) is skipped and said at its
/// line, in one chunk and cut: in the middle of a function,
/// between a `calls=` and its cost line (the call waits on past it), and
/// as the file's last line without its `\n` (which then looks truncated).
#[test]
fn an_overlong_line_is_skipped_in_parallel_too() {
    let long = "7".repeat(cgtui::parse::MAX_LINE + 100);
    let head = profile_of(50, calling);
    let skipped = "line over 16777216 bytes long skipped";
    for (tail, said) in [
        (
            format!("fn=big\n1 5\n{long}\n+1 3\nfn=after\n2 2\n"),
            &[skipped][..],
        ),
        (
            format!("fn=big\n1 5\ncfn=g\ncalls=1 2\n{long}\n3 4\n"),
            &[skipped],
        ),
        (
            format!("fn=big\n1 5\n{long}"),
            &[skipped, "file ends in the middle of a line"],
        ),
    ] {
        loads_in_parallel_saying(&format!("{head}{tail}"), said, &[1, 3]);
    }
}

/// Found by the `parallel` fuzz target: a sum that overflows (ten costs of
/// 18 digits in one function) was added once by the quick reading, which
/// then declined the line, and again by the general one, which found no
/// overflow in the wrapped sum: the chunks went on with a wrong total
/// instead of leaving the file to one chunk, which saturates it and says
/// so.
#[test]
fn a_sum_that_overflows_is_not_added_twice() {
    let mut text = String::from("events: Ir\n");
    for f in 0..20 {
        text.push_str(&format!("fn=f{f}\n{f} 1\n"));
    }
    text.push_str("fn=big\n");
    for line in 0..10 {
        text.push_str(&format!("{line} 999999999999999999\n"));
    }
    let (_dir, path) = written("overflow.callgrind", &text);
    let one = whole(&path);
    assert_says(&one, "costs add up beyond");
    // Read in one chunk, in the file's order, the sum saturates.
    cut_gives_up_and_one_chunk_reads(&path, &one, "cost beyond 64 bits");
}

/// Cut in chunks, `path` makes the chunk reader give up (`why`); read as
/// one chunk it gives `one`, and the load takes that way.
fn cut_gives_up_and_one_chunk_reads(path: &Path, one: &Profile, why: &str) {
    let cut = load_parallel(&[path.to_path_buf()], plan(2)).unwrap();
    assert_eq!(cut.err(), Some(why));
    loads_cut_as_whole(path, one, &[1]);
    loads_through_load_paths_as(path, one, "through load_paths");
}

/// Sums that go beyond 64 bits in two parts, by costs and by a call count,
/// read in one chunk: saturated, said once in the file.
#[test]
fn sums_beyond_64_bits_saturate_in_one_chunk() {
    let big = "9223372036854775000";
    let text = format!(
        "events: Ir\nfn=a\n1 {big}\n2 {big}\ncfn=b\ncalls={big}0 1\n3 1\n\
         cfn=b\ncalls={big}0 1\n3 1\npart: 2\nevents: Ir\nfn=a\n1 {big}\n1 {big}\n"
    );
    let (_dir, path) = written("saturated.callgrind", &text);
    let one = whole(&path);
    let said = |p: &Profile| {
        (p.diagnostics.iter())
            .filter(|d| d.message.starts_with("costs add up beyond"))
            .map(|d| d.line)
            .collect::<Vec<_>>()
    };
    assert_eq!(said(&one), [4], "{:?}", one.diagnostics);
    assert_eq!(one.parts[0].edges[0].count, u64::MAX);
    loads_cut_as_whole(&path, &one, &[1]);
}

/// One function spelled two ways in a body (by the ID a part before
/// named, then by its name): two rows in one chunk, whose sums added up
/// apart would not saturate where the file's order does. One chunk reads
/// the body again into the profile's rows, in order; cut, it gives up.
#[test]
fn a_function_spelled_two_ways_sums_in_the_files_order() {
    let text = "events: Ir\nfn=(1) a\n1 1\npart: 2\nfn=(1)\n1 9223372036854775800\n\
                fn=a\n1 10\nfn=(1)\n1 -10\n";
    saturates_in_the_files_order(text, (1, i64::MAX - 10), 8);
}

/// A part's first position written relative (`+3`): relative to 0, where
/// the loader starts every part, so the first chunk of each part reads it
/// (it gave up before). Later chunks can not know the position before them.
#[test]
fn a_relative_position_at_a_parts_start_loads_in_parallel() {
    let text = "events: Ir\nfn=main\n+3 5\n-1 2\npart: 2\nevents: Ir\nfn=g\n+7 1\n";
    let (_dir, path) = written("relative.callgrind", text);
    let one = whole(&path);
    assert_eq!(one.parts.len(), 2);
    assert!(one.diagnostics.is_empty(), "{:?}", one.diagnostics);
    let lines = |part: usize| {
        let d = one.parts[part].decode(&one);
        d.lines.iter().map(|l| l.line).collect::<Vec<_>>()
    };
    assert_eq!((lines(0), lines(1)), (vec![3, 2], vec![7]));
    loads_cut_as_whole(&path, &one, &[1]);
}

/// Blocks whose first position is relative to the block before: cut into
/// chunks, a chunk can not know where it starts and gives up; the load
/// then reads the body as one chunk, in the file's order (its lines left
/// in the file).
#[test]
fn positions_relative_across_chunks_load_as_one_chunk() {
    let text = profile_of(2000, |f| format!("fn=f{f}\n+2 {f}\n-1 1\n"));
    let (_dir, path) = written("relative.callgrind", &text);
    let one = whole(&path);
    cut_gives_up_and_one_chunk_reads(&path, &one, "position relative to one before the chunk");
}

/// Names whose ID is beyond 64 bits are said at their line and set
/// nothing, a function's becoming `???`, cut or not (they
/// made the chunks give up before); an unclosed `(` is a name as written.
#[test]
fn unreadable_names_load_in_parallel() {
    let text = profile_of(40, |f| match f % 4 {
        0 => format!("fn=(99999999999999999999999) f{f}\n{f} 1\n"),
        1 => format!("fl=(3\nfn=f{f}\n{f} 1\ncfi=(1x\ncfn=g\ncalls=1 2\n3 4\n"),
        2 => format!("fn=f{f}\ncob=(\ncfn=(18446744073709551616)\ncalls=1 2\n3 4\n"),
        _ => calling(f),
    });
    let said = ["name ID does not fit in 64 bits"];
    loads_in_parallel_saying(&text, &said, &[1, 2, 5]);
}

/// Found by the `parallel` fuzz target once names no longer made it give
/// up: a `jcnd=` whose executed count is beyond 64 bits (saturated to
/// `u64::MAX`) came back one less from the store of per-line detail the
/// loader kept then, which the chunk reader reads again from the file.
#[test]
fn a_saturated_jump_count_is_kept_whole() {
    let text = "positions: instr line\nevents: Ir\nfn=main\n0x10 3 1\n\
                jcnd=64/99999999999999999999999 -2 +1\n* * 1\n";
    let (_dir, path) = written("jcnd.callgrind", text);
    let one = whole(&path);
    assert_says(&one, "jump count beyond 64 bits saturated");
    assert_eq!(one.parts[0].decode(&one).jumps[0].executed, Some(u64::MAX));
    loads_cut_as_whole(&path, &one, &[1]);
}

/// Found by the `parallel` fuzz target: an ID renamed in one part's body
/// and named again in the next part's header (read by the loader, which
/// keeps no offsets): the next part's blocks took the first part's
/// rename, and reading their lines again found no such function.
#[test]
fn a_part_starts_from_the_names_its_header_gives() {
    let text = "events: Ir\nfl=(1) a.c\nfn=(1) f\n1 1\nfl=(1) b.c\nfn=(2) g\n2 2\n\
                part: 2\nfl=(1) c.c\nfn=(3) h\n3 3\ncfi=(1)\ncfn=(3)\ncalls=1 3\n3 1\n";
    let (_dir, path) = written("renamed.callgrind", text);
    let one = whole(&path);
    assert!(one.diagnostics.is_empty(), "{:?}", one.diagnostics);
    loads_cut_as_whole(&path, &one, &[1, 2]);
}

/// An appended profile whose header is followed by body lines before its
/// first `fn=` (no function is current after `version:`, so they are only
/// said to be out of place, or set where the next lines are), and whose
/// last `calls=` waits for a cost line the `fn=` ends: read by the loader
/// with the header, the body in chunks (it was left to a loader of its
/// own before).
#[test]
fn body_lines_before_an_appended_profiles_first_fn_load_in_parallel() {
    let mut text = profile_of(30, calling);
    text += "version: 1\nevents: Ir\nfl=(1) z.c\n5 5\ncfn=q\ncalls=1 2\n3 4\ncalls=1 2\n";
    text += &profile_of(30, calling)["events: Ir\n".len()..];
    let said = [
        "cost line before any `fn=`",
        "call before any `fn=`",
        "`calls=` is not",
    ];
    loads_in_parallel_saying(&text, &said, &[1, 2, 3]);
}

/// Header lines that change a part's shape before it has data (`events:`
/// and `positions:` after a `fn=` whose function only a `cfn=` used): the
/// part goes on in the new shape, as the loader reads it; its per-line
/// costs are those of the body after them alone.
#[test]
fn a_parts_shape_changed_before_its_data_loads_in_parallel() {
    let mut text = String::from("events: Ir\nfn=a\ncfn=x\npositions: instr line\nevents: Ir Dr\n");
    text +=
        &profile_of(40, |f| format!("fn=f{f}\n0x1{f} {f} 1 2\n+2 -1 3\n"))["events: Ir\n".len()..];
    let (_dir, path) = written("shape.callgrind", &text);
    let one = whole(&path);
    assert_eq!((one.parts.len(), one.parts[0].width()), (1, 2));
    loads_cut_as_whole(&path, &one, &[1, 2, 3]);
}
