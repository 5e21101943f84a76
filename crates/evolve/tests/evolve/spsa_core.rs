//! The chess-free SPSA core: it converges on a noiseless quadratic, and a run killed and
//! resumed ends exactly where an uninterrupted run ends.

use kestrel_evolve::spsa::{Duel, Objective, SpsaParam, SpsaSettings, run_spsa};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// A player whose strength is `-WEIGHT·Σ(θ_i − target_i)²` Elo; a duel is `GAMES` games
/// scored at their expected (noiseless) result.
struct Quadratic {
    target: Vec<f64>,
    /// Fail at this iteration (a crash), once.
    fail_at: AtomicU64,
}

const WEIGHT: f64 = 0.05;
const GAMES: f64 = 10_000.0;

impl Quadratic {
    fn new(target: &[f64], fail_at: u64) -> Quadratic {
        Quadratic {
            target: target.to_vec(),
            fail_at: AtomicU64::new(fail_at),
        }
    }

    fn elo(&self, x: &[f64]) -> f64 {
        let d2: f64 = x
            .iter()
            .zip(&self.target)
            .map(|(&v, t)| (v - t).powi(2))
            .sum();
        -WEIGHT * d2
    }
}

impl Objective for Quadratic {
    fn duel(&self, plus: &[f64], minus: &[f64], k: u64) -> Result<Duel, String> {
        if self.fail_at.load(Ordering::SeqCst) == k {
            self.fail_at.store(0, Ordering::SeqCst);
            return Err("simulated crash".into());
        }
        let diff = self.elo(plus) - self.elo(minus);
        let score = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
        let wins = (GAMES * score).round() as u64;
        Ok(Duel {
            wins,
            losses: GAMES as u64 - wins,
            ..Duel::default()
        })
    }
}

fn params() -> Vec<SpsaParam> {
    ["A", "B", "C"]
        .iter()
        .map(|n| SpsaParam {
            name: n.to_string(),
            start: 0.0,
            min: -100.0,
            max: 100.0,
            c_end: 4.0,
            r_end: 0.0002,
            float: false,
        })
        .collect()
}

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-spsa-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn converges_on_a_noiseless_quadratic() {
    let target = [40.0, -25.0, 10.0];
    let objective = Quadratic::new(&target, 0);
    let dir = out_dir("quadratic");
    let settings = SpsaSettings::new(1000, 11);
    let state = run_spsa(&params(), &settings, &objective, &dir, false, &mut |_| {}).unwrap();
    for (t, want) in state.theta.iter().zip(target) {
        assert!(
            (t - want).abs() < 1.0,
            "θ {:?} vs target {target:?}",
            state.theta
        );
    }
    assert_eq!(state.rows.len(), 1000);
    assert_eq!(state.rows[999].games, 10_000_000);
    for f in ["checkpoint.json", "spsa.csv", "spsa.svg"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    let csv = std::fs::read_to_string(dir.join("spsa.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1001);
    assert!(csv.lines().next().unwrap().ends_with(",A,B,C"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `crashing` (which fails at iteration 23) into `dir`, checks the error names `failed`,
/// that starting over on the folder is refused, and that `--resume` replays from iteration 21;
/// returns the resumed run's end.
fn crash_and_resume(
    settings: &SpsaSettings,
    crashing: &Quadratic,
    dir: &std::path::Path,
    failed: &str,
) -> kestrel_evolve::spsa::SpsaState {
    let err = run_spsa(&params(), settings, crashing, dir, false, &mut |_| {}).unwrap_err();
    assert!(err.contains(failed), "{err}");
    assert!(run_spsa(&params(), settings, crashing, dir, false, &mut |_| {}).is_err());
    let mut seen = Vec::new();
    let resumed = run_spsa(&params(), settings, crashing, dir, true, &mut |r| {
        seen.push(r.iteration)
    })
    .unwrap();
    assert_eq!(seen.first(), Some(&21));
    resumed
}

#[test]
fn killed_and_resumed_ends_where_an_uninterrupted_run_ends() {
    let target = [30.0, 5.0, -12.0];
    let mut settings = SpsaSettings::new(60, 5);
    settings.checkpoint_every = 5;
    let whole_dir = out_dir("whole");
    let whole = run_spsa(
        &params(),
        &settings,
        &Quadratic::new(&target, 0),
        &whole_dir,
        false,
        &mut |_| {},
    )
    .unwrap();
    // Crash at iteration 23: the checkpoint holds 20 iterations.
    let dir = out_dir("resumed");
    let crashing = Quadratic::new(&target, 23);
    let resumed = crash_and_resume(&settings, &crashing, &dir, "iteration 23");
    assert_eq!(resumed, whole);
    let csv = |d: &PathBuf| std::fs::read_to_string(d.join("spsa.csv")).unwrap();
    assert_eq!(csv(&dir), csv(&whole_dir));
    // A checkpoint of other settings is refused.
    let mut other = settings.clone();
    other.seed = 6;
    let err = run_spsa(&params(), &other, &crashing, &dir, true, &mut |_| {}).unwrap_err();
    assert!(err.contains("other parameters or settings"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&whole_dir).unwrap();
}

/// Runs `settings` on `objective` uninterrupted into `dir` and checks that θ ends within 1 of
/// `target`: the reference a crashed and resumed run must equal.
fn converged_whole_run(
    settings: &SpsaSettings,
    objective: &Quadratic,
    target: &[f64],
    dir: &std::path::Path,
) -> kestrel_evolve::spsa::SpsaState {
    let whole = run_spsa(&params(), settings, objective, dir, false, &mut |_| {}).unwrap();
    for (t, want) in whole.theta.iter().zip(target) {
        assert!((t - want).abs() < 1.0, "θ {:?} vs {target:?}", whole.theta);
    }
    whole
}

#[test]
fn a_batched_run_converges_and_resumes_to_the_uninterrupted_end() {
    let target = [30.0, 5.0, -12.0];
    let mut settings = SpsaSettings::new(1000, 5);
    settings.batch = 4;
    settings.checkpoint_every = 5;
    let whole_dir = out_dir("batched-whole");
    let objective = Quadratic::new(&target, 0);
    let whole = converged_whole_run(&settings, &objective, &target, &whole_dir);
    // Batches 1-4, 5-8, ...: the crash at 23 loses the batch 21-24, and the checkpoint
    // (written after the batch that reached 20) holds 20 iterations.
    let dir = out_dir("batched-resumed");
    let crashing = Quadratic::new(&target, 23);
    let resumed = crash_and_resume(&settings, &crashing, &dir, "iterations 21-24");
    assert_eq!(resumed, whole);
    // The batch changes the run (θ+ and θ− of a batch come from its first θ).
    let mut classic = settings.clone();
    classic.batch = 1;
    let classic_dir = out_dir("batched-classic");
    let one = run_spsa(
        &params(),
        &classic,
        &objective,
        &classic_dir,
        false,
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(one.rows[0], whole.rows[0]);
    assert_ne!(one.rows[1], whole.rows[1]);
    // A checkpoint of another batch size is refused.
    let err = run_spsa(&params(), &classic, &crashing, &dir, true, &mut |_| {}).unwrap_err();
    assert!(err.contains("other parameters or settings"), "{err}");
    settings.batch = 0;
    let err = run_spsa(
        &params(),
        &settings,
        &objective,
        &out_dir("b0"),
        false,
        &mut |_| {},
    );
    assert!(err.unwrap_err().contains("at least 1 iteration"));
    for d in [dir, whole_dir, classic_dir] {
        std::fs::remove_dir_all(&d).unwrap();
    }
}

#[test]
fn bad_parameters_are_clear_errors() {
    let dir = out_dir("bad");
    let objective = Quadratic::new(&[0.0; 3], 0);
    let settings = SpsaSettings::new(10, 1);
    let mut p = params();
    p[1].c_end = -1.0;
    let err = run_spsa(&p, &settings, &objective, &dir, false, &mut |_| {}).unwrap_err();
    assert!(err.contains("B: step"), "{err}");
    let mut p = params();
    for q in &mut p {
        q.c_end = 0.0;
    }
    let err = run_spsa(&p, &settings, &objective, &dir, false, &mut |_| {}).unwrap_err();
    assert!(err.contains("every value is frozen"), "{err}");
    let mut p = params();
    p[2].start = 500.0;
    let err = run_spsa(&p, &settings, &objective, &dir, false, &mut |_| {}).unwrap_err();
    assert!(err.contains("outside its range"), "{err}");
    assert!(!dir.join("checkpoint.json").exists());
}

/// SPSA written out one iteration at a time, as the method reads: the batch starting at
/// iteration `first` is drawn around θ after iteration `first − 1 − lag·batch`, and every
/// update is applied in order. The θ after every iteration.
fn reference_path(settings: &SpsaSettings, objective: &Quadratic) -> Vec<Vec<f64>> {
    use kestrel_evolve::spsa::step::{perturb, update};
    let params = params();
    let mut path = vec![params.iter().map(|p| p.start).collect::<Vec<f64>>()];
    let mut first = 1;
    while first <= settings.iterations {
        let last = (first + settings.batch - 1).min(settings.iterations);
        let source = first.saturating_sub(1 + settings.lag * settings.batch) as usize;
        let drawn: Vec<_> = (first..=last)
            .map(|k| perturb(&params, settings, &path[source], k))
            .collect();
        for (k, p) in (first..=last).zip(drawn) {
            let duel = objective.duel(&p.plus, &p.minus, k).unwrap();
            let signal = duel.wins as f64 - duel.losses as f64;
            let theta = update(&params, settings, path.last().unwrap(), &p.delta, k, signal);
            path.push(theta);
        }
        first = last + 1;
    }
    path.remove(0);
    path
}

#[test]
fn a_lagged_run_follows_the_method_and_lag_0_is_classic() {
    let target = [30.0, 5.0, -12.0];
    let objective = Quadratic::new(&target, 0);
    for (batch, lag) in [(1, 0), (4, 0), (1, 1), (3, 1), (2, 3)] {
        let mut settings = SpsaSettings::new(50, 9);
        settings.batch = batch;
        settings.lag = lag;
        let dir = out_dir(&format!("lag-{batch}-{lag}"));
        let run = run_spsa(&params(), &settings, &objective, &dir, false, &mut |_| {}).unwrap();
        let thetas: Vec<Vec<f64>> = run.rows.iter().map(|r| r.theta.clone()).collect();
        assert_eq!(
            thetas,
            reference_path(&settings, &objective),
            "batch {batch} lag {lag}"
        );
        // A run without lag writes the checkpoint it wrote before the lag existed.
        let checkpoint = std::fs::read_to_string(dir.join("checkpoint.json")).unwrap();
        assert_eq!(checkpoint.contains("\"lag\""), lag > 0, "{checkpoint}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // The lag changes the path (batch 2 is drawn around the start instead of θ after batch 1).
    let path = |lag| {
        let mut s = SpsaSettings::new(50, 9);
        s.lag = lag;
        reference_path(&s, &objective)
    };
    assert_eq!(path(0)[0], path(1)[0]);
    assert_ne!(path(0)[1], path(1)[1]);
}

#[test]
fn a_lagged_run_converges_and_resumes_to_the_uninterrupted_end() {
    let target = [30.0, 5.0, -12.0];
    let mut settings = SpsaSettings::new(1000, 5);
    settings.batch = 4;
    settings.lag = 2;
    settings.checkpoint_every = 5;
    let whole_dir = out_dir("lagged-whole");
    let objective = Quadratic::new(&target, 0);
    let whole = converged_whole_run(&settings, &objective, &target, &whole_dir);
    // Batches 21-24, 25-28 and 29-32 are in play when 23 fails; the checkpoint holds the
    // 20 iterations applied, and the resumed run draws the three batches again.
    let dir = out_dir("lagged-resumed");
    let crashing = Quadratic::new(&target, 23);
    let resumed = crash_and_resume(&settings, &crashing, &dir, "iterations 21-24");
    assert_eq!(resumed, whole);
    let csv = |d: &PathBuf| std::fs::read_to_string(d.join("spsa.csv")).unwrap();
    assert_eq!(csv(&dir), csv(&whole_dir));
    // A checkpoint of another lag is refused; an absurd lag is an error.
    let mut other = settings.clone();
    other.lag = 1;
    let err = run_spsa(&params(), &other, &crashing, &dir, true, &mut |_| {}).unwrap_err();
    assert!(err.contains("other parameters or settings"), "{err}");
    other.lag = 1000;
    let err = run_spsa(
        &params(),
        &other,
        &objective,
        &out_dir("lag-big"),
        false,
        &mut |_| {},
    );
    assert!(err.unwrap_err().contains("lag of 1000"));
    for d in [dir, whole_dir] {
        std::fs::remove_dir_all(&d).unwrap();
    }
}
