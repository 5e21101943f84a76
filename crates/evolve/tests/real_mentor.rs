//! Real-vector genomes in the expert-driven run: the full evaluation evolves from random,
//! reproducibly, and a killed run resumes to the same organism.

use kestrel_eval::EVAL_TABLE;
use kestrel_evolve::mentor::builtin::BuiltinMentor;
use kestrel_evolve::mentor::fitness::{LabelledSet, MentorFitness};
use kestrel_evolve::mentor::labels::Label;
use kestrel_evolve::mentor::organism::{GenomeKind, real_space};
use kestrel_evolve::mentor::positions::PositionSet;
use kestrel_evolve::mentor::run::{
    BUILTIN_POSITIONS, MentorRunConfig, MentorSpec, ParamSet, PositionsSource, run_mentor,
};
use kestrel_ga::{
    Crossover, GaRun, GaSettings, GenerationView, InProcessExecutor, RealGenome, Selection,
    StepSchedule, Termination,
};
use kestrel_params::{Coding, ParamValues};
use kestrel_testdata::ScratchDir;
use std::ops::ControlFlow;
use std::path::Path;

fn real_settings(generations: u64, seed: u64) -> GaSettings {
    GaSettings {
        population: 80,
        crossover_rate: 0.9,
        crossover: Crossover::Uniform,
        mutation_rate: 0.05,
        selection: Selection::Tournament { size: 3 },
        elitism: 1,
        termination: Termination {
            generations,
            fitness_threshold: None,
            stall_generations: None,
        },
        seed,
        mutation_step: Some(StepSchedule {
            start: 0.05,
            end: 0.005,
        }),
    }
}

fn config(dir: &Path, train: usize, test: usize) -> MentorRunConfig {
    let all = PositionSet::parse_epd(BUILTIN_POSITIONS).unwrap();
    let small = PositionSet {
        train: all.train[..train].to_vec(),
        test: all.test[..test].to_vec(),
    };
    let positions = dir.join("small.epd");
    small.save(&positions).unwrap();
    MentorRunConfig {
        positions: PositionsSource::Epd(positions),
        mentor: MentorSpec::Builtin,
        extra_mentors: Vec::new(),
        combine: kestrel_evolve::mentor::crowd::Combine::Mean,
        depth: 1,
        set: ParamSet::Full,
        genome: GenomeKind::Real,
        coding: Coding::Binary,
        sample: 200,
        ga: real_settings(150, 3),
        out_dir: dir.join("out"),
        labels: None,
        resume: false,
        progress: false,
        mentor_processes: 1,
        ray: None,
    }
}

/// An empty folder for one test, removed when the test passes.
fn temp_dir(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("real-{name}"))
}

#[test]
fn full_evaluation_evolves_from_random_as_real_vectors() {
    let dir = temp_dir("run");
    // A thousand-odd genes over-fit a few hundred positions, so train on 1,500 and test on 500.
    let (train, test) = (1500, 500);
    let cfg = config(&dir, train, test);
    let r = run_mentor(&cfg).unwrap();
    assert_eq!(r.generations, 150);
    // Random organisms are hundreds of centipawns off; evolution must cut that by far.
    assert!(r.first_generation_best > 200.0, "{r:?}");
    assert!(
        r.train_error < r.first_generation_best / 2.0,
        "gen 0 {} -> {}",
        r.first_generation_best,
        r.train_error
    );
    assert!(r.test_error < r.first_generation_best / 2.0, "{r:?}");

    // best.toml is the organism: every value within its declared range, and its errors are
    // the evaluator's against fresh labels.
    let loaded = kestrel_eval::load_eval_params(&r.params_path).unwrap();
    assert_eq!(loaded, r.best);
    for (d, off) in EVAL_TABLE.decls.iter().zip(EVAL_TABLE.offsets()) {
        for &v in &loaded.values[off..off + d.width()] {
            assert!((d.min..=d.max).contains(&v), "{} = {v}", d.name);
        }
    }
    let all = PositionSet::parse_epd(BUILTIN_POSITIONS).unwrap();
    let mentor = BuiltinMentor::new(1);
    let eval = kestrel_eval::Evaluator::new(loaded);
    let (mut total, mut n) = (0i64, 0i64);
    for b in &all.test[..test] {
        if let Label::Cp(cp) = mentor.label_one(b) {
            total += (eval.evaluate_white(b) as i64 - cp as i64).abs();
            n += 1;
        }
    }
    assert!((r.test_error - total as f64 / n as f64).abs() < 1e-9);

    // Log and chart; the checkpoint holds real genes and the step schedule.
    assert_eq!(
        std::fs::read_to_string(&r.log_path)
            .unwrap()
            .lines()
            .count(),
        151
    );
    assert!(
        std::fs::read_to_string(&r.chart_path)
            .unwrap()
            .contains("<svg")
    );
    let checkpoint = std::fs::read_to_string(cfg.out_dir.join("checkpoint.json")).unwrap();
    assert!(checkpoint.contains("mutation_step") && checkpoint.contains("real genes"));

    // Resuming the finished checkpoint gives the same organism.
    let resumed = run_mentor(&MentorRunConfig {
        resume: true,
        ..cfg.clone()
    })
    .unwrap();
    assert_eq!(resumed.best, r.best);
    assert_eq!(resumed.train_error, r.train_error);

    // Same seed, same organism; another seed differs. Short runs in folders of their own: the
    // property does not depend on the length of the run, and the long run is the test's cost.
    let short = |seed: u64, out: &str| {
        run_mentor(&MentorRunConfig {
            ga: real_settings(15, seed),
            out_dir: dir.join(out),
            ..cfg.clone()
        })
        .unwrap()
    };
    let (first, again, other) = (short(3, "a"), short(3, "b"), short(4, "c"));
    assert_eq!(again.best, first.best);
    assert_eq!(again.train_error, first.train_error);
    assert_ne!(other.best, first.best);
    // The real-gene checkpoint is never resumed as bit strings.
    assert!(
        run_mentor(&MentorRunConfig {
            resume: true,
            genome: GenomeKind::Bits,
            ..cfg.clone()
        })
        .is_err()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn killed_real_run_resumes_to_the_same_population() {
    let all = PositionSet::parse_epd(BUILTIN_POSITIONS).unwrap();
    let mentor = BuiltinMentor::new(1);
    let (mut boards, mut labels) = (Vec::new(), Vec::new());
    for b in &all.train[..120] {
        if let Label::Cp(cp) = mentor.label_one(b) {
            boards.push(b.clone());
            labels.push(cp);
        }
    }
    let schema = ParamSet::Full.schema(Coding::Binary);
    let base = ParamValues::zeros(&EVAL_TABLE);
    let fitness = MentorFitness {
        schema: schema.clone(),
        train: LabelledSet::new(&boards, labels, &schema, &base),
        sample: 60,
        data_id: "resume-test".into(),
    };
    let space = real_space(&schema);
    let dir = temp_dir("resume");
    let path = dir.join("checkpoint.json");
    let run = |checkpoint: Option<std::path::PathBuf>, stop_after: Option<u64>| {
        GaRun {
            settings: GaSettings {
                population: 30,
                ..real_settings(20, 9)
            },
            space: &space,
            fitness: &fitness,
            executor: &InProcessExecutor,
            checkpoint: checkpoint.clone(),
            // The interrupted run starts afresh; only the second one resumes.
            resume: stop_after.is_none() && checkpoint.is_some(),
            seed_population: None,
        }
        .run(&mut |v: &GenerationView<RealGenome>| {
            if stop_after == Some(v.stats.generation) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap()
    };
    let full = run(None, None);
    let cut = run(Some(path.clone()), Some(7));
    assert_eq!(cut.history.len(), 8);
    let resumed = run(Some(path.clone()), None);
    assert_eq!(resumed.population, full.population);
    assert_eq!(resumed.evaluations, full.evaluations);
    assert_eq!(
        resumed
            .history
            .iter()
            .map(|h| h.mean_objective)
            .collect::<Vec<_>>(),
        full.history
            .iter()
            .map(|h| h.mean_objective)
            .collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
