//! Every scored position of a data set through each evaluation: fixed chunks on the rayon
//! pool, their sums merged in chunk order, so the report is the same on any thread count.

use super::evaluation::Evaluation;
use super::sums::ErrorSums;
use crate::format::PackedPosition;
use crate::progress::RunError;
use rayon::prelude::*;

/// Positions per chunk (the unit of parallel work).
pub const CHUNK: usize = 4096;

/// The sums of a measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Records read.
    pub records: usize,
    /// Records skipped for lacking a score.
    pub unscored: usize,
    /// The sums of an evaluation that always says 0: its mean |difference| is the data's mean
    /// |score|, its bias minus the mean score.
    pub zero: ErrorSums,
    /// One per evaluation, in the order given.
    pub evaluations: Vec<ErrorSums>,
}

/// One chunk's sums, or the first position that is not a legal board.
fn measure_chunk(
    first: usize,
    chunk: &[PackedPosition],
    evaluations: &[Evaluation],
    scale: f64,
) -> Result<Measurement, RunError> {
    let mut m = Measurement {
        records: chunk.len(),
        unscored: 0,
        zero: ErrorSums::default(),
        evaluations: vec![ErrorSums::default(); evaluations.len()],
    };
    for (i, record) in chunk.iter().enumerate() {
        let Some(score) = record.score() else {
            m.unscored += 1;
            continue;
        };
        let board = record
            .to_board()
            .map_err(|e| RunError::Input(format!("position {} of the data: {}", first + i, e.0)))?;
        let score = score as i32;
        m.zero.add(0, score, scale);
        for (sums, evaluation) in m.evaluations.iter_mut().zip(evaluations) {
            sums.add(evaluation.evaluate(&board), score, scale);
        }
    }
    Ok(m)
}

/// Measures each of `evaluations` on every scored record (K = `scale` in the loss). An error
/// when no record carries a score, or when a record is not a legal position.
pub fn measure(
    records: &[PackedPosition],
    evaluations: &[Evaluation],
    scale: f64,
) -> Result<Measurement, RunError> {
    let chunks: Vec<Result<Measurement, RunError>> = records
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(k, chunk)| measure_chunk(k * CHUNK, chunk, evaluations, scale))
        .collect();
    let mut total = Measurement {
        records: 0,
        unscored: 0,
        zero: ErrorSums::default(),
        evaluations: vec![ErrorSums::default(); evaluations.len()],
    };
    for chunk in chunks {
        let chunk = chunk?;
        total.records += chunk.records;
        total.unscored += chunk.unscored;
        total.zero.merge(&chunk.zero);
        for (t, c) in total.evaluations.iter_mut().zip(&chunk.evaluations) {
            t.merge(c);
        }
    }
    if total.zero.positions == 0 {
        return Err(RunError::Input(format!(
            "no position of the data carries a score ({} positions read, all unscored: \
             label them with `kestrel nnue label`)",
            total.records
        )));
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{NO_SCORE, Outcome};
    use kestrel_chess::Board;
    use kestrel_eval::Evaluator;

    /// Positions of a few games' openings, scored by the default linear evaluation, every
    /// seventh left unscored.
    fn scored_by_linear(n: usize) -> Vec<PackedPosition> {
        let evaluator = Evaluator::default();
        let mut board = Board::startpos();
        let mut out = Vec::new();
        let mut step = 0usize;
        while out.len() < n {
            let moves = board.legal_moves();
            if moves.is_empty() || board.halfmove_clock() > 60 {
                board = Board::startpos();
                continue;
            }
            step += 1;
            board.make_move(moves.as_slice()[(step * 7919) % moves.len()]);
            let score = if out.len() % 7 == 3 {
                NO_SCORE
            } else {
                evaluator.evaluate(&board) as i16
            };
            out.push(PackedPosition::pack(&board, score, Outcome::Draw));
        }
        out
    }

    #[test]
    fn the_evaluation_that_made_the_scores_has_no_error() {
        let records = scored_by_linear(300);
        let evals = [Evaluation::from_spec("linear").unwrap()];
        let m = measure(&records, &evals, 400.0).unwrap();
        assert_eq!(m.records, 300);
        assert_eq!(m.unscored, 43);
        let s = m.evaluations[0].summary();
        assert_eq!(s.positions, 257);
        assert_eq!((s.mean_abs, s.rms, s.loss, s.bias), (0.0, 0.0, 0.0, 0.0));
        assert!(m.zero.summary().mean_abs > 0.0);
    }

    #[test]
    fn the_sums_do_not_depend_on_the_thread_count() {
        let records = scored_by_linear(3 * CHUNK + 100);
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let evals = [Evaluation::from_spec("linear").unwrap()];
            // Shift every score so that the loss is a sum of many nonzero floats.
            let shifted: Vec<PackedPosition> = records
                .iter()
                .map(|r| r.score().map_or(*r, |s| r.with_score(s.saturating_add(37))))
                .collect();
            pool.install(|| measure(&shifted, &evals, 400.0).unwrap())
        };
        let one = run(1);
        assert!(one.evaluations[0].loss > 0.0);
        assert_eq!(one.evaluations[0].summary().bias, -37.0);
        assert_eq!(one, run(3));
    }

    #[test]
    fn data_without_scores_is_an_error() {
        let records: Vec<PackedPosition> = scored_by_linear(20)
            .into_iter()
            .map(|r| r.with_score(NO_SCORE))
            .collect();
        let evals = [Evaluation::from_spec("linear").unwrap()];
        let e = measure(&records, &evals, 400.0).unwrap_err().to_string();
        assert!(e.contains("no position of the data carries a score"), "{e}");
        assert!(measure(&[], &evals, 400.0).is_err());
    }
}
