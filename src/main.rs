//! The `cgtui` binary: parse the command line, load, then report or browse.
//! The one place that prints errors and picks the exit status (as ripgrep):
//! a user error is one line `cgtui: message` on standard error and status
//! 2, with every name in it escaped; a closed pipe on standard output ends
//! quietly with status 0; a standard error that cannot be written to never
//! turns into an abort. No backtrace is captured for a user error.

use cgtui::analysis::Analysis;
use cgtui::annotate::{AnnotateOptions, annotate};
use cgtui::cli::{AnnotateArgs, CheckArgs, CheckFormat, Cli, Command, LoadArgs, ReportArgs};
use cgtui::cli_support::{
    Incomparable, NotInProfile, common_event_index, comparable, event_index, functions_named,
    part_selection, stdin_once,
};
use cgtui::config::{Config, ConfigError};
use cgtui::format::printable;
use cgtui::parse::{self, LoadError};
use cgtui::profile::Profile;
use cgtui::report::{self, ReportOptions};
use cgtui::tui::BrowseError;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// How many load diagnostics are printed before the rest are only counted.
const SHOWN_DIAGNOSTICS: usize = 20;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    NotInProfile(#[from] NotInProfile),
    #[error(transparent)]
    Incomparable(#[from] Incomparable),
    #[error(transparent)]
    Browse(#[from] BrowseError),
    #[error(transparent)]
    Lines(#[from] cgtui::annotate::LinesError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Metric(#[from] cgtui::metric::MetricError),
    #[error(transparent)]
    Rule(#[from] cgtui::analysis::gate::RuleError),
    #[error("writing the output: {0}")]
    Output(#[from] io::Error),
}

impl From<serde_json::Error> for Failure {
    fn from(e: serde_json::Error) -> Self {
        // Keeps the kind of an I/O error (a closed pipe stays one).
        Failure::Output(e.into())
    }
}

fn main() -> ExitCode {
    install_panic_hook();
    let cli = Cli::from_env();
    let result = run(cli);
    match result {
        Ok(status) => ExitCode::from(status),
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Browse(BrowseError::NoProfile)) => {
            let _ = io::stderr().write_all(NO_PROFILE.as_bytes());
            ExitCode::from(2)
        }
        Err(e) => {
            let message = format!("cgtui: {e}\n");
            // Nothing else can be done when standard error is gone too.
            let _ = io::stderr().write_all(printable_line(&message).as_bytes());
            ExitCode::from(2)
        }
    }
}

/// What `cgtui` with no FILE says where there is no profile to open: how
/// to make one, and where to read more.
const NO_PROFILE: &str = "\
cgtui: no profile to open: no FILE given and no callgrind.out.* here.
Make one with Valgrind, then browse it:
    valgrind --tool=callgrind ./app     (writes callgrind.out.<pid>)
    cgtui callgrind.out.<pid>
More: cgtui --help, or cgtui man | man -l -
";

/// `cgtui completions SHELL`: the script on standard output.
fn completions(shell: clap_complete::Shell) -> Result<u8, Failure> {
    use clap::CommandFactory;
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "cgtui", &mut out);
    let mut stdout = io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    Ok(0)
}

/// `cgtui man`: the man page on standard output.
fn man() -> Result<u8, Failure> {
    let mut out = Vec::new();
    cgtui::cli::man::write(&mut out)?;
    let mut stdout = io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    Ok(0)
}

/// Runs the command; the configuration file is read by the commands that
/// use it (`report` reads it only to report a bad one).
fn run(cli: Cli) -> Result<u8, Failure> {
    let config = || cli.config.load();
    match &cli.command {
        Some(Command::Completions { shell }) => completions(*shell),
        Some(Command::Man) => man(),
        Some(Command::Report(args)) => report_command(args, &config()?),
        Some(Command::Annotate(args)) => annotate_command(args, &config()?),
        Some(Command::Check(args)) => check_command(args, &config()?),
        None => Ok(cgtui::tui::browse(cli.browse.options(&config()?))?),
    }
}

/// `message` with every control character escaped but its final newline.
fn printable_line(message: &str) -> String {
    let body = message.strip_suffix('\n').unwrap_or(message);
    format!("{}\n", printable(body))
}

/// color-eyre's panic report (the backtrace only when `RUST_BACKTRACE`
/// asks), formatted first and written with the error ignored, so that a
/// panic with standard error closed or full is a panic (status 101), not an
/// abort. Colour only to a terminal, and not with `NO_COLOR`.
fn install_panic_hook() {
    use color_eyre::config::{HookBuilder, Theme};
    let colour =
        io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let theme = if colour { Theme::dark() } else { Theme::new() };
    let Ok((hook, _)) = HookBuilder::default().theme(theme).try_into_hooks() else {
        return;
    };
    std::panic::set_hook(Box::new(move |info| {
        let mut text = String::new();
        let report = hook.panic_report(info);
        let _ = std::fmt::Write::write_fmt(&mut text, format_args!("{report}\n"));
        let _ = io::stderr().write_all(text.as_bytes());
    }));
}

fn load(files: &[PathBuf], args: &LoadArgs) -> Result<Profile, Failure> {
    load_with(files, args.options())
}

fn load_with(files: &[PathBuf], options: parse::LoadOptions) -> Result<Profile, Failure> {
    let profile = parse::load_paths(files, options)?;
    print_diagnostics(&profile);
    Ok(profile)
}

/// Both sides of `--base OLD NEW`, each the files named (whole runs with
/// `--siblings`), refused alike by `report` and `annotate` (and the
/// browser) when they cannot be compared.
fn load_sides(
    base: &[PathBuf],
    new: &[PathBuf],
    args: &LoadArgs,
) -> Result<(Profile, Profile), Failure> {
    stdin_once(base, new)?;
    let base = load_with(base, args.comparison_options())?;
    let new = load_with(new, args.comparison_options())?;
    comparable(&base, &new)?;
    Ok((base, new))
}

/// The warnings of sums of `analysis` beyond 64 bits
/// (`Analysis::warn_of_cut_sums`), added to `profile` (its JSON lists
/// them) and printed as the load's are.
fn warn_of_cut_sums(profile: &mut Profile, analysis: &Analysis) {
    let before = profile.diagnostics.len();
    if analysis.warn_of_cut_sums(profile) > 0 {
        let mut err = std::io::stderr().lock();
        for d in &profile.diagnostics[before.min(profile.diagnostics.len())..] {
            let _ = writeln!(err, "{d}");
        }
    }
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

/// One line on standard error when a bound of `--folded` cut the output.
/// `of` names the stacks (`folded stacks`, or those of one side).
fn report_folded_cuts(of: &str, cut: &report::folded::Cuts, options: &report::FoldedOptions) {
    let mut what = Vec::new();
    if cut.depth > 0 {
        what.push(format!(
            "{} path(s) cut at {} frames (--max-depth)",
            cgtui::format::thousands(cut.depth as i64),
            cgtui::format::thousands(i64::from(options.max_depth))
        ));
    }
    if cut.paths {
        what.push(format!(
            "the smallest paths left out past {} stacks (--max-paths) or {} frames in all",
            cgtui::format::thousands(options.max_paths as i64),
            cgtui::format::thousands(report::folded::MAX_FRAMES as i64)
        ));
    }
    if !what.is_empty() {
        let _ = writeln!(
            io::stderr(),
            "cgtui: note: {of} bounded: {}",
            what.join("; ")
        );
    }
}

/// The bounds of `--folded` for the column `event`.
fn folded_options(args: &ReportArgs, event: usize) -> report::FoldedOptions {
    report::FoldedOptions {
        event,
        min: args.min.unwrap_or(0.0),
        max_paths: match (args.max_paths, args.min) {
            (Some(n), _) => usize::try_from(n).unwrap_or(report::folded::MAX_PATHS),
            (None, Some(_)) => report::folded::MAX_PATHS,
            (None, None) => report::DEFAULT_PATHS,
        },
        max_depth: args.max_depth,
    }
}

fn report_command(args: &ReportArgs, config: &Config) -> Result<u8, Failure> {
    if args.series {
        return series_report_command(args);
    }
    if !args.diff.base.is_empty() {
        return diff_report_command(args, config);
    }
    let mut profile = load(&args.files, &args.load)?;
    let metrics = args.metric.with_config(config).resolve(&profile.events)?;
    let parts = part_selection(&profile, &args.part)?;
    let analysis = Analysis::with_parts(&profile, &parts);
    warn_of_cut_sums(&mut profile, &analysis);
    let mut event = event_index(&profile, args.event.as_deref())?;
    let mut sort = None;
    if let Some(name) = &args.sort {
        match metrics.index_of(name).map(|i| (i, metrics.get(i).origin)) {
            Some((_, cgtui::metric::Origin::Event(e))) => event = e,
            Some((i, _)) => sort = Some(i),
            None => {
                return Err(NotInProfile::new(format!(
                    "--sort: no event or metric `{name}` in this profile (it has: {})",
                    metrics.names()
                ))
                .into());
            }
        }
    }
    let mut out = std::io::stdout().lock();
    if args.folded {
        let options = folded_options(args, event);
        let stacks = report::folded::stacks(&analysis, options);
        report_folded_cuts("folded stacks", &stacks.cut, &options);
        let mut buffered = std::io::BufWriter::new(&mut out);
        report::folded::write(&profile, &stacks, &mut buffered)?;
        buffered.flush()?;
    } else if args.json {
        let inlined = args.inlined.then(|| {
            let objects = args.objects.objects(&args.files);
            let inlined = cgtui::asm::inlined::inlined(&profile, &analysis, &objects);
            let mut err = io::stderr().lock();
            for note in &inlined.notes {
                let _ = err.write_all(printable_line(&format!("cgtui: {note}\n")).as_bytes());
            }
            inlined
        });
        let report = report::JsonReport {
            profile: &profile,
            analysis: &analysis,
            lines: args.lines,
            base: None,
            group_by: args.group_by,
            demangle: args.demangle,
            metrics: Some(&metrics),
            inlined: inlined.as_ref(),
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
            group_by: args.group_by,
            demangle: args.demangle,
            focus: args.focus.clone(),
            ignore: args.ignore.clone(),
            metrics,
            sort,
        };
        out.write_all(report::text(&profile, &analysis, &options).as_bytes())?;
        out.flush()?;
    }
    // Said once, after the names (`--demangle`, `--group-by class`).
    let too_long = cgtui::symbols::demangle::too_long_count();
    if too_long > 0 {
        let note = cgtui::symbols::demangle::too_long_note(too_long);
        let _ = writeln!(std::io::stderr(), "cgtui: {note}");
    }
    Ok(0)
}

/// `report --series FILE...`: each file a run, the first the baseline. A
/// file that cannot be read is named on standard error and left out; the
/// others are reported, and the status is then 2.
fn series_report_command(args: &ReportArgs) -> Result<u8, Failure> {
    use cgtui::analysis::series::{Run, Series};
    use cgtui::report::series::{SeriesOptions, Unreadable};
    let options = args.load.comparison_options();
    let (mut profiles, mut names) = (Vec::new(), Vec::new());
    let mut unreadable: Vec<Unreadable> = Vec::new();
    for file in &args.files {
        match parse::load_paths(std::slice::from_ref(file), options) {
            Ok(p) => {
                print_diagnostics(&p);
                profiles.push(p);
                names.push(file.display().to_string());
            }
            Err(e) => {
                let message = format!("cgtui: {e} (left out of the series)\n");
                let _ = io::stderr().write_all(printable_line(&message).as_bytes());
                unreadable.push((file.display().to_string(), e.to_string()));
            }
        }
    }
    if profiles.is_empty() {
        return Err(NotInProfile::new("no file of the series could be read".into()).into());
    }
    warn_of_other_commands(&profiles.iter().collect::<Vec<_>>());
    let analyses: Vec<Analysis> = profiles.iter().map(Analysis::new).collect();
    for (p, a) in profiles.iter_mut().zip(&analyses) {
        warn_of_cut_sums(p, a);
    }
    let runs: Vec<Run<'_>> = profiles.iter().zip(&analyses).collect();
    let series = Series::new(&runs, &args.diff.match_options());
    let event = match &args.event {
        None => 0,
        Some(name) => series
            .events
            .iter()
            .position(|e| &e.name == name)
            .ok_or_else(|| {
                let common: Vec<&str> = series.events.iter().map(|e| e.name.as_str()).collect();
                NotInProfile::new(format!(
                    "no event `{name}` in every run of the series (they have in common: {})",
                    common.join(", ")
                ))
            })?,
    };
    let mut out = io::stdout().lock();
    if args.json {
        let doc = cgtui::report::series::json(&names, &runs, &series, &unreadable, event);
        let mut buffered = io::BufWriter::new(&mut out);
        serde_json::to_writer_pretty(&mut buffered, &doc)?;
        writeln!(buffered)?;
        buffered.flush()?;
    } else {
        let var = |k: &str| std::env::var(k).ok();
        let forced = var("CGTUI_ASCII").is_some_and(|v| !v.is_empty() && v != "0");
        let options = SeriesOptions {
            event,
            inclusive: args.inclusive,
            limit: args.limit,
            ascii: args.ascii || forced || !cgtui::tui::theme::locale_is_utf8(var),
        };
        let text = cgtui::report::series::text(&runs, &series, &unreadable, &options);
        out.write_all(text.as_bytes())?;
        out.flush()?;
    }
    Ok(if unreadable.is_empty() { 0 } else { 2 })
}

/// `report --base OLD NEW`: the new profile's selected parts against the
/// whole base profile.
fn diff_report_command(args: &ReportArgs, config: &Config) -> Result<u8, Failure> {
    use cgtui::analysis::diff::{Compared, Comparison, Side};
    let (mut base, mut profile) = load_sides(&args.diff.base, &args.files, &args.load)?;
    let metrics = args.metric.with_config(config).resolve(&profile.events)?;
    let parts = part_selection(&profile, &args.part)?;
    let analysis = Analysis::with_parts(&profile, &parts);
    let base_analysis = Analysis::with_parts(&base, &part_selection(&base, &args.diff.base_part)?);
    warn_of_cut_sums(&mut base, &base_analysis);
    warn_of_cut_sums(&mut profile, &analysis);
    let comparison = Comparison::new(
        (&base, &base_analysis),
        (&profile, &analysis),
        &args.diff.match_options(),
    );
    let compared = Compared {
        base: &base,
        base_analysis: &base_analysis,
        new: &profile,
        analysis: &analysis,
        comparison: &comparison,
    };
    let event = common_event_index(&comparison, args.event.as_deref())?;
    let user = compared_metrics(&metrics, &comparison)?;
    let mut out = std::io::stdout().lock();
    if args.folded {
        // Each side folded on its own, with its own bounds.
        let fold = |a: &Analysis, side, of| {
            let options = folded_options(args, comparison.column(event, side));
            let stacks = report::folded::stacks(a, options);
            report_folded_cuts(of, &stacks.cut, &options);
            stacks
        };
        let base_stacks = fold(&base_analysis, Side::Base, "folded stacks of the base");
        let new_stacks = fold(&analysis, Side::New, "folded stacks of the new profile");
        let mut buffered = std::io::BufWriter::new(&mut out);
        report::folded::write_compared(&compared, &base_stacks, &new_stacks, &mut buffered)?;
        buffered.flush()?;
    } else if args.json {
        let report = report::JsonReport {
            profile: &profile,
            analysis: &analysis,
            lines: args.lines,
            base: Some(compared),
            group_by: None,
            demangle: false,
            metrics: Some(&metrics),
            inlined: None,
        };
        let mut buffered = std::io::BufWriter::new(&mut out);
        serde_json::to_writer_pretty(&mut buffered, &report)?;
        writeln!(buffered)?;
        buffered.flush()?;
    } else {
        let options = report::diff::DiffOptions {
            event,
            inclusive: args.inclusive,
            threshold: args.threshold,
            limit: args.limit,
            metrics: user,
            min_denominator: metrics.min_denominator,
        };
        out.write_all(report::diff::text(&compared, &options).as_bytes())?;
        out.flush()?;
    }
    Ok(0)
}

/// The user's metrics (`--metric`) of a comparison: each must be made of
/// events both profiles have, since each side's value is computed from
/// its own costs.
fn compared_metrics(
    metrics: &cgtui::metric::Metrics,
    comparison: &cgtui::analysis::diff::Comparison,
) -> Result<Vec<cgtui::metric::Metric>, Failure> {
    let user: Vec<_> = (metrics.list.iter())
        .filter(|m| m.origin == cgtui::metric::Origin::User)
        .cloned()
        .collect();
    for m in &user {
        let mut events = Vec::new();
        m.events(&mut events);
        if let Some(&e) = events
            .iter()
            .find(|&&e| !comparison.events.iter().any(|c| c.new == e))
        {
            let name = comparison_event_name(metrics, e);
            return Err(NotInProfile::new(format!(
                "--metric {}: the base has no event `{name}`, so the two sides cannot be compared",
                m.name
            ))
            .into());
        }
    }
    Ok(user)
}

/// The name of the new profile's event column `e`.
fn comparison_event_name(metrics: &cgtui::metric::Metrics, e: usize) -> String {
    (metrics.list.iter())
        .find(|m| m.origin == cgtui::metric::Origin::Event(e))
        .map_or_else(|| format!("#{e}"), |m| m.name.clone())
}

/// One line on standard error where profiles compared ran different
/// commands (`cmd:`): allowed (a program renamed between builds), but
/// worth a look when the numbers surprise.
fn warn_of_other_commands(profiles: &[&Profile]) {
    let cmd = |p: &Profile| p.meta.cmd.as_deref().map(str::trim).map(str::to_owned);
    let Some(first) = profiles.first() else {
        return;
    };
    let first_cmd = cmd(first);
    for p in &profiles[1..] {
        let other = cmd(p);
        if other != first_cmd {
            let name =
                |c: &Option<String>| c.as_deref().map_or("none".into(), |c| format!("`{c}`"));
            let message = format!(
                "cgtui: warning: {} ran another command ({}) than {} ({})\n",
                p.loaded_sources().collect::<Vec<_>>().join(", "),
                name(&other),
                first.loaded_sources().collect::<Vec<_>>().join(", "),
                name(&first_cmd),
            );
            let _ = io::stderr().write_all(printable_line(&message).as_bytes());
        }
    }
}

/// `cgtui check --base OLD NEW --fail RULE...`: 0 when every rule holds,
/// 1 when one fails; every rule is resolved before anything is printed,
/// so a rule naming an unknown event or function is an error (2), never
/// a pass. A closed standard output keeps the verdict's status.
fn check_command(args: &CheckArgs, config: &Config) -> Result<u8, Failure> {
    use cgtui::analysis::diff::{Compared, Comparison};
    use cgtui::analysis::gate;
    use cgtui::report::gate::{Checked, failures};
    let (mut base, mut profile) = load_sides(&args.diff.base, &args.files, &args.load)?;
    warn_of_other_commands(&[&base, &profile]);
    let metrics = args.metric.with_config(config).resolve(&profile.events)?;
    let analysis = Analysis::with_parts(&profile, &part_selection(&profile, &args.part)?);
    let base_analysis = Analysis::with_parts(&base, &part_selection(&base, &args.diff.base_part)?);
    warn_of_cut_sums(&mut base, &base_analysis);
    warn_of_cut_sums(&mut profile, &analysis);
    let matching = args.diff.match_options();
    let comparison = Comparison::new((&base, &base_analysis), (&profile, &analysis), &matching);
    let compared = Compared {
        base: &base,
        base_analysis: &base_analysis,
        new: &profile,
        analysis: &analysis,
        comparison: &comparison,
    };
    let resolved = (args.rules.iter())
        .map(|r| gate::resolve(r, &compared, &metrics, &matching))
        .collect::<Result<Vec<_>, _>>()?;
    let mut checked = Vec::new();
    for rule in resolved {
        let outcomes = gate::check(&rule, &compared)?;
        checked.push(Checked { rule, outcomes });
    }
    let text = match args.format {
        CheckFormat::Text => cgtui::report::gate::text(&compared, &checked),
        CheckFormat::Markdown => cgtui::report::gate::markdown(&compared, &checked),
        CheckFormat::Json => {
            let mut s =
                serde_json::to_string_pretty(&cgtui::report::gate::json(&compared, &checked))?;
            s.push('\n');
            s
        }
    };
    let status = u8::from(failures(&checked) > 0);
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(status),
    }
}

fn annotate_command(args: &AnnotateArgs, config: &Config) -> Result<u8, Failure> {
    if !args.diff.base.is_empty() {
        return diff_annotate_command(args, config);
    }
    let mut profile = load(&args.files, &args.load)?;
    let metrics = args.metric.with_config(config).resolve(&profile.events)?;
    let parts = part_selection(&profile, &args.part)?;
    let analysis = Analysis::with_parts(&profile, &parts);
    warn_of_cut_sums(&mut profile, &analysis);
    let (events, shown) = annotate_columns(&profile, &metrics, &args.event)?;
    let options = AnnotateOptions {
        events,
        metrics: shown,
        min_denominator: metrics.min_denominator,
        context: args.context,
        threshold: args.threshold,
        functions: functions_named(&profile, &args.function)?,
        instructions: args.instructions,
    };
    if args.asm {
        return asm_command(args, &profile, &analysis, &options);
    }
    let locator = args.sources.with_config(config).locator(&args.files);
    let text = annotate(&profile, &analysis, &locator, &options)?;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(0)
}

/// `annotate --asm`: the listings on standard output, their notes on
/// standard error; status 2 (an error) when there is nothing to show.
fn asm_command(
    args: &AnnotateArgs,
    profile: &Profile,
    analysis: &Analysis,
    options: &AnnotateOptions,
) -> Result<u8, Failure> {
    let functions = if options.functions.is_empty() {
        cgtui::annotate::top_functions(profile, analysis, options)
    } else {
        options.functions.clone()
    };
    let asm = cgtui::asm::AsmOptions {
        objects: args.objects.objects(&args.files),
        ..cgtui::asm::AsmOptions::default()
    };
    let output = cgtui::annotate::assembly(profile, analysis, &functions, options, &asm, args.json);
    if !output.shown {
        let why = output
            .messages
            .first()
            .cloned()
            .unwrap_or_else(|| "no function has a cost".into());
        return Err(NotInProfile::new(format!("--asm: nothing to show: {why}")).into());
    }
    let mut err = io::stderr().lock();
    for m in &output.messages {
        let _ = err.write_all(printable_line(&format!("cgtui: {m}\n")).as_bytes());
    }
    let mut out = io::stdout().lock();
    out.write_all(output.text.as_bytes())?;
    out.flush()?;
    Ok(0)
}

/// `annotate`'s columns: the events `--event` names (every event without
/// it) and the metrics it names, then the user's metrics not named.
fn annotate_columns(
    profile: &cgtui::profile::Profile,
    metrics: &cgtui::metric::Metrics,
    names: &[String],
) -> Result<(Vec<usize>, Vec<cgtui::metric::Metric>), Failure> {
    use cgtui::metric::Origin;
    let (mut events, mut shown) = (Vec::new(), Vec::new());
    for name in names {
        match metrics.index_of(name).map(|i| metrics.get(i)) {
            Some(m) if matches!(m.origin, Origin::Event(_)) => {
                events.push(event_index(profile, Some(name))?);
            }
            Some(m) => shown.push(m.clone()),
            None => {
                return Err(NotInProfile::new(format!(
                    "--event: no event or metric `{name}` in this profile (it has: {})",
                    metrics.names()
                ))
                .into());
            }
        }
    }
    if events.is_empty() && shown.is_empty() {
        events = (0..profile.events.len()).collect();
    }
    for m in metrics.list.iter().filter(|m| m.origin == Origin::User) {
        if !shown.iter().any(|s| s.name == m.name) {
            shown.push(m.clone());
        }
    }
    Ok((events, shown))
}

/// `annotate --base OLD NEW`: the change of every line of the functions
/// whose self cost changed most (the parts `--part` and `--base-part` select).
fn diff_annotate_command(args: &AnnotateArgs, config: &Config) -> Result<u8, Failure> {
    use cgtui::analysis::diff::Joined;
    if !args.metric.metrics.is_empty() {
        return Err(NotInProfile::new(
            "--metric: a comparison's annotation shows events only".into(),
        )
        .into());
    }
    let (base, mut profile) = load_sides(&args.diff.base, &args.files, &args.load)?;
    let base_parts = part_selection(&base, &args.diff.base_part)?;
    let parts = part_selection(&profile, &args.part)?;
    let (mut joined, difference) = Joined::with_parts(
        base,
        &base_parts,
        &mut profile,
        &parts,
        &args.diff.match_options(),
    );
    warn_of_cut_sums(&mut joined.base, &joined.base_analysis);
    warn_of_cut_sums(&mut profile, &joined.new_analysis);
    let events = if args.event.is_empty() {
        joined.comparison.events.iter().map(|e| e.new).collect()
    } else {
        args.event
            .iter()
            .map(|e| {
                common_event_index(&joined.comparison, Some(e))
                    .map(|i| joined.comparison.events[i].new)
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    let options = AnnotateOptions {
        events,
        metrics: Vec::new(),
        min_denominator: cgtui::metric::DEFAULT_MIN_DENOMINATOR,
        context: args.context,
        threshold: args.threshold,
        functions: functions_named(&profile, &args.function)?,
        instructions: false,
    };
    let mut locator = args.sources.with_config(config).locator(&args.files);
    locator = locator.with_profile_dirs(&args.diff.base);
    let text =
        cgtui::annotate::annotate_change(&joined, &profile, &difference, &locator, &options)?;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(0)
}
