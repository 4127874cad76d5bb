//! The command line (clap derive). `cgtui FILE...` browses; `cgtui report`
//! prints; `completions` and `man` print what a shell and `man` read. The
//! configuration file (`config`) fills in what the command line leaves
//! unsaid: `--config`, `--no-config` choose it, and the command line wins.

pub mod man;

use crate::config::{Choice, Config, ConfigError};
use crate::locate::Locator;
use crate::parse::LoadOptions;
use crate::tui::BrowseOptions;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// `cgtui --help`'s description (`-h` shows the first line only).
const LONG_ABOUT: &str = "\
A fast terminal browser for Callgrind and Cachegrind profiles.

With no command, cgtui opens the browser on the profile FILEs (or the newest \
callgrind.out.* of the current directory): a flat list of functions with \
their callers and callees, the annotated source, call trees and a flame \
graph. Press ? in the browser for its keys; `cgtui man` lists them too.

Settings that would be typed every time (source roots, colours, the mouse, \
what the browser shows first) can live in a configuration file: \
$XDG_CONFIG_HOME/cgtui/config.toml, else ~/.config/cgtui/config.toml. \
Options on the command line win over it.";

/// Examples shown after `cgtui --help`.
const EXAMPLES: &str = "\
Examples:
  valgrind --tool=callgrind ./app      # writes callgrind.out.<pid>
  cgtui                                # browse the newest callgrind.out.*
  cgtui callgrind.out.1234 -I ~/src    # look for sources in ~/src too
  cgtui --base before.out after.out    # browse what changed
  cgtui report callgrind.out.1234      # print the flat profile
  cgtui annotate callgrind.out.1234    # print annotated source files
  cgtui check --base old.out new.out --fail 'Ir>+2%'   # a CI gate
  cgtui completions bash > ~/.local/share/bash-completion/completions/cgtui
  cgtui man | man -l -";

#[derive(Debug, Parser)]
#[command(
    name = "cgtui",
    version,
    about = "A fast terminal browser for Callgrind and Cachegrind profiles",
    long_about = LONG_ABOUT,
    after_long_help = EXAMPLES,
    override_usage = "cgtui [OPTIONS] [FILES]...\n       cgtui [--config FILE | --no-config] <COMMAND> ..."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub browse: BrowseArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
}

impl Cli {
    /// The command line of this process; a usage error exits with its
    /// message and status 2.
    pub fn from_env() -> Cli {
        Cli::checked(std::env::args_os()).unwrap_or_else(|e| e.exit())
    }

    /// Parses `args` (the program's name first). The browser's options
    /// are refused before a command (`cgtui --ascii report`), as clap's
    /// `args_conflicts_with_subcommands` would refuse them, but the global
    /// `--config` and `--no-config` may stand there.
    pub fn checked<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::{CommandFactory, FromArgMatches, parser::ValueSource};
        let mut cmd = Cli::command();
        let matches = cmd.try_get_matches_from_mut(args)?;
        if let Some((name, _)) = matches.subcommand() {
            let given = cmd
                .get_arguments()
                .filter(|a| !a.is_global_set())
                .find(|a| {
                    matches.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine)
                });
            if let Some(arg) = given {
                let what = match arg.get_long() {
                    Some(long) => format!("--{long}"),
                    None => format!("the file `{}`", arg.get_id()),
                };
                return Err(cmd.error(
                    clap::error::ErrorKind::ArgumentConflict,
                    format!("{what} is an option of the browser, not of `cgtui {name}`"),
                ));
            }
        }
        Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the flat profile (text or JSON) without opening the browser.
    ///
    /// Lists the functions by self cost (or inclusive cost with
    /// --inclusive) of one event until they cover --threshold percent of
    /// the total, as callgrind_annotate does; with --json, every function
    /// with its costs, calls and (--lines) per-line costs; with --folded,
    /// the stacks a flame graph tool reads. With --base OLD, the change
    /// from OLD to the profile FILE (with --folded, each stack's cost in
    /// both, for a differential flame graph).
    Report(ReportArgs),
    /// Print source files with the cost of every line (as callgrind_annotate --auto=yes).
    ///
    /// The source files of the hottest functions (or of --function NAME),
    /// each line with its cost and the calls made from it; --instructions
    /// adds per-instruction costs with objdump's disassembly. Source files
    /// are looked for as --source-root and -I say (and the configuration
    /// file's [sources]), then beside the profile and in the current
    /// directory.
    Annotate(AnnotateArgs),
    /// Fail a CI job when a profile grew past a rule (exit status 1), and name the functions and lines why.
    ///
    /// Compares NEW with the base OLD (`--base`, functions matched as
    /// `report --base` matches them) and checks every --fail rule:
    /// `EVENT>+P%` or `EVENT>+N` (the total grew by more than P percent
    /// or N), `RATE>+Npp` (a rate, in percentage points) and
    /// `fn:NAME EVENT>+P%` (the inclusive cost of the functions named
    /// NAME). EVENT may be a metric: a built-in one (CEst, L1m,
    /// D1mrRate...) or a formula of --metric. A failed rule is explained
    /// by the functions whose self cost grew most (with the line that grew
    /// most in each) until they make 80% of the growth, and the largest
    /// decreases. Exit status: 0 every rule holds, 1 a rule failed, 2 an
    /// error (a file that cannot be read, a rule naming an unknown event
    /// or function).
    Check(CheckArgs),
    /// Print a shell's completion script (bash, zsh, fish, elvish, powershell).
    ///
    /// For bash: `cgtui completions bash >
    /// ~/.local/share/bash-completion/completions/cgtui`, or `source <(cgtui
    /// completions bash)` in ~/.bashrc. For zsh: write `_cgtui` into a
    /// directory of $fpath. For fish: `cgtui completions fish >
    /// ~/.config/fish/completions/cgtui.fish`.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), with every option and the browser's keys.
    ///
    /// Read it with `cgtui man | man -l -`, or install it with `cgtui man >
    /// ~/.local/share/man/man1/cgtui.1`.
    Man,
}

/// `--config FILE`, `--no-config`: which configuration file is read.
#[derive(Debug, Args, Clone, Default)]
pub struct ConfigArgs {
    /// Read the configuration from FILE (it must exist) instead of
    /// $XDG_CONFIG_HOME/cgtui/config.toml or ~/.config/cgtui/config.toml.
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long, global = true, conflicts_with = "config")]
    pub no_config: bool,
}

impl ConfigArgs {
    /// Which file these options choose.
    pub fn choice(&self) -> Choice {
        match (&self.config, self.no_config) {
            (_, true) => Choice::Nothing,
            (Some(path), false) => Choice::Given(path.clone()),
            (None, false) => Choice::Default,
        }
    }

    /// The configuration these options choose.
    pub fn load(&self) -> Result<Config, ConfigError> {
        crate::config::load(&self.choice())
    }
}

/// Where source files are looked for (profiles are often made elsewhere).
#[derive(Debug, Args, Clone, Default)]
pub struct SourceArgs {
    /// Read source files whose path starts with OLD from NEW instead;
    /// repeatable.
    #[arg(long, value_name = "OLD=NEW", value_parser = crate::locate::parse_rewrite)]
    pub source_root: Vec<(String, String)>,
    /// Also look for source files in DIR; repeatable.
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,
}

impl SourceArgs {
    /// These options, then the configuration file's (tried after them).
    pub fn with_config(&self, config: &Config) -> SourceArgs {
        let mut merged = self.clone();
        merged
            .source_root
            .extend(config.source_roots.iter().cloned());
        merged.include.extend(config.include.iter().cloned());
        merged
    }

    /// Where to look, before the profiles' own folders are known.
    pub fn sources(&self) -> Locator {
        Locator {
            rewrites: self.source_root.clone(),
            include: self.include.clone(),
            profile_dirs: Vec::new(),
        }
    }

    /// A locator that also searches the directories of `profiles`.
    pub fn locator(&self, profiles: &[PathBuf]) -> Locator {
        self.sources().with_profile_dirs(profiles)
    }
}

/// `--threshold`: a percentage from 0 to 100 (NaN, infinities, negative
/// values and values over 100 are refused with the range).
pub fn parse_percent(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=100.0).contains(&v) => Ok(v),
        _ => Err("must be a number from 0 to 100".into()),
    }
}

/// A fraction from 0 to 1 (`--min`).
pub fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err("must be a number from 0 to 1".into()),
    }
}

#[derive(Debug, Args)]
pub struct AnnotateArgs {
    /// Profile files (`-` reads standard input); gzip is read transparently.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Annotate only this function (exact name, else every name containing
    /// it); repeatable. Default: the files of the hottest functions.
    #[arg(long, value_name = "NAME")]
    pub function: Vec<String>,
    /// Event column to show; repeatable (default: every event). The first
    /// one ranks the functions. A metric's name (`D1mrRate`, or one of
    /// `--metric`) shows the metric of each line's costs instead.
    #[arg(long, value_name = "EV")]
    pub event: Vec<String>,
    /// Lines of context around each line with a cost.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub context: usize,
    /// Annotate the files of the functions covering PCT% of the total.
    #[arg(long, value_name = "PCT", default_value_t = 99.0,
          value_parser = parse_percent, allow_negative_numbers = true)]
    pub threshold: f64,
    /// Also list per-instruction costs (profiles made with --dump-instr=yes),
    /// with objdump's disassembly where available.
    #[arg(long)]
    pub instructions: bool,
    /// Print the annotated assembly of the functions instead: every
    /// instruction of each (objdump's), its costs, the jumps from it with
    /// their counts and the functions inlined there (from DWARF). Needs a
    /// profile made with --dump-instr=yes (and --collect-jumps=yes for jumps).
    #[arg(long, conflicts_with_all = ["instructions", "base"])]
    pub asm: bool,
    /// With --asm: print JSON (`{"functions":[{"name", "object",
    /// "instructions":[...]}]}`, see docs/annotate.md).
    #[arg(long, requires = "asm")]
    pub json: bool,
    /// Only these parts (1-based); repeatable.
    #[arg(long, value_name = "N")]
    pub part: Vec<usize>,
    #[command(flatten)]
    pub metric: MetricArgs,
    #[command(flatten)]
    pub sources: SourceArgs,
    #[command(flatten)]
    pub objects: ObjectArgs,
    #[command(flatten)]
    pub diff: DiffArgs,
    #[command(flatten)]
    pub load: LoadArgs,
}

/// Where the profiled object files (programs, libraries) are looked for,
/// to disassemble them.
#[derive(Debug, Args, Clone, Default)]
pub struct ObjectArgs {
    /// Read object files whose path starts with OLD from NEW instead;
    /// repeatable. An object is then looked for under its own path, and
    /// by its file name beside the profile.
    #[arg(long, value_name = "OLD=NEW", value_parser = crate::locate::parse_rewrite)]
    pub object_root: Vec<(String, String)>,
}

impl ObjectArgs {
    /// Where to look for objects of the `profiles`.
    pub fn objects(&self, profiles: &[PathBuf]) -> Locator {
        let mut objects = Locator {
            rewrites: self.object_root.clone(),
            include: Vec::new(),
            profile_dirs: Vec::new(),
        }
        .with_profile_dirs(profiles);
        // A profile named without a folder is beside the current one.
        let here = PathBuf::from(".");
        if profiles
            .iter()
            .any(|p| p.parent().is_some_and(|d| d.as_os_str().is_empty()))
            && !objects.profile_dirs.contains(&here)
        {
            objects.profile_dirs.push(here);
        }
        objects
    }
}

/// `--metric`, `--min-denominator`: formulas over the events.
#[derive(Debug, Args, Clone, Default)]
pub struct MetricArgs {
    /// Define a metric: a formula over the profile's events and metrics
    /// with + - * /, parentheses and numbers (`miss=D1mr/Dr`,
    /// `cost=Ir + 10 L1m`); repeatable. Shown as a column (`report`,
    /// `annotate`; `m` in the browser). Built in where the events are:
    /// L1m L2m LLm Bm CEst (KCachegrind's), I1MissRate D1mrRate D1mwRate
    /// LLMissRate BcmRate BimRate IPC.
    #[arg(long = "metric", value_name = "NAME=FORMULA")]
    pub metrics: Vec<crate::metric::Definition>,
    /// A quotient whose denominator (when it depends on events) is below
    /// N is left blank, so that rarely run code does not top a rate
    /// [default: 1000].
    #[arg(long, value_name = "N", value_parser = parse_count, allow_negative_numbers = true)]
    pub min_denominator: Option<f64>,
}

impl MetricArgs {
    /// These definitions after the configuration file's (a name given
    /// here replaces the file's).
    pub fn with_config(&self, config: &Config) -> MetricArgs {
        let mut definitions: Vec<crate::metric::Definition> = config
            .metrics
            .iter()
            .filter(|d| !self.metrics.iter().any(|m| m.name == d.name))
            .cloned()
            .collect();
        definitions.extend(self.metrics.iter().cloned());
        MetricArgs {
            metrics: definitions,
            min_denominator: self.min_denominator.or(config.min_denominator),
        }
    }

    /// The metrics of a profile with these events.
    pub fn resolve(
        &self,
        events: &crate::profile::EventTable,
    ) -> Result<crate::metric::Metrics, crate::metric::MetricError> {
        crate::metric::Metrics::new(
            events,
            &self.metrics,
            self.min_denominator
                .unwrap_or(crate::metric::DEFAULT_MIN_DENOMINATOR),
        )
    }
}

/// `--min-denominator`: a count from 0 up.
pub fn parse_count(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v >= 0.0 && v.is_finite() => Ok(v),
        _ => Err("must be a number from 0 up".into()),
    }
}

/// `--base`: compare with an earlier profile.
#[derive(Debug, Args, Clone, Default)]
pub struct DiffArgs {
    /// Compare with this base profile (the "before"); repeatable for a set
    /// of files. Each side loads only the files named (two threads of one
    /// run compare as two threads); --siblings loads each side's whole run.
    #[arg(long, value_name = "OLD")]
    pub base: Vec<PathBuf>,
    /// Only these parts of the base (1-based, as its report lists them);
    /// repeatable. Default: every part.
    #[arg(long, value_name = "N", requires = "base")]
    pub base_part: Vec<usize>,
    /// Rewrite file and object names before matching functions of the two
    /// profiles: `s/REGEX/NEW/` (flags g, i; `$1` for groups); repeatable.
    #[arg(long, value_name = "s/OLD/NEW/", requires = "base",
          value_parser = crate::analysis::diff::rewrite::Rewrite::parse)]
    pub mod_filename: Vec<crate::analysis::diff::rewrite::Rewrite>,
    /// Rewrite function names before matching, as --mod-filename does.
    #[arg(long, value_name = "s/OLD/NEW/", requires = "base",
          value_parser = crate::analysis::diff::rewrite::Rewrite::parse)]
    pub mod_funcname: Vec<crate::analysis::diff::rewrite::Rewrite>,
}

impl DiffArgs {
    /// How functions are matched.
    pub fn match_options(&self) -> crate::analysis::diff::MatchOptions {
        crate::analysis::diff::MatchOptions {
            mod_filename: self.mod_filename.clone(),
            mod_funcname: self.mod_funcname.clone(),
        }
    }
}

#[derive(Debug, Args)]
pub struct LoadArgs {
    /// Load only the files named, not the other per-thread/per-dump files
    /// of the same run.
    #[arg(long)]
    pub no_siblings: bool,
    /// With --base: load the other per-thread/per-dump files of the same
    /// run on each side too (without --base they always load).
    #[arg(long, conflicts_with = "no_siblings")]
    pub siblings: bool,
}

impl LoadArgs {
    /// The library's load options for these flags.
    pub fn options(&self) -> LoadOptions {
        LoadOptions {
            siblings: !self.no_siblings,
            ..LoadOptions::default()
        }
    }

    /// The load options of each side of a comparison: only the files
    /// named, unless `--siblings` asks for whole runs. Two files of one
    /// run given as `--base A B` would otherwise both load on each side
    /// and compare as "no change".
    pub fn comparison_options(&self) -> LoadOptions {
        LoadOptions {
            siblings: self.siblings,
            ..LoadOptions::default()
        }
    }
}

#[derive(Debug, Args)]
pub struct BrowseArgs {
    /// Profile files (`-` reads standard input). Default: the newest
    /// `callgrind.out.*` in the current directory.
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    #[command(flatten)]
    pub sources: SourceArgs,
    /// Draw with ASCII only (also `CGTUI_ASCII=1`; the default where the
    /// locale is not UTF-8).
    #[arg(long)]
    pub ascii: bool,
    /// Leave the mouse to the terminal (its own selection) from the start;
    /// `M` switches capture on and off in the browser.
    #[arg(long, overrides_with = "mouse")]
    pub no_mouse: bool,
    /// Capture the mouse from the start (wheel scrolls, click selects),
    /// whatever the configuration file says.
    #[arg(long, overrides_with = "no_mouse")]
    pub mouse: bool,
    #[command(flatten)]
    pub diff: DiffArgs,
    #[command(flatten)]
    pub metric: MetricArgs,
    #[command(flatten)]
    pub objects: ObjectArgs,
}

impl BrowseArgs {
    /// The browser's options for these arguments, what they leave unsaid
    /// taken from `config`.
    pub fn options(&self, config: &Config) -> BrowseOptions {
        let mouse = match (self.mouse, self.no_mouse) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => config.mouse,
        };
        BrowseOptions {
            files: self.files.clone(),
            load: if self.diff.base.is_empty() {
                self.load.options()
            } else {
                self.load.comparison_options()
            },
            sources: self.sources.with_config(config).sources(),
            objects: self.objects.objects(&self.files),
            ascii: self.ascii || config.ascii,
            mouse,
            palette: config.palette,
            view: config.view.clone(),
            base: self.diff.base.clone(),
            matching: self.diff.match_options(),
            metrics: self.metric.with_config(config).metrics,
            min_denominator: (self.metric.with_config(config).min_denominator)
                .unwrap_or(crate::metric::DEFAULT_MIN_DENOMINATOR),
        }
    }
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Profile files (`-` reads standard input); gzip is read transparently.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Event to sort by (default: the first).
    #[arg(long, value_name = "EV")]
    pub event: Option<String>,
    /// Sort by this event or metric, largest first and blanks last. A
    /// metric that sums events (CEst, L1m...) ranks and cuts at the
    /// threshold as an event does; a rate orders the functions the
    /// threshold keeps of the --event.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["base", "folded"])]
    pub sort: Option<String>,
    /// Sort by inclusive cost instead of self cost.
    #[arg(long)]
    pub inclusive: bool,
    /// Self sort: list functions until they cover PCT% of the total.
    /// Inclusive sort: list those with at least (100 - PCT)% of the total.
    #[arg(long, value_name = "PCT", default_value_t = 99.0,
          value_parser = parse_percent, allow_negative_numbers = true)]
    pub threshold: f64,
    /// List at most N functions.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Only these parts (1-based, as listed in the report); repeatable.
    #[arg(long, value_name = "N")]
    pub part: Vec<usize>,
    /// Print JSON (schema in docs/report.md) instead of text.
    #[arg(long)]
    pub json: bool,
    /// The FILEs are a series of runs, the first the baseline: each
    /// function's cost in every run, its change in the last run and from
    /// the baseline, and a sparkline of its trend (with --json: `series`,
    /// `series_totals`, `present`). Each file loads alone (--siblings: its
    /// whole run); functions are matched from run to run as --base does.
    #[arg(long, conflicts_with_all = ["base", "folded", "group_by", "sort", "lines", "part", "focus", "ignore"])]
    pub series: bool,
    /// With --series: draw the sparklines in ASCII (also `CGTUI_ASCII=1`,
    /// and where the locale is not UTF-8).
    #[arg(long, requires = "series")]
    pub ascii: bool,
    /// With --json: add each function's per-line costs and call sites.
    #[arg(long, requires = "json")]
    pub lines: bool,
    /// With --json: add each function's self cost by inlined function
    /// (from the objects' DWARF; profiles made with --dump-instr=yes).
    #[arg(long, requires = "json", conflicts_with = "base")]
    pub inlined: bool,
    #[command(flatten)]
    pub objects: ObjectArgs,
    /// Print folded stacks (`main;f;g VALUE` per line) of the event, for
    /// flamegraph.pl, inferno-flamegraph or speedscope. With --base OLD:
    /// `main;f;g BASE NEW` per line (difffolded.pl's format, which
    /// flamegraph.pl draws as a differential flame graph).
    #[arg(long, conflicts_with = "json")]
    pub folded: bool,
    /// With --folded: keep the paths of at least this fraction of the total
    /// (0 to 1; default: the costliest 100,000 paths).
    #[arg(long, value_name = "FRACTION", requires = "folded",
          value_parser = parse_fraction, allow_negative_numbers = true)]
    pub min: Option<f64>,
    /// With --folded: keep at most N stacks (default 100,000; 1,000,000
    /// with --min; at most 1,000,000).
    #[arg(long, value_name = "N", requires = "folded",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_paths: Option<u64>,
    /// With --folded: cut stacks at N frames; a deeper path ends in a
    /// `[deeper frames cut]` frame (default 1,000; 1 to 100,000).
    #[arg(long, value_name = "N", requires = "folded", default_value_t = 1_000,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_depth: u32,
    /// Also list groups of functions and their costs: by ELF object,
    /// source file, C++ class or namespace, or Rust module.
    #[arg(long, value_name = "KIND", value_parser = parse_grouping, conflicts_with = "base")]
    pub group_by: Option<crate::analysis::groups::Grouping>,
    /// Show mangled names (C++ `_Z...`, Rust `_ZN...E`, `_R...`) demangled;
    /// with --json, `mangled` holds the name as the profile writes it.
    #[arg(long)]
    pub demangle: bool,
    #[command(flatten)]
    pub metric: MetricArgs,
    /// List only functions whose names match this regular expression.
    #[arg(long, value_name = "REGEX", value_parser = parse_regex, conflicts_with_all = ["json", "folded"])]
    pub focus: Option<regex::Regex>,
    /// Leave out functions whose names match this regular expression.
    #[arg(long, value_name = "REGEX", value_parser = parse_regex, conflicts_with_all = ["json", "folded"])]
    pub ignore: Option<regex::Regex>,
    #[command(flatten)]
    pub diff: DiffArgs,
    #[command(flatten)]
    pub load: LoadArgs,
}

/// `cgtui check`'s output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Lines for a CI log.
    #[default]
    Text,
    /// Tables for a pull request's comment.
    Markdown,
    /// A document for scripts (schema in docs/check.md).
    Json,
}

#[derive(Debug, Args)]
#[command(mut_arg("base", |a| a.required(true)))]
pub struct CheckArgs {
    /// The new profile's files (`-` reads standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// A rule that fails the check: `EVENT>+P%`, `EVENT>+N`, `RATE>+Npp`
    /// or `fn:NAME EVENT>+P%`; repeatable (quote it for the shell).
    #[arg(long = "fail", value_name = "RULE", required = true)]
    pub rules: Vec<crate::analysis::gate::Rule>,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Only these parts of the new profile (1-based); repeatable.
    #[arg(long, value_name = "N")]
    pub part: Vec<usize>,
    #[command(flatten)]
    pub metric: MetricArgs,
    #[command(flatten)]
    pub diff: DiffArgs,
    #[command(flatten)]
    pub load: LoadArgs,
}

/// `--group-by`: object, file, class or module.
pub fn parse_grouping(s: &str) -> Result<crate::analysis::groups::Grouping, String> {
    crate::analysis::groups::Grouping::named(s)
        .ok_or_else(|| "must be one of: object, file, class, module, none".into())
}

/// `--focus`, `--ignore`: a regular expression (its size bounded).
pub fn parse_regex(s: &str) -> Result<regex::Regex, String> {
    regex::RegexBuilder::new(s)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| e.to_string())
}
