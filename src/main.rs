//! The `cgtui` binary: parse the command line, load, then report or browse.

use cgtui::analysis::Analysis;
use cgtui::annotate::{AnnotateOptions, annotate};
use cgtui::cli::{AnnotateArgs, Cli, Command, LoadArgs, ReportArgs};
use cgtui::cli_support::{event_index, functions_named, part_selection};
use cgtui::parse::{self, LoadError, LoadOptions};
use cgtui::profile::Profile;
use cgtui::report::{self, ReportOptions};
use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// How many load diagnostics are printed before the rest are only counted.
const SHOWN_DIAGNOSTICS: usize = 20;

fn main() -> ExitCode {
    if let Err(e) = color_eyre::install() {
        eprintln!("cgtui: {e}");
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Report(args)) => report_command(&args),
        Some(Command::Annotate(args)) => annotate_command(&args),
        None => cgtui::tui::browse(&cli.browse),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            match e.downcast_ref::<LoadError>() {
                Some(load) => eprintln!("cgtui: {load}"),
                None => eprintln!("cgtui: {e:?}"),
            }
            ExitCode::from(2)
        }
    }
}

fn load(files: &[PathBuf], args: &LoadArgs) -> color_eyre::Result<Profile> {
    let options = LoadOptions {
        siblings: !args.no_siblings,
        ..LoadOptions::default()
    };
    let profile = parse::load_paths(files, options)?;
    print_diagnostics(&profile);
    Ok(profile)
}

fn print_diagnostics(profile: &Profile) {
    let mut err = std::io::stderr().lock();
    for d in profile.diagnostics.iter().take(SHOWN_DIAGNOSTICS) {
        let _ = writeln!(err, "{d}");
    }
    let more = profile.diagnostic_count().saturating_sub(SHOWN_DIAGNOSTICS);
    if more > 0 {
        let _ = writeln!(err, "... and {more} more diagnostics");
    }
    if profile.skipped_lines > 0 {
        let _ = writeln!(err, "{} line(s) skipped", profile.skipped_lines);
    }
}

fn report_command(args: &ReportArgs) -> color_eyre::Result<()> {
    let profile = load(&args.files, &args.load)?;
    let parts = part_selection(&profile, &args.part)?;
    let analysis = Analysis::with_parts(&profile, &parts);
    let event = event_index(&profile, args.event.as_deref())?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = report::JsonReport {
            profile: &profile,
            analysis: &analysis,
            lines: args.lines,
        };
        let mut buffered = std::io::BufWriter::new(&mut out);
        serde_json::to_writer_pretty(&mut buffered, &report)?;
        writeln!(buffered)?;
        buffered.flush()?;
    } else {
        let options = ReportOptions {
            event,
            inclusive: args.inclusive,
            threshold: args.threshold,
            limit: args.limit,
        };
        out.write_all(report::text(&profile, &analysis, &options).as_bytes())?;
    }
    Ok(())
}

fn annotate_command(args: &AnnotateArgs) -> color_eyre::Result<()> {
    let profile = load(&args.files, &args.load)?;
    let parts = part_selection(&profile, &args.part)?;
    let analysis = Analysis::with_parts(&profile, &parts);
    let events = if args.event.is_empty() {
        (0..profile.events.len()).collect()
    } else {
        args.event
            .iter()
            .map(|e| event_index(&profile, Some(e)))
            .collect::<color_eyre::Result<Vec<_>>>()?
    };
    let options = AnnotateOptions {
        events,
        context: args.context,
        threshold: args.threshold,
        functions: functions_named(&profile, &args.function)?,
        instructions: args.instructions,
    };
    let locator = args.sources.locator(&args.files);
    let text = annotate(&profile, &analysis, &locator, &options)?;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
