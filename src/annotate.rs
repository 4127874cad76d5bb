//! `cgtui annotate`: source files with the cost of every line, as
//! callgrind_annotate's `--auto=yes` prints them, and per-instruction costs.
//! The numbers come from `analysis::source`, which the TUI's source view
//! uses too. Must not import `tui`. Every name, path and line of text
//! from the input passes through `format::printable`, and the whole text
//! through `format::terminal_text`, so none reaches a terminal raw.

mod assembly;
mod render;

pub use assembly::{AsmOutput, assembly};

use crate::analysis::Analysis;
use crate::analysis::diff::Joined;
use crate::analysis::diff::source::function_source_change;
use crate::analysis::source::{self, FunctionSource};
use crate::format::{printable, terminal_text};
use crate::locate::{Locator, NotFound};
use crate::profile::{FileId, FnId, Profile};
use crate::report::{ReportOptions, ranked};
use std::fmt::Write;
use std::time::SystemTime;

/// What to annotate and how.
#[derive(Clone, Debug)]
pub struct AnnotateOptions {
    /// Event columns to show (the first one ranks the functions).
    pub events: Vec<usize>,
    /// Metric columns shown after them, of each row's costs (`--metric`,
    /// or a metric named by `--event`).
    pub metrics: Vec<crate::metric::Metric>,
    /// A rate whose denominator is smaller is blank (`--min-denominator`).
    pub min_denominator: f64,
    /// Unannotated lines shown around each annotated one.
    pub context: usize,
    /// With no `functions`: annotate the files of the functions covering this
    /// percentage of the total (as callgrind_annotate's `--threshold`).
    pub threshold: f64,
    /// Only these functions, each with its own lines.
    pub functions: Vec<FnId>,
    /// Also list per-instruction costs (profiles with `positions: instr`).
    pub instructions: bool,
}

/// Per-line costs could not be read again from the profile file (it
/// changed or went away since it was loaded): no annotation can be right.
#[derive(Debug, thiserror::Error)]
#[error("{}", printable(.0))]
pub struct LinesError(pub String);

/// Renders the annotation.
pub fn annotate(
    profile: &Profile,
    analysis: &Analysis,
    locator: &Locator,
    options: &AnnotateOptions,
) -> Result<String, LinesError> {
    let mut out = String::new();
    let mut missing: Vec<NotFound> = Vec::new();
    let newest_profile = profile_time(profile);
    let ctx = render::Context {
        profile,
        analysis,
        options,
        newest_profile,
        signed: false,
        bound_shown: std::cell::Cell::new(false),
    };
    if options.functions.is_empty() {
        let chosen = top_functions(profile, analysis, options);
        let all = source::collect(profile, analysis, |_| true);
        unreadable(&all)?;
        for file in files_of(profile, analysis, &chosen) {
            let rows = all.in_file(file);
            ctx.file(
                &mut out,
                &mut missing,
                locator,
                file,
                &rows,
                "Auto-annotated source",
            );
        }
        if options.instructions {
            for &f in &chosen {
                ctx.instructions(&mut out, f, &source::function_source(profile, analysis, f));
            }
        }
    } else {
        for &f in &options.functions {
            let src = source::function_source(profile, analysis, f);
            let _ = writeln!(out, "{}", render::rule());
            let _ = writeln!(out, "-- Function: {}", function_label(profile, f));
            unreadable(&src)?;
            for file in src.files() {
                ctx.file(
                    &mut out,
                    &mut missing,
                    locator,
                    file,
                    &src.in_file(file),
                    "Source",
                );
            }
            if options.instructions {
                ctx.instructions(&mut out, f, &src);
            }
        }
    }
    not_found(&mut out, &missing);
    Ok(terminal_text(out))
}

/// The functions covering `options.threshold` percent of the first
/// event's total, hottest first (what is annotated without `--function`).
pub fn top_functions(
    profile: &Profile,
    analysis: &Analysis,
    options: &AnnotateOptions,
) -> Vec<FnId> {
    let order = ReportOptions {
        event: options.events.first().copied().unwrap_or(0),
        inclusive: false,
        threshold: options.threshold,
        limit: None,
        group_by: None,
        demangle: false,
        focus: None,
        ignore: None,
        metrics: crate::metric::Metrics::of_events(&profile.events),
        sort: None,
    };
    ranked(profile, analysis, &order)
}

/// The list of source files that were not found, if any.
fn not_found(out: &mut String, missing: &[NotFound]) {
    if !missing.is_empty() {
        let _ = writeln!(out, "{}", render::rule());
        let _ = writeln!(
            out,
            "Source files not found (use --source-root OLD=NEW or -I DIR):"
        );
        let _ = writeln!(out, "{}", render::rule());
        for m in missing {
            let _ = writeln!(out, "  {}", printable(&m.path));
        }
        if let Some(m) = missing.first() {
            let dirs: Vec<String> = (m.searched.iter())
                .map(|d| printable(&d.display().to_string()).into_owned())
                .collect();
            let _ = writeln!(out, "Searched: {}", dirs.join(", "));
        }
    }
}

/// `annotate --base`: per function whose self cost changed most (or each
/// of `options.functions`), its files with the change of every line and
/// call; `new` is the profile `Joined::new` extended, `difference` the
/// change it returned.
pub fn annotate_change(
    joined: &Joined,
    new: &Profile,
    difference: &Analysis,
    locator: &Locator,
    options: &AnnotateOptions,
) -> Result<String, LinesError> {
    let mut out = String::new();
    let mut missing: Vec<NotFound> = Vec::new();
    let ctx = render::Context {
        profile: new,
        analysis: difference,
        options,
        newest_profile: profile_time(new),
        signed: true,
        bound_shown: std::cell::Cell::new(false),
    };
    let chosen = if options.functions.is_empty() {
        let order = ReportOptions {
            event: options.events.first().copied().unwrap_or(0),
            inclusive: false,
            threshold: options.threshold,
            limit: None,
            group_by: None,
            demangle: false,
            focus: None,
            ignore: None,
            metrics: crate::metric::Metrics::of_events(&new.events),
            sort: None,
        };
        ranked(new, difference, &order)
    } else {
        options.functions.clone()
    };
    for f in chosen {
        let src = function_source_change(joined, new, f);
        unreadable(&src)?;
        let _ = writeln!(out, "{}", render::rule());
        let _ = writeln!(
            out,
            "-- Function: {} (new minus base)",
            function_label(new, f)
        );
        for file in src.files() {
            ctx.file(
                &mut out,
                &mut missing,
                locator,
                file,
                &src.in_file(file),
                "Source",
            );
        }
    }
    not_found(&mut out, &missing);
    if ctx.bound_shown.get() {
        let _ = writeln!(out, "{}", render::rule());
        let _ = writeln!(
            out,
            "A change written >= or <= reached the 64-bit limit: it is at least that large."
        );
    }
    Ok(terminal_text(out))
}

/// Fails where per-line costs could not be read again from the profile.
fn unreadable(src: &FunctionSource) -> Result<(), LinesError> {
    match &src.error {
        Some(error) => Err(LinesError(error.clone())),
        None => Ok(()),
    }
}

/// `name (file) [object]`.
fn function_label(profile: &Profile, f: FnId) -> String {
    format!(
        "{} ({}) [{}]",
        printable(profile.fn_name(f)),
        printable(profile.fn_file(f)),
        printable(profile.fn_object(f))
    )
}

/// The files holding the chosen functions' line costs, in name order.
fn files_of(profile: &Profile, analysis: &Analysis, chosen: &[FnId]) -> Vec<FileId> {
    let keep: std::collections::HashSet<FnId> = chosen.iter().copied().collect();
    let src: FunctionSource = source::collect(profile, analysis, |f| keep.contains(&f));
    let mut files = src.files();
    files.sort_by(|a, b| profile.file_name(*a).cmp(profile.file_name(*b)));
    files
}

/// The newest modification time of the profile files, to spot sources edited since.
fn profile_time(profile: &Profile) -> Option<SystemTime> {
    profile
        .sources
        .iter()
        .filter_map(|s| std::fs::metadata(s).and_then(|m| m.modified()).ok())
        .max()
}

#[cfg(test)]
mod tests;
