//! A tiny MNC run end to end: same result on 1 and 2 threads, a killed run resumes to the
//! same result, lineage is kept, and the database rows play.

use crate::support::tiny_tournament;
use kestrel_evolve::mnc::store::mnc_leaders;
use kestrel_evolve::mnc::{
    MncLine, MncOutcome, MncRun, MncSettings, MncTermination, TournamentFitness,
};
use kestrel_ga::InProcessExecutor;
use std::ops::ControlFlow;
use std::path::PathBuf;

fn fitness() -> TournamentFitness {
    tiny_tournament(
        &[
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        ],
        60,
        25,
    )
}

fn settings() -> MncSettings {
    MncSettings {
        population: 6,
        offspring: 3,
        termination: MncTermination {
            generations: 4,
            best_unchanged: None,
            small_change: None,
        },
        seed: 5,
        ..MncSettings::default()
    }
}

fn run(
    threads: usize,
    checkpoint: Option<PathBuf>,
    resume: bool,
    stop_after: Option<u64>,
) -> MncOutcome {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(move || {
        let fitness = fitness();
        let run = MncRun {
            settings: settings(),
            fitness: &fitness,
            executor: &InProcessExecutor,
            checkpoint,
            resume,
        };
        run.run(&mut |line: &MncLine, _| {
            if stop_after == Some(line.generation) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap()
    })
}

/// The log without wall times.
fn log(o: &MncOutcome) -> Vec<MncLine> {
    o.state
        .history
        .iter()
        .map(|l| MncLine {
            seconds: 0.0,
            ..l.clone()
        })
        .collect()
}

#[test]
fn runs_are_reproducible_resumable_and_keep_lineage() {
    let one = run(1, None, false, None);
    let two = run(2, None, false, None);
    assert_eq!(one.population, two.population);
    assert_eq!(log(&one), log(&two));
    assert_eq!(one.state.history.len(), 4);
    // 6 players, one round of colour-reversed pairs: 6 games per generation.
    assert!(one.state.history.iter().all(|l| l.games == 6));
    assert_eq!(one.state.games, 24);
    // Three children per generation (none after the last one), each with two parents.
    assert_eq!(one.state.births.len(), 6 + 3 * 3);
    assert!(one.state.births[6..].iter().all(|b| b.parents.len() == 2));

    let dir = std::env::temp_dir().join(format!("kestrel-mnc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cp = dir.join("checkpoint.json");
    let first = run(2, Some(cp.clone()), false, Some(1));
    assert_eq!(first.state.history.len(), 2);
    // A write the killed run left half done (atomic writes' `.NAME.tmpPID`, of a dead pid).
    let stale = dir.join(kestrel_params::atomic::temp_name(
        "checkpoint.json",
        4_000_000_000,
    ));
    std::fs::write(&stale, b"{").unwrap();
    let resumed = run(1, Some(cp.clone()), true, None);
    assert!(
        !stale.exists(),
        "resume removes the killed run's temporary files"
    );
    assert_eq!(resumed.population, one.population);
    assert_eq!(log(&resumed), log(&one));

    // Every niche leader is stored with its ancestry and a params file the engine reads.
    let rows = mnc_leaders(
        &one.state,
        &one.population,
        &one.niches,
        &kestrel_evolve::mnc::tables::base_params(),
    );
    assert_eq!(rows.len(), one.niches.len());
    assert!(!rows.is_empty());
    let sizes: u32 = rows.iter().map(|r| r.niche_size).sum();
    assert_eq!(sizes, 6);
    for r in &rows {
        assert!(r.lineage_json.contains(&format!("\"id\":{}", r.organism)));
        let sets =
            kestrel_params::ParamsFile::parse(&r.params, &[&kestrel_eval::EVAL_TABLE]).unwrap();
        assert_eq!(sets[0].get("MOBILITY").unwrap(), &[0; 12]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_without_a_checkpoint_is_refused() {
    let fitness = fitness();
    let missing =
        std::env::temp_dir().join(format!("kestrel-mnc-none-{}.json", std::process::id()));
    let run = MncRun {
        settings: settings(),
        fitness: &fitness,
        executor: &InProcessExecutor,
        checkpoint: Some(missing),
        resume: true,
    };
    let err = run
        .run(&mut |_: &MncLine, _| ControlFlow::Continue(()))
        .map(|_| ())
        .unwrap_err();
    assert!(err.to_string().contains("no checkpoint"), "{err}");
}

#[test]
fn the_initial_range_bounds_the_first_population_only() {
    let fitness = fitness();
    let settings = MncSettings {
        init_range: Some(10.0),
        termination: MncTermination {
            generations: 1,
            ..settings().termination
        },
        ..settings()
    };
    let run = MncRun {
        settings: settings.clone(),
        fitness: &fitness,
        executor: &InProcessExecutor,
        checkpoint: None,
        resume: false,
    };
    let outcome = run.run(&mut |_, _| ControlFlow::Continue(())).unwrap();
    let genes: Vec<f64> = outcome
        .population
        .iter()
        .flat_map(|o| o.genome.0.clone())
        .collect();
    assert!(genes.iter().all(|g| (-10.0..=10.0).contains(g)));
    // Still random: both signs and many distinct values.
    assert!(genes.iter().any(|&g| g < -5.0) && genes.iter().any(|&g| g > 5.0));
    // Mutation keeps the whole table range.
    let space = kestrel_evolve::mnc::tables::pst_space(0.05);
    let init = kestrel_evolve::mnc::run::initial_space(&space, Some(10.0));
    assert_eq!((init.min[0], init.max[0]), (-10.0, 10.0));
    assert_eq!((space.min[0], space.max[0]), (-128.0, 127.0));
    for bad in [-1.0, f64::NAN] {
        let settings = MncSettings {
            init_range: Some(bad),
            ..settings.clone()
        };
        assert!(settings.validate().unwrap_err().contains("initial range"));
    }
}
