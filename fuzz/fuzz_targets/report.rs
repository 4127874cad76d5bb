//! Bytes in, every report out: load, analyse (all parts, and the first part
//! alone), then the text report for each event sorted by self and by
//! inclusive cost, and the JSON report with per-line detail. Never a panic.

#![no_main]

use cgtui::analysis::Analysis;
use cgtui::report::{self, ReportOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(profile) = cgtui::parse::load_reader("fuzz.cg", data) else {
        return;
    };
    let all = Analysis::new(&profile);
    let first: Vec<bool> = (0..profile.parts.len()).map(|i| i == 0).collect();
    let first = Analysis::with_parts(&profile, &first);
    for analysis in [&all, &first] {
        for event in 0..profile.events.len() {
            for (inclusive, threshold, limit) in [(false, 99.0, None), (true, 50.0, Some(3))] {
                let options = ReportOptions {
                    event,
                    inclusive,
                    threshold,
                    limit,
                };
                let _ = report::text(&profile, analysis, &options);
            }
        }
        let json = report::JsonReport {
            profile: &profile,
            analysis,
            lines: true,
        };
        let _ = serde_json::to_string(&json);
    }
});
