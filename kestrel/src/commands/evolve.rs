//! `kestrel evolve`: evolve evaluation parameters from random with the expert-driven GA
//! (`kestrel evolve` alone runs it on the built-in positions with the built-in mentor),
//! extract training positions from PGN (`evolve positions`), and play the evolved organism
//! against a random one and the expert (`evolve match`).

use super::executor_options::ExecutorOptions;
use super::job_options::JobOptions;
use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use kestrel_evolve::ga::{Crossover, GaSettings, Selection, StepSchedule, Termination};
use kestrel_evolve::mentor::organism::GenomeKind;
use kestrel_evolve::mentor::positions::{PickRules, PositionSet, extract_from_pgn};
use kestrel_evolve::mentor::run::{
    MentorRunConfig, MentorSpec, ParamSet, PositionsSource, run_mentor,
};
use kestrel_params::Coding;
use std::path::PathBuf;

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct EvolveArgs {
    #[command(subcommand)]
    command: Option<EvolveCommand>,
    #[command(flatten)]
    mentor: MentorArgs,
}

#[derive(Subcommand)]
enum EvolveCommand {
    /// Evolve an evaluation from random by imitating a mentor's scores (the default).
    Mentor(MentorArgs),
    /// Pick one random quiet position per game of a PGN file; write train/test EPD.
    Positions(PositionsArgs),
    /// Play the evolved organism, a random organism and the expert against each other.
    Match(MatchArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum SetArg {
    Compact,
    Full,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum GenomeArg {
    /// Bit strings (the paper's chromosome; see --coding).
    Bits,
    /// One real number per value, within its declared range, rounded when decoded.
    Real,
}

#[derive(Clone, Copy, ValueEnum)]
enum CodingArg {
    Binary,
    Gray,
}

#[derive(Clone, Copy, ValueEnum)]
enum SelectionArg {
    Roulette,
    Tournament,
}

#[derive(Clone, Copy, ValueEnum)]
enum CrossoverArg {
    Single,
    Uniform,
    /// BLX-alpha (real genomes): children drawn around and between the parents' genes.
    Blend,
}

#[derive(Args)]
struct MentorArgs {
    /// Who scores the positions: `builtin` (Kestrel's hand-tuned evaluation and search) or
    /// `uci:COMMAND` (any UCI engine, e.g. `uci:/usr/games/stockfish`).
    #[arg(long, default_value = "builtin")]
    mentor: String,
    /// Mentor search depth in plies.
    #[arg(long, default_value_t = 2)]
    depth: i32,
    /// Positions file (EPD with c0 "train"/"test"); default: the built-in GM positions.
    #[arg(long, value_name = "FILE", conflicts_with = "pgn")]
    positions: Option<PathBuf>,
    /// Take positions from this PGN instead: one random quiet position per game.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// With --pgn: number of games (positions), split in train and test halves.
    #[arg(long, default_value_t = 10_000, requires = "pgn")]
    games: usize,
    /// Which parameters evolve: the paper's 35 (230 bits) or every evaluation value.
    #[arg(long, value_enum, default_value = "compact")]
    set: SetArg,
    /// Chromosome: bit strings (the paper) or real vectors (one gene per value).
    #[arg(long, value_enum, default_value = "bits")]
    genome: GenomeArg,
    /// How each field's bits encode its value (bit genomes).
    #[arg(long, value_enum, default_value = "binary")]
    coding: CodingArg,
    /// Organisms per generation.
    #[arg(long, default_value_t = 1000)]
    population: usize,
    /// Generations to evolve.
    #[arg(long, default_value_t = 300)]
    generations: u64,
    /// Training positions drawn (at random) for each generation.
    #[arg(long, default_value_t = 1000)]
    sample: usize,
    /// Probability that two selected parents are recombined (otherwise copied)
    /// [default: 0.75 bits, 0.9 real].
    #[arg(long)]
    crossover_rate: Option<f64>,
    /// Single-point, uniform or blend (BLX-alpha, real genomes) crossover
    /// [default: single for bits, uniform for real].
    #[arg(long, value_enum)]
    crossover: Option<CrossoverArg>,
    /// Blend crossover's alpha: how far beyond the parents' interval a child gene may fall.
    #[arg(long, default_value_t = REAL_ALPHA)]
    blend_alpha: f64,
    /// Per-gene mutation probability [default: 0.002 bits, 0.05 real].
    #[arg(long)]
    mutation_rate: Option<f64>,
    /// Real genomes: Gaussian mutation step in the first generation, as a fraction of each
    /// gene's range; it shrinks geometrically to --step-end in the last generation.
    #[arg(long, default_value_t = REAL_STEP_START)]
    step: f64,
    /// Real genomes: mutation step in the last generation.
    #[arg(long, default_value_t = REAL_STEP_END)]
    step_end: f64,
    /// Parent selection: fitness-proportional (roulette) or tournament
    /// [default: roulette for bits, tournament for real].
    #[arg(long, value_enum)]
    selection: Option<SelectionArg>,
    /// Organisms per tournament with --selection tournament.
    #[arg(long, default_value_t = 3)]
    tournament_size: usize,
    /// Best organisms copied unchanged into the next generation.
    #[arg(long, default_value_t = 1)]
    elitism: usize,
    /// Stop after this many generations without a better best organism.
    #[arg(long, value_name = "N")]
    stall: Option<u64>,
    /// Stop once the best organism's sample error is at most this many centipawns.
    #[arg(long, value_name = "CP")]
    target_error: Option<f64>,
    /// Seed of every random choice (positions sample, population, breeding).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output folder: best.toml, log.csv, evolution.svg, checkpoint.json, labels.tsv.
    #[arg(long, default_value = "evolve-out")]
    out: PathBuf,
    /// Label cache file (default: OUT/labels.tsv).
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
    #[command(flatten)]
    job: JobOptions,
    #[command(flatten)]
    executor: ExecutorOptions,
}

#[derive(Args)]
struct PositionsArgs {
    /// Games to pick positions from.
    #[arg(long, value_name = "FILE")]
    pgn: PathBuf,
    /// Positions (one per game) to write; half train, half test.
    #[arg(long, default_value_t = 10_000)]
    count: usize,
    /// Opening plies never picked.
    #[arg(long, default_value_t = 16)]
    skip_plies: usize,
    /// Seed for choosing games, positions and the train/test split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// EPD file to write (`c0 "train"` / `c0 "test"`).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

#[derive(Args)]
struct MatchArgs {
    /// The evolved organism (a params file written by `kestrel evolve`).
    #[arg(long, value_name = "FILE", default_value = "evolve-out/best.toml")]
    params: PathBuf,
    /// Seed of the random organism (RandOrg).
    #[arg(long, default_value_t = 7)]
    random_seed: u64,
    /// Games per pairing (each opening is played with both colours).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Nodes per move (the default limit: 20,000; equal work for every player).
    #[arg(long, conflicts_with_all = ["depth", "tc", "movetime"], value_name = "N")]
    nodes: Option<u64>,
    /// Fixed depth per move instead.
    #[arg(long, conflicts_with_all = ["tc", "movetime"], value_name = "PLIES")]
    depth: Option<i32>,
    /// A clock instead: base seconds + increment, e.g. `1+0.02`. Equal time rather than equal
    /// work: a cheaper evaluation searches more nodes (the paper's setting).
    #[arg(long, value_name = "BASE+INC", conflicts_with = "movetime")]
    tc: Option<String>,
    /// Fixed time per move in milliseconds instead.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Openings (EPD or PGN); default: test positions of the built-in GM set.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Seed for choosing the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: all cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Which lines to play (default: the paper's three); `evol-hand35` plays Evol* against the
    /// hand-tuned values of the same 35 parameters.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "expert-rand,evol-rand,evol-expert"
    )]
    pairings: Vec<PairingArg>,
}

#[derive(Clone, Copy, ValueEnum)]
enum PairingArg {
    ExpertRand,
    EvolRand,
    EvolExpert,
    EvolHand35,
}

fn run_match(a: MatchArgs) -> anyhow::Result<()> {
    use kestrel_evolve::mentor::paper_match::{Pairing, paper_match, random_organism};
    use kestrel_evolve::mentor::run::BUILTIN_POSITIONS;
    use kestrel_tools::{GameSettings, Opening, limits::Limit, load_openings, sample_openings};
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let pairings: Vec<Pairing> = a
        .pairings
        .iter()
        .map(|p| match p {
            PairingArg::ExpertRand => Pairing::ExpertRandOrg,
            PairingArg::EvolRand => Pairing::EvolRandOrg,
            PairingArg::EvolExpert => Pairing::EvolExpert,
            PairingArg::EvolHand35 => Pairing::EvolHand35,
        })
        .collect();
    let evolved = kestrel_eval::load_eval_params(&a.params)
        .map_err(|e| anyhow::anyhow!("cannot load the evolved organism: {e}"))?;
    let limit = match (a.nodes, a.depth, &a.tc, a.movetime) {
        (Some(0), ..) => bail!("--nodes must be at least 1"),
        (Some(n), ..) => Limit::Nodes(n),
        (_, Some(d), ..) if d < 1 => bail!("--depth must be at least 1"),
        (_, Some(d), ..) => Limit::Depth(d),
        (_, _, Some(tc), _) => Limit::parse_tc(tc).map_err(anyhow::Error::msg)?,
        (.., Some(0)) => bail!("--movetime must be at least 1 ms"),
        (.., Some(ms)) => Limit::MoveTime(std::time::Duration::from_millis(ms)),
        _ => Limit::Nodes(20_000),
    };
    let pool: Vec<Opening> = match &a.openings {
        Some(path) => load_openings(path)?,
        None => PositionSet::parse_epd(BUILTIN_POSITIONS)
            .map_err(anyhow::Error::msg)?
            .test
            .into_iter()
            .map(Opening::from_board)
            .collect(),
    };
    let openings = sample_openings(&pool, a.games.div_ceil(2), a.seed);
    let concurrency = a.concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    println!(
        "{} games per pairing, {:?} per move, {} openings, {} at a time",
        a.games,
        limit,
        openings.len(),
        concurrency
    );
    let results = paper_match(
        evolved,
        random_organism(a.random_seed),
        &pairings,
        &openings,
        a.games,
        GameSettings::new(limit),
        concurrency,
        &|label, done| {
            if (done.index + 1) % 50 == 0 {
                eprintln!("{label}: {} games, {:?}", done.index + 1, done.wdl);
            }
        },
    );
    println!(
        "{:<20} {:>5} {:>5} {:>5} {:>7} {:>18}",
        "match", "W", "D", "L", "score", "Elo (95% CI)"
    );
    for r in &results {
        let s = &r.summary;
        println!(
            "{:<20} {:>5} {:>5} {:>5} {:>6.1}% {:>+7.0} [{:+.0}, {:+.0}]",
            format!("{} - {}", r.first, r.second),
            s.wdl.wins,
            s.wdl.draws,
            s.wdl.losses,
            100.0 * s.score,
            s.elo,
            s.ci_low,
            s.ci_high
        );
    }
    println!(
        "{:<20} {:>10} {:>10} {:>12} {:>12}",
        "search", "nps 1st", "nps 2nd", "depth 1st", "depth 2nd"
    );
    for r in &results {
        println!(
            "{:<20} {:>10.0} {:>10.0} {:>12.2} {:>12.2}",
            format!("{} - {}", r.first, r.second),
            r.first_search.nps(),
            r.second_search.nps(),
            r.first_search.mean_depth(),
            r.second_search.mean_depth()
        );
    }
    Ok(())
}

pub fn run(args: EvolveArgs) -> anyhow::Result<()> {
    match args.command {
        None => run_mentor_command(args.mentor),
        Some(EvolveCommand::Mentor(m)) => run_mentor_command(m),
        Some(EvolveCommand::Positions(p)) => run_positions(p),
        Some(EvolveCommand::Match(m)) => run_match(m),
    }
}

fn run_positions(args: PositionsArgs) -> anyhow::Result<()> {
    if args.count < 2 {
        bail!("--count must be at least 2 (one train and one test position)");
    }
    let rules = PickRules {
        skip_plies: args.skip_plies,
        ..PickRules::default()
    };
    let (boards, stats) =
        extract_from_pgn(&args.pgn, args.count, &rules, args.seed).map_err(anyhow::Error::msg)?;
    let set = PositionSet::split(boards, args.seed);
    set.save(&args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "{} games read ({} malformed, {} without a quiet position); wrote {} train + {} test positions to {}",
        stats.games,
        stats.malformed_games,
        stats.games_without_candidate,
        set.train.len(),
        set.test.len(),
        args.out.display()
    );
    Ok(())
}

// Real-genome defaults (measured in docs/evolve.md, "Real-vector evolution").
const REAL_CROSSOVER_RATE: f64 = 0.9;
const REAL_ALPHA: f64 = 0.2;
const REAL_MUTATION_RATE: f64 = 0.05;
const REAL_STEP_START: f64 = 0.05;
const REAL_STEP_END: f64 = 0.002;

fn run_mentor_command(a: MentorArgs) -> anyhow::Result<()> {
    let threads = a.job.start_threads()?;
    let mentor: MentorSpec = a.mentor.parse().map_err(anyhow::Error::msg)?;
    if a.depth < 1 {
        bail!("--depth must be at least 1");
    }
    if a.sample == 0 {
        bail!("--sample must be at least 1");
    }
    let positions = match (&a.positions, &a.pgn) {
        (Some(p), _) => PositionsSource::Epd(p.clone()),
        (None, Some(pgn)) => PositionsSource::Pgn {
            path: pgn.clone(),
            count: a.games,
            rules: PickRules::default(),
        },
        (None, None) => PositionsSource::Builtin,
    };
    let fitness_threshold = match a.target_error {
        Some(cp) if cp <= 0.0 => bail!("--target-error must be positive"),
        Some(cp) => Some(1.0 / cp),
        None => None,
    };
    let real = a.genome == GenomeArg::Real;
    let crossover = match a.crossover {
        Some(CrossoverArg::Single) => Crossover::SinglePoint,
        Some(CrossoverArg::Uniform) => Crossover::Uniform,
        Some(CrossoverArg::Blend) if !real => bail!("--crossover blend needs --genome real"),
        Some(CrossoverArg::Blend) => Crossover::Blend {
            alpha: a.blend_alpha,
        },
        None if real => Crossover::Uniform,
        None => Crossover::SinglePoint,
    };
    let selection = match a.selection {
        Some(SelectionArg::Roulette) => Selection::Roulette,
        Some(SelectionArg::Tournament) => Selection::Tournament {
            size: a.tournament_size,
        },
        None if real => Selection::Tournament {
            size: a.tournament_size,
        },
        None => Selection::Roulette,
    };
    let cfg = MentorRunConfig {
        positions,
        mentor,
        depth: a.depth,
        set: match a.set {
            SetArg::Compact => ParamSet::Compact,
            SetArg::Full => ParamSet::Full,
        },
        genome: if real {
            GenomeKind::Real
        } else {
            GenomeKind::Bits
        },
        coding: match a.coding {
            CodingArg::Binary => Coding::Binary,
            CodingArg::Gray => Coding::Gray,
        },
        sample: a.sample,
        ga: GaSettings {
            population: a.population,
            crossover_rate: a.crossover_rate.unwrap_or(if real {
                REAL_CROSSOVER_RATE
            } else {
                0.75
            }),
            crossover,
            mutation_rate: a
                .mutation_rate
                .unwrap_or(if real { REAL_MUTATION_RATE } else { 0.002 }),
            selection,
            elitism: a.elitism,
            termination: Termination {
                generations: a.generations,
                fitness_threshold,
                stall_generations: a.stall,
            },
            seed: a.seed,
            mutation_step: real.then_some(StepSchedule {
                start: a.step,
                end: a.step_end,
            }),
        },
        out_dir: a.out.clone(),
        labels: a.labels.clone(),
        resume: a.job.resume,
        progress: !a.job.quiet,
        mentor_processes: threads,
        ray: a.executor.ray()?,
    };
    cfg.ga.validate().map_err(anyhow::Error::msg)?;
    let r = run_mentor(&cfg).map_err(anyhow::Error::msg)?;
    println!("mentor            {}", r.mentor_key);
    println!("fitness on        {}", r.executor);
    println!(
        "positions         {} train, {} test ({} mate scores and {} mentor failures left out)",
        r.train_positions, r.test_positions, r.dropped_mates, r.dropped_failures
    );
    println!(
        "labels            {} cached, {} computed in {:.1} s",
        r.labels.cached, r.labels.computed, r.labels.seconds
    );
    println!(
        "evolution         {} generations in {:.2} s ({:?})",
        r.generations, r.ga_seconds, r.stop
    );
    println!(
        "best of gen. 0    {:.1} cp mean |error| (random organisms)",
        r.first_generation_best
    );
    println!("train error       {:.1} cp", r.train_error);
    println!("test error        {:.1} cp", r.test_error);
    println!(
        "hand-tuned eval   {:.1} cp train, {:.1} cp test (Kestrel's full static evaluation)",
        r.handtuned_error.0, r.handtuned_error.1
    );
    println!(
        "hand-tuned set    {:.1} cp train, {:.1} cp test (hand-tuned values of the evolved set alone)",
        r.handtuned_set_error.0, r.handtuned_set_error.1
    );
    println!("params            {}", r.params_path.display());
    println!(
        "log, chart        {}, {}",
        r.log_path.display(),
        r.chart_path.display()
    );
    Ok(())
}
