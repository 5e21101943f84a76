//! The whole tuning run: positions → (mentor labels) → targets and K → Adam epochs →
//! `tuned.toml`, `log.csv`, `checkpoint.json` and a report of before/after.

use crate::mentor::labels::LabelStats;
use crate::mentor::positions::PickRules;
use crate::mentor::run::{MentorSpec, ParamSet};
use crate::tune::checkpoint::{Fingerprint, LogRow};
use crate::tune::data::{PgnStats, Sample, samples_from_epd, samples_from_pgn};
use crate::tune::fit::{FitSettings, fit, write_log};
use crate::tune::optimise::Bounds;
use crate::tune::prepare::{MentorSettings, Part, fit_k_to_results, fit_mentor_k, prepare};
use kestrel_eval::{EVAL_TABLE, is_compact};
use kestrel_params::{ParamValues, ParamsFile};
use std::path::PathBuf;

/// Where the positions come from.
#[derive(Clone, Debug)]
pub enum TuneSource {
    /// Up to `per_game` positions per game with a result (`max_games`: the first N games).
    Pgn {
        /// The PGN file (`.gz` or a `builtin:` name also read).
        path: PathBuf,
        /// Most positions taken from one game.
        per_game: usize,
        /// Read only the first N games (`None`: all).
        max_games: Option<usize>,
        /// Which plies qualify (plies skipped at the start, checks, pending captures).
        rules: PickRules,
    },
    /// Every position of an EPD file (results from `c9`/`result`, split from `c0` if tagged).
    Epd(PathBuf),
}

#[derive(Clone, Debug)]
/// Settings of a whole tuning run (`kestrel tune`).
pub struct TuneConfig {
    /// Where the positions come from (PGN games or an EPD file).
    pub source: TuneSource,
    /// Share of games held out for the test loss.
    pub test_fraction: f64,
    /// Seed of the position picks and of the train/test split.
    pub seed: u64,
    /// `None`: fit game results only.
    pub mentor: Option<MentorSpec>,
    /// The mentor's search depth, in plies.
    pub depth: i32,
    /// Label cache (default `<out>/labels.tsv`).
    pub labels: Option<PathBuf>,
    /// Engine processes labelling in parallel (UCI mentor only).
    pub mentor_processes: usize,
    /// Weight of the mentor in the target (default 1 with a mentor, 0 without).
    pub lambda: Option<f64>,
    /// The sigmoid's scale (default: fitted to the game results of the starting values).
    pub k: Option<f64>,
    /// The scale of the mentor's scores in the targets.
    pub mentor_k: MentorK,
    /// Starting values of the evaluation parameters (also the L2 anchor and the values of
    /// frozen terms).
    pub start: ParamValues,
    /// Which parameters may move: the compact set or every value of `EVAL_TABLE`.
    pub set: ParamSet,
    /// Names of terms kept at their starting values.
    pub freeze: Vec<String>,
    /// Total Adam steps (counting those before a resume).
    pub epochs: u64,
    /// Adam's learning rate: roughly how far each value moves per step.
    pub lr: f64,
    /// L2 penalty weight on the distance from the starting values (0: none).
    pub l2: f64,
    /// A progress line every N epochs on stderr (0: none).
    pub print_every: u64,
    /// Write `checkpoint.json` and `log.csv` every N epochs and at the end (0: no checkpoint,
    /// `log.csv` at the end only).
    pub checkpoint_every: u64,
    /// Output folder: `tuned.toml`, `log.csv`, `checkpoint.json`, default `labels.tsv`.
    pub out_dir: PathBuf,
    /// Continue from `out_dir/checkpoint.json` (an error if there is none or it does not match).
    pub resume: bool,
    /// Lines on stderr while reading and labelling.
    pub verbose: bool,
}

/// Where K came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KSource {
    /// Given by the caller (`--k`).
    Given,
    /// Fitted to the game results of the starting evaluation.
    FittedToResults,
    /// No game results to fit it to.
    Default,
}

/// Which K turns the mentor's centipawns into expected scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MentorK {
    /// The evaluation's K: the tuned evaluation takes over the mentor's centipawn scale.
    Same,
    /// The mentor's scores fitted to the game results: the tuned evaluation matches the
    /// mentor's expected scores on its own scale (falls back to `Same` without results).
    Fit,
    /// This K, given by the caller.
    Given(f64),
}

/// Mean |exact eval − mentor| in cp on (train, test), over positions with a mentor score.
pub type CpErrors = (f64, f64);

#[derive(Clone, Debug)]
/// What a tuning run did and produced, for the printed report.
pub struct TuneReport {
    /// What reading the PGN file found (`None` for an EPD source).
    pub pgn_stats: Option<PgnStats>,
    /// The mentor's name and settings; `None` without a mentor.
    pub mentor_key: Option<String>,
    /// Cached, computed and failed labels; `None` without a mentor.
    pub label_stats: Option<LabelStats>,
    /// Positions in the training half.
    pub train_positions: usize,
    /// Positions in the test half.
    pub test_positions: usize,
    /// Positions without what their target needs (mentor mate/failure, or no result).
    pub dropped: usize,
    /// Weight λ of the mentor in the targets: λ·σ(mentor) + (1−λ)·result.
    pub lambda: f64,
    /// The sigmoid's K used for the evaluation.
    pub k: f64,
    /// Where `k` came from.
    pub k_source: KSource,
    /// The K of the mentor's scores in the targets.
    pub k_mentor: f64,
    /// Flat values allowed to move (in the set and not frozen).
    pub trainable: usize,
    /// Epoch the run resumed from (0 when fresh).
    pub resumed_at: u64,
    /// Epochs done in total (the checkpoint's epoch count).
    pub epochs: u64,
    /// Wall-clock seconds spent tracing the positions.
    pub trace_seconds: f64,
    /// Wall-clock seconds per epoch run by this process.
    pub seconds_per_epoch: f64,
    /// (train, test) loss of the starting values and of the written integer values.
    pub loss_before: (f64, f64),
    /// (train, test) loss of the written (rounded) integer values.
    pub loss_after: (f64, f64),
    /// Mean |eval − mentor| in cp of the starting values; `None` without mentor scores.
    pub cp_error_before: Option<CpErrors>,
    /// Mean |eval − mentor| in cp of the written values; `None` without mentor scores.
    pub cp_error_after: Option<CpErrors>,
    /// The largest changes: (flat name, before, after), by |after − before|.
    pub biggest_changes: Vec<(String, i32, i32)>,
    /// The written values: tuned ones rounded and clamped, frozen ones as they started.
    pub tuned: ParamValues,
    /// Path of the written `tuned.toml`.
    pub params_path: PathBuf,
    /// Path of the written `log.csv`.
    pub log_path: PathBuf,
}

fn load_samples(cfg: &TuneConfig) -> Result<(Vec<Sample>, Option<PgnStats>), String> {
    match &cfg.source {
        TuneSource::Pgn {
            path,
            per_game,
            max_games,
            rules,
        } => {
            let (s, stats) = samples_from_pgn(path, *per_game, *max_games, rules, cfg.seed)?;
            Ok((s, Some(stats)))
        }
        TuneSource::Epd(path) => Ok((samples_from_epd(path)?, None)),
    }
}

/// Which flat values move: the chosen set minus the frozen terms.
pub fn trainable_mask(set: ParamSet, freeze: &[String]) -> Result<Vec<bool>, String> {
    let mut mask = Vec::with_capacity(EVAL_TABLE.len());
    for d in EVAL_TABLE.decls {
        let in_set = set == ParamSet::Full || is_compact(d.name);
        mask.extend(std::iter::repeat_n(in_set, d.width()));
    }
    let offsets = EVAL_TABLE.offsets();
    for name in freeze {
        let i = EVAL_TABLE
            .find(name)
            .ok_or_else(|| format!("--freeze: unknown parameter '{name}'"))?;
        mask[offsets[i]..offsets[i] + EVAL_TABLE.decls[i].width()].fill(false);
    }
    if !mask.contains(&true) {
        return Err("nothing to tune: every parameter of the set is frozen".into());
    }
    Ok(mask)
}

fn as_float(v: &[i32]) -> Vec<f64> {
    v.iter().map(|&x| x as f64).collect()
}

/// What a checkpoint must match to be resumed: positions, targets and settings.
fn fingerprint(parts: [&Part; 2], k: f64, lambda: f64, cfg: &TuneConfig, mask: &[bool]) -> String {
    let mut fp = Fingerprint::default();
    for p in parts {
        fp.eat(p.hashes.len() as u64);
        for (h, t) in p.hashes.iter().zip(&p.data.targets) {
            fp.eat(*h);
            fp.eat_f64(*t);
        }
    }
    for x in [k, lambda, cfg.lr, cfg.l2] {
        fp.eat_f64(x);
    }
    for (v, m) in cfg.start.values.iter().zip(mask) {
        fp.eat(*v as u64 ^ ((*m as u64) << 40));
    }
    fp.hex()
}

/// Settings that are errors before any work is done; returns λ.
fn check(cfg: &TuneConfig) -> Result<f64, String> {
    if !(0.0..=1.0).contains(&cfg.test_fraction) {
        return Err("the test fraction must be in [0, 1]".into());
    }
    let lambda = cfg
        .lambda
        .unwrap_or(if cfg.mentor.is_some() { 1.0 } else { 0.0 });
    if !(0.0..=1.0).contains(&lambda) {
        return Err(format!("lambda must be in [0, 1], not {lambda}"));
    }
    if lambda > 0.0 && cfg.mentor.is_none() {
        return Err("lambda > 0 mixes in mentor scores: give --mentor builtin|uci:CMD".into());
    }
    let bad = |k: f64| !(k > 0.0 && k.is_finite());
    if cfg.k.is_some_and(bad) || matches!(cfg.mentor_k, MentorK::Given(k) if bad(k)) {
        return Err("K must be positive".into());
    }
    if !(cfg.lr > 0.0 && cfg.lr.is_finite()) {
        return Err("the learning rate must be positive".into());
    }
    if !(cfg.l2 >= 0.0 && cfg.l2.is_finite()) {
        return Err("the L2 weight must be zero or positive".into());
    }
    Ok(lambda)
}

/// The (flat name, before, after) of the `n` largest changes.
fn biggest_changes(before: &[i32], after: &[i32], n: usize) -> Vec<(String, i32, i32)> {
    let names = EVAL_TABLE.flat_names();
    let mut changes: Vec<(String, i32, i32)> = (0..names.len())
        .filter(|&i| after[i] != before[i])
        .map(|i| (names[i].clone(), before[i], after[i]))
        .collect();
    changes.sort_by_key(|(_, a, b)| std::cmp::Reverse((b - a).abs()));
    changes.truncate(n);
    changes
}

/// Runs (or resumes) a tuning run, writing its files in `out_dir`; errors on bad settings,
/// unreadable data, no usable position, a missing or mismatched checkpoint, or a failed write.
pub fn run_tune(cfg: &TuneConfig) -> Result<TuneReport, String> {
    let lambda = check(cfg)?;
    let mask = trainable_mask(cfg.set, &cfg.freeze)?;
    std::fs::create_dir_all(&cfg.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", cfg.out_dir.display()))?;

    let (samples, pgn_stats) = load_samples(cfg)?;
    if cfg.verbose {
        eprintln!("{} positions read", samples.len());
    }
    let cache = cfg
        .labels
        .clone()
        .unwrap_or_else(|| cfg.out_dir.join("labels.tsv"));
    let mentor = cfg.mentor.as_ref().map(|spec| MentorSettings {
        spec,
        depth: cfg.depth,
        processes: cfg.mentor_processes,
        cache: &cache,
    });
    let p = prepare(
        samples,
        mentor,
        lambda,
        cfg.test_fraction,
        cfg.seed,
        cfg.verbose,
    )?;
    let (mut train, mut test) = (p.train, p.test);

    let start = as_float(&cfg.start.values);
    let (k, k_source) = match cfg.k {
        Some(k) => (k, KSource::Given),
        None => match fit_k_to_results(&train, &start) {
            Some(k) => (k, KSource::FittedToResults),
            None => (1.0, KSource::Default),
        },
    };
    let k_mentor = match cfg.mentor_k {
        MentorK::Same => k,
        MentorK::Fit => fit_mentor_k(&train).unwrap_or(k),
        MentorK::Given(km) => km,
    };
    train.set_targets(lambda, k_mentor);
    test.set_targets(lambda, k_mentor);

    let bounds = Bounds::new(&EVAL_TABLE, mask.clone());
    let log_path = cfg.out_dir.join("log.csv");
    let settings = FitSettings {
        k,
        lr: cfg.lr,
        l2: cfg.l2,
        epochs: cfg.epochs,
        print_every: cfg.print_every,
        checkpoint_every: cfg.checkpoint_every,
        checkpoint_path: cfg.out_dir.join("checkpoint.json"),
        log_path: log_path.clone(),
        resume: cfg.resume,
        fingerprint: fingerprint([&train, &test], k, lambda, cfg, &mask),
    };
    let outcome = fit(&train.data, &test.data, &start, &bounds, &settings)?;
    let state = &outcome.state;

    // The written values: rounded, in range (frozen ones exactly as they started).
    let mut tuned = cfg.start.clone();
    for (i, v) in tuned.values.iter_mut().enumerate() {
        if mask[i] {
            *v = state.values[i].round().clamp(bounds.min[i], bounds.max[i]) as i32;
        }
    }
    let params_path = cfg.out_dir.join("tuned.toml");
    ParamsFile::save(&params_path, &[&tuned])
        .map_err(|e| format!("cannot write {}: {e}", params_path.display()))?;
    let mut log = state.log.clone();
    log.push(LogRow {
        epoch: state.epoch,
        train: train.data.loss(&state.values, k),
        test: test.data.loss(&state.values, k),
    });
    write_log(&log_path, &log)?;
    if cfg.checkpoint_every > 0 {
        state.save(&settings.checkpoint_path)?;
    }

    let rounded = as_float(&tuned.values);
    let cp_errors = |values: &[i32]| -> Option<CpErrors> {
        let tr = train.cp_error(values)?;
        Some((tr, test.cp_error(values).unwrap_or(f64::NAN)))
    };
    Ok(TuneReport {
        pgn_stats,
        mentor_key: p.mentor_key,
        label_stats: p.label_stats,
        train_positions: train.data.len(),
        test_positions: test.data.len(),
        dropped: p.dropped,
        lambda,
        k,
        k_source,
        k_mentor,
        trainable: mask.iter().filter(|&&m| m).count(),
        resumed_at: outcome.resumed_at,
        epochs: state.epoch,
        trace_seconds: p.trace_seconds,
        seconds_per_epoch: outcome.seconds_per_epoch,
        loss_before: (train.data.loss(&start, k), test.data.loss(&start, k)),
        loss_after: (train.data.loss(&rounded, k), test.data.loss(&rounded, k)),
        cp_error_before: cp_errors(&cfg.start.values),
        cp_error_after: cp_errors(&tuned.values),
        biggest_changes: biggest_changes(&cfg.start.values, &tuned.values, 15),
        tuned,
        params_path,
        log_path,
    })
}
