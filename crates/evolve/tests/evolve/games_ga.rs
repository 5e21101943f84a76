//! The search GA and MNC with fitness by play: the same scores and the same runs on 1 and 2
//! threads and through cluster workers (the protocol Ray's actors speak), with the organisms
//! racing the reference and playing each other; MNC seeded from Kestrel's own tables.

use crate::support::{openings_file, piped_workers};
use kestrel_evolve::games::{GamePlay, Opponents, RaceSettings, game_settings};
use kestrel_evolve::mentor::organism::GenomeKind;
use kestrel_evolve::mnc::games::{PstGameFitness, PstGamesSpec};
use kestrel_evolve::mnc::tables::{distance, kestrel_chromosome};
use kestrel_evolve::mnc::{MncInit, MncRun, MncSettings, MncTermination, Organism};
use kestrel_evolve::search::games::{SearchGameFitness, SearchGamesSpec};
use kestrel_evolve::search::games_run::{SearchGamesConfig, run_search_games};
use kestrel_ga::cluster::{BlobStore, FitnessSpec, WorkerProcesses};
use kestrel_ga::{
    BitGenome, BitSpace, Crossover, Evaluation, Executor, FitnessFunction, GaSettings, Genome,
    InProcessExecutor, Purpose, RealGenome, Selection, Termination, stream_rng,
};
use kestrel_params::Coding;
use kestrel_search::EngineParams;
use kestrel_tools::{Limit, load_openings};
use std::ops::ControlFlow;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-gaga-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Tiny games: the repository's 60 openings, 300 nodes, 1 + 1 pairs over 2 rounds.
fn play(opponents: Opponents) -> GamePlay {
    let book = openings_file();
    GamePlay::new(
        EngineParams::default(),
        load_openings(&book).unwrap(),
        game_settings(Limit::Nodes(300), Some(120)),
        RaceSettings {
            first_pairs: 1,
            rounds: 2,
            keep: 0.5,
            growth: 2,
        },
        1,
        opponents,
    )
    .unwrap()
}

fn on_threads<T: Send>(n: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
        .install(f)
}

fn search_fitness(opponents: Opponents) -> SearchGameFitness {
    let set = ["LMR_BASE", "NULL_MOVE_R", "FUTILITY_MARGIN_1"]
        .map(String::from)
        .to_vec();
    SearchGameFitness::new(set, Coding::Gray, play(opponents)).unwrap()
}

fn ga(seed: u64) -> GaSettings {
    GaSettings {
        population: 4,
        crossover_rate: 0.75,
        crossover: Crossover::SinglePoint,
        mutation_rate: 0.05,
        selection: Selection::Roulette,
        elitism: 1,
        termination: Termination {
            generations: 2,
            fitness_threshold: None,
            stall_generations: None,
        },
        seed,
        mutation_step: None,
    }
}

#[test]
fn search_games_score_alike_on_any_thread_count_and_through_workers() {
    let fitness = search_fitness(Opponents::Both);
    let space = BitSpace {
        len: fitness.schema.bit_len(),
    };
    let mut rng = stream_rng(3, 0, Purpose::Init);
    let genomes: Vec<BitGenome> = (0..4)
        .map(|_| BitGenome::random(&space, &mut rng))
        .collect();
    let one = on_threads(1, || fitness.evaluate(11, &genomes));
    let two = on_threads(2, || fitness.evaluate(11, &genomes));
    assert_eq!(one, two);
    // Both: every organism survived round 1 and has a finite fitted Elo.
    assert!(
        one.iter().all(|e| e.fitness >= 1.0 && e.fitness <= 3.0),
        "{one:?}"
    );
    assert!(one.iter().any(|e| e.objective != 0.0), "{one:?}");

    let dir = temp("search-workers");
    let store = BlobStore::new(dir.join("blobs"));
    let spec = SearchGamesSpec::store(&fitness, GenomeKind::Bits, &store).unwrap();
    let workers = WorkerProcesses::from_streams(piped_workers(2, store.dir()), spec.tagged());
    let job = kestrel_ga::FitnessJob {
        generation: 0,
        sample_seed: 11,
        genomes: genomes.clone(),
    };
    let remote: Vec<Evaluation> = Executor::<BitGenome>::run(&workers, &fitness, &job).unwrap();
    assert_eq!(remote, one);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_search_games_run_repeats_on_one_and_two_threads_and_through_workers() {
    let fitness = search_fitness(Opponents::Reference);
    let cfg = |name: &str| SearchGamesConfig {
        genome: GenomeKind::Bits,
        ga: ga(5),
        seed_with_defaults: true,
        verify_pairs: 1,
        out_dir: temp(name),
        resume: false,
        progress: false,
    };
    let run = |threads: usize, name: &str| {
        let c = cfg(name);
        let r = on_threads(threads, || {
            run_search_games(&c, &fitness, &InProcessExecutor)
        })
        .unwrap();
        let log = std::fs::read_to_string(&r.log_path).unwrap();
        std::fs::remove_dir_all(&c.out_dir).unwrap();
        (r.values, r.verify, without_seconds(&log))
    };
    let one = run(1, "run1");
    assert_eq!(one, run(2, "run2"));
    let c = cfg("run-workers");
    let store = BlobStore::new(c.out_dir.join("blobs"));
    let spec = SearchGamesSpec::store(&fitness, GenomeKind::Bits, &store).unwrap();
    let workers = WorkerProcesses::from_streams(piped_workers(2, store.dir()), spec.tagged());
    let r = run_search_games(&c, &fitness, &workers).unwrap();
    let log = std::fs::read_to_string(&r.log_path).unwrap();
    assert_eq!((r.values, r.verify, without_seconds(&log)), one);
    std::fs::remove_dir_all(&c.out_dir).unwrap();
    // Two generations logged; one verification pair played.
    assert_eq!(one.2.len(), 3, "{:?}", one.2);
    assert_eq!(one.1.unwrap().pairs(), 1);
}

/// The log's lines without the wall-time column (the only one that may differ).
fn without_seconds(log: &str) -> Vec<String> {
    log.lines()
        .map(|l| l.rsplit_once(',').map_or(l, |(head, _)| head).to_string())
        .collect()
}

fn mnc_settings() -> MncSettings {
    MncSettings {
        population: 4,
        offspring: 2,
        init: MncInit::Defaults,
        termination: MncTermination {
            generations: 2,
            best_unchanged: None,
            small_change: None,
        },
        seed: 7,
        ..MncSettings::default()
    }
}

/// The last population of a tiny MNC run from the defaults.
fn mnc_run(
    fitness: &PstGameFitness,
    executor: &(dyn Executor<RealGenome> + Sync),
    threads: usize,
) -> (Vec<Organism>, u64) {
    let out = on_threads(threads, || {
        let run = MncRun {
            settings: mnc_settings(),
            fitness,
            executor,
            checkpoint: None,
            resume: false,
        };
        run.run(&mut |_, _| ControlFlow::Continue(()))
    })
    .unwrap();
    (out.population, out.state.games)
}

#[test]
fn mnc_from_the_defaults_with_game_fitness_repeats_everywhere() {
    let fitness = PstGameFitness::new(play(Opponents::Both));
    let one = mnc_run(&fitness, &InProcessExecutor, 1);
    assert_eq!(one, mnc_run(&fitness, &InProcessExecutor, 2));
    let dir = temp("mnc-workers");
    let store = BlobStore::new(dir.join("blobs"));
    let spec = PstGamesSpec::store(&fitness, &store).unwrap();
    let workers = WorkerProcesses::from_streams(piped_workers(2, store.dir()), spec.tagged());
    assert_eq!(mnc_run(&fitness, &workers, 1), one);
    std::fs::remove_dir_all(&dir).unwrap();
    // Per generation: 4 + 2 race pairs against the reference and 4 pairs among the members.
    assert_eq!(one.1, 2 * (2 * 6 + 2 * 4));
    // Everyone stays near the parent: mutants of Kestrel's tables, never random ones.
    let parent = kestrel_chromosome();
    assert!(
        one.0.iter().all(|o| distance(&o.genome, &parent) < 10.0),
        "{one:?}"
    );
}

#[test]
fn mnc_starts_from_the_defaults_and_their_mutants() {
    // One generation shows the first population (nothing is bred before the stop).
    let settings = MncSettings {
        termination: MncTermination {
            generations: 1,
            ..mnc_settings().termination
        },
        ..mnc_settings()
    };
    let fitness = PstGameFitness::new(play(Opponents::Reference));
    let run = MncRun {
        settings,
        fitness: &fitness,
        executor: &InProcessExecutor,
        checkpoint: None,
        resume: false,
    };
    let out = run.run(&mut |_, _| ControlFlow::Continue(())).unwrap();
    let parent = kestrel_chromosome();
    assert_eq!(out.population[0].genome, parent);
    for o in &out.population[1..] {
        let d = distance(&o.genome, &parent);
        assert!(d > 0.0 && d < 5.0, "organism {} is {d} cp away", o.id);
    }
    // The parent plays Kestrel's own evaluation (rook and queen: one table for both phases).
    let params = PstGameFitness::params(&parent);
    let defaults = EngineParams::default();
    assert_eq!(
        params.eval.get("PST_KNIGHT"),
        defaults.eval.get("PST_KNIGHT")
    );
    assert_eq!(params.eval.get("MOBILITY"), defaults.eval.get("MOBILITY"));
    let random = RealGenome::random(
        &kestrel_evolve::mnc::tables::pst_space(0.05),
        &mut stream_rng(1, 0, Purpose::Init),
    );
    assert!(distance(&random, &parent) > 20.0);
}
