//! The floor of the expert-driven GA: the smallest mean |error| against the mentor that ANY
//! values of the evolved terms can reach on the training positions. Every organism's score is
//! linear in its values (the trace), so the floor is a least-absolute-deviation regression,
//! solved here by iteratively reweighted least squares on unbounded real values. No GA run on
//! the same terms can beat its training error; rounded and clamped to the declared ranges it
//! shows what the chromosome itself allows.

use kestrel_chess::Board;
use kestrel_eval::{PHASE_MAX, trace};
use kestrel_params::BitSchema;
use rayon::prelude::*;

/// Largest set whose floor is computed: the dense k × k solve of each IRLS step grows as k³
/// (a Cholesky factorisation of the full set's ~900 values takes a few hundredths of a second).
pub const MAX_TERMS: usize = 1200;

/// The best linear fit and its errors.
#[derive(Clone, Debug)]
pub struct LinearFloor {
    /// Fitted values, in schema field order (unbounded reals).
    pub values: Vec<f64>,
    /// Mean |fit − label| on the training positions (the floor) and on the test positions.
    pub train_error: f64,
    /// Mean |fit − label| on the test positions, in centipawns.
    pub test_error: f64,
    /// The same with the values rounded and clamped to the schema's ranges.
    pub bounded_train_error: f64,
    /// Mean |fit − label| on the test positions with the bounded (rounded, clamped) values.
    pub bounded_test_error: f64,
}

/// Rows of per-centipawn coefficients (trace / PHASE_MAX) of the schema's fields; every other
/// term is zero in the organisms, so it contributes nothing.
fn design(boards: &[Board], schema: &BitSchema, column_of: &[usize]) -> Vec<Vec<f64>> {
    let k = schema.fields.len();
    boards
        .par_iter()
        .map(|b| {
            let mut row = vec![0.0; k];
            for &(i, c) in &trace(b).entries {
                let j = column_of[i as usize];
                if j != usize::MAX {
                    row[j] += c as f64 / PHASE_MAX as f64;
                }
            }
            row
        })
        .collect()
}

/// Dot product of two equal-length slices with four running sums, which the compiler turns
/// into vector code (a single running sum would fix the order of the additions).
fn dot(x: &[f64], y: &[f64]) -> f64 {
    let mut sums = [0.0; 4];
    let (xc, yc) = (x.chunks_exact(4), y.chunks_exact(4));
    let tail: f64 = xc
        .remainder()
        .iter()
        .zip(yc.remainder())
        .map(|(a, b)| a * b)
        .sum();
    for (a, b) in xc.zip(yc) {
        for i in 0..4 {
            sums[i] += a[i] * b[i];
        }
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
}

/// Solves `a x = b` for the k × k symmetric positive definite `a` (row-major; the ridge makes
/// it so) by Cholesky factorisation: half the work of elimination, and each step is a dot
/// product of two contiguous rows. A pivot that rounding leaves at zero drops its term.
fn solve(mut a: Vec<f64>, b: &[f64]) -> Vec<f64> {
    let k = b.len();
    // Overwrite the lower triangle with L (a = L Lᵀ), row by row.
    for i in 0..k {
        let (done, rest) = a.split_at_mut(i * k);
        let row_i = &mut rest[..k];
        for j in 0..i {
            let row_j = &done[j * k..j * k + j + 1];
            let s = row_i[j] - dot(&row_i[..j], &row_j[..j]);
            row_i[j] = if row_j[j] > 0.0 { s / row_j[j] } else { 0.0 };
        }
        let d = row_i[i] - dot(&row_i[..i], &row_i[..i]);
        row_i[i] = if d > 1e-12 { d.sqrt() } else { 0.0 };
    }
    // Forward substitution L z = b, then back substitution Lᵀ x = z.
    let mut z = vec![0.0; k];
    for i in 0..k {
        let l = &a[i * k..i * k + i + 1];
        z[i] = if l[i] > 0.0 {
            (b[i] - dot(&l[..i], &z[..i])) / l[i]
        } else {
            0.0
        };
    }
    let mut x = z;
    for i in (0..k).rev() {
        let l_ii = a[i * k + i];
        x[i] = if l_ii > 0.0 { x[i] / l_ii } else { 0.0 };
        let xi = x[i];
        for j in 0..i {
            x[j] -= a[i * k + j] * xi;
        }
    }
    x
}

fn mean_abs(rows: &[Vec<f64>], labels: &[i32], values: &[f64]) -> f64 {
    let total: f64 = rows
        .iter()
        .zip(labels)
        .map(|(r, &l)| (r.iter().zip(values).map(|(a, v)| a * v).sum::<f64>() - l as f64).abs())
        .sum();
    total / rows.len().max(1) as f64
}

/// Fits the schema's values to `labels` by least absolute deviation (`iterations` IRLS steps).
pub fn linear_floor(
    schema: &BitSchema,
    train: (&[Board], &[i32]),
    test: (&[Board], &[i32]),
    iterations: usize,
) -> LinearFloor {
    let table_len = kestrel_params::ParamValues::zeros(&kestrel_eval::EVAL_TABLE)
        .values
        .len();
    let mut column_of = vec![usize::MAX; table_len];
    for (j, f) in schema.fields.iter().enumerate() {
        column_of[f.flat_index] = j;
    }
    let x = design(train.0, schema, &column_of);
    let y = train.1;
    let k = schema.fields.len();
    let mut weights = vec![1.0; x.len()];
    let mut values = vec![0.0; k];
    // A position touches few terms (tens of the full set's ~1,000): the normal matrix is
    // summed over each row's non-zero pairs only, which makes the full set's floor affordable.
    let nonzero: Vec<Vec<usize>> = x
        .iter()
        .map(|row| (0..k).filter(|&i| row[i] != 0.0).collect())
        .collect();
    for _ in 0..iterations.max(1) {
        let (mut a, mut b) = (vec![0.0; k * k], vec![0.0; k]);
        for (((row, nz), &label), &w) in x.iter().zip(&nonzero).zip(y).zip(&weights) {
            for &i in nz {
                b[i] += w * row[i] * label as f64;
                for &j in nz {
                    a[i * k + j] += w * row[i] * row[j];
                }
            }
        }
        for i in 0..k {
            a[i * k + i] += 1e-6; // terms no position uses stay at zero
        }
        values = solve(a, &b);
        for ((row, &label), w) in x.iter().zip(y).zip(weights.iter_mut()) {
            let r: f64 = row.iter().zip(&values).map(|(a, v)| a * v).sum::<f64>() - label as f64;
            *w = 1.0 / r.abs().max(1.0);
        }
    }
    let bounded: Vec<f64> = values
        .iter()
        .zip(&schema.fields)
        .map(|(v, f)| v.round().clamp(f.min as f64, f.max as f64))
        .collect();
    let xt = design(test.0, schema, &column_of);
    LinearFloor {
        train_error: mean_abs(&x, y, &values),
        test_error: mean_abs(&xt, test.1, &values),
        bounded_train_error: mean_abs(&x, y, &bounded),
        bounded_test_error: mean_abs(&xt, test.1, &bounded),
        values,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mentor::run::ParamSet;
    use kestrel_eval::{EVAL_TABLE, Evaluator, compact_values};
    use kestrel_params::{Coding, ParamValues};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn cholesky_solves_a_positive_definite_system() {
        // a = Mᵀ M + I for a pseudo-random 37 × 37 M (odd sizes exercise the dot's remainder).
        let k = 37;
        let mut rng = ChaCha8Rng::seed_from_u64(12345);
        let mut next = || rng.random::<f64>() - 0.5;
        let m: Vec<f64> = (0..k * k).map(|_| next()).collect();
        let mut a = vec![0.0; k * k];
        for i in 0..k {
            for j in 0..k {
                a[i * k + j] = (0..k).map(|p| m[p * k + i] * m[p * k + j]).sum::<f64>();
            }
            a[i * k + i] += 1.0;
        }
        let truth: Vec<f64> = (0..k).map(|i| i as f64 - 11.5).collect();
        let b: Vec<f64> = (0..k)
            .map(|i| (0..k).map(|j| a[i * k + j] * truth[j]).sum())
            .collect();
        let x = solve(a, &b);
        for (got, want) in x.iter().zip(&truth) {
            assert!((got - want).abs() < 1e-9, "{got} vs {want}");
        }
        // A term no row uses (a zero row and column but for the ridge) comes out zero.
        let mut a = vec![0.0; 4];
        a[0] = 2.0;
        a[3] = 1e-6;
        let x = solve(a, &[4.0, 0.0]);
        assert!((x[0] - 2.0).abs() < 1e-12 && x[1] == 0.0, "{x:?}");
    }

    #[test]
    fn labels_made_by_compact_values_are_fitted_exactly() {
        let fens = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
            "2r3k1/5ppp/p3p3/1p1nP3/3P4/P2B1N2/1P3PPP/6K1 w - - 0 27",
            "8/5pk1/6p1/3P4/1r6/5PP1/R5K1/8 b - - 1 45",
            "r4rk1/1bq1bppp/p3pn2/1p6/3N4/1BN1Q3/PPP2PPP/R4RK1 b - - 4 15",
            "8/8/4k3/8/2P5/8/5K2/8 w - - 0 60",
        ];
        let boards: Vec<Board> = fens.iter().map(|f| Board::from_fen(f).unwrap()).collect();
        let eval = Evaluator::new(compact_values(&ParamValues::defaults(&EVAL_TABLE)));
        let labels: Vec<i32> = boards.iter().map(|b| eval.evaluate_white(b)).collect();
        let schema = ParamSet::Compact.schema(Coding::Binary);
        let floor = linear_floor(&schema, (&boards, &labels), (&boards, &labels), 20);
        // Six positions, 35 unknowns: an exact fit exists (the labels' own values among them),
        // so the floor is at most the labels' rounding.
        assert!(floor.train_error < 1.0, "{}", floor.train_error);
        // A label no linear combination explains raises the floor above zero.
        let mut noisy = labels.clone();
        noisy[0] += 1000;
        let fake = [boards[0].clone(), boards[0].clone()];
        let floor2 = linear_floor(
            &schema,
            (&fake, &[labels[0], noisy[0]]),
            (&fake, &[0, 0]),
            30,
        );
        assert!(
            (floor2.train_error - 500.0).abs() < 5.0,
            "{}",
            floor2.train_error
        );
    }
}
