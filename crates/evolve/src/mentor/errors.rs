//! The evolved organism's errors against fixed labels: the static evaluation of a parameter
//! set against the mentors, each mentor alone and their combination.

use crate::mentor::crowd::{kept_scores, mean_abs_diff};
use crate::mentor::labels::Label;
use crate::mentor::outcome::MentorError;
use kestrel_chess::Board;
use kestrel_eval::Evaluator;
use kestrel_params::ParamValues;
use rayon::prelude::*;

/// Mean |static evaluation − label| of fixed parameters.
pub(super) fn static_error(params: &ParamValues, boards: &[Board], labels: &[i32]) -> f64 {
    if boards.is_empty() {
        return f64::NAN;
    }
    let eval = Evaluator::new(params.clone());
    let total: i64 = boards
        .par_iter()
        .zip(labels)
        .map(|(b, &l)| (eval.evaluate_white(b) as i64 - l as i64).abs())
        .sum();
    total as f64 / boards.len() as f64
}

/// With several mentors: the best organism's error against each, and each mentor's distance
/// from the combined label, on the kept train and test positions.
pub(super) fn per_mentor_errors(
    keys: &[String],
    per_mentor: &[Vec<Option<Label>>],
    combined: &[Option<Label>],
    n_train: usize,
    boards: (&[Board], &[Board]),
    combined_kept: (&[i32], &[i32]),
    best: &ParamValues,
) -> Vec<MentorError> {
    if keys.len() < 2 {
        return Vec::new();
    }
    let keep: Vec<bool> = combined
        .iter()
        .map(|l| matches!(l, Some(Label::Cp(_))))
        .collect();
    keys.iter()
        .zip(per_mentor)
        .map(|(key, labels)| {
            let train = kept_scores(&labels[..n_train], &keep[..n_train]);
            let test = kept_scores(&labels[n_train..], &keep[n_train..]);
            MentorError {
                key: key.clone(),
                organism: (
                    static_error(best, boards.0, &train),
                    static_error(best, boards.1, &test),
                ),
                vs_combined: (
                    mean_abs_diff(&train, combined_kept.0),
                    mean_abs_diff(&test, combined_kept.1),
                ),
            }
        })
        .collect()
}
