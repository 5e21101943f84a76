//! `kestrel evolve search`: Falcon's search GA. Evolves search parameters (`FALCON_SET` by
//! default) by the nodes the search needs to solve a tactical suite; with `--compare` it
//! instead prints params files side by side on the test suite (solved count, total nodes).
//! `--fitness games` scores the same chromosome by play ([`super::evolve_search_games`]).

use super::evolve_search_games::SearchGamesOptions;
use super::executor_options::ExecutorOptions;
use super::ga_options::{GaArgs, GaDefaults};
use super::game_fitness_args::GameFitnessArgs;
use super::job_options::JobOptions;
use crate::commands::checked;
use anyhow::bail;
use clap::Args;
use kestrel_evolve::search::data::{SuiteChoice, set_names, train_and_test, validation_split};
use kestrel_evolve::search::files::{compare_files, simplify_file};
use kestrel_evolve::search::fitness::{Objective, SearchFitnessSpec};
use kestrel_evolve::search::report::render_report;
use kestrel_evolve::search::run::{SearchRunConfig, run_search_ga};
use kestrel_evolve::search::solve::CostRule;
use std::path::PathBuf;

/// Falcon's settings (David, Koppel & Netanyahu 2010): population 10, 50 generations,
/// crossover 0.75, mutation 0.05 per bit.
pub(super) const FALCON_DEFAULTS: GaDefaults = GaDefaults {
    population: 10,
    generations: 50,
    bits_crossover_rate: 0.75,
    bits_mutation_rate: 0.05,
};

/// What the search GA's fitness measures.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FitnessArg {
    /// Nodes to solve a tactical suite (the paper).
    Suite,
    /// Play: game pairs raced against a reference (and optionally each other).
    Games,
}

/// Arguments of `kestrel evolve search`.
#[derive(Args)]
pub struct SearchGaArgs {
    /// What the fitness measures: nodes on a tactical suite (the paper) or play.
    #[arg(long, value_enum, default_value = "suite")]
    fitness: FitnessArg,
    /// Boxed: the game options would make this the largest `evolve` subcommand by far.
    #[command(flatten)]
    games: Box<GameFitnessArgs>,
    /// --fitness games: game pairs of the best against the reference after the run
    /// [default: 16; 0: none].
    #[arg(long, value_name = "N")]
    verify_pairs: Option<usize>,
    /// Suite(s) split into train and test by --seed (EPD with bm/am); default WAC revised
    /// (`builtin:suites/wac-revised.epd`; LCT II, BK and Kaufman are built in too).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["train"])]
    suite: Vec<PathBuf>,
    /// Training suite(s) instead of a split.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    train: Vec<PathBuf>,
    /// Held-out suite(s) with --train (none: no test report).
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "train")]
    test: Vec<PathBuf>,
    /// Share of a --suite held out for testing.
    #[arg(long, default_value_t = 0.5, value_parser = checked::share_below_one)]
    test_fraction: f64,
    /// Share of the training positions set aside for validation: each generation's best is
    /// scored on them and the run returns the one that does best there (0: the last best).
    #[arg(long, default_value_t = 0.0)]
    validation_fraction: f64,
    /// Use at most this many training positions (the first ones after the split) (default: all).
    #[arg(long, value_name = "N", value_parser = checked::positive)]
    train_size: Option<usize>,
    /// Which parameters evolve: `falcon` (18, 70 bits), `all` (SEARCH_TABLE) or NAME,NAME,...
    #[arg(long, default_value = "falcon")]
    set: String,
    /// Nodes per position at most [default: 100000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    node_cap: Option<u64>,
    /// Extra cost of an unsolved position [default: the node cap, so it costs twice the cap].
    #[arg(long)]
    penalty: Option<u64>,
    /// Hash table per search, MB (cleared before every position; per engine with --fitness
    /// games).
    #[arg(long, default_value_t = 4, value_parser = checked::hash_mb)]
    hash: usize,
    /// Put the default values in the first generation (the rest random).
    #[arg(long)]
    seed_defaults: bool,
    /// What the GA minimises: total cost (the paper) or the geometric mean cost per position
    /// [default: sum].
    #[arg(long, value_enum)]
    objective: Option<ObjectiveArg>,
    /// Compare these params files (or `default`) on the test suite instead of evolving.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    compare: Vec<String>,
    /// Simplify this params file instead of evolving: each search value that differs from the
    /// defaults is reverted in turn (least useful first) and stays reverted when the cost on the
    /// training positions keeps within --simplify-tolerance; writes simplified.toml to --out.
    #[arg(long, value_name = "FILE", conflicts_with = "compare")]
    simplify: Option<String>,
    /// Share by which --simplify may let the training cost rise above the evolved set's.
    #[arg(long, default_value_t = 0.0, value_parser = checked::non_negative_f64)]
    simplify_tolerance: f64,
    /// Seed of the train/test shuffle of --suite [default: --seed], so GA runs with other seeds
    /// can be held out on the same half.
    #[arg(long)]
    split_seed: Option<u64>,
    #[command(flatten)]
    ga: GaArgs,
    /// Output folder: best.toml, random.toml, log.csv, evolution.svg, checkpoint.json, memo.json.
    #[arg(long, default_value = "evolve-search-out", value_parser = checked::writable_dir)]
    out: PathBuf,
    #[command(flatten)]
    job: JobOptions,
    #[command(flatten)]
    executor: ExecutorOptions,
}

/// `--objective` on the command line.
#[derive(Clone, Copy, clap::ValueEnum)]
enum ObjectiveArg {
    Sum,
    Log,
}

impl SearchGaArgs {
    /// The first option of the suite fitness given, refused with `--fitness games`.
    fn suite_option(&self) -> Option<&'static str> {
        [
            (!self.suite.is_empty(), "--suite"),
            (!self.train.is_empty(), "--train"),
            (!self.test.is_empty(), "--test"),
            (self.validation_fraction != 0.0, "--validation-fraction"),
            (self.train_size.is_some(), "--train-size"),
            (self.node_cap.is_some(), "--node-cap"),
            (self.penalty.is_some(), "--penalty"),
            (self.objective.is_some(), "--objective"),
            (!self.compare.is_empty(), "--compare"),
            (self.simplify.is_some(), "--simplify"),
            (self.split_seed.is_some(), "--split-seed"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }

    /// What `--fitness games` runs.
    fn games_options(&self) -> anyhow::Result<SearchGamesOptions<'_>> {
        if let Some(flag) = self.suite_option() {
            bail!(
                "{flag} is an option of the suite fitness; it makes no sense with --fitness games"
            );
        }
        Ok(SearchGamesOptions {
            set: set_names(&self.set),
            games: &self.games,
            verify_pairs: self.verify_pairs,
            hash_mb: self.hash.max(1),
            seed_defaults: self.seed_defaults,
            ga: &self.ga,
            out: &self.out,
            job: &self.job,
            executor: &self.executor,
        })
    }

    /// Where the positions come from.
    fn suites(&self) -> SuiteChoice {
        SuiteChoice {
            suite: if self.suite.is_empty() {
                vec![PathBuf::from(kestrel_tools::data::DEFAULT_SUITE)]
            } else {
                self.suite.clone()
            },
            train: self.train.clone(),
            test: self.test.clone(),
            test_fraction: self.test_fraction,
            split_seed: self.split_seed.unwrap_or(self.ga.seed),
            train_size: self.train_size,
        }
    }
}

/// Nodes per position at most, by default.
const NODE_CAP: u64 = 100_000;

/// Runs `kestrel evolve search`.
pub fn run(a: SearchGaArgs) -> anyhow::Result<()> {
    a.job.start_threads()?;
    if a.fitness == FitnessArg::Games {
        return super::evolve_search_games::run(&a.games_options()?);
    }
    if let Some(flag) = a.games.given().or(a.verify_pairs.map(|_| "--verify-pairs")) {
        bail!("{flag} is an option of the game fitness: add --fitness games");
    }
    let node_cap = a.node_cap.unwrap_or(NODE_CAP);
    let rule = CostRule {
        node_cap,
        penalty: a.penalty.unwrap_or(node_cap),
    };
    let (train, test) = train_and_test(&a.suites()).map_err(anyhow::Error::msg)?;
    let hash_mb = a.hash.max(1);
    if !a.compare.is_empty() {
        let lines = if test.is_empty() { &train } else { &test };
        let table = compare_files(&a.compare, lines, rule, hash_mb).map_err(anyhow::Error::msg)?;
        print!("{table}");
        return Ok(());
    }
    if let Some(file) = &a.simplify {
        let tolerance = a.simplify_tolerance;
        let report = simplify_file(file, &train, &test, rule, hash_mb, tolerance, &a.out)
            .map_err(anyhow::Error::msg)?;
        print!("{report}");
        return Ok(());
    }
    let (train, validation) =
        validation_split(train, a.validation_fraction, a.ga.seed).map_err(anyhow::Error::msg)?;
    let mut folder = a.job.claim(&a.out)?;
    let spec = SearchFitnessSpec {
        train,
        set: set_names(&a.set),
        coding: a.ga.coding(),
        rule,
        hash_mb,
        objective: match a.objective {
            None | Some(ObjectiveArg::Sum) => Objective::Sum,
            Some(ObjectiveArg::Log) => Objective::LogMean,
        },
    };
    let cfg = SearchRunConfig {
        spec,
        test,
        validation,
        genome: a.ga.genome_kind(),
        ga: a.ga.settings(FALCON_DEFAULTS, None)?,
        seed_with_defaults: a.seed_defaults,
        out_dir: a.out.clone(),
        resume: a.job.resume,
        progress: !a.job.quiet,
        ray: a.executor.ray()?,
    };
    let r = run_search_ga(&cfg).map_err(anyhow::Error::msg)?;
    folder.report(&render_report(&r, rule));
    super::ga_options::print_output_paths(&r.params_path, &r.log_path, &r.chart_path);
    folder.finish(a.ga.seed)
}
