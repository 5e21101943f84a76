//! `kestrel evolve moves`: evolve an evaluation from random so that its 1-ply (+ quiescence)
//! choices agree with the moves played in a PGN's games (all players or one, `--player`), and
//! report the agreement on training and held-out games beside references.

use super::executor_options::ExecutorOptions;
use super::ga_options::{GaArgs, GaDefaults};
use super::job_options::JobOptions;
use super::run_folder::{RunFolder, say};
use crate::commands::checked;
use anyhow::bail;
use clap::{Args, ValueEnum};
use kestrel_evolve::mentor::positions::PickRules;
use kestrel_evolve::mentor::run::ParamSet;
use kestrel_evolve::moves::data::{MoveExtract, player_counts};
use kestrel_evolve::moves::recognise::run_recognition;
use kestrel_evolve::moves::run::{Agreement, MovesRunConfig, run_moves};
use std::path::PathBuf;

/// The move-learning paper's settings: population 100, 200 generations, crossover 0.75,
/// mutation 0.005 per bit.
const MOVES_DEFAULTS: GaDefaults = GaDefaults {
    population: 100,
    generations: 200,
    bits_crossover_rate: 0.75,
    bits_mutation_rate: 0.005,
};

/// Which parameters evolve.
#[derive(Clone, Copy, ValueEnum)]
pub enum MovesSetArg {
    Compact,
    Full,
}

/// Arguments of `kestrel evolve moves`.
#[derive(Args)]
pub struct MovesArgs {
    /// Games whose moves are learnt.
    #[arg(
        long,
        value_name = "FILE",
        default_value = kestrel_tools::data::DEFAULT_GAMES
    )]
    pub pgn: PathBuf,
    /// Games to use (chosen at random over the file), split by game into train and test halves.
    #[arg(long, default_value_t = 10_000, value_parser = checked::positive)]
    pub games: usize,
    /// Positions taken per game (spread over the game).
    #[arg(long, default_value_t = 1, value_parser = checked::positive)]
    pub per_game: usize,
    /// Only positions where this player is to move (case-insensitive part of the name) (default:
    /// every player).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Opening plies never picked.
    #[arg(long, default_value_t = 16)]
    pub skip_plies: usize,
    /// Also pick positions with a capture or promotion pending (default: quiet ones only).
    #[arg(long)]
    pub tactical: bool,
    /// Search depth: 1 = one ply + quiescence scored by matrix products (fast); more = real
    /// alpha-beta searches of every organism (slow).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(i32).range(1..))]
    pub depth: i32,
    /// Longest capture line followed to a leaf (0: no quiescence).
    #[arg(long, default_value_t = 8)]
    pub quiescence: i32,
    /// Which parameters evolve: the paper's 35 or every evaluation value.
    #[arg(long, value_enum, default_value = "compact")]
    pub set: MovesSetArg,
    /// Training positions drawn per generation (0: all).
    #[arg(long, default_value_t = 0)]
    pub sample: usize,
    /// Recognition experiment: evolve one organism per player (comma-separated names), then
    /// attribute each held-out game to the organism agreeing best with its moves (default: off).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAMES",
        conflicts_with = "player"
    )]
    pub recognise: Vec<String>,
    /// Print the players with the most games in the PGN (this many) and stop (default: off).
    #[arg(long, value_name = "N")]
    pub list_players: Option<usize>,
    /// Seed of the random reference organism.
    #[arg(long, default_value_t = 7)]
    pub random_seed: u64,
    #[command(flatten)]
    pub ga: GaArgs,
    /// Output folder: best.toml, log.csv, evolution.svg, checkpoint.json.
    #[arg(long, default_value = "evolve-moves-out", value_parser = checked::writable_dir)]
    pub out: PathBuf,
    #[command(flatten)]
    pub job: JobOptions,
    #[command(flatten)]
    pub executor: ExecutorOptions,
}

impl MovesArgs {
    /// The extraction settings of these arguments.
    pub fn extract(&self) -> MoveExtract {
        MoveExtract {
            games: self.games,
            per_game: self.per_game,
            rules: PickRules {
                skip_plies: self.skip_plies,
                skip_pending_captures: !self.tactical,
                ..PickRules::default()
            },
            player: self.player.clone(),
            seed: self.ga.seed,
        }
    }

    /// The run configuration of these arguments (validated).
    pub fn config(&self) -> anyhow::Result<MovesRunConfig> {
        if self.depth < 1 {
            bail!("--depth must be at least 1");
        }
        if self.quiescence < 0 {
            bail!("--quiescence must be at least 0");
        }
        if self.games < 2 || self.per_game == 0 {
            bail!("--games must be at least 2 and --per-game at least 1");
        }
        if kestrel_tools::data::builtin(&self.pgn)?.is_none() && !self.pgn.exists() {
            bail!("PGN file {} not found (see --pgn)", self.pgn.display());
        }
        Ok(MovesRunConfig {
            pgn: self.pgn.clone(),
            extract: self.extract(),
            depth: self.depth,
            max_captures: self.quiescence,
            set: match self.set {
                MovesSetArg::Compact => ParamSet::Compact,
                MovesSetArg::Full => ParamSet::Full,
            },
            genome: self.ga.genome_kind(),
            coding: self.ga.coding(),
            sample: self.sample,
            ga: self.ga.settings(MOVES_DEFAULTS, None)?,
            out_dir: self.out.clone(),
            resume: self.job.resume,
            progress: !self.job.quiet,
            random_seed: self.random_seed,
            ray: self.executor.ray()?,
        })
    }
}

fn line(folder: &mut RunFolder, name: &str, a: Agreement, note: &str) {
    say!(
        folder,
        "{name:<18}{:>6.2}% train {:>6.2}% test  {note}",
        a.train,
        a.test
    );
}

/// Runs `kestrel evolve moves`.
pub fn run(a: MovesArgs) -> anyhow::Result<()> {
    checked::distinct("--recognise", &a.recognise)?;
    a.job.start_threads()?;
    if let Some(n) = a.list_players {
        let counts = player_counts(&a.pgn).map_err(anyhow::Error::msg)?;
        for (name, games) in counts.iter().take(n) {
            println!("{games:>6}  {name}");
        }
        return Ok(());
    }
    let cfg = a.config()?;
    let mut folder = a.job.claim(&a.out)?;
    if !a.recognise.is_empty() {
        recognise(&cfg, &a.recognise)?;
        return folder.finish(a.ga.seed);
    }
    let r = run_moves(&cfg).map_err(anyhow::Error::msg)?;
    say!(
        folder,
        "games             {} read, {} usable{}; {} train + {} test positions, {} legal moves",
        r.extract.games_read,
        r.extract.eligible_games,
        a.player
            .as_ref()
            .map_or(String::new(), |p| format!(" with {p} to move")),
        r.train_positions,
        r.test_positions,
        r.leaves
    );
    say!(
        folder,
        "preparation       {:.1} s (positions, leaves, traces)",
        r.prepare_seconds
    );
    say!(
        folder,
        "evolution         {} generations in {:.1} s ({:?}); fitness on {}",
        r.generations,
        r.ga_seconds,
        r.stop,
        r.executor
    );
    say!(
        folder,
        "move agreement    (1 ply + quiescence on the same leaves)"
    );
    line(
        &mut folder,
        "  evolved",
        r.evolved,
        "best organism of the last generation",
    );
    line(
        &mut folder,
        "  hand-tuned eval",
        r.expert,
        "Kestrel's full static evaluation",
    );
    line(
        &mut folder,
        "  hand-tuned set",
        r.expert_set,
        "its values of the evolved set alone",
    );
    line(&mut folder, "  random organism", r.random, "");
    line(&mut folder, "  random move", r.chance, "1 / legal moves");
    if let Some((evolved, expert)) = r.searched {
        say!(
            folder,
            "move agreement    (real searches at the run's depth)"
        );
        line(&mut folder, "  evolved", evolved, "");
        line(
            &mut folder,
            "  hand-tuned eval",
            expert,
            "Kestrel's full evaluation",
        );
    }
    super::ga_options::print_output_paths(&r.params_path, &r.log_path, &r.chart_path);
    folder.finish(a.ga.seed)
}

/// Runs and prints the recognition experiment.
fn recognise(cfg: &MovesRunConfig, players: &[String]) -> anyhow::Result<()> {
    let r = run_recognition(cfg, players).map_err(anyhow::Error::msg)?;
    println!(
        "{:<28} {:>8} {:>10} {:>10} {:>9}",
        "player", "train", "agree test", "test games", "correct"
    );
    for p in &r.players {
        println!(
            "{:<28} {:>8} {:>9.2}% {:>10} {:>9.1}",
            p.name, p.train_positions, p.test_agreement, p.test_games, p.correct
        );
    }
    println!(
        "recognised {:.1} of {} held-out games: {:.1}% (chance {:.1}%)",
        r.correct,
        r.test_games,
        100.0 * r.accuracy,
        100.0 * r.chance
    );
    println!("confusion (rows: true player, columns: attributed)");
    for (name, row) in players.iter().zip(&r.confusion) {
        let cells: Vec<String> = row.iter().map(|c| format!("{c:>6.1}")).collect();
        println!("  {name:<26} {}", cells.join(" "));
    }
    Ok(())
}
