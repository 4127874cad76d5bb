//! Bytes in, every report out: load, analyse (all parts, and the first part
//! alone), then the text report for each event sorted by self and by
//! inclusive cost (grouped and demangled in turn), and the JSON report with
//! per-line detail and groups. Never a panic.

use cgtui::analysis::Analysis;
use cgtui::analysis::groups::Grouping;
use cgtui::report::{self, ReportOptions};

/// The target: never panics on any `data` (see the module doc).
pub fn run(data: &[u8]) {
    let Ok(profile) = cgtui::parse::load_reader("fuzz.cg", data) else {
        return;
    };
    let all = Analysis::new(&profile);
    let first: Vec<bool> = (0..profile.parts.len()).map(|i| i == 0).collect();
    let first = Analysis::with_parts(&profile, &first);
    // A rate and a sum of the first event, where its name can be written.
    let metrics = match profile.events.events.first() {
        Some(e) if cgtui::metric::formula::is_name(&e.name) => {
            let defs: Vec<cgtui::metric::Definition> = [
                format!("rate={0} / ({0} + 7)", e.name),
                format!("sum=2 * {0} - {0}", e.name),
            ]
            .iter()
            .map(|d| d.parse().expect("a valid formula"))
            .collect();
            cgtui::metric::Metrics::new(&profile.events, &defs, 10.0).expect("resolves")
        }
        _ => cgtui::metric::Metrics::of_events(&profile.events),
    };
    let sorts = [None, metrics.index_of("rate"), metrics.index_of("sum")];
    for analysis in [&all, &first] {
        for event in 0..profile.events.len() {
            for (inclusive, threshold, limit, group_by, sort) in [
                (false, 99.0, None, None, sorts[0]),
                (true, 50.0, Some(3), Some(Grouping::Class), sorts[1]),
                (false, 100.0, Some(5), Some(Grouping::Object), sorts[2]),
            ] {
                let options = ReportOptions {
                    event,
                    inclusive,
                    threshold,
                    limit,
                    group_by,
                    demangle: inclusive,
                    focus: None,
                    ignore: None,
                    metrics: metrics.clone(),
                    sort,
                };
                let _ = report::text(&profile, analysis, &options);
            }
        }
        let json = report::JsonReport {
            profile: &profile,
            analysis,
            lines: true,
            base: None,
            group_by: Some(Grouping::File),
            demangle: true,
            metrics: Some(&metrics),
            // DWARF of objects named by fuzzed input is not read here.
            inlined: None,
        };
        let _ = serde_json::to_string(&json);
    }
}
