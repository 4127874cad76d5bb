use super::*;
use crate::parse::load_reader;

/// A 30-line source with costs on lines 5 and 20 and one past the end.
fn fixture(dir: &std::path::Path) -> (Profile, Locator) {
    let text: String = (1..=30).map(|i| format!("source line {i}\n")).collect();
    std::fs::write(dir.join("a.c"), text).unwrap();
    let profile = format!(
        "events: Ir\nfl={}\nfn=f\n5 7\n20 9\n40 3\n0 2\ncfn=g\ncalls=4 1\n20 100\nfn=g\n1 100\n",
        dir.join("a.c").display()
    );
    let locator = Locator::default();
    (load_reader("t.cg", profile.as_bytes()).unwrap(), locator)
}

fn options(context: usize, functions: Vec<FnId>) -> AnnotateOptions {
    AnnotateOptions {
        events: vec![0],
        metrics: Vec::new(),
        min_denominator: crate::metric::DEFAULT_MIN_DENOMINATOR,
        context,
        threshold: 100.0,
        functions,
        instructions: false,
    }
}

#[test]
fn context_lines_and_separators() {
    let dir = tempfile::tempdir().unwrap();
    let (profile, locator) = fixture(dir.path());
    let analysis = Analysis::new(&profile);
    let f = FnId(0);
    let out = annotate(&profile, &analysis, &locator, &options(2, vec![f])).unwrap();
    let body: Vec<&str> = out.lines().skip_while(|l| *l != "Ir").skip(1).collect();
    assert_eq!(
        body[0],
        "-- line 3 ----------------------------------------"
    );
    assert_eq!(body[1], "  .  source line 3");
    assert_eq!(body[3], "  7  source line 5");
    assert_eq!(
        body[6],
        "-- line 18 ----------------------------------------"
    );
    assert_eq!(body[9], "  9  source line 20");
    assert_eq!(
        body[10],
        format!("100  => {}:g (4×)", profile.fn_file(FnId(1)))
    );
    // Line 0 and line 40 (past the 30-line file) are listed after it.
    let tail = out.split("past the end of the file").nth(1).unwrap();
    assert!(tail.contains("  2  line 0"), "{tail}");
    assert!(tail.contains("  3  line 40"), "{tail}");
}

#[test]
fn auto_mode_sums_every_function_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (profile, locator) = fixture(dir.path());
    let analysis = Analysis::new(&profile);
    let out = annotate(&profile, &analysis, &locator, &options(0, Vec::new())).unwrap();
    // g's cost at line 1 and f's at lines 5 and 20, in one file section.
    assert_eq!(out.matches("-- Auto-annotated source:").count(), 1, "{out}");
    assert!(out.contains("100  source line 1"), "{out}");
    assert!(out.contains("  7  source line 5"), "{out}");
}
