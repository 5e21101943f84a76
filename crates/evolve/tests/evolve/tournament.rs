//! The tournament GA: exact resume, determinism across thread counts, the two variants, bad
//! input, and the shipped teaching engine params file.

use kestrel_evolve::tournament::{
    Organism, RoundRobinFitness, TournamentConfig, TournamentSpec, Variant, bench_round_robin,
    book_openings, run_tournament, teaching_params_file,
};
use kestrel_ga::{Checkpoint, InProcessExecutor};
use kestrel_tools::book::Book;
use std::path::PathBuf;

fn spec() -> TournamentSpec {
    TournamentSpec {
        depth: 1,
        max_moves: 8,
        margin_cp: 0,
        openings: book_openings(&Book::builtin(), 6, 6, 1),
    }
}

fn config(dir: &std::path::Path, variant: Variant, iterations: u64) -> TournamentConfig {
    TournamentConfig {
        variant,
        population: 4,
        iterations,
        gene_max: 5,
        mutation_rate: 0.2,
        seed: 9,
        out: dir.to_path_buf(),
        resume: false,
    }
}

fn temp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("kestrel-tournament-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn checkpoint(dir: &std::path::Path) -> Checkpoint<Organism> {
    Checkpoint::load(&dir.join("checkpoint.json")).unwrap()
}

#[test]
fn a_resumed_run_equals_an_uninterrupted_one() {
    let fitness = RoundRobinFitness::build(spec()).unwrap();
    let (a, b) = (temp("whole"), temp("split"));
    run_tournament(
        &config(&a, Variant::Mutation, 2),
        &fitness,
        &InProcessExecutor,
        &mut |_, _| {},
    )
    .unwrap();
    run_tournament(
        &config(&b, Variant::Mutation, 1),
        &fitness,
        &InProcessExecutor,
        &mut |_, _| {},
    )
    .unwrap();
    let mut resumed = config(&b, Variant::Mutation, 2);
    resumed.resume = true;
    let out = run_tournament(&resumed, &fitness, &InProcessExecutor, &mut |_, _| {}).unwrap();
    assert_eq!(out.games_played, 12, "only the second iteration was played");
    let (ca, cb) = (checkpoint(&a), checkpoint(&b));
    assert_eq!(ca.population, cb.population);
    assert_eq!(ca.next_generation, 2);
    let strip = |c: &Checkpoint<Organism>| -> Vec<(f64, f64)> {
        c.history
            .iter()
            .map(|h| (h.best_fitness, h.mean_fitness))
            .collect()
    };
    assert_eq!(strip(&ca), strip(&cb));
    // Every game gives out one point: 4 players, 12 games.
    assert!(
        ca.history
            .iter()
            .all(|h| (h.mean_fitness * 4.0 - 12.0).abs() < 1e-9)
    );
    for f in ["best.toml", "random.toml", "log.csv", "evolution.svg"] {
        assert!(a.join(f).exists(), "{f} missing");
    }
    // A resume with other settings is refused.
    let mut other = config(&b, Variant::Preservation, 3);
    other.resume = true;
    let err = run_tournament(&other, &fitness, &InProcessExecutor, &mut |_, _| {}).unwrap_err();
    assert!(err.contains("other settings"), "{err}");
    // A damaged checkpoint (a gene out of range) is refused, not played.
    let mut damaged = checkpoint(&b);
    damaged.population[0].0[0] = 99;
    damaged.save(&b.join("checkpoint.json")).unwrap();
    let mut again = config(&b, Variant::Mutation, 3);
    again.resume = true;
    let err = run_tournament(&again, &fitness, &InProcessExecutor, &mut |_, _| {}).unwrap_err();
    assert!(err.contains("do not fit"), "{err}");
    let _ = (std::fs::remove_dir_all(&a), std::fs::remove_dir_all(&b));
}

#[test]
fn the_round_robin_is_the_same_on_one_thread_and_on_many() {
    let fitness = RoundRobinFitness::build(spec()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let runs = pool
        .install(|| bench_round_robin(&fitness, 4, 5, 3))
        .unwrap();
    assert_eq!(runs[0].threads, 1);
    assert_eq!(runs[1].threads, 3);
    assert_eq!(runs[0].points, runs[1].points);
    assert_eq!(runs[0].points.iter().sum::<f64>(), 12.0);
}

#[test]
fn preservation_keeps_the_survivors_and_mutation_changes_all_but_the_best() {
    let fitness = RoundRobinFitness::build(spec()).unwrap();
    for variant in [Variant::Preservation, Variant::Mutation] {
        let dir = temp(&format!("{variant:?}"));
        let out = run_tournament(
            &config(&dir, variant, 1),
            &fitness,
            &InProcessExecutor,
            &mut |_, _| {},
        )
        .unwrap();
        let next = checkpoint(&dir).population;
        assert_eq!(next.len(), 4);
        assert_eq!(
            next[0], out.ranked[0].0,
            "{variant:?}: the best always survives"
        );
        let second_kept = next[1] == out.ranked[1].0;
        assert_eq!(second_kept, variant == Variant::Preservation, "{variant:?}");
        assert!(
            out.ranked
                .windows(2)
                .all(|w| w[0].1.fitness >= w[1].1.fitness)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn bad_settings_are_clear_errors() {
    let bad_fen = TournamentSpec {
        openings: vec!["not a fen".into()],
        ..spec()
    };
    assert!(
        RoundRobinFitness::build(bad_fen)
            .unwrap_err()
            .contains("not a fen")
    );
    assert!(RoundRobinFitness::build(TournamentSpec { depth: 0, ..spec() }).is_err());
    assert!(
        RoundRobinFitness::build(TournamentSpec {
            openings: vec![],
            ..spec()
        })
        .is_err()
    );
    let fitness = RoundRobinFitness::build(spec()).unwrap();
    let dir = temp("bad");
    let mut small = config(&dir, Variant::Preservation, 1);
    small.population = 3;
    assert!(run_tournament(&small, &fitness, &InProcessExecutor, &mut |_, _| {}).is_err());
    let mut wide = config(&dir, Variant::Preservation, 1);
    wide.gene_max = 0;
    assert!(run_tournament(&wide, &fitness, &InProcessExecutor, &mut |_, _| {}).is_err());
    let mut missing = config(&dir.join("none"), Variant::Preservation, 1);
    missing.resume = true;
    assert!(run_tournament(&missing, &fitness, &InProcessExecutor, &mut |_, _| {}).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_shipped_teaching_engine_is_the_page_evaluation_and_loads() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../params/teaching.toml");
    let shipped = std::fs::read_to_string(&path).unwrap();
    let expected = teaching_params_file(
        &Organism::page_default(),
        "the teaching engine's hand-set weights",
    );
    assert_eq!(
        shipped, expected,
        "regenerate: kestrel evolve tournament --print-params page"
    );
    let spec = kestrel_tools::EngineSpec::builtin_from_params("teaching", &path).unwrap();
    let kestrel_tools::EngineSpec::Builtin { config, .. } = spec else {
        panic!("a params file gives a built-in engine");
    };
    assert_eq!(config.search_params.get("NULL_MOVE_USE").unwrap(), &[1]);
    assert_eq!(config.search_params.get("USE_LMR").unwrap(), &[0]);
    assert_eq!(config.search_params.get("USE_TT").unwrap(), &[0]);
    assert_eq!(
        config.evaluator.params().values,
        Organism::page_default().to_params().values
    );
}
