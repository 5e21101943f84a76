//! `kestrel evolve games --engine uci:PATH`: the games GA over an external engine's options
//! (spins, and `check` options as on/off genes), raced against the same engine at its start
//! values, an options file (`--opponent-options`) or other engines (`--opponent`, one drawn
//! per pair). Writes best.options and centre.options beside the log, chart and checkpoint.
//! On Ray a generation's race is one job: a worker plays it on `--ray-worker-threads`.

use super::engine_options::{expand_option_files, probe, render_options, tunables};
use super::evolve_games::{GamesGaArgs, describe_elo};
use super::ga_options::{GaDefaults, GenomeArg};
use super::run_folder::{RunFolder, say};
use anyhow::{Context, bail};
use kestrel_evolve::external::tunables::{check_options, from_option_list};
use kestrel_evolve::external::{
    ExternalEngine, ExternalGameFitness, ExternalGamesSpec, FaultLedger, Gene, Opponent,
    gene_options,
};
use kestrel_evolve::games::{RaceSettings, game_settings};
use kestrel_evolve::progress::run_logged;
use kestrel_ga::cluster::FitnessSpec;
use kestrel_ga::{GaRun, RealGenome, centre, start_and_mutants, write_chart};
use kestrel_tools::uci_options::{UciOptionDecl, UciOptionKind, find_option};
use kestrel_tools::{EngineSpec, load_openings};
use std::path::Path;

/// The genes: an OpenBench input's values, or the named options (spins and checks), or with
/// `--set all` every spin and check that is not a set-up option.
fn genes(
    a: &GamesGaArgs,
    engine: &ExternalEngine,
    decls: &[UciOptionDecl],
) -> anyhow::Result<Vec<Gene>> {
    let spin = |p| Gene {
        param: p,
        check: false,
    };
    let check = |p| Gene {
        param: p,
        check: true,
    };
    let fixed: Vec<String> = engine.options.iter().map(|(n, _)| n.clone()).collect();
    match (a.input.as_deref(), a.set.as_deref()) {
        (Some(path), _) => Ok(tunables(engine, decls, Some(path), None)?
            .into_iter()
            .map(spin)
            .collect()),
        (None, Some("all")) => {
            let mut genes: Vec<Gene> = from_option_list(decls, None, &fixed)
                .map_err(anyhow::Error::msg)?
                .into_iter()
                .map(spin)
                .collect();
            genes.extend(check_options(decls, None, &fixed).into_iter().map(check));
            Ok(genes)
        }
        (None, Some(list)) => list
            .split(',')
            .map(|n| {
                let n = n.trim().to_string();
                match find_option(decls, &n).map(|d| &d.kind) {
                    Some(UciOptionKind::Check { .. }) => {
                        Ok(check(check_options(decls, Some(&[n]), &[]).remove(0)))
                    }
                    _ => Ok(spin(
                        from_option_list(decls, Some(&[n]), &[])
                            .map_err(anyhow::Error::msg)?
                            .remove(0),
                    )),
                }
            })
            .collect(),
        (None, None) => bail!("name the evolved options with --set all|NAME,NAME or --input FILE"),
    }
}

/// The opponents: other engines, the same engine with an options file, or (by default) the
/// same engine at the genes' start values.
fn opponents(
    a: &GamesGaArgs,
    engine: &ExternalEngine,
    decls: &[UciOptionDecl],
    start: Vec<(String, String)>,
) -> anyhow::Result<Vec<Opponent>> {
    if !a.opponent.is_empty() {
        return a
            .opponent
            .iter()
            .map(|text| {
                let spec =
                    kestrel_tools::spec_parse::parse_engine_spec(text, &[], engine.timeouts())
                        .map_err(|e| anyhow::anyhow!("--opponent: {e}"))?;
                let EngineSpec::Uci { command, args, .. } = spec else {
                    bail!("--opponent {text}: name a UCI engine, uci:PATH");
                };
                let mut other = ExternalEngine::new(&command, &args, Vec::new());
                other.handshake_ms = engine.handshake_ms;
                other.move_ms = engine.move_ms;
                other
                    .probe()
                    .map_err(|e| anyhow::anyhow!("--opponent: {e}"))?;
                Ok(Opponent {
                    engine: other,
                    options: Vec::new(),
                })
            })
            .collect();
    }
    let options = match &a.opponent_options {
        None => start,
        Some(path) => {
            let lines = expand_option_files(&[format!("@{}", path.display())])?;
            let parsed =
                kestrel_tools::spec_parse::parse_options(&lines).map_err(anyhow::Error::msg)?;
            if let Some((n, _)) = parsed.iter().find(|(n, _)| find_option(decls, n).is_none()) {
                bail!(
                    "--opponent-options {}: the engine has no option '{n}'",
                    path.display()
                );
            }
            parsed
        }
    };
    Ok(vec![Opponent {
        engine: engine.clone(),
        options,
    }])
}

/// Runs `kestrel evolve games --engine ...`.
pub fn run(a: GamesGaArgs, mut engine: ExternalEngine, defaults: GaDefaults) -> anyhow::Result<()> {
    if a.params.is_some() || a.games.race.reference.is_some() {
        bail!(
            "--params and --reference set Kestrel's own values; with --engine use --input/--set and --opponent-options"
        );
    }
    if !a.games.race.opponents().is_reference() {
        bail!(
            "--opponents population|both is for Kestrel's own values; an --engine races its opponents"
        );
    }
    let decls = probe(&mut engine, a.engine.move_overhead)?;
    let genes = genes(&a, &engine, &decls)?;
    let start = RealGenome(genes.iter().map(|g| g.param.start).collect());
    let openings = load_openings(
        a.games
            .openings
            .as_deref()
            .unwrap_or(Path::new(kestrel_tools::data::DEFAULT_OPENINGS)),
    )?;
    let mut game = game_settings(
        a.games.limit.limit()?,
        Some(a.games.max_moves.unwrap_or(200)),
    );
    game.time_margin = std::time::Duration::from_millis(a.engine.time_margin);
    let race = RaceSettings {
        first_pairs: a.games.race.first_pairs.unwrap_or(4),
        rounds: a.games.rounds.unwrap_or(super::game_fitness_args::ROUNDS),
        keep: a.games.race.keep.unwrap_or(0.5),
        growth: 2,
    };
    let start_options = gene_options(&genes, &start.0);
    let opponents = opponents(&a, &engine, &decls, start_options)?;
    let engine_name = engine.command.clone();
    let fitness = ExternalGameFitness::new(engine, genes.clone(), opponents, openings, game, race)
        .map_err(anyhow::Error::msg)?;
    a.job.start_threads()?;
    let mut ga = a.ga.clone();
    ga.genome = GenomeArg::Real;
    let settings = ga.settings(defaults, None)?;
    let space = fitness.space(a.ga.step);
    let population = start_and_mutants(&start, &space, &settings, a.start_spread);
    let mut folder = a.job.claim(&a.out)?;
    let executor = a
        .executor
        .start(|store| Ok(ExternalGamesSpec::store(&fitness, store)?.tagged()))?;
    println!("fitness on        {}", executor.describe());
    let faults_path = a.out.join("faults.csv");
    let mut ledger = FaultLedger::load(&faults_path, a.job.resume).map_err(anyhow::Error::msg)?;
    let run = GaRun {
        settings,
        space: &space,
        fitness: &fitness,
        executor: &executor,
        checkpoint: Some(a.out.join("checkpoint.json")),
        resume: a.job.resume,
        seed_population: Some(population),
    };
    let log = a.out.join("log.csv");
    let chart = a.out.join("evolution.svg");
    let outcome = run_logged(&run, !a.job.quiet, &log, &describe_elo, &mut |v| {
        if let Some(why) = fitness.failure() {
            eprintln!("error: {why}; the checkpoint holds the generation before (--resume)");
            std::process::exit(1);
        }
        ledger.record(v.stats.generation, fitness.take_tally());
        vec![(faults_path.clone(), ledger.render().into_bytes())]
    })
    .map_err(anyhow::Error::msg)?;
    write_chart(&chart, &outcome.history, "Elo against the opponents")
        .map_err(anyhow::Error::msg)?;
    write_results(&fitness, &genes, &outcome, &a.out, &mut folder)?;
    let total = ledger.total();
    say!(
        folder,
        "{} games; faults of {engine_name}: {} (by generation: faults.csv)",
        total.games,
        total.faults.summary()
    );
    folder.finish(a.ga.seed)
}

/// Writes best.options and centre.options (the last population's mean) and prints both
/// beside the start.
fn write_results(
    fitness: &ExternalGameFitness,
    genes: &[Gene],
    outcome: &kestrel_ga::GaOutcome<RealGenome>,
    out: &Path,
    folder: &mut RunFolder,
) -> anyhow::Result<()> {
    let population = &outcome.population;
    let centre = centre(population);
    let best = &population[outcome.best_index()].0;
    for (name, values) in [("best", best), ("centre", &centre)] {
        let path = out.join(format!("{name}.options"));
        kestrel_params::atomic::write_atomic(
            &path,
            render_options(&fitness.options(values)).as_bytes(),
        )
        .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let best_opts = fitness.options(best);
    let centre_opts = fitness.options(&centre);
    for (i, g) in genes.iter().enumerate() {
        say!(
            folder,
            "{}: start {} best {} centre {}",
            g.param.name,
            g.param.start,
            best_opts[i].1,
            centre_opts[i].1
        );
    }
    say!(
        folder,
        "not verified: compare best.options and centre.options with the start by `kestrel match --option-a @FILE`"
    );
    println!("options           {}", out.join("best.options").display());
    Ok(())
}
