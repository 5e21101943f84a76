//! The whole expert-driven run on a small data set: outputs, their consistency with the
//! evaluator, the label cache, and reproducibility.

use kestrel_eval::{COMPACT_SET, EVAL_TABLE, Evaluator, is_compact};
use kestrel_evolve::mentor::builtin::BuiltinMentor;
use kestrel_evolve::mentor::labels::Label;
use kestrel_evolve::mentor::organism::GenomeKind;
use kestrel_evolve::mentor::positions::PositionSet;
use kestrel_evolve::mentor::run::{
    BUILTIN_POSITIONS, MentorRunConfig, MentorSpec, ParamSet, PositionsSource, run_mentor,
};
use kestrel_ga::{GaSettings, Termination};
use kestrel_params::Coding;

fn config(dir: &std::path::Path) -> MentorRunConfig {
    let all = PositionSet::parse_epd(BUILTIN_POSITIONS).unwrap();
    let small = PositionSet {
        train: all.train[..60].to_vec(),
        test: all.test[..25].to_vec(),
    };
    let positions = dir.join("small.epd");
    small.save(&positions).unwrap();
    MentorRunConfig {
        positions: PositionsSource::Epd(positions),
        mentor: MentorSpec::Builtin,
        extra_mentors: Vec::new(),
        combine: kestrel_evolve::mentor::crowd::Combine::Mean,
        depth: 1,
        set: ParamSet::Compact,
        genome: GenomeKind::Bits,
        coding: Coding::Gray,
        sample: 30,
        ga: GaSettings {
            population: 40,
            termination: Termination {
                generations: 12,
                fitness_threshold: None,
                stall_generations: None,
            },
            mutation_rate: 0.01,
            seed: 4,
            ..GaSettings::default()
        },
        out_dir: dir.join("out"),
        labels: None,
        resume: false,
        progress: false,
        mentor_processes: 1,
        ray: None,
    }
}

#[test]
fn small_run_end_to_end() {
    let dir = std::env::temp_dir().join(format!("kestrel-mentor-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = config(&dir);
    let r = run_mentor(&cfg).unwrap();
    assert_eq!(r.generations, 12);
    assert_eq!(r.labels.computed + r.dropped_mates, 85);
    assert_eq!(r.train_positions + r.test_positions + r.dropped_mates, 85);
    assert!(r.train_error < r.first_generation_best, "{r:?}");

    // The params file holds exactly the best organism: compact terms only.
    let loaded = kestrel_eval::load_eval_params(&r.params_path).unwrap();
    assert_eq!(loaded, r.best);
    for (d, off) in EVAL_TABLE.decls.iter().zip(EVAL_TABLE.offsets()) {
        if !is_compact(d.name) {
            assert!(loaded.values[off..off + d.width()].iter().all(|&v| v == 0));
        }
    }
    assert!(COMPACT_SET.iter().any(|n| loaded.get(n).unwrap()[0] != 0));

    // The reported test error is the evaluator's error against fresh mentor labels.
    let all = PositionSet::parse_epd(BUILTIN_POSITIONS).unwrap();
    let mentor = BuiltinMentor::new(1);
    let eval = Evaluator::new(loaded);
    let (mut total, mut n) = (0i64, 0i64);
    for b in &all.test[..25] {
        if let Label::Cp(cp) = mentor.label_one(b) {
            total += (eval.evaluate_white(b) as i64 - cp as i64).abs();
            n += 1;
        }
    }
    assert_eq!(n as usize, r.test_positions);
    assert!((r.test_error - total as f64 / n as f64).abs() < 1e-9);

    // Log, chart and checkpoint are there.
    let log = std::fs::read_to_string(&r.log_path).unwrap();
    assert_eq!(log.lines().count(), 13);
    assert!(
        std::fs::read_to_string(&r.chart_path)
            .unwrap()
            .contains("<svg")
    );
    assert!(cfg.out_dir.join("checkpoint.json").exists());

    // A second run reuses every label and evolves the same organism; resuming the finished
    // run's checkpoint gives the same organism too.
    let again = run_mentor(&cfg).unwrap();
    assert_eq!(again.labels.computed, 0);
    assert_eq!(again.labels.cached, 85);
    assert_eq!(again.best, r.best);
    let resumed = run_mentor(&MentorRunConfig {
        resume: true,
        ..cfg.clone()
    })
    .unwrap();
    assert_eq!(resumed.best, r.best);
    // Another seed evolves another organism.
    let other = run_mentor(&MentorRunConfig {
        ga: GaSettings {
            seed: 5,
            ..cfg.ga.clone()
        },
        ..cfg.clone()
    })
    .unwrap();
    assert_ne!(other.best, r.best);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mentor_names_are_checked() {
    assert_eq!(
        "builtin".parse::<MentorSpec>().unwrap(),
        MentorSpec::Builtin
    );
    assert_eq!(
        "uci:/usr/games/stockfish".parse::<MentorSpec>().unwrap(),
        MentorSpec::Uci("/usr/games/stockfish".into())
    );
    assert!("uci:".parse::<MentorSpec>().is_err());
    assert!("stockfish".parse::<MentorSpec>().is_err());
}
