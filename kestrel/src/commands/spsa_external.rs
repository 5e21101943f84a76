//! `kestrel tune spsa --engine uci:PATH`: SPSA over an external engine's UCI options. The
//! engine is started once before anything is written (options and ranges checked); the run
//! writes the same spsa.csv, chart, checkpoint and summary as a tune of Kestrel's own values,
//! and the final values as `final.options` (`NAME=VALUE`, for `kestrel match --option-a
//! @FILE`) and `final.openbench` (`NAME, value`).

use super::engine_options::{probe, render_openbench_values, render_options, tunables};
use super::run_folder::{RunFolder, say};
use super::spsa_tune::SpsaArgs;
use anyhow::{Context, bail};
use kestrel_evolve::external::remote::ExternalPairsSpec;
use kestrel_evolve::external::{ExternalEngine, ExternalPairs, options_of};
use kestrel_evolve::spsa::chess::GamePairs;
use kestrel_evolve::spsa::report::row_elo;
use kestrel_evolve::spsa::{SpsaState, run_spsa};
use kestrel_ga::cluster::FitnessSpec;
use kestrel_tools::match_runner::{MatchSettings, run_match};
use kestrel_tools::progress::Progress;
use kestrel_tools::stats::fmt_elo;
use kestrel_tools::{
    EngineSpec, GameSettings, Limit, Opening, Sprt, SprtDecision, sample_openings,
};
use std::path::Path;

/// Runs `kestrel tune spsa --engine ...`.
pub fn run(a: SpsaArgs, mut engine: ExternalEngine) -> anyhow::Result<()> {
    if a.params.is_some() {
        bail!(
            "--params sets Kestrel's own values; an --engine's start values come from --input or its option list"
        );
    }
    let decls = probe(&mut engine, a.engine.move_overhead)?;
    let params = tunables(&engine, &decls, a.input.as_deref(), a.set.as_deref())?;
    let openings = super::spsa_tune::openings(&a)?;
    let gate = super::spsa_tune::gate(&a)?;
    let threads = a.job.start_threads()?;
    let mut game = super::spsa_tune::game_settings(&a)?;
    game.time_margin = std::time::Duration::from_millis(a.engine.time_margin);
    if matches!(
        game.limit,
        Limit::Clock {
            nodes_per_ms: Some(_),
            ..
        }
    ) {
        bail!(
            "--nodestime needs Kestrel's built-in engines; an external engine thinks in wall time"
        );
    }
    let settings = super::spsa_tune::spsa_settings(&a);
    settings.validate().map_err(anyhow::Error::msg)?;
    let limit = game.limit;
    let book = openings.clone();
    let fitness = ExternalPairs::new(
        engine.clone(),
        params.clone(),
        openings,
        a.pairs,
        game,
        a.seed,
    )
    .map_err(anyhow::Error::msg)?;
    let mut folder = a.job.claim(&a.out)?;
    if a.extend {
        let checkpoint = a.out.join(kestrel_evolve::spsa::run::CHECKPOINT);
        let old = SpsaState::extend(&checkpoint, &params, &settings).map_err(anyhow::Error::msg)?;
        if old != a.iterations {
            println!(
                "extended: {old} -> {} iterations (the gains follow the new total from the next iteration)",
                a.iterations
            );
        }
    }
    let executor = a
        .executor
        .start(|store| Ok(ExternalPairsSpec::store(&fitness, store)?.tagged()))?;
    println!("games on          {}", executor.describe());
    let duel = GamePairs::with_fitness(fitness, a.pairs, &executor);
    if !a.job.quiet {
        println!(
            "SPSA of {}: {} options, {} iterations of {} pair(s) in batches of {} (lag {}), {limit}, seed {}, {threads} thread(s), out {}",
            engine.command,
            params.len(),
            a.iterations,
            a.pairs,
            a.batch,
            settings.lag,
            a.seed,
            a.out.display()
        );
    }
    let progress = Progress::new(a.iterations, "spsa").with_step(a.batch);
    let mut on_row = super::spsa_tune::report_rows(&progress, &a);
    let state = run_spsa(&params, &settings, &duel, &a.out, a.job.resume, &mut on_row)
        .map_err(anyhow::Error::msg)?;
    progress.finish();
    let finals = final_options(&state);
    write_finals(&finals, &a.out)?;
    report(&mut folder, &state, &engine, &a.out);
    if let Some((sprt, verify_limit)) = gate {
        let start = options_of(&params, &params.iter().map(|p| p.start).collect::<Vec<_>>());
        let gate = ExternalGate {
            sprt,
            limit: verify_limit.unwrap_or(limit),
            max_games: a.verify_games,
            concurrency: threads,
            seed: a.seed,
            adopt: a.adopt.as_deref(),
        };
        verify(&gate, &engine, &finals, &start, &book)?;
    }
    folder.finish(a.seed)
}

/// θ rounded (integers) or as it is (floats), as `setoption` pairs.
fn final_options(state: &SpsaState) -> Vec<(String, String)> {
    let values: Vec<f64> = state
        .theta
        .iter()
        .zip(&state.params)
        .map(|(t, p)| {
            if p.float {
                *t
            } else {
                t.round().clamp(p.min, p.max)
            }
        })
        .collect();
    options_of(&state.params, &values)
}

/// OUT/final.options and OUT/final.openbench.
fn write_finals(finals: &[(String, String)], out: &Path) -> anyhow::Result<()> {
    for (name, text) in [
        ("final.options", render_options(finals)),
        ("final.openbench", render_openbench_values(finals)),
    ] {
        let path = out.join(name);
        kestrel_params::atomic::write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn report(folder: &mut RunFolder, state: &SpsaState, engine: &ExternalEngine, out: &Path) {
    let last = state.last();
    for (p, t) in state.params.iter().zip(&state.theta) {
        let frozen = if p.frozen() { " (frozen)" } else { "" };
        say!(folder, "{}: {} -> {:.2}{frozen}", p.name, p.start, t);
    }
    let (elo, err) = row_elo(&last);
    let [ll, ld, wl, dd, wd, ww] = last.penta;
    let spec = std::iter::once(engine.command.as_str())
        .chain(engine.args.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    say!(
        folder,
        "{} games, θ+ against θ−: W {} D {} L {}, Ptnml(0-2) [{ll}, {ld}, {}, {wd}, {ww}], Elo {} ± {err:.1}",
        last.games,
        last.wdl[0],
        last.wdl[1],
        last.wdl[2],
        wl + dd,
        fmt_elo(elo),
    );
    say!(
        folder,
        "faults of {}: {}",
        engine.command,
        last.kinds.summary()
    );
    say!(
        folder,
        "wrote final.options and final.openbench (not verified unless --verify-sprt: e.g. `kestrel match -a \"uci:{spec}\" --option-a @{} -b \"uci:{spec}\" --sprt 0,5 --tc 10+0.1`)",
        out.join("final.options").display(),
    );
}

/// The verification gate of an external tune.
struct ExternalGate<'a> {
    sprt: Sprt,
    limit: Limit,
    max_games: usize,
    concurrency: usize,
    seed: u64,
    adopt: Option<&'a Path>,
}

fn spec(name: &str, engine: &ExternalEngine, values: &[(String, String)]) -> EngineSpec {
    let mut options = engine.options.clone();
    options.extend_from_slice(values);
    EngineSpec::Uci {
        name: name.into(),
        command: engine.command.clone(),
        args: engine.args.clone(),
        options,
        timeouts: engine.timeouts(),
    }
}

/// The tuned values against the start values in an SPRT; `--adopt FILE` gets the options
/// file on H1 only.
fn verify(
    gate: &ExternalGate,
    engine: &ExternalEngine,
    tuned: &[(String, String)],
    start: &[(String, String)],
    openings: &[Opening],
) -> anyhow::Result<bool> {
    let settings = MatchSettings {
        games: gate.max_games,
        concurrency: gate.concurrency.max(1),
        game: GameSettings::new(gate.limit),
        sprt: Some(gate.sprt),
    };
    let book = sample_openings(openings, gate.max_games.div_ceil(2), gate.seed);
    println!(
        "verification: tuned against start, {}, {}",
        gate.limit, gate.sprt
    );
    let r = run_match(
        &spec("tuned", engine, tuned),
        &spec("start", engine, start),
        &book,
        &settings,
        &|_| {},
    );
    println!("verification: {}", r.wdl.summary());
    println!("verification pairs: {}", r.penta.summary());
    let (llr, decision) = r.sprt.expect("an SPRT was run");
    let passed = decision == SprtDecision::AcceptH1;
    let verdict = match decision {
        SprtDecision::AcceptH1 => "H1 accepted: the tuned values are better",
        SprtDecision::AcceptH0 => "H0 accepted: not the improvement hoped for",
        SprtDecision::Continue => "no decision within --verify-games: not shown better",
    };
    println!("verification SPRT: LLR {llr:.3}: {verdict}");
    if let Some(path) = gate.adopt {
        if passed {
            kestrel_params::atomic::write_atomic(path, render_options(tuned).as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
            println!("adopted: wrote {}", path.display());
        } else {
            println!("not adopted: {} left unwritten", path.display());
        }
    }
    Ok(passed)
}
