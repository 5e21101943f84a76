//! End-to-end behaviour of the GA loop on toy problems: it optimises, elitism keeps the best,
//! runs are reproducible regardless of threads, and a killed run resumes exactly.

use kestrel_ga::{
    BitGenome, BitSpace, Evaluation, FitnessFunction, GaRun, GaSettings, GenerationView, Genome,
    InProcessExecutor, RealGenome, RealSpace, Selection, StopReason, Termination,
};
use kestrel_testdata::ScratchDir;
use std::ops::ControlFlow;
use std::path::PathBuf;

/// OneMax with a per-generation twist: the sample seed picks which half of the loci count,
/// so the generation's sample matters as it does for the mentor fitness.
struct OneMax;

impl FitnessFunction<BitGenome> for OneMax {
    fn evaluate(&self, sample_seed: u64, genomes: &[BitGenome]) -> Vec<Evaluation> {
        genomes
            .iter()
            .map(|g| {
                let ones = g
                    .0
                    .iter()
                    .enumerate()
                    .filter(|(i, b)| **b && (*i as u64).wrapping_add(sample_seed).is_multiple_of(2))
                    .count();
                let missing = (g.0.len() / 2 - ones.min(g.0.len() / 2)) as f64;
                Evaluation {
                    fitness: 1.0 / (1.0 + missing),
                    objective: missing,
                }
            })
            .collect()
    }
    fn chunk_size(&self) -> usize {
        7
    }
    fn fingerprint(&self) -> String {
        "onemax".into()
    }
}

fn settings(generations: u64) -> GaSettings {
    GaSettings {
        population: 60,
        crossover_rate: 0.75,
        mutation_rate: 0.01,
        termination: Termination {
            generations,
            fitness_threshold: None,
            stall_generations: None,
        },
        seed: 99,
        ..GaSettings::default()
    }
}

fn run_onemax(
    settings: GaSettings,
    checkpoint: Option<PathBuf>,
    resume: bool,
    stop_after: Option<u64>,
) -> kestrel_ga::GaOutcome<BitGenome> {
    let space = BitSpace { len: 80 };
    let run = GaRun {
        settings,
        space: &space,
        fitness: &OneMax,
        executor: &InProcessExecutor,
        checkpoint,
        resume,
        seed_population: None,
    };
    run.run(&mut |v: &GenerationView<BitGenome>| {
        if stop_after == Some(v.stats.generation) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap()
}

#[test]
fn onemax_improves_and_elitism_keeps_the_best() {
    let mut best_seen: Vec<(BitGenome, f64)> = Vec::new();
    let space = BitSpace { len: 80 };
    let run = GaRun {
        settings: settings(40),
        space: &space,
        fitness: &OneMax,
        executor: &InProcessExecutor,
        checkpoint: None,
        resume: false,
        seed_population: None,
    };
    let mut populations: Vec<Vec<BitGenome>> = Vec::new();
    let out = run
        .run(&mut |v: &GenerationView<BitGenome>| {
            let i = (0..v.evaluations.len())
                .max_by(|&a, &b| {
                    v.evaluations[a]
                        .fitness
                        .total_cmp(&v.evaluations[b].fitness)
                        .then(b.cmp(&a))
                })
                .unwrap();
            best_seen.push((v.population[i].clone(), v.evaluations[i].fitness));
            populations.push(v.population.to_vec());
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(out.stop, StopReason::Generations);
    assert_eq!(out.history.len(), 40);
    let first = &out.history[0];
    let last = out.history.last().unwrap();
    assert!(
        last.mean_objective < first.mean_objective / 2.0,
        "{first:?} {last:?}"
    );
    assert!(
        last.best_objective < first.best_objective,
        "{first:?} {last:?}"
    );
    // The best organism of each generation is copied unchanged into the next one.
    for g in 0..populations.len() - 1 {
        assert!(
            populations[g + 1].contains(&best_seen[g].0),
            "generation {g}"
        );
    }
    assert!(last.diversity < first.diversity);
}

#[test]
fn same_seed_same_run_whatever_the_thread_count() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let four = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let a = one.install(|| run_onemax(settings(15), None, false, None));
    let b = four.install(|| run_onemax(settings(15), None, false, None));
    assert_eq!(a.population, b.population);
    let objectives = |o: &kestrel_ga::GaOutcome<BitGenome>| {
        o.history
            .iter()
            .map(|h| h.mean_objective)
            .collect::<Vec<_>>()
    };
    assert_eq!(objectives(&a), objectives(&b));
    let c = run_onemax(
        GaSettings {
            seed: 100,
            ..settings(15)
        },
        None,
        false,
        None,
    );
    assert_ne!(a.population, c.population);
}

#[test]
fn killed_run_resumes_to_the_same_result() {
    let full = run_onemax(settings(25), None, false, None);
    let dir = ScratchDir::new("ga-resume");
    let path = dir.join("resume.json");
    let cut = run_onemax(settings(25), Some(path.clone()), false, Some(9));
    assert_eq!(cut.stop, StopReason::Interrupted);
    assert_eq!(cut.history.len(), 10);
    // A write the killed run left half done (atomic writes' `.NAME.tmpPID`, of a dead pid).
    let stale = path.with_file_name(kestrel_params::atomic::temp_name(
        "resume.json",
        4_000_000_000,
    ));
    std::fs::write(&stale, b"{\"half").unwrap();
    let resumed = run_onemax(settings(25), Some(path.clone()), true, None);
    assert!(
        !stale.exists(),
        "resume removes the killed run's temporary files"
    );
    assert_eq!(resumed.population, full.population);
    assert_eq!(resumed.evaluations, full.evaluations);
    let strip = |o: &kestrel_ga::GaOutcome<BitGenome>| {
        o.history
            .iter()
            .map(|h| {
                (
                    h.generation,
                    h.best_objective,
                    h.mean_objective,
                    h.diversity,
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&resumed), strip(&full));
    // Other settings cannot resume this checkpoint.
    let space = BitSpace { len: 80 };
    let err = GaRun {
        settings: GaSettings {
            mutation_rate: 0.02,
            ..settings(25)
        },
        space: &space,
        fitness: &OneMax,
        executor: &InProcessExecutor,
        checkpoint: Some(path.clone()),
        resume: true,
        seed_population: None,
    }
    .run(&mut |_: &GenerationView<BitGenome>| ControlFlow::Continue(()))
    .unwrap_err();
    assert!(err.to_string().contains("other GA settings"), "{err}");
    std::fs::write(&path, b"{ not json").unwrap();
    assert!(
        std::panic::catch_unwind(|| run_onemax(settings(25), Some(path.clone()), true, None))
            .is_err()
    );
}

#[test]
fn resume_without_a_checkpoint_is_refused() {
    let path = std::env::temp_dir().join(format!("kestrel-no-cp-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let space = BitSpace { len: 80 };
    let err = GaRun {
        settings: settings(5),
        space: &space,
        fitness: &OneMax,
        executor: &InProcessExecutor,
        checkpoint: Some(path.clone()),
        resume: true,
        seed_population: None,
    }
    .run(&mut |_: &GenerationView<BitGenome>| ControlFlow::Continue(()))
    .unwrap_err();
    assert!(err.to_string().contains("no checkpoint"), "{err}");
    assert!(!path.exists());
}

#[test]
fn stall_and_threshold_stop_early() {
    let t = GaSettings {
        termination: Termination {
            generations: 500,
            fitness_threshold: Some(1.0),
            stall_generations: None,
        },
        ..settings(0)
    };
    let out = run_onemax(t, None, false, None);
    assert_eq!(out.stop, StopReason::FitnessThreshold);
    assert!(out.history.len() < 500);
    assert_eq!(out.evaluations[out.best_index()].fitness, 1.0);
    let s = GaSettings {
        termination: Termination {
            generations: 500,
            fitness_threshold: None,
            stall_generations: Some(5),
        },
        ..settings(0)
    };
    let out = run_onemax(s, None, false, None);
    assert_eq!(out.stop, StopReason::Stalled);
    assert!(out.history.len() < 500);
}

/// Sphere in real space: tournament selection with uniform crossover finds the origin.
struct Sphere;

impl FitnessFunction<RealGenome> for Sphere {
    fn evaluate(&self, _seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        genomes
            .iter()
            .map(|g| {
                let d: f64 = g.0.iter().map(|x| x * x).sum();
                Evaluation {
                    fitness: 1.0 / (1.0 + d),
                    objective: d,
                }
            })
            .collect()
    }
    fn fingerprint(&self) -> String {
        "sphere".into()
    }
}

#[test]
fn real_vectors_evolve_with_tournament_and_uniform_crossover() {
    let space = RealSpace {
        min: vec![-5.0; 8],
        max: vec![5.0; 8],
        sigma: 0.05,
    };
    let run = GaRun {
        settings: GaSettings {
            population: 80,
            crossover: kestrel_ga::Crossover::Uniform,
            mutation_rate: 0.2,
            selection: Selection::Tournament { size: 3 },
            elitism: 2,
            termination: Termination {
                generations: 60,
                fitness_threshold: None,
                stall_generations: None,
            },
            seed: 5,
            ..GaSettings::default()
        },
        space: &space,
        fitness: &Sphere,
        executor: &InProcessExecutor,
        checkpoint: None,
        resume: false,
        seed_population: None,
    };
    let out = run
        .run(&mut |_: &GenerationView<RealGenome>| ControlFlow::Continue(()))
        .unwrap();
    let first = out.history[0].best_objective;
    let last = out.history.last().unwrap().best_objective;
    assert!(last < first / 20.0, "{first} -> {last}");
    assert!(RealGenome::diversity(&out.population, &space) < out.history[0].diversity);
}

#[test]
fn bad_settings_are_rejected() {
    let mut s = settings(10);
    s.population = 1;
    let space = BitSpace { len: 8 };
    let err = GaRun {
        settings: s,
        space: &space,
        fitness: &OneMax,
        executor: &InProcessExecutor,
        checkpoint: None,
        resume: false,
        seed_population: None,
    }
    .run(&mut |_: &GenerationView<BitGenome>| ControlFlow::Continue(()))
    .unwrap_err();
    assert!(err.to_string().contains("population"));
}
