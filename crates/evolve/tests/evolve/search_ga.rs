//! Falcon's search GA: the fitness is deterministic on any thread count and memoised, the
//! paper's 3-bit 0..4 fields decode codes 5-7 to 4, a killed run resumes to the same result,
//! a tiny run improves on its random start, validation picks the generation that does best on
//! unseen positions, and an all-unsolved suite gives a clear report.

use kestrel_evolve::mentor::organism::GenomeKind;
use kestrel_evolve::search::fitness::{
    Objective, SearchFitness, SearchFitnessSpec, position_costs, suite_score,
};
use kestrel_evolve::search::run::{SearchRunConfig, run_search_ga};
use kestrel_evolve::search::solve::CostRule;
use kestrel_ga::{
    BitGenome, BitSpace, FitnessFunction, GaRun, GaSettings, GenerationView, Genome,
    InProcessExecutor, Purpose, StopReason, Termination, stream_rng,
};
use kestrel_params::{Coding, ParamsFile};
use kestrel_search::SEARCH_TABLE;
use std::ops::ControlFlow;
use std::path::PathBuf;

/// Win At Chess positions (revised best moves) that Kestrel solves within a few thousand
/// nodes at its defaults, and one it does not solve at the small cap.
const POSITIONS: &[&str] = &[
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id \"WAC.003\";",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id \"WAC.004\";",
    "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - bm Qc4+; id \"WAC.005\";",
    "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - bm Ne3; id \"WAC.007\";",
    "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - bm Bh2+; id \"WAC.009\";",
];

const RULE: CostRule = CostRule {
    node_cap: 20_000,
    penalty: 20_000,
};

fn spec(n: usize) -> SearchFitnessSpec {
    SearchFitnessSpec {
        train: POSITIONS[..n].iter().map(|s| s.to_string()).collect(),
        set: SearchFitnessSpec::falcon_set(),
        coding: Coding::Binary,
        rule: RULE,
        hash_mb: 1,
        objective: Objective::Sum,
    }
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

fn settings(population: usize, generations: u64, seed: u64) -> GaSettings {
    GaSettings {
        population,
        mutation_rate: 0.05,
        termination: Termination {
            generations,
            fitness_threshold: None,
            stall_generations: None,
        },
        seed,
        ..GaSettings::default()
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-search-ga-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn fitness_is_deterministic_on_any_thread_count_and_memoised() {
    let space = BitSpace { len: 70 };
    let mut rng = stream_rng(5, 0, Purpose::Init);
    let genomes: Vec<BitGenome> = (0..3)
        .map(|_| BitGenome::random(&space, &mut rng))
        .collect();
    let one = SearchFitness::build(spec(4)).unwrap();
    let two = SearchFitness::build(spec(4)).unwrap();
    let a = in_pool(1, || one.evaluate(0, &genomes));
    let b = in_pool(2, || two.evaluate(0, &genomes));
    assert_eq!(a, b);
    assert!(a.iter().all(|e| e.objective > 0.0 && e.fitness > 0.0));
    // The same organisms again (and in another order) are answered from the memo.
    let before = two.stats();
    let again = in_pool(2, || {
        two.evaluate(9, &[genomes[2].clone(), genomes[0].clone()])
    });
    assert_eq!(again, vec![b[2], b[0]]);
    let after = two.stats();
    assert_eq!(after.searched_organisms, before.searched_organisms);
    assert_eq!(after.nodes, before.nodes);
    assert_eq!(after.memo_hits, before.memo_hits + 2);
}

/// A worker's report (what it searched since the last one) fills the leader's memo and
/// counts: the leader then answers those organisms without a search, and a second report
/// holds nothing new.
#[test]
fn a_workers_report_fills_the_leaders_memo_and_counts() {
    let space = BitSpace { len: 70 };
    let mut rng = stream_rng(6, 0, Purpose::Init);
    let genomes: Vec<BitGenome> = (0..2)
        .map(|_| BitGenome::random(&space, &mut rng))
        .collect();
    let worker = SearchFitness::build(spec(3)).unwrap();
    let leader = SearchFitness::build(spec(3)).unwrap();
    let scored = in_pool(2, || worker.evaluate(0, &genomes));
    let worked = worker.stats();
    assert_eq!(worked.searched_organisms, 2);
    let report = FitnessFunction::<BitGenome>::take_report(&worker).unwrap();
    FitnessFunction::<BitGenome>::absorb_report(&leader, &report).unwrap();
    assert_eq!(leader.stats(), worked);
    assert_eq!(leader.memo_entries(), worker.memo_entries());
    assert_eq!(in_pool(2, || leader.evaluate(3, &genomes)), scored);
    assert_eq!(leader.stats().nodes, worked.nodes, "answered from the memo");
    assert_eq!(leader.stats().memo_hits, 2);
    let empty = FitnessFunction::<BitGenome>::take_report(&worker).unwrap();
    assert_eq!(empty["entries"], serde_json::json!([]), "{empty}");
    assert_eq!(empty["searched_organisms"], 0);
    let err =
        FitnessFunction::<BitGenome>::absorb_report(&leader, &serde_json::json!({})).unwrap_err();
    assert!(err.contains("malformed search report"), "{err}");
}

#[test]
fn the_log_objective_is_the_geometric_mean_cost_and_keeps_the_sum_in_the_report() {
    let log_spec = SearchFitnessSpec {
        objective: Objective::LogMean,
        ..spec(5)
    };
    let fitness = SearchFitness::build(log_spec.clone()).unwrap();
    let defaults = kestrel_params::ParamValues::defaults(&SEARCH_TABLE);
    let costs = &position_costs(std::slice::from_ref(&defaults), &fitness.positions, RULE, 1)[0];
    let geometric = (costs.iter().map(|c| (c.cost as f64).ln()).sum::<f64>() / 5.0).exp();
    let genome = BitGenome(fitness.schema.encode(&defaults));
    let eval = in_pool(2, || fitness.evaluate(0, std::slice::from_ref(&genome)))[0];
    assert!(
        (eval.objective / geometric - 1.0).abs() < 1e-5,
        "{eval:?} vs {geometric}"
    );
    assert!((eval.fitness * eval.objective - 1e6).abs() < 1e-3);
    // The sum objective on the same positions is the total cost, and both report the same score.
    let sum = SearchFitness::build(spec(5)).unwrap();
    let sum_eval = sum.evaluate(0, std::slice::from_ref(&genome))[0];
    assert_eq!(sum_eval.objective, suite_score(costs).cost as f64);
    assert!(sum_eval.objective > eval.objective * 4.0);
    let fields = vec![fitness.schema.decode_fields(&genome.0)];
    assert_eq!(fitness.score_fields(&fields), sum.score_fields(&fields));
    // A log-objective spec has its own fingerprint (no resume across objectives).
    assert_ne!(log_spec.fingerprint(), spec(5).fingerprint());
}

#[test]
fn three_bit_extension_codes_past_four_decode_to_four_and_share_a_score() {
    let fitness = SearchFitness::build(spec(2)).unwrap();
    let schema = &fitness.schema;
    assert_eq!(schema.bit_len(), 70);
    let defaults = kestrel_params::ParamValues::defaults(&SEARCH_TABLE);
    let base = schema.encode(&defaults);
    // EXT_CHECK is the 14th field: bits 54..57 (after 1+3+1+3+2+10+10+10+1+3+3+5+3 = 55).
    let start: usize = schema.fields[..13].iter().map(|f| f.bits as usize).sum();
    assert_eq!(schema.fields[13].name, "EXT_CHECK");
    let with_code = |code: u32| {
        let mut bits = base.clone();
        for k in 0..3 {
            bits[start + k] = code >> (2 - k) & 1 != 0;
        }
        BitGenome(bits)
    };
    for code in 0..8u32 {
        let value = schema.decode_fields(&with_code(code).0)[13];
        assert_eq!(value, code.min(4) as i32, "code {code}");
    }
    // Codes 4..7 are one organism to the fitness: searched once.
    let genomes: Vec<BitGenome> = (4..8).map(with_code).collect();
    let scores = fitness.evaluate(0, &genomes);
    assert!(scores.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(fitness.stats().searched_organisms, 1);
    assert_eq!(fitness.stats().memo_hits, 3);
}

#[test]
fn a_killed_run_resumes_to_the_same_result() {
    let space = BitSpace { len: 70 };
    let dir = temp_dir("resume");
    std::fs::create_dir_all(&dir).unwrap();
    let run = |fitness: &SearchFitness, checkpoint: PathBuf, resume: bool, stop_at: Option<u64>| {
        GaRun {
            settings: settings(4, 3, 11),
            space: &space,
            fitness,
            executor: &InProcessExecutor,
            checkpoint: Some(checkpoint),
            resume,
            seed_population: None,
        }
        .run(&mut |v: &GenerationView<BitGenome>| {
            if Some(v.stats.generation) == stop_at {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap()
    };
    let whole = run(
        &SearchFitness::build(spec(3)).unwrap(),
        dir.join("a.json"),
        false,
        None,
    );
    let killed = run(
        &SearchFitness::build(spec(3)).unwrap(),
        dir.join("b.json"),
        false,
        Some(0),
    );
    assert_eq!(killed.stop, StopReason::Interrupted);
    // A new process: a fresh fitness (empty memo) resumes from the checkpoint.
    let resumed = in_pool(1, || {
        run(
            &SearchFitness::build(spec(3)).unwrap(),
            dir.join("b.json"),
            true,
            None,
        )
    });
    assert_eq!(resumed.population, whole.population);
    assert_eq!(resumed.evaluations, whole.evaluations);
    let objectives =
        |h: &[kestrel_ga::GenerationStats]| h.iter().map(|s| s.best_objective).collect::<Vec<_>>();
    assert_eq!(objectives(&resumed.history), objectives(&whole.history));
    let _ = std::fs::remove_dir_all(&dir);
}

fn tiny_run(name: &str, train: Vec<String>, seed_with_defaults: bool) -> SearchRunConfig {
    SearchRunConfig {
        spec: SearchFitnessSpec { train, ..spec(0) },
        test: POSITIONS[4..].iter().map(|s| s.to_string()).collect(),
        validation: Vec::new(),
        genome: GenomeKind::Bits,
        ga: settings(6, 6, 3),
        seed_with_defaults,
        out_dir: temp_dir(name),
        resume: false,
        progress: false,
        ray: None,
    }
}

#[test]
fn a_tiny_run_improves_on_its_random_start_and_writes_a_search_params_file() {
    let train: Vec<String> = POSITIONS[..4].iter().map(|s| s.to_string()).collect();
    let cfg = tiny_run("improve", train, false);
    let r = run_search_ga(&cfg).unwrap();
    let (random, evolved) = (&r.rows[1], &r.rows[2]);
    assert_eq!(r.generations, 6);
    assert!(
        evolved.train.cost < random.train.cost,
        "evolved {:?} random {:?}",
        evolved.train,
        random.train
    );
    // The log's first line is the random generation 0; the evolved organism is at least as
    // good as its best.
    let log = std::fs::read_to_string(&r.log_path).unwrap();
    let gen0_best: f64 = log
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(evolved.train.cost as f64 <= gen0_best);
    assert!(r.rows.iter().all(|row| row.test.is_some()));
    // best.toml is a [search] params file that loads back to the evolved values.
    let loaded = ParamsFile::load(&r.params_path, &[&SEARCH_TABLE]).unwrap();
    assert_eq!(loaded[0], r.best);
    assert!(cfg.out_dir.join("checkpoint.json").exists());
    assert!(cfg.out_dir.join("evolution.svg").exists());
    let _ = std::fs::remove_dir_all(&cfg.out_dir);
}

#[test]
fn a_run_seeded_with_the_defaults_never_does_worse_than_them() {
    let train: Vec<String> = POSITIONS[..3].iter().map(|s| s.to_string()).collect();
    let mut cfg = tiny_run("seeded", train, true);
    cfg.ga = settings(4, 2, 8);
    let r = run_search_ga(&cfg).unwrap();
    // Elitism keeps the defaults (organism 0 of generation 0) unless something beats them.
    assert!(r.rows[2].train.cost <= r.rows[0].train.cost);
    let _ = std::fs::remove_dir_all(&cfg.out_dir);
}

#[test]
fn an_all_unsolved_suite_gives_a_clear_report() {
    // The "best move" a4 is never played: mate in one is on the board.
    let train = vec!["6k1/5ppp/8/8/8/8/P7/4R1K1 w - - bm a4; id \"never\";".to_string()];
    let mut cfg = tiny_run("unsolved", train, false);
    cfg.ga = settings(2, 1, 1);
    cfg.test.clear();
    let r = run_search_ga(&cfg).unwrap();
    for row in &r.rows {
        assert_eq!(row.train.solved, 0);
        assert_eq!(row.train.cost, RULE.unsolved_cost());
        assert!(row.test.is_none());
    }
    let _ = std::fs::remove_dir_all(&cfg.out_dir);
    // Unknown names and empty suites are errors, not panics.
    let mut bad = spec(1);
    bad.set = vec!["NO_SUCH_PARAM".into()];
    assert!(
        SearchFitness::build(bad)
            .err()
            .unwrap()
            .contains("NO_SUCH_PARAM")
    );
    assert!(SearchFitness::build(spec(0)).is_err());
    let err = ParamsFile::parse("[search]\nNO_SUCH_PARAM = 1\n", &[&SEARCH_TABLE]).unwrap_err();
    assert!(err.to_string().contains("NO_SUCH_PARAM"));
}

#[test]
fn validation_returns_the_generation_best_that_does_best_on_its_positions() {
    let train: Vec<String> = POSITIONS[..3].iter().map(|s| s.to_string()).collect();
    let mut cfg = tiny_run("validation", train, false);
    cfg.validation = POSITIONS[3..5].iter().map(|s| s.to_string()).collect();
    cfg.ga = settings(6, 5, 4);
    let r = in_pool(2, || run_search_ga(&cfg)).unwrap();
    assert_eq!(r.validation_positions, 2);
    let labels: Vec<&str> = r.rows.iter().map(|row| row.label).collect();
    assert_eq!(labels, ["defaults", "random", "evolved", "selected"]);
    // validation.csv has one line per generation; the pick has the lowest validation cost
    // (the earliest on a tie), and best.toml holds it.
    let csv = std::fs::read_to_string(cfg.out_dir.join("validation.csv")).unwrap();
    let costs: Vec<(u64, u64)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].parse().unwrap(), f[3].parse().unwrap())
        })
        .collect();
    assert_eq!(costs.len(), 5);
    let min = costs.iter().map(|c| c.1).min().unwrap();
    let first_min = costs.iter().find(|c| c.1 == min).unwrap().0;
    assert_eq!(r.selected_generation, Some(first_min));
    let selected = &r.rows[3];
    assert_eq!(selected.validation.unwrap().cost, min);
    assert!(selected.validation.unwrap().cost <= r.rows[2].validation.unwrap().cost);
    let loaded = ParamsFile::load(&r.params_path, &[&SEARCH_TABLE]).unwrap();
    assert_eq!(loaded[0], r.best);
    assert!(cfg.out_dir.join("train-best.toml").exists());
    // Same pick on one thread.
    let again = in_pool(1, || run_search_ga(&cfg)).unwrap();
    assert_eq!(again.selected_generation, r.selected_generation);
    assert_eq!(again.best, r.best);
    let _ = std::fs::remove_dir_all(&cfg.out_dir);
}

#[test]
fn simplify_reverts_what_the_positions_do_not_need_and_keeps_the_cost_within_tolerance() {
    use kestrel_evolve::search::fitness::score_sets;
    use kestrel_evolve::search::simplify::simplify;
    use kestrel_search::names;
    let positions = SearchFitness::build(spec(6)).unwrap().positions;
    let defaults = kestrel_params::ParamValues::defaults(&SEARCH_TABLE);
    let mut set = defaults.clone();
    // Unused while QUIET_ORDER is 0 (history ordering): a pure drift the GA could leave behind.
    set.set_scalar(names::CHESSMAPS_BOTH_WEIGHT, 500).unwrap();
    set.set_scalar(names::EXT_CHECK, 4).unwrap();
    set.set_scalar(names::RFP_MARGIN, 300).unwrap();
    let tolerance = 0.01;
    let one = in_pool(1, || simplify(&set, &positions, RULE, 1, tolerance));
    let two = in_pool(2, || simplify(&set, &positions, RULE, 1, tolerance));
    assert_eq!(one.steps, two.steps);
    assert_eq!(one.values, two.values);
    assert_eq!(one.steps.len(), 3);
    let bound = (one.start.cost as f64 * (1.0 + tolerance)).floor() as u64;
    for st in &one.steps {
        let within = st.at_turn.cost <= bound && st.at_turn.solved >= one.start.solved;
        assert_eq!(st.reverted, within, "{st:?}");
        let kept = if st.reverted { st.default } else { st.evolved };
        assert_eq!(one.values.get(&st.name).unwrap(), &[kept], "{st:?}");
    }
    // Least useful first: in order of the cost with that value alone reverted.
    assert!(
        one.steps
            .windows(2)
            .all(|w| w[0].alone.cost <= w[1].alone.cost)
    );
    let drift = one
        .steps
        .iter()
        .find(|st| st.name == names::CHESSMAPS_BOTH_WEIGHT)
        .unwrap();
    assert_eq!(drift.alone, one.start);
    assert!(drift.reverted);
    // These positions do need one change (a wider reverse-futility margin solves them sooner):
    // reverting it would cost more than the tolerance, so the test sees both outcomes.
    assert!(one.steps.iter().any(|st| !st.reverted), "{:?}", one.steps);
    // The end score is the simplified set's own score, within the tolerance of the start.
    let end = score_sets(std::slice::from_ref(&one.values), &positions, RULE, 1)[0];
    assert_eq!(end, one.end);
    assert!(end.cost <= bound && end.solved >= one.start.solved);
    assert_eq!(one.start, score_sets(&[set], &positions, RULE, 1)[0]);
}
