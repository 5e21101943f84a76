//! The gradient tuner: its gradient, that it fits, its outputs and reproducibility.

use kestrel_chess::Board;
use kestrel_eval::{EVAL_TABLE, Evaluator, load_eval_params, trace, trace_score};
use kestrel_evolve::mentor::positions::{PickRules, PositionSet};
use kestrel_evolve::mentor::run::{BUILTIN_POSITIONS, MentorSpec, ParamSet};
use kestrel_evolve::tune::data::samples_from_pgn;
use kestrel_evolve::tune::model::{Dataset, TraceSet, sigmoid};
use kestrel_evolve::tune::optimise::{Adam, Bounds};
use kestrel_evolve::tune::run::{KSource, MentorK, TuneConfig, TuneSource, run_tune};
use kestrel_params::ParamValues;
use kestrel_testdata::ScratchDir;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

fn boards(n: usize) -> Vec<Board> {
    let set = PositionSet::parse_epd(BUILTIN_POSITIONS).unwrap();
    set.train.into_iter().take(n).collect()
}

/// An empty folder for one test, removed when the test passes.
fn temp_dir(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("tune-{name}"))
}

/// Defaults moved by up to ±`spread` per value, kept in range.
fn perturbed(spread: i32, seed: u64) -> Vec<i32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut v = ParamValues::defaults(&EVAL_TABLE);
    let mut off = 0;
    for d in EVAL_TABLE.decls {
        for x in &mut v.values[off..off + d.width()] {
            *x = (*x + rng.random_range(-spread..=spread)).clamp(d.min, d.max);
        }
        off += d.width();
    }
    v.values
}

#[test]
fn gradient_matches_finite_differences() {
    let b = boards(300);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let data = Dataset {
        traces: TraceSet::build(&b),
        targets: (0..b.len()).map(|_| rng.random_range(0.0..1.0)).collect(),
    };
    let values: Vec<f64> = perturbed(20, 6).iter().map(|&v| v as f64 + 0.3).collect();
    let k = 1.1;
    let (loss, grad) = data.loss_and_gradient(&values, k);
    assert!((loss - data.loss(&values, k)).abs() < 1e-15);
    // The 40 steepest values and every 25th one with any gradient.
    let mut order: Vec<usize> = (0..grad.len()).filter(|&i| grad[i] != 0.0).collect();
    order.sort_by(|&a, &b| grad[b].abs().total_cmp(&grad[a].abs()));
    let checked: Vec<usize> = order[..40]
        .iter()
        .copied()
        .chain(order.iter().copied().step_by(25))
        .collect();
    let h = 1e-2;
    for i in checked {
        let (mut up, mut down) = (values.clone(), values.clone());
        up[i] += h;
        down[i] -= h;
        let numeric = (data.loss(&up, k) - data.loss(&down, k)) / (2.0 * h);
        let tol = 1e-6 * grad[i].abs() + 1e-12;
        assert!(
            (numeric - grad[i]).abs() < tol,
            "value {i}: analytic {} numeric {numeric}",
            grad[i]
        );
    }
}

#[test]
fn exact_evaluations_of_packed_traces_match_the_evaluator() {
    let b = boards(500);
    let traces = TraceSet::build(&b);
    let values = perturbed(40, 9);
    let params = ParamValues {
        table: &EVAL_TABLE,
        values: values.clone(),
    };
    let eval = Evaluator::new(params);
    let float: Vec<f64> = values.iter().map(|&v| v as f64).collect();
    for (j, board) in b.iter().enumerate() {
        let exact = eval.evaluate_white(board);
        assert_eq!(traces.eval_exact(j, &values), exact);
        assert_eq!(trace_score(&values, &trace(board)), exact);
        assert!((traces.eval_float(j, &float) - exact as f64).abs() <= 0.5 + 1e-9);
    }
}

#[test]
fn adam_recovers_a_known_vector() {
    // Targets are σ(exact eval) under a hidden vector; fitting from the defaults must get close.
    let b = boards(3000);
    let k = 1.0;
    let hidden = perturbed(30, 11);
    let traces = TraceSet::build(&b);
    let targets = (0..b.len())
        .map(|j| sigmoid(k, traces.eval_exact(j, &hidden) as f64))
        .collect();
    let data = Dataset { traces, targets };
    let mut values: Vec<f64> = EVAL_TABLE.defaults().iter().map(|&v| v as f64).collect();
    let start_loss = data.loss(&values, k);
    let bounds = Bounds::new(&EVAL_TABLE, vec![true; values.len()]);
    let mut adam = Adam::new(values.len(), 1.0);
    for _ in 0..300 {
        let (_, grad) = data.loss_and_gradient(&values, k);
        adam.step(&mut values, &grad, &bounds);
    }
    let end_loss = data.loss(&values, k);
    assert!(
        end_loss < start_loss / 1000.0,
        "start {start_loss}, end {end_loss}"
    );
    // In centipawns: the fitted evaluation is far closer to the hidden one than the defaults.
    let rounded: Vec<i32> = values.iter().map(|v| v.round() as i32).collect();
    let defaults = EVAL_TABLE.defaults();
    let err = |v: &[i32]| -> f64 {
        let h = data.exact_evals(&hidden);
        let e = data.exact_evals(v);
        h.iter()
            .zip(&e)
            .map(|(a, b)| (a - b).abs() as f64)
            .sum::<f64>()
            / h.len() as f64
    };
    let (before, after) = (err(&defaults), err(&rounded));
    assert!(
        after < before / 20.0,
        "mean |error| {before:.1} -> {after:.1} cp"
    );
}

/// An EPD file of built-in positions with results drawn (seeded) from the defaults' verdict.
fn epd_with_results(dir: &Path, n: usize) -> PathBuf {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let eval = Evaluator::new(ParamValues::defaults(&EVAL_TABLE));
    let mut text = String::new();
    for b in boards(n) {
        let p = sigmoid(1.0, eval.evaluate_white(&b) as f64);
        let u: f64 = rng.random_range(0.0..1.0);
        let result = if u < p * 0.8 {
            "1-0"
        } else if u < p * 0.8 + 0.2 {
            "1/2-1/2"
        } else {
            "0-1"
        };
        text.push_str(&format!("{} c9 \"{result}\";\n", b.epd_position()));
    }
    let path = dir.join("positions.epd");
    std::fs::write(&path, text).unwrap();
    path
}

fn config(epd: &Path, out: &Path) -> TuneConfig {
    TuneConfig {
        source: TuneSource::Epd(epd.to_path_buf()),
        test_fraction: 0.2,
        seed: 3,
        mentor: None,
        depth: 1,
        labels: None,
        mentor_processes: 1,
        lambda: None,
        k: None,
        mentor_k: MentorK::Same,
        start: ParamValues::defaults(&EVAL_TABLE),
        set: ParamSet::Full,
        freeze: vec!["PAWN_VALUE".into()],
        epochs: 20,
        lr: 2.0,
        l2: 0.0,
        print_every: 0,
        checkpoint_every: 5,
        out_dir: out.to_path_buf(),
        resume: false,
        verbose: false,
    }
}

#[test]
fn tuned_file_round_trips_and_runs_are_reproducible() {
    let dir = temp_dir("run");
    let epd = epd_with_results(&dir, 800);
    let a = config(&epd, &dir.join("a"));
    let r = run_tune(&a).unwrap();
    assert_eq!(r.k_source, KSource::FittedToResults);
    assert_eq!(r.train_positions + r.test_positions, 800);
    assert!(r.test_positions > 80 && r.test_positions < 250, "{r:?}");
    assert!(r.loss_after.0 < r.loss_before.0, "{r:?}");
    assert_eq!(r.epochs, 20);
    assert!(r.cp_error_before.is_none());

    // The file holds exactly the tuned values, and evaluates like them.
    let loaded = load_eval_params(&r.params_path).unwrap();
    assert_eq!(loaded, r.tuned);
    let defaults = ParamValues::defaults(&EVAL_TABLE);
    assert_eq!(
        loaded.get("PAWN_VALUE"),
        defaults.get("PAWN_VALUE"),
        "frozen"
    );
    assert_ne!(loaded.values, EVAL_TABLE.defaults());
    let eval = Evaluator::new(loaded.clone());
    for b in boards(200) {
        assert_eq!(
            eval.evaluate_white(&b),
            trace_score(&loaded.values, &trace(&b))
        );
    }
    let log = std::fs::read_to_string(&r.log_path).unwrap();
    assert_eq!(log.lines().count(), 1 + 21, "header and epochs 0..=20");
    assert!(log.starts_with("epoch,train_loss,test_loss\n0,"));

    // Same seed, same bits; another seed, another split.
    let again = run_tune(&config(&epd, &dir.join("b"))).unwrap();
    let read = |p: &Path| std::fs::read(p).unwrap();
    assert_eq!(read(&r.params_path), read(&again.params_path));
    assert_eq!(read(&r.log_path), read(&again.log_path));
    let mut other = config(&epd, &dir.join("c"));
    other.seed = 4;
    let other = run_tune(&other).unwrap();
    assert_ne!(read(&r.log_path), read(&other.log_path));

    // A run stopped after 10 epochs and resumed to 20 ends exactly like the one above.
    let mut part = config(&epd, &dir.join("d"));
    part.epochs = 10;
    run_tune(&part).unwrap();
    part.epochs = 20;
    part.resume = true;
    let resumed = run_tune(&part).unwrap();
    assert_eq!(resumed.resumed_at, 10);
    assert_eq!(read(&r.params_path), read(&resumed.params_path));
    assert_eq!(read(&r.log_path), read(&resumed.log_path));
    // Other settings refuse the checkpoint.
    part.lr = 3.0;
    assert!(
        run_tune(&part)
            .unwrap_err()
            .contains("other data or settings")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn l2_holds_values_near_their_start() {
    let dir = temp_dir("l2");
    let epd = epd_with_results(&dir, 400);
    let max_change = |l2: f64, out: &str| {
        let mut c = config(&epd, &dir.join(out));
        c.l2 = l2;
        c.epochs = 40;
        let r = run_tune(&c).unwrap();
        let d = EVAL_TABLE.defaults();
        let m = r.tuned.values.iter().zip(&d).map(|(a, b)| (a - b).abs());
        (m.max().unwrap(), r.loss_after.0)
    };
    let (free, free_loss) = max_change(0.0, "free");
    let (held, held_loss) = max_change(1e-3, "held");
    assert!(free >= 20, "{free}");
    assert!(held <= 2, "{held}");
    assert!(free_loss < held_loss);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_settings_are_errors() {
    let dir = temp_dir("bad");
    let epd = epd_with_results(&dir, 50);
    let mut c = config(&epd, &dir.join("out"));
    c.freeze = vec!["NO_SUCH_TERM".into()];
    assert!(run_tune(&c).unwrap_err().contains("NO_SUCH_TERM"));
    let mut c = config(&epd, &dir.join("out"));
    c.lambda = Some(0.5);
    assert!(run_tune(&c).unwrap_err().contains("mentor"));
    let mut c = config(&epd, &dir.join("out"));
    c.l2 = -1.0;
    assert!(run_tune(&c).unwrap_err().contains("L2"));
    // Positions without results cannot be fitted to results.
    let bare = dir.join("bare.epd");
    std::fs::write(&bare, "8/8/4k3/8/2P5/8/5K2/8 w - -\n").unwrap();
    assert!(run_tune(&config(&bare, &dir.join("out"))).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mentor_labels_are_fitted_and_cached() {
    let dir = temp_dir("mentor");
    let epd = dir.join("p.epd");
    let text: String = boards(120)
        .iter()
        .map(|b| format!("{}\n", b.epd_position()))
        .collect();
    std::fs::write(&epd, text).unwrap();
    let mut c = config(&epd, &dir.join("out"));
    c.mentor = Some(MentorSpec::Builtin);
    c.set = ParamSet::Compact;
    c.freeze.clear();
    c.epochs = 40;
    let r = run_tune(&c).unwrap();
    assert_eq!(r.lambda, 1.0);
    assert_eq!(r.k_source, KSource::Default, "no results to fit K to");
    assert_eq!(r.trainable, 35);
    let labels = r.label_stats.as_ref().unwrap();
    assert_eq!(labels.computed + labels.failed, 120);
    let (before, after) = (r.cp_error_before.unwrap(), r.cp_error_after.unwrap());
    assert!(after.0 < before.0, "{before:?} -> {after:?}");
    // Only the compact set moved.
    for (name, _, _) in &r.biggest_changes {
        let term = name.split(['[', '.']).next().unwrap();
        assert!(kestrel_eval::is_compact(term), "{name}");
    }
    assert_eq!(r.k_mentor, r.k);
    // A second run finds every label in the cache; without results the mentor's K cannot be
    // fitted and stays the evaluation's.
    c.mentor_k = MentorK::Fit;
    let again = run_tune(&c).unwrap();
    assert_eq!(again.label_stats.unwrap().computed, 0);
    assert_eq!(again.k_mentor, again.k);
    c.mentor_k = MentorK::Given(2.0);
    let doubled = run_tune(&c).unwrap();
    assert_eq!(doubled.k_mentor, 2.0);
    assert!(doubled.loss_before.0 != r.loss_before.0, "other targets");
    let _ = std::fs::remove_dir_all(&dir);
}

const GAMES: &str = r#"[Event "Candidats final"]
[Result "1-0"]

1. e4 c5 2. Nf3 e6 3. d4 cxd4 4. Nxd4 Nc6 5. Nb5 d6 6. Bf4 e5 7. Be3 Nf6 8. Bg5
Be6 9. N1c3 a6 10. Bxf6 gxf6 11. Na3 d5 12. exd5 Bxa3 13. bxa3 Qa5 14. Qd2
O-O-O 15. Bc4 Rhg8 16. Rd1 Bf5 17. Bd3 Bxd3 18. Qxd3 Nd4 19. O-O Kb8 20. Kh1
Qxa3 21. f4 Rc8 22. Ne4 Qxd3 23. cxd3 Rc2 24. Rd2 Rxd2 25. Nxd2 f5 26. fxe5 Re8
27. Re1 Nc2 28. Re2 Nd4 29. Re3 Nc2 30. Rh3 Rxe5 31. Nf3 Rxd5 32. Rxh7 Rxd3 33.
h4 Ne3 34. Rxf7 Rd1+ 35. Kh2 Ra1 36. h5 f4 37. Rxf4 Rxa2 38. Re4 Nxg2 39. Kg3
Ra5 40. Ne5 1-0

[Event "Unfinished"]
[Result "*"]

1. d4 Nf6 2. c4 g6 3. Nc3 d5 4. Bf4 Bg7 5. e3 c5 6. dxc5 Qa5 7. Rc1 Ne4 8. cxd5
Nxc3 9. Qd2 Qxa2 10. bxc3 Qa5 11. Bc4 Nd7 12. Ne2 Ne5 13. Ba2 Bf5 *

[Event "Candidats final"]
[Result "1/2-1/2"]

1. e4 e6 2. d4 d5 3. Nc3 Nf6 4. Bg5 dxe4 5. Nxe4 Be7 6. Bxf6 gxf6 7. g3 f5 8.
Nc3 Bf6 9. Nge2 Nc6 10. d5 exd5 11. Nxd5 Bxb2 12. Bg2 O-O 13. O-O Bh8 14. Nef4
Ne5 15. Qh5 Ng6 16. Rad1 c6 17. Ne3 Qf6 18. Kh1 Bg7 19. Bh3 Ne7 20. Rd3 Be6 21.
Rfd1 Bh6 22. Rd4 Bxf4 23. Rxf4 Rad8 24. Rxd8 Rxd8 25. Bxf5 Nxf5 26. Nxf5 Rd5
27. g4 Bxf5 28. gxf5 h6 29. h3 Kh7 30. Qe2 Qe5 31. Qh5 Qf6 32. Qe2 Qe5 33. Qh5
Qf6 1/2-1/2
"#;

#[test]
fn pgn_positions_are_spread_over_games_with_results() {
    let dir = temp_dir("pgn");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let rules = PickRules::default();
    let (samples, stats) = samples_from_pgn(&pgn, 6, None, &rules, 1).unwrap();
    assert_eq!((stats.games, stats.games_without_result), (3, 1));
    let first: Vec<_> = samples.iter().filter(|s| s.game == 0).collect();
    let third: Vec<_> = samples.iter().filter(|s| s.game == 2).collect();
    assert_eq!((first.len(), third.len()), (6, 6));
    assert!(first.iter().all(|s| s.result == Some(1.0)));
    assert!(third.iter().all(|s| s.result == Some(0.5)));
    // Spread: the picks of the 79-ply game run from the early middle game into the ending.
    let plies: Vec<u32> = first
        .iter()
        .map(|s| 2 * (s.board.fullmove_number() as u32 - 1) + s.board.side_to_move() as u32)
        .collect();
    assert!(plies.windows(2).all(|w| w[0] < w[1]), "{plies:?}");
    assert!(plies[0] < 32 && plies[5] > 60, "{plies:?}");
    // All picks follow the quiet-position rules; none twice.
    for s in &samples {
        assert!(kestrel_evolve::mentor::positions::qualifies(
            &s.board, &rules
        ));
    }
    let mut keys: Vec<u64> = samples.iter().map(|s| s.board.hash()).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), samples.len());
    // Seeded: the same seed picks the same positions.
    let (again, _) = samples_from_pgn(&pgn, 6, None, &rules, 1).unwrap();
    assert!(samples.iter().zip(&again).all(|(a, b)| a.board == b.board));
    // At most the first N games.
    let (one, _) = samples_from_pgn(&pgn, 6, Some(1), &rules, 1).unwrap();
    assert_eq!(one.len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}
