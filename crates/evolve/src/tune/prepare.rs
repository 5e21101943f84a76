//! From a source of positions to two traced, labelled halves (train and test) with targets.

use crate::mentor::labels::{Label, LabelStats};
use crate::mentor::run::MentorSpec;
use crate::tune::data::{Sample, is_test};
use crate::tune::model::{Dataset, TraceSet};
use crate::tune::targets::{fit_k, label_boards, make_mentor, target};
use kestrel_chess::Board;
use std::path::Path;
use std::time::Instant;

/// One side of the split, ready to fit.
pub struct Part {
    /// The traced positions and, once `set_targets` has run, their targets.
    pub data: Dataset,
    /// Each position's game result from White's view (1, 0.5, 0), if known.
    pub results: Vec<Option<f64>>,
    /// Each position's mentor score in white-relative centipawns, if labelled.
    pub mentor_cp: Vec<Option<i32>>,
    /// Zobrist keys, for the checkpoint's fingerprint.
    pub hashes: Vec<u64>,
}

impl Part {
    fn new(samples: Vec<(Sample, Option<i32>)>) -> Part {
        let boards: Vec<Board> = samples.iter().map(|(s, _)| s.board.clone()).collect();
        Part {
            data: Dataset {
                traces: TraceSet::build(&boards),
                targets: Vec::new(),
            },
            results: samples.iter().map(|(s, _)| s.result).collect(),
            mentor_cp: samples.iter().map(|(_, cp)| *cp).collect(),
            hashes: boards.iter().map(Board::hash).collect(),
        }
    }

    /// Sets every target from λ and the mentor's K (positions were filtered to have what they
    /// need).
    pub fn set_targets(&mut self, lambda: f64, k_mentor: f64) {
        self.data.targets = self
            .results
            .iter()
            .zip(&self.mentor_cp)
            .map(|(&r, &cp)| target(lambda, k_mentor, cp, r).expect("filtered in prepare"))
            .collect();
    }

    /// Mean |exact eval − mentor| over positions with a mentor score.
    pub fn cp_error(&self, values: &[i32]) -> Option<f64> {
        let evals = self.data.exact_evals(values);
        let diffs: Vec<i64> = evals
            .iter()
            .zip(&self.mentor_cp)
            .filter_map(|(&e, m)| m.map(|m| (e as i64 - m as i64).abs()))
            .collect();
        (!diffs.is_empty()).then(|| diffs.iter().sum::<i64>() as f64 / diffs.len() as f64)
    }
}

/// The mentor side of a run.
pub struct MentorSettings<'a> {
    /// Which mentor labels the positions (built-in or a UCI engine).
    pub spec: &'a MentorSpec,
    /// The mentor's search depth, in plies.
    pub depth: i32,
    /// Engine processes labelling in parallel (UCI mentor only).
    pub processes: usize,
    /// Label cache file; labels already there are not recomputed.
    pub cache: &'a Path,
}

/// What [`prepare`] returns: the two halves, traced, and what labelling found.
pub struct Prepared {
    /// The training half.
    pub train: Part,
    /// The test half (games held out).
    pub test: Part,
    /// The mentor's name and settings (its label-cache key); `None` without a mentor.
    pub mentor_key: Option<String>,
    /// Cached, computed and failed labels; `None` without a mentor.
    pub label_stats: Option<LabelStats>,
    /// Positions without what their target needs.
    pub dropped: usize,
    /// Wall-clock seconds spent tracing both halves.
    pub trace_seconds: f64,
}

/// Labels (with a mentor), drops positions whose target cannot be formed, splits by game and
/// traces both halves. Targets are left empty: they need K.
pub fn prepare(
    samples: Vec<Sample>,
    mentor: Option<MentorSettings>,
    lambda: f64,
    test_fraction: f64,
    seed: u64,
    verbose: bool,
) -> Result<Prepared, String> {
    let (labels, mentor_key, label_stats) = match mentor {
        None => (vec![None; samples.len()], None, None),
        Some(m) => {
            let mut mentor = make_mentor(m.spec, m.depth, m.processes)?;
            let boards: Vec<Board> = samples.iter().map(|s| s.board.clone()).collect();
            let (labels, stats, key) = label_boards(&boards, mentor.as_mut(), m.cache, verbose)?;
            let cp: Vec<Option<i32>> = labels
                .iter()
                .map(|l| match l {
                    Some(Label::Cp(cp)) => Some(*cp),
                    _ => None,
                })
                .collect();
            (cp, Some(key), Some(stats))
        }
    };
    let total = samples.len();
    let usable: Vec<(Sample, Option<i32>)> = samples
        .into_iter()
        .zip(labels)
        .filter(|(s, cp)| target(lambda, 1.0, *cp, s.result).is_some())
        .collect();
    let dropped = total - usable.len();
    let (train, test): (Vec<_>, Vec<_>) = usable
        .into_iter()
        .partition(|(s, _)| !is_test(s, test_fraction, seed));
    if train.is_empty() {
        return Err(if lambda < 1.0 {
            "no training position with a game result (PGN games need 1-0, 0-1 or 1/2-1/2; EPD \
             needs c9 or result)"
                .into()
        } else {
            "no training position with a mentor score".into()
        });
    }
    let start = Instant::now();
    let (train, test) = (Part::new(train), Part::new(test));
    let trace_seconds = start.elapsed().as_secs_f64();
    if verbose {
        eprintln!(
            "{} train + {} test positions traced in {trace_seconds:.1} s ({} entries)",
            train.data.traces.len(),
            test.data.traces.len(),
            train.data.traces.entries() + test.data.traces.entries()
        );
    }
    Ok(Prepared {
        train,
        test,
        mentor_key,
        label_stats,
        dropped,
        trace_seconds,
    })
}

/// K fitted to the game results of the starting values (`None` when no position has one).
pub fn fit_k_to_results(part: &Part, start: &[f64]) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = (0..part.data.traces.len())
        .filter_map(|j| Some((part.data.traces.eval_float(j, start), part.results[j]?)))
        .collect();
    (!pairs.is_empty()).then(|| fit_k(&pairs))
}

/// The mentor's own K: its scores fitted to the game results (`None` without such pairs).
pub fn fit_mentor_k(part: &Part) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = (part.mentor_cp.iter().zip(&part.results))
        .filter_map(|(cp, r)| Some((f64::from((*cp)?), (*r)?)))
        .collect();
    (!pairs.is_empty()).then(|| fit_k(&pairs))
}
