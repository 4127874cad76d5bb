use super::*;
use crate::parse::load_reader;

/// f at 0x1000..0x1008 of an object that is not here: a conditional jump
/// back from 0x1004 (taken 5 of 7) and two calls of g from 0x1008.
const PROFILE: &str = "version: 1
positions: instr line
events: Ir
ob=/nonexistent/dir/app
fl=a.c
fn=f
0x1000 3 10
0x1004 4 20
jcnd=5/7 0x1000 3
0x1004 4
cfn=g
calls=2 0x2000 1
0x1008 5 100
0x1008 5 1
fn=g
0x2000 1 50
";

fn function(profile: &Profile, name: &str) -> FnId {
    (0..profile.functions.len())
        .map(FnId::from_index)
        .find(|&f| profile.fn_name(f) == name)
        .unwrap()
}

fn list(profile: &Profile, f: FnId, options: &AsmOptions) -> Listing {
    let analysis = Analysis::new(profile);
    listing(profile, &analysis, f, options, &AtomicBool::new(false)).unwrap()
}

#[test]
fn costs_jumps_and_calls_come_without_the_object() {
    let profile = load_reader("t.cg", PROFILE.as_bytes()).unwrap();
    let f = function(&profile, "f");
    let l = list(&profile, f, &AsmOptions::default());
    let addrs: Vec<u64> = l.instructions.iter().map(|i| i.addr).collect();
    assert_eq!(addrs, vec![0x1000, 0x1004, 0x1008]);
    assert!(l.instructions.iter().all(|i| i.text.is_empty()));
    let costs: Vec<Cost> = l.instructions.iter().map(|i| i.cost[0]).collect();
    assert_eq!(costs, vec![10, 20, 1]);
    assert_eq!(l.total(1), vec![31]);
    assert_eq!(
        l.instructions[1].jumps,
        vec![JumpOut {
            target: 0x1000,
            target_func: f,
            executed: 7,
            taken: Some(5)
        }]
    );
    assert!(l.instructions[1].jumps[0].backward(0x1004));
    let g = function(&profile, "g");
    assert_eq!(
        l.instructions[2].calls,
        vec![CallOut {
            callee: g,
            count: 2,
            inclusive: vec![100]
        }]
    );
    assert_eq!(l.source_of(&l.instructions[1]), Some(("a.c", 4)));
    match &l.notes[..] {
        [Note::NotFound { name, tried }] => {
            assert_eq!(name, "/nonexistent/dir/app");
            assert!(tried.contains(&PathBuf::from("/nonexistent/dir/app")));
        }
        other => panic!("{other:?}"),
    }
    assert!(l.notes[0].to_string().contains("--object-root"));
}

#[test]
fn an_object_root_that_maps_to_a_file_that_is_not_an_object_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("dir")).unwrap();
    std::fs::write(dir.path().join("dir/app"), "#!/bin/sh\n").unwrap();
    let profile = load_reader("t.cg", PROFILE.as_bytes()).unwrap();
    let options = AsmOptions {
        objects: Locator {
            rewrites: vec![("/nonexistent".into(), dir.path().display().to_string())],
            ..Locator::default()
        },
        ..AsmOptions::default()
    };
    let l = list(&profile, function(&profile, "f"), &options);
    assert_eq!(l.object_path, Some(dir.path().join("dir/app")));
    match &l.notes[..] {
        [Note::Unreadable(why)] => {
            assert!(why.contains("dir/app"), "{why}");
            assert!(why.contains("not an object file"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(l.total(1), vec![31], "the costs are still there");
}

#[test]
fn profiles_without_addresses_or_objects_say_so() {
    let lines_only = "events: Ir\nob=/bin/app\nfl=a.c\nfn=f\n3 10\n";
    let profile = load_reader("t.cg", lines_only.as_bytes()).unwrap();
    let l = list(&profile, function(&profile, "f"), &AsmOptions::default());
    assert!(l.is_empty());
    assert_eq!(l.notes, vec![Note::NoInstructions]);
    let unnamed = PROFILE.replace("ob=/nonexistent/dir/app", "ob=???");
    let profile = load_reader("t.cg", unnamed.as_bytes()).unwrap();
    let l = list(&profile, function(&profile, "f"), &AsmOptions::default());
    assert_eq!(l.notes, vec![Note::NoObjectName]);
    assert_eq!(l.instructions.len(), 3);
}

/// The listing runs on another thread, as the browser runs it.
#[test]
fn a_listing_is_made_on_a_background_thread() {
    let profile = load_reader("t.cg", PROFILE.as_bytes()).unwrap();
    let analysis = Analysis::new(&profile);
    let f = function(&profile, "f");
    let cancel = AtomicBool::new(false);
    let l = std::thread::scope(|s| {
        s.spawn(|| listing(&profile, &analysis, f, &AsmOptions::default(), &cancel))
            .join()
            .unwrap()
    })
    .unwrap();
    assert_eq!(l.instructions.len(), 3);
}

#[test]
fn the_cache_lets_the_oldest_listings_go() {
    let big = |f: u32, n: usize| {
        Arc::new(Listing {
            function: FnId(f),
            instructions: vec![
                Instruction {
                    addr: 0,
                    text: String::new(),
                    cost: Vec::new(),
                    source: None,
                    inline: 0,
                    jumps: Vec::new(),
                    calls: Vec::new(),
                };
                n
            ],
            ..Listing::default()
        })
    };
    let mut cache = Cache::default();
    cache.insert(big(1, CACHE_INSTRUCTIONS / 2));
    cache.insert(big(2, CACHE_INSTRUCTIONS / 2));
    assert!(cache.get(FnId(1)).is_some());
    cache.insert(big(3, 10));
    assert!(cache.get(FnId(1)).is_none(), "the oldest went");
    assert!(cache.get(FnId(2)).is_some() && cache.get(FnId(3)).is_some());
}
