//! `kestrel evolve mnc`: Phoenix — evolve the 640 values of 10 piece-square tables from random
//! by multi-niche crowding, fitness = score in in-process games between the organisms; store
//! the final niche leaders in the chromosome database. `--algorithm generational` runs a plain
//! generational GA on the same tournament fitness (the comparison), and `--bench-games N`
//! measures fitness games per second. `--init defaults` starts from Kestrel's own tables and
//! mutants of them; `--fitness games` races the organisms (Kestrel's whole evaluation around
//! their tables) against a reference, the defaults by default, and ends with a match of the
//! best against that parent.

use super::executor_options::ExecutorOptions;
use super::ga_options::CrossoverArg;
use super::game_fitness_args::RaceArgs;
use super::job_options::JobOptions;
use super::run_folder::say;
use crate::commands::checked;
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use kestrel_evolve::games::game_settings;
use kestrel_evolve::mnc::experiment::{MncFitness, MncOutput, evolve_generational, evolve_mnc};
use kestrel_evolve::mnc::games::{PstGameFitness, PstGamesSpec};
use kestrel_evolve::mnc::measure::{bench_games, write_references};
use kestrel_evolve::mnc::remote::MncRemoteSpec;
use kestrel_evolve::mnc::{
    MncInit, MncSettings, MncTermination, MoveBudget, SmallChange, TournamentFitness,
    TournamentSpec,
};
use kestrel_ga::cluster::FitnessSpec;
use kestrel_ga::{Crossover, FitnessFunction};
use kestrel_search::EngineParams;
use kestrel_tools::Limit;
use std::path::PathBuf;

/// How organisms are scored.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FitnessArg {
    /// Phoenix's tournament among the organisms (tables over the material alone).
    Tournament,
    /// Races against a reference (default: the defaults) with Kestrel's whole evaluation
    /// around the tables; see --opponents, --first-pairs, --keep, --reference.
    Games,
}

/// Where the first population comes from.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum InitArg {
    /// Random tables (Phoenix).
    Random,
    /// Kestrel's tables (the defaults) and mutants of them, as Phoenix's children started
    /// from their parent.
    Defaults,
}

/// Which GA evolves the tables.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AlgorithmArg {
    /// Multi-niche crowding, steady state (Phoenix).
    Mnc,
    /// A plain generational GA (roulette, elitism 1) on the same fitness, for comparison.
    Generational,
}

#[derive(Args)]
pub struct MncArgs {
    /// The GA: `mnc` (multi-niche crowding, Phoenix) or `generational` (plain GA, for comparison).
    #[arg(long, value_enum, default_value = "mnc")]
    algorithm: AlgorithmArg,
    /// How organisms are scored.
    #[arg(long, value_enum, default_value = "tournament")]
    fitness: FitnessArg,
    /// Where the first population comes from.
    #[arg(long, value_enum, default_value = "random")]
    init: InitArg,
    /// Organisms in the population.
    #[arg(long, default_value_t = 20, value_parser = checked::positive)]
    population: usize,
    /// Children bred per generation (MNC: inserted one at a time).
    #[arg(long, default_value_t = 10, value_parser = checked::positive)]
    offspring: usize,
    /// C_s: candidates among which a parent's mate is the most similar.
    #[arg(long = "cs", default_value_t = 3, value_parser = checked::positive)]
    selection_crowd: usize,
    /// C_f: crowding factor groups in the replacement.
    #[arg(long = "cf", default_value_t = 3, value_parser = checked::positive)]
    replacement_groups: usize,
    /// s: individuals per crowding factor group.
    #[arg(long = "group-size", short = 's', default_value_t = 3, value_parser = checked::positive)]
    group_size: usize,
    /// Crossover of two tables: per-gene `uniform` or `blend` (--blend-alpha).
    #[arg(long, value_enum, default_value = "uniform")]
    crossover: CrossoverArg,
    /// Alpha of blend crossover.
    #[arg(long, default_value_t = 0.5, value_parser = checked::non_negative_f64)]
    blend_alpha: f64,
    /// Crossover probability per pair of parents.
    #[arg(long, default_value_t = 0.9, value_parser = checked::probability)]
    crossover_rate: f64,
    /// Per-gene mutation probability.
    #[arg(long, default_value_t = 0.05, value_parser = checked::probability)]
    mutation_rate: f64,
    /// Gaussian mutation step as a fraction of the value range (255).
    #[arg(long, default_value_t = 0.05, value_parser = checked::positive_f64)]
    sigma: f64,
    /// Niche radius: mean |difference| of table values in centipawns.
    #[arg(long, default_value_t = 30.0, value_parser = checked::positive_f64)]
    niche_radius: f64,
    /// Initial genes uniform in [-R, R] cp instead of the whole table range (MNC only).
    #[arg(long, value_name = "R", value_parser = checked::positive_f64)]
    init_range: Option<f64>,
    /// Stop after this many generations.
    #[arg(long, default_value_t = 1000, value_parser = checked::positive_u64)]
    generations: u64,
    /// Stop when the best organism is the same for this many generations (0: never).
    #[arg(long, default_value_t = 10)]
    best_unchanged: u64,
    /// Stop when the best changes less than this percent of the value range ...
    #[arg(long, default_value_t = 1.0, value_parser = checked::non_negative_f64)]
    small_change_percent: f64,
    /// ... for this many generations in a row (0: never).
    #[arg(long, default_value_t = 20)]
    small_change_generations: u64,
    /// Random seed (first population, selection, mutations, openings).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Opening book for the fitness games (EPD or PGN, optionally gzipped).
    #[arg(long, default_value = kestrel_tools::data::DEFAULT_OPENINGS)]
    openings: PathBuf,
    /// Tournament: random pairings per generation, each pair an opening with both colours
    /// [default: 2]. --fitness games: the race's rounds [default: 3].
    #[arg(long, value_name = "N", value_parser = checked::positive)]
    rounds: Option<usize>,
    /// Nodes per move in the fitness games.
    #[arg(long, default_value_t = 2000, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Fixed depth per move instead of nodes.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..))]
    depth: Option<i32>,
    /// Full moves after which a game is drawn.
    #[arg(long, default_value_t = 100, value_parser = checked::positive)]
    max_moves: usize,
    /// Resign when both engines see this many centipawns for `--resign-moves` moves each.
    #[arg(long, default_value_t = 1500)]
    resign_cp: i32,
    /// Moves each that both engines must see `--resign-cp` before a resignation.
    #[arg(long, default_value_t = 4, value_parser = checked::positive)]
    resign_moves: usize,
    #[command(flatten)]
    race: RaceArgs,
    /// --fitness games: game pairs of the best against the reference (the parent) after the
    /// run [default: 16; 0: none].
    #[arg(long, value_name = "N")]
    verify_pairs: Option<usize>,
    /// Output folder: best.toml, niche-K.toml, log.csv, evolution.svg, checkpoint.json.
    #[arg(long, default_value = "evolve-mnc-out", value_parser = checked::writable_dir)]
    out: PathBuf,
    /// Chromosome database the final niche leaders are added to.
    #[arg(long, default_value = "chromosomes.sqlite", value_parser = checked::writable_file)]
    db: PathBuf,
    /// Instead of evolving: play this many fitness games between random organisms on one
    /// thread and on all threads, and print games per second (default: off).
    #[arg(long, value_name = "N", value_parser = checked::positive)]
    bench_games: Option<usize>,
    /// Instead of evolving: write OUT/kestrel-tables.toml and OUT/random-tables.toml.
    #[arg(long)]
    write_references: bool,
    #[command(flatten)]
    job: JobOptions,
    #[command(flatten)]
    executor: ExecutorOptions,
}

impl MncArgs {
    fn spec(&self) -> TournamentSpec {
        TournamentSpec {
            openings: self.openings.clone(),
            rounds: self.rounds.unwrap_or(TOURNAMENT_ROUNDS),
            budget: match self.depth {
                Some(d) => MoveBudget::Depth(d),
                None => MoveBudget::Nodes(self.nodes),
            },
            max_moves: self.max_moves,
            resign_cp: self.resign_cp,
            resign_moves: self.resign_moves,
            hash_mb: 1,
        }
    }

    fn output(&self) -> MncOutput {
        MncOutput {
            out: self.out.clone(),
            db: self.db.clone(),
            resume: self.job.resume,
            quiet: self.job.quiet,
        }
    }

    fn crossover(&self) -> Crossover {
        match self.crossover {
            CrossoverArg::Single => Crossover::SinglePoint,
            CrossoverArg::Uniform => Crossover::Uniform,
            CrossoverArg::Blend => Crossover::Blend {
                alpha: self.blend_alpha,
            },
        }
    }

    fn settings(&self) -> MncSettings {
        MncSettings {
            population: self.population,
            offspring: self.offspring,
            selection_crowd: self.selection_crowd,
            replacement_groups: self.replacement_groups,
            group_size: self.group_size,
            crossover: self.crossover(),
            crossover_rate: self.crossover_rate,
            mutation_rate: self.mutation_rate,
            mutation_sigma: self.sigma,
            niche_radius: self.niche_radius,
            init_range: self.init_range,
            init: match self.init {
                InitArg::Random => MncInit::Random,
                InitArg::Defaults => MncInit::Defaults,
            },
            termination: MncTermination {
                generations: self.generations,
                best_unchanged: (self.best_unchanged > 0).then_some(self.best_unchanged),
                small_change: (self.small_change_generations > 0).then_some(SmallChange {
                    percent: self.small_change_percent,
                    generations: self.small_change_generations,
                }),
            },
            seed: self.seed,
        }
    }
}

/// Tournament pairings per generation.
const TOURNAMENT_ROUNDS: usize = 2;
/// Verification pairs after a run with game fitness.
const VERIFY_PAIRS: usize = 16;

/// Runs `kestrel evolve mnc`.
pub fn run(args: MncArgs) -> anyhow::Result<()> {
    let threads = args.job.start_threads()?;
    if args.fitness == FitnessArg::Games {
        return run_games(args);
    }
    if let Some(flag) = args
        .race
        .given()
        .or(args.verify_pairs.map(|_| "--verify-pairs"))
    {
        bail!("{flag} is an option of the game fitness: add --fitness games");
    }
    let fitness = TournamentFitness::build(args.spec()).map_err(anyhow::Error::msg)?;
    if let Some(games) = args.bench_games {
        print!(
            "{}",
            bench_games(&fitness, games, threads).map_err(anyhow::Error::msg)?
        );
        return Ok(());
    }
    if args.write_references {
        std::fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create {}", args.out.display()))?;
        let written = write_references(&args.out, args.seed).map_err(anyhow::Error::msg)?;
        print!("{written}");
        return Ok(());
    }
    let mut folder = args.job.claim(&args.out)?;
    let executor = args
        .executor
        .start(|store| Ok(MncRemoteSpec::store(&fitness, store)?.tagged()))?;
    say!(folder, "fitness on        {}", executor.describe());
    let output = args.output();
    let settings = args.settings();
    let report = match args.algorithm {
        AlgorithmArg::Mnc => evolve_mnc(
            &settings,
            &MncFitness::tournament(&fitness),
            &executor,
            &output,
        ),
        AlgorithmArg::Generational => evolve_generational(&settings, &fitness, &executor, &output),
    };
    folder.report(&report.map_err(anyhow::Error::msg)?);
    folder.finish(args.seed)
}

/// `--fitness games`: MNC over tables in Kestrel's whole evaluation, raced against the
/// reference (the parent); the report ends with a match of the best against it.
fn run_games(args: MncArgs) -> anyhow::Result<()> {
    if args.algorithm == AlgorithmArg::Generational {
        bail!("--fitness games runs with --algorithm mnc only");
    }
    if args.bench_games.is_some() || args.write_references {
        bail!(
            "--bench-games and --write-references measure the tournament fitness; drop --fitness games"
        );
    }
    let limit = match args.depth {
        Some(d) => Limit::Depth(d),
        None => Limit::Nodes(args.nodes),
    };
    let game = game_settings(limit, Some(args.max_moves));
    let play = args
        .race
        .play(args.rounds, game, args.openings.clone(), 1)?;
    let fitness = PstGameFitness::new(play);
    let settings = args.settings();
    settings.validate().map_err(anyhow::Error::msg)?;
    let mut folder = args.job.claim(&args.out)?;
    let executor = args
        .executor
        .start(|store| Ok(PstGamesSpec::store(&fitness, store)?.tagged()))?;
    say!(folder, "fitness on        {}", executor.describe());
    let games = serde_json::json!({ "fitness": FitnessFunction::fingerprint(&fitness) });
    let described = MncFitness {
        fitness: &fitness,
        games,
        base: PstGameFitness::base(),
    };
    let mut report =
        evolve_mnc(&settings, &described, &executor, &args.output()).map_err(anyhow::Error::msg)?;
    drop(executor);
    let pairs = args.verify_pairs.unwrap_or(VERIFY_PAIRS);
    if pairs > 0 {
        let best = EngineParams::load(&args.out.join("best.toml"), "best.toml")?;
        let penta = fitness.play().verify(&best, pairs, args.seed);
        report.push_str(&format!("best vs parent    {}\n", penta.summary()));
    }
    folder.report(&report);
    folder.finish(args.seed)
}
