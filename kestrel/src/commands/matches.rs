//! `kestrel match`: engine A against engine B (built-in configurations or UCI engines), or a
//! round robin / gauntlet among several, with openings from an EPD/PGN book, W/D/L, Elo with a
//! 95% interval, LOS, the pentanomial pair counts with Elo ± the pentanomial error and
//! normalised Elo, an optional SPRT (pentanomial by default) and PGN output.

/// `println!` that ignores a closed stdout (e.g. piped into `head`) instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

use crate::commands::checked;
use anyhow::{Context, bail};
use kestrel_tools::adjudication::{
    Adjudication, DrawRule, MoveLimit, MoveLimitScoring, ResignRule,
};
use kestrel_tools::earlier_results::EarlierResults;
use kestrel_tools::game_pgn::write_pgn_file;
use kestrel_tools::match_checkpoint::MatchCheckpoint;
use kestrel_tools::match_runner::{
    GameDone, MatchResult, MatchSettings, Resume, engine_fault, run_match_resumed,
};
use kestrel_tools::progress::Progress;
use kestrel_tools::spec_parse::{make_names_unique, parse_engine_spec};
use kestrel_tools::stats::fmt_elo;
use kestrel_tools::uci_player::UciTimeouts;
use kestrel_tools::{
    EngineSpec, GameRecord, GameSettings, Limit, Opening, Sprt, SprtDecision, SprtModel, gauntlet,
    load_openings, round_robin, sample_openings,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

#[derive(clap::Args)]
pub struct MatchArgs {
    /// Engine A: `builtin` (Kestrel as shipped, with the compiled-in network), `linear` (the
    /// linear evaluation), `builtin:params=FILE`, `FILE.toml` (built-in with those params and
    /// the linear evaluation), `builtin:net=FILE`, `FILE.knet` (built-in evaluating with that
    /// network; `net=builtin`: the compiled-in one, `net=linear`: none),
    /// `builtin:params=FILE,net=FILE` or `uci:COMMAND [ARGS]`.
    #[arg(short = 'a', long = "engine-a", default_value = "builtin")]
    pub engine_a: String,
    /// Engine B (same forms as engine A).
    #[arg(short = 'b', long = "engine-b", default_value = "builtin")]
    pub engine_b: String,
    /// UCI option for engine A, `NAME=VALUE` or `@FILE` (a file of NAME=VALUE lines, as
    /// `tune spsa --engine` writes in OUT/final.options; repeatable) (default: none).
    #[arg(long = "option-a", value_name = "NAME=VALUE")]
    pub option_a: Vec<String>,
    /// UCI option for engine B, `NAME=VALUE` or `@FILE` (repeatable) (default: none).
    #[arg(long = "option-b", value_name = "NAME=VALUE")]
    pub option_b: Vec<String>,
    /// Round robin among these engines (instead of A against B); `--games` per pairing.
    #[arg(long, num_args = 2.., value_name = "ENGINE", conflicts_with = "gauntlet")]
    pub round_robin: Vec<String>,
    /// Gauntlet: the first engine plays each of the others; `--games` per pairing (default: off).
    #[arg(long, num_args = 2.., value_name = "ENGINE")]
    pub gauntlet: Vec<String>,
    /// Opening book: EPD/FEN or PGN, optionally gzipped (default: the start position).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Seed for sampling openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games to play (per pairing); each opening is played with both colours.
    #[arg(long, default_value_t = 100, value_parser = checked::positive)]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = checked::positive)]
    pub concurrency: usize,
    /// Fixed depth per move (depth 5 when no limit is given) (default: off).
    #[arg(long, group = "limit", value_parser = clap::value_parser!(i32).range(1..))]
    pub depth: Option<i32>,
    /// Fixed nodes per move (default: off).
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Clock: base seconds + increment, e.g. `10+0.1` (default: off).
    #[arg(long, group = "limit", value_name = "BASE+INC", value_parser = checked::time_control)]
    pub tc: Option<String>,
    /// Count the --tc clock in nodes, this many per millisecond (Stockfish's `nodestime`):
    /// built-in engines only; games then repeat exactly, whatever the machine's load (default:
    /// off).
    #[arg(long, requires = "tc", value_name = "NODES_PER_MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodestime: Option<u64>,
    /// Fixed time per move in milliseconds (default: off).
    #[arg(long, group = "limit", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Write every game to this PGN file (default: none).
    #[arg(long, value_parser = checked::writable_file)]
    pub pgn_out: Option<PathBuf>,
    /// Stop early by SPRT: `elo0,elo1[,alpha,beta]` (A against B; alpha = beta = 0.05) (default:
    /// off).
    #[arg(long, value_name = "ELO0,ELO1[,A,B]", value_parser = checked::sprt)]
    pub sprt: Option<String>,
    /// SPRT model: `pentanomial` (game pairs, logistic Elo bounds, decided at pair ends),
    /// `normalized` (game pairs, bounds in normalised Elo: fastchess's default) or
    /// `trinomial` (single games).
    #[arg(long, default_value = "pentanomial", value_name = "MODEL")]
    pub sprt_model: String,
    /// Resign adjudication: both engines' scores beyond CP for MOVES moves each (default: off).
    #[arg(long, value_name = "CP,MOVES")]
    pub resign: Option<String>,
    /// Draw adjudication: from move MOVE, both scores within ±CP for MOVES moves each (default:
    /// off).
    #[arg(long, value_name = "MOVE,CP,MOVES")]
    pub draw: Option<String>,
    /// End games after this many moves (a draw unless --move-limit-eval is given; default: no
    /// limit).
    #[arg(long, value_parser = checked::positive)]
    pub max_moves: Option<usize>,
    /// At the move limit, each side scores the final position with its own evaluation; the
    /// side both see ahead by more than this margin (centipawns) wins, else a draw.
    #[arg(long, value_name = "CP", requires = "max_moves")]
    pub move_limit_eval: Option<i32>,
    /// Seconds to wait for a UCI engine's move under depth/node limits before it counts as
    /// hung.
    #[arg(long, default_value_t = 60.0, value_parser = checked::positive_f64)]
    pub uci_timeout: f64,
    /// Clock overrun (milliseconds) tolerated before a time forfeit under --tc/--movetime.
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub time_margin: u64,
    /// Hash table per built-in engine, MB (UCI engines: use --option-a Hash=N).
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = checked::hash_mb)]
    pub hash: usize,
    /// Journal of finished games: created when absent, resumed when present (same settings
    /// required), so that a stopped match continues where it stopped (default: none).
    #[arg(long, value_name = "FILE", value_parser = checked::writable_file)]
    pub checkpoint: Option<PathBuf>,
    /// Continue a match whose first part was played elsewhere, from that part's counts as its
    /// report printed them, `W,D,L:LL,LD,WL+DD,WD,WW` (A's view): games `0..W+D+L` are
    /// counted, not replayed, and play resumes at the next game with the openings an
    /// uninterrupted match would use (give the same --seed, --games and --openings). The SPRT
    /// and every figure count both parts (default: none).
    #[arg(long, value_name = "W,D,L:PENTANOMIAL")]
    pub earlier: Option<String>,
    /// Print one line per finished game.
    #[arg(short, long)]
    pub verbose: bool,
}

/// A match stops with an error once an engine fails (start, crash, hang) this many games in a
/// row: its results would only measure the failure.
const MAX_FAULTS_IN_A_ROW: usize = 3;

/// Starts every UCI engine once before any game: one that cannot start is an error that names
/// its command and quotes what it printed, never a row of forfeited games.
fn check_engines_start(specs: &[EngineSpec]) -> anyhow::Result<()> {
    for spec in specs {
        let command = match spec {
            EngineSpec::Uci { command, args, .. } => format!(" ({command} {})", args.join(" ")),
            EngineSpec::Builtin { .. } => String::new(),
        };
        spec.check_starts()
            .with_context(|| format!("engine '{}'{command} cannot play", spec.name()))?;
    }
    Ok(())
}

/// Engines A and B of a two-engine match, named apart, checked against the options and started
/// once, so a bad engine is an error before any game.
fn match_engines(args: &MatchArgs, timeouts: UciTimeouts) -> anyhow::Result<Vec<EngineSpec>> {
    let mut specs = vec![
        parse_engine_spec(
            &args.engine_a,
            &super::engine_options::expand_option_files(&args.option_a)?,
            timeouts,
        )
        .map_err(anyhow::Error::msg)
        .context("engine A")?,
        parse_engine_spec(
            &args.engine_b,
            &super::engine_options::expand_option_files(&args.option_b)?,
            timeouts,
        )
        .map_err(anyhow::Error::msg)
        .context("engine B")?,
    ];
    make_names_unique(&mut specs);
    refuse_uci_with_nodestime(args, &specs)?;
    set_builtin_hash(&mut specs, args.hash);
    check_engines_start(&specs)?;
    Ok(specs)
}

/// Plays the match (or the tournament), reports it, and fails if it was aborted.
pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let settings = match_settings(&args)?;
    let openings = openings(&args)?;
    let timeouts = UciTimeouts {
        move_without_clock: Duration::try_from_secs_f64(args.uci_timeout)
            .context("--uci-timeout must be a non-negative number of seconds")?,
        ..UciTimeouts::default()
    };
    if !args.round_robin.is_empty() || !args.gauntlet.is_empty() {
        if args.checkpoint.is_some() || args.earlier.is_some() {
            bail!(
                "--checkpoint and --earlier continue a match of engine A against engine B, not a tournament"
            );
        }
        return run_tournament(&args, &settings, &openings, timeouts);
    }
    let specs = match_engines(&args, timeouts)?;
    say!(
        "{} vs {}: {} games, {}, {} at a time{}",
        specs[0].name(),
        specs[1].name(),
        args.games,
        settings.game.limit,
        settings.concurrency,
        settings.sprt.map_or(String::new(), |s| format!(", {s}"))
    );
    let earlier = earlier_results(&args)?;
    let (journal, restored) = open_checkpoint(&args, &openings, &settings)?;
    let restored_count = restored.len();
    let journal_error: Mutex<Option<String>> = Mutex::new(None);
    let played: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
    let progress = Progress::new(
        (args.games - earlier.games()).saturating_sub(restored_count) as u64,
        "match",
    );
    let verbose = args.verbose;
    // Games so far, rewritten to --pgn-out every 10 games so an interrupted match keeps them.
    let so_far: Mutex<Vec<(usize, GameRecord)>> = Mutex::new(Vec::new());
    let on_game = |done: &GameDone| {
        if verbose {
            progress.println(&game_line(done.index, done.game));
        }
        played
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(done.game.clone());
        if let Some(journal) = &journal {
            let mut journal = journal.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = journal.append(done.index, done.game) {
                let mut first = journal_error.lock().unwrap_or_else(|e| e.into_inner());
                first.get_or_insert(format!("cannot append to the checkpoint: {e}"));
            }
        }
        if let Some(path) = &args.pgn_out {
            let mut games = so_far.lock().unwrap_or_else(|e| e.into_inner());
            games.push((done.index, done.game.clone()));
            if games.len().is_multiple_of(10) {
                games.sort_by_key(|(i, _)| *i);
                let records: Vec<GameRecord> = games.iter().map(|(_, g)| g.clone()).collect();
                if let Err(e) = write_pgn_file(path, "Kestrel match", &records) {
                    progress.println(&format!("warning: cannot write {}: {e}", path.display()));
                }
            }
        }
        let llr = done.llr.map_or(String::new(), |l| format!(" LLR {l:.2}"));
        let w = done.wdl;
        let [ll, ld, mid, wd, ww] = done.penta.five();
        progress.step(format!(
            "+{} ={} -{} Elo {} ptnml [{ll} {ld} {mid} {wd} {ww}]{llr}",
            w.wins,
            w.draws,
            w.losses,
            fmt_elo(w.elo())
        ));
    };
    let started = std::time::Instant::now();
    let result = run_match_resumed(
        &specs[0],
        &specs[1],
        &openings,
        &settings,
        MAX_FAULTS_IN_A_ROW,
        Resume {
            earlier,
            finished: restored,
        },
        &on_game,
    );
    progress.finish();
    report_match(&result, settings.sprt, earlier.games());
    let secs = started.elapsed().as_secs_f64();
    // Speed figures cover this run's games only; restored ones were timed by another run.
    let played = played.into_inner().unwrap_or_else(|e| e.into_inner());
    report_speed(&played, secs, restored_count);
    if let Some(e) = journal_error
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        bail!("{e}");
    }
    if let Some(path) = &args.pgn_out {
        write_pgn_file(path, "Kestrel match", &result.games)
            .with_context(|| format!("cannot write {}", path.display()))?;
        say!("wrote {} games to {}", result.games.len(), path.display());
    }
    match result.aborted {
        Some(why) => bail!("{why}"),
        None => Ok(()),
    }
}

fn run_tournament(
    args: &MatchArgs,
    settings: &MatchSettings,
    openings: &[Opening],
    timeouts: UciTimeouts,
) -> anyhow::Result<()> {
    let is_rr = !args.round_robin.is_empty();
    let list = if is_rr {
        &args.round_robin
    } else {
        &args.gauntlet
    };
    let mut specs: Vec<EngineSpec> = list
        .iter()
        .map(|s| parse_engine_spec(s, &[], timeouts).map_err(anyhow::Error::msg))
        .collect::<anyhow::Result<_>>()?;
    make_names_unique(&mut specs);
    refuse_uci_with_nodestime(args, &specs)?;
    set_builtin_hash(&mut specs, args.hash);
    check_engines_start(&specs)?;
    let pairings = if is_rr {
        specs.len() * (specs.len() - 1) / 2
    } else {
        specs.len() - 1
    };
    let progress = Progress::new((pairings * settings.games) as u64, "tournament");
    let verbose = args.verbose;
    let on_game = |i: usize, j: usize, done: &GameDone| {
        if verbose {
            progress.println(&game_line(done.index, done.game));
        }
        progress.step(format!("{} vs {}", specs[i].name(), specs[j].name()));
    };
    let t = if is_rr {
        round_robin(&specs, openings, settings, &on_game)
    } else {
        gauntlet(&specs, openings, settings, &on_game)
    };
    progress.finish();
    for (_, _, r) in &t.pairings {
        say!("{} vs {}: {}", r.engine_a, r.engine_b, r.wdl.summary());
    }
    say!("{}", t.table().trim_end());
    if let Some(path) = &args.pgn_out {
        let games: Vec<GameRecord> = t
            .pairings
            .iter()
            .flat_map(|(_, _, r)| r.games.iter().cloned())
            .collect();
        write_pgn_file(path, "Kestrel tournament", &games)
            .with_context(|| format!("cannot write {}", path.display()))?;
        say!("wrote {} games to {}", games.len(), path.display());
    }
    Ok(())
}

/// The `--earlier` counts, checked against the match: a whole number of pairs, fewer games
/// than --games, and no tournament.
fn earlier_results(args: &MatchArgs) -> anyhow::Result<EarlierResults> {
    let Some(text) = &args.earlier else {
        return Ok(EarlierResults::default());
    };
    let earlier = EarlierResults::parse(text)
        .map_err(anyhow::Error::msg)
        .context("--earlier")?;
    if earlier.games() >= args.games {
        bail!(
            "--earlier holds {} games: --games ({}) must be larger, the earlier part included",
            earlier.games(),
            args.games
        );
    }
    say!(
        "continuing after {} earlier games: {}",
        earlier.games(),
        earlier.penta.summary()
    );
    Ok(earlier)
}

/// The `--checkpoint` journal, opened (or created) for this match, and the games it holds.
#[allow(clippy::type_complexity)]
fn open_checkpoint(
    args: &MatchArgs,
    openings: &[Opening],
    settings: &MatchSettings,
) -> anyhow::Result<(Option<Mutex<MatchCheckpoint>>, Vec<(usize, GameRecord)>)> {
    let Some(path) = &args.checkpoint else {
        return Ok((None, Vec::new()));
    };
    let (journal, restored) = MatchCheckpoint::open(
        path,
        &fingerprint(args),
        openings,
        settings.game.limit,
        args.games,
    )
    .map_err(anyhow::Error::msg)?;
    if !restored.is_empty() {
        say!(
            "resumed: {} finished game(s) from {}",
            restored.len(),
            path.display()
        );
    }
    Ok((Some(Mutex::new(journal)), restored))
}

/// The settings that define a match's games, as text: a checkpoint resumes only the same.
/// (Concurrency, output and reporting options may change between runs.)
fn fingerprint(args: &MatchArgs) -> String {
    format!(
        "a={:?} {:?} b={:?} {:?} openings={:?} seed={} games={} depth={:?} nodes={:?} tc={:?} nodestime={:?} movetime={:?} sprt={:?} {} earlier={:?} resign={:?} draw={:?} max_moves={:?} move_limit_eval={:?} time_margin={} hash={}",
        args.engine_a,
        args.option_a,
        args.engine_b,
        args.option_b,
        args.openings,
        args.seed,
        args.games,
        args.depth,
        args.nodes,
        args.tc,
        args.nodestime,
        args.movetime,
        args.sprt,
        args.sprt_model,
        args.earlier,
        args.resign,
        args.draw,
        args.max_moves,
        args.move_limit_eval,
        args.time_margin,
        args.hash
    )
}

/// Games per minute and the search figures of the games this run played.
fn report_speed(played: &[GameRecord], secs: f64, restored_count: usize) {
    say!(
        "{} games in {secs:.1} s ({:.1} games/min){}",
        played.len(),
        60.0 * played.len() as f64 / secs.max(1e-9),
        if restored_count > 0 {
            format!(", after {restored_count} restored from the checkpoint")
        } else {
            String::new()
        }
    );
    say!("{}", search_totals(played, secs));
}

/// Built-in engines get the `--hash` size.
/// What the engines searched: plies and nodes per game, and nodes per second while searching
/// (the engines' own speed) and over the whole match (all games at once, with everything
/// between the searches): the figures a throughput bound is made of.
fn search_totals(games: &[GameRecord], secs: f64) -> String {
    let infos = || games.iter().flat_map(|g| &g.infos);
    let plies = infos().count();
    let nodes: u64 = infos().map(|i| i.nodes).sum();
    let searching: f64 = infos().map(|i| i.time.as_secs_f64()).sum();
    let per_game = |x: f64| x / games.len().max(1) as f64;
    format!(
        "searched {plies} plies ({:.1} a game), {nodes} nodes ({:.0} a game, {:.0} a ply) in {searching:.1} s of search: {:.0} nodes/s while searching, {:.0} over the match",
        per_game(plies as f64),
        per_game(nodes as f64),
        nodes as f64 / plies.max(1) as f64,
        nodes as f64 / searching.max(1e-9),
        nodes as f64 / secs.max(1e-9)
    )
}

/// A clock counted in nodes binds only the built-in engines: a UCI engine would think in
/// wall time while being charged nodes.
fn refuse_uci_with_nodestime(args: &MatchArgs, specs: &[EngineSpec]) -> anyhow::Result<()> {
    if args.nodestime.is_some()
        && let Some(uci) = specs.iter().find(|s| matches!(s, EngineSpec::Uci { .. }))
    {
        bail!(
            "--nodestime counts the clock in nodes, which only the built-in engines follow; '{}' is a UCI engine",
            uci.name()
        );
    }
    Ok(())
}

fn set_builtin_hash(specs: &mut [EngineSpec], mb: usize) {
    for spec in specs {
        if let EngineSpec::Builtin { config, .. } = spec {
            config.hash_mb = mb.max(1);
        }
    }
}

fn match_settings(args: &MatchArgs) -> anyhow::Result<MatchSettings> {
    if args.nodestime.is_some() && args.tc.is_none() {
        bail!("--nodestime counts a clock in nodes; it needs --tc");
    }
    let limit = if let Some(d) = args.depth {
        if d < 1 {
            bail!("--depth must be at least 1");
        }
        Limit::Depth(d)
    } else if let Some(n) = args.nodes {
        Limit::Nodes(n.max(1))
    } else if let Some(tc) = &args.tc {
        let clock = Limit::parse_tc(tc).map_err(anyhow::Error::msg)?;
        match args.nodestime {
            Some(rate) => clock.with_nodestime(rate).map_err(anyhow::Error::msg)?,
            None => clock,
        }
    } else if let Some(ms) = args.movetime {
        Limit::MoveTime(Duration::from_millis(ms.max(1)))
    } else {
        Limit::Depth(5)
    };
    let mut game = GameSettings::new(limit);
    game.time_margin = Duration::from_millis(args.time_margin);
    game.adjudication = Adjudication {
        resign: args
            .resign
            .as_deref()
            .map(|t| {
                let [cp, moves] = numbers::<2>(t, "--resign")?;
                Ok::<_, anyhow::Error>(ResignRule {
                    score_cp: cp as i32,
                    moves: moves as usize,
                })
            })
            .transpose()?,
        draw: args
            .draw
            .as_deref()
            .map(|t| {
                let [from, cp, moves] = numbers::<3>(t, "--draw")?;
                Ok::<_, anyhow::Error>(DrawRule {
                    from_move: from as usize,
                    score_cp: cp as i32,
                    moves: moves as usize,
                })
            })
            .transpose()?,
        move_limit: args.max_moves.map(|moves| MoveLimit {
            moves,
            scoring: match args.move_limit_eval {
                Some(margin_cp) => MoveLimitScoring::OwnEvaluation { margin_cp },
                None => MoveLimitScoring::Draw,
            },
        }),
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let model = SprtModel::parse(&args.sprt_model).map_err(anyhow::Error::msg)?;
    let sprt = sprt.map(|s| s.with_model(model));
    Ok(MatchSettings {
        games: args.games,
        concurrency: args.concurrency.max(1),
        game,
        sprt,
    })
}

/// `N` comma-separated non-negative integers.
fn numbers<const N: usize>(text: &str, flag: &str) -> anyhow::Result<[u64; N]> {
    kestrel_tools::spec_parse::comma_separated_counts::<N>(text)
        .map_err(|_| anyhow::anyhow!("{flag} '{text}': expected {N} comma-separated numbers"))
}

fn openings(args: &MatchArgs) -> anyhow::Result<Vec<Opening>> {
    match &args.openings {
        None => Ok(vec![Opening::startpos()]),
        Some(path) => {
            let all = load_openings(path)?;
            Ok(sample_openings(&all, args.games.div_ceil(2), args.seed))
        }
    }
}

fn game_line(index: usize, g: &GameRecord) -> String {
    format!(
        "game {:>4}: {} - {} {} ({}, {} plies)",
        index + 1,
        g.white,
        g.black,
        g.result.pgn(),
        g.termination,
        g.all_moves().len()
    )
}

/// Crashes, hangs and start failures per engine, apart from the score they are counted in.
fn report_faults(result: &MatchResult) {
    let names = [&result.engine_a, &result.engine_b];
    let mut counts: [BTreeMap<&str, usize>; 2] = Default::default();
    for game in &result.games {
        // Game indices have gaps after an early stop: find the failing engine by its name.
        let Some((colour_index, _)) = engine_fault(0, game) else {
            continue;
        };
        let faulty = if colour_index == 0 {
            &game.white
        } else {
            &game.black
        };
        if let Some(engine) = names.iter().position(|n| *n == faulty) {
            *counts[engine].entry(game.termination.kind()).or_default() += 1;
        }
    }
    for (name, kinds) in names.iter().zip(&counts) {
        let total: usize = kinds.values().sum();
        if total > 0 {
            let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
            say!(
                "engine failures of {name}: {} ({total} lost games, {total} restarts)",
                list.join(", ")
            );
        }
    }
}

fn report_match(result: &MatchResult, sprt: Option<Sprt>, earlier_games: usize) {
    let mut ends: BTreeMap<&str, usize> = BTreeMap::new();
    for g in &result.games {
        *ends.entry(g.termination.kind()).or_default() += 1;
    }
    let ends: Vec<String> = ends.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let of_which = if earlier_games > 0 {
        format!(" (the {} games played now)", result.games.len())
    } else {
        String::new()
    };
    say!("endings{of_which}: {}", ends.join(", "));
    for g in &result.games {
        if matches!(g.termination, kestrel_tools::Termination::Fault(..)) {
            say!("fault: {} - {}: {}", g.white, g.black, g.termination);
        }
    }
    report_faults(result);
    if let (Some(s), Some((llr, decision))) = (sprt, result.sprt) {
        let verdict = match decision {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::Continue => "no decision",
        };
        say!(
            "SPRT: LLR {llr:.3} (bounds {:.3}, {:.3}): {verdict}",
            s.lower_bound(),
            s.upper_bound()
        );
    }
    say!(
        "{} vs {}: {}",
        result.engine_a,
        result.engine_b,
        result.wdl.summary()
    );
    let unpaired = result.wdl.games() - 2 * result.penta.pairs();
    let mut note = if unpaired > 0 {
        format!(" ({unpaired} game(s) without their pair left out)")
    } else {
        String::new()
    };
    if earlier_games > 0 {
        note.push_str(&format!(" (with the {earlier_games} earlier games)"));
    }
    say!("pairs: {}{note}", result.penta.summary());
}
