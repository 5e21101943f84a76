//! `kestrel evolve`: evolve evaluation parameters from random with the expert-driven GA
//! (`kestrel evolve` alone runs it on the built-in positions with the built-in mentor),
//! extract training positions from PGN (`evolve positions`), and play the evolved organism
//! against a random one and the expert (`evolve match`).

use super::executor_options::ExecutorOptions;
use super::ga_options::{GaArgs, GaDefaults};
use super::job_options::JobOptions;
use crate::commands::checked;
use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use kestrel_evolve::mentor::positions::{PickRules, PositionSet, extract_from_pgn};
use kestrel_evolve::mentor::report::render_mentor_report;
use kestrel_evolve::mentor::run::{
    MentorRunConfig, MentorSpec, ParamSet, PositionsSource, run_mentor,
};
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
    /// Falcon's search GA: evolve search parameters by nodes to solve a tactical suite.
    Search(super::evolve_search::SearchGaArgs),
    /// The teaching engine's tournament GA (round robins at 2 plies; docs/evolve-tournament.md).
    Tournament(super::evolve_tournament::TournamentArgs),
    /// Evolve an evaluation from random by agreeing with the moves played in games.
    Moves(Box<super::evolve_moves::MovesArgs>),
    /// Evolve a population seeded by earlier runs' best organisms by round-robin game results.
    Coevolve(Box<super::evolve_coevolve::CoevolveArgs>),
    /// Phoenix: evolve piece-square tables by multi-niche crowding from games (see
    /// docs/evolve-mnc.md).
    Mnc(Box<super::evolve_mnc::MncArgs>),
    /// Evolve named search/evaluation values by play: organisms race game pairs against a
    /// reference (docs/spsa.md, "Game fitness for the GA").
    Games(Box<super::evolve_games::GamesGaArgs>),
}

#[derive(Clone, Copy, ValueEnum)]
enum SetArg {
    Compact,
    Full,
}

#[derive(Args)]
struct MentorArgs {
    /// Who scores the positions: `builtin` (Kestrel's hand-tuned evaluation and search) or
    /// `uci:COMMAND` (any UCI engine, e.g. `uci:/usr/games/stockfish`). Several mentors,
    /// comma-separated, are combined by --combine ("wisdom of crowds").
    #[arg(long, default_value = "builtin", value_delimiter = ',')]
    mentor: Vec<String>,
    /// How several mentors' scores become one label: mean or median.
    #[arg(long, default_value = "mean")]
    combine: String,
    /// Mentor search depth in plies (`--depth` is an old spelling).
    #[arg(long = "mentor-depth", alias = "depth", default_value_t = 2, value_parser = clap::value_parser!(i32).range(1..))]
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
    /// Training positions drawn (at random) for each generation.
    #[arg(long, default_value_t = 1000, value_parser = checked::positive)]
    sample: usize,
    /// Stop once the best organism's sample error is at most this many centipawns (default: off).
    #[arg(long, value_name = "CP", value_parser = checked::non_negative_f64)]
    target_error: Option<f64>,
    #[command(flatten)]
    ga: GaArgs,
    /// Output folder: best.toml, log.csv, evolution.svg, checkpoint.json, labels.tsv.
    #[arg(long, default_value = "evolve-out", value_parser = checked::writable_dir)]
    out: PathBuf,
    /// Label cache file (default: OUT/labels.tsv).
    #[arg(long, value_name = "FILE", value_parser = checked::writable_file)]
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
    /// Games to take positions from (one each); half train, half test (`--count` is an old
    /// spelling).
    #[arg(long = "games", alias = "count", default_value_t = 10_000)]
    count: usize,
    /// Opening plies never picked.
    #[arg(long, default_value_t = 16)]
    skip_plies: usize,
    /// Seed for choosing games, positions and the train/test split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// EPD file to write (`c0 "train"` / `c0 "test"`; `--out` is an old spelling).
    #[arg(long = "output", alias = "out", value_name = "FILE", value_parser = checked::writable_file)]
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
    #[arg(long, conflicts_with_all = ["depth", "tc", "movetime"], value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Fixed depth per move instead.
    #[arg(long, conflicts_with_all = ["tc", "movetime"], value_name = "PLIES", value_parser = clap::value_parser!(i32).range(1..))]
    depth: Option<i32>,
    /// A clock instead: base seconds + increment, e.g. `1+0.02`. Equal time rather than equal
    /// work: a cheaper evaluation searches more nodes (the paper's setting).
    #[arg(long, value_name = "BASE+INC", conflicts_with = "movetime")]
    tc: Option<String>,
    /// Fixed time per move in milliseconds instead.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Openings (EPD or PGN); default: test positions of the built-in GM set.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Seed for choosing the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (as in `kestrel match`).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
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
    use kestrel_evolve::mentor::report::{match_openings, render_match_results};
    use kestrel_tools::{GameSettings, limits::Limit};
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
    let evolved = kestrel_search::EngineParams::load(&a.params, "--params")?.eval;
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
    let openings =
        match_openings(a.openings.as_deref(), a.games, a.seed).map_err(anyhow::Error::msg)?;
    let concurrency = a.concurrency.max(1);
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
    print!("{}", render_match_results(&results));
    Ok(())
}

/// Runs the expert-driven GA, or the GA the subcommand names.
pub fn run(args: EvolveArgs) -> anyhow::Result<()> {
    match args.command {
        None => run_mentor_command(args.mentor),
        Some(EvolveCommand::Mentor(m)) => run_mentor_command(m),
        Some(EvolveCommand::Positions(p)) => run_positions(p),
        Some(EvolveCommand::Match(m)) => run_match(m),
        Some(EvolveCommand::Search(s)) => super::evolve_search::run(s),
        Some(EvolveCommand::Tournament(t)) => super::evolve_tournament::run(t),
        Some(EvolveCommand::Moves(m)) => super::evolve_moves::run(*m),
        Some(EvolveCommand::Coevolve(c)) => super::evolve_coevolve::run(*c),
        Some(EvolveCommand::Mnc(m)) => super::evolve_mnc::run(*m),
        Some(EvolveCommand::Games(g)) => super::evolve_games::run(*g),
    }
}

fn run_positions(args: PositionsArgs) -> anyhow::Result<()> {
    if args.count < 2 {
        bail!("--games must be at least 2 (one train and one test position)");
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

/// The expert-driven GA paper's settings: population 1000, 300 generations, crossover 0.75,
/// mutation 0.002 per bit.
const MENTOR_DEFAULTS: GaDefaults = GaDefaults {
    population: 1000,
    generations: 300,
    bits_crossover_rate: 0.75,
    bits_mutation_rate: 0.002,
};

fn run_mentor_command(a: MentorArgs) -> anyhow::Result<()> {
    checked::distinct("--mentor", &a.mentor)?;
    let threads = a.job.start_threads()?;
    let mut mentors: Vec<MentorSpec> = a
        .mentor
        .iter()
        .map(|m| m.parse())
        .collect::<Result<_, String>>()
        .map_err(anyhow::Error::msg)?;
    if mentors.is_empty() {
        bail!("--mentor needs at least one mentor");
    }
    let mentor = mentors.remove(0);
    let combine = a.combine.parse().map_err(anyhow::Error::msg)?;
    if a.depth < 1 {
        bail!("--mentor-depth must be at least 1");
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
    let ga = a.ga.settings(MENTOR_DEFAULTS, fitness_threshold)?;
    let cfg = MentorRunConfig {
        positions,
        mentor,
        extra_mentors: mentors,
        combine,
        depth: a.depth,
        set: match a.set {
            SetArg::Compact => ParamSet::Compact,
            SetArg::Full => ParamSet::Full,
        },
        genome: a.ga.genome_kind(),
        coding: a.ga.coding(),
        sample: a.sample,
        ga,
        out_dir: a.out.clone(),
        labels: a.labels.clone(),
        resume: a.job.resume,
        progress: !a.job.quiet,
        mentor_processes: threads,
        ray: a.executor.ray()?,
    };
    let mut folder = a.job.claim(&a.out)?;
    let r = run_mentor(&cfg).map_err(anyhow::Error::msg)?;
    folder.report(&render_mentor_report(&r));
    super::ga_options::print_output_paths(&r.params_path, &r.log_path, &r.chart_path);
    folder.finish(a.ga.seed)
}
