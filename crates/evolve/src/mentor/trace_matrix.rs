//! Scoring a whole population at once: each position's evaluation is a linear form in the
//! parameters (its feature trace), so population × positions scores are one matrix product of
//! the evolved parameter values (organisms × k) and the positions' coefficients (k × positions),
//! plus a per-position constant for the parameters that do not evolve, then the evaluation's
//! own rounding (`scale_trace_sum`). All values are integers far below 2^53, so f64 GEMM is
//! exact and the scores equal `Evaluator::evaluate_white` bit for bit. When a bound on every
//! partial sum (Σ max|value| · |coefficient| per position) stays below 2^24, the same product is
//! done in f32 (twice the speed), which is then exact as well.

use kestrel_chess::Board;
use kestrel_eval::{scale_trace_sum, trace};
use rayon::prelude::*;

/// Dense coefficients of the evolved columns for a list of positions.
pub struct TraceMatrix {
    /// Number of evolved columns.
    pub k: usize,
    /// Number of positions (rows).
    pub rows: usize,
    /// Row-major `rows × k` coefficients.
    coef: Vec<f64>,
    /// The same coefficients in f32, when every product sum is provably exact in f32.
    coef_f32: Option<Vec<f32>>,
    /// Per row: Σ base value × coefficient over the parameters that do not evolve.
    constant: Vec<i64>,
}

/// Largest integer below which every f32 sum of integers is exact.
const F32_EXACT: f64 = (1u64 << 24) as f64;

impl TraceMatrix {
    /// Traces `boards` (in parallel). `columns[j]` is the flat `EVAL_TABLE` index of evolved
    /// value `j`; `base` supplies every other parameter.
    /// `max_abs[j]` bounds |value| of evolved column `j` (it decides whether f32 is exact).
    pub fn build(
        boards: &[Board],
        columns: &[usize],
        max_abs: &[i32],
        base: &[i32],
    ) -> TraceMatrix {
        assert_eq!(columns.len(), max_abs.len());
        let k = columns.len();
        let mut column_of = vec![usize::MAX; base.len()];
        for (j, &c) in columns.iter().enumerate() {
            column_of[c] = j;
        }
        let rows: Vec<(Vec<f64>, i64)> = boards
            .par_iter()
            .map(|b| {
                let mut row = vec![0.0; k];
                let mut constant = 0i64;
                for &(i, c) in &trace(b).entries {
                    match column_of[i as usize] {
                        usize::MAX => constant += base[i as usize] as i64 * c as i64,
                        j => row[j] += c as f64,
                    }
                }
                (row, constant)
            })
            .collect();
        let mut coef = Vec::with_capacity(boards.len() * k);
        let mut constant = Vec::with_capacity(boards.len());
        for (row, c) in rows {
            coef.extend(row);
            constant.push(c);
        }
        let bound = coef
            .chunks(k.max(1))
            .map(|row| {
                row.iter()
                    .zip(max_abs)
                    .map(|(c, &m)| c.abs() * m.unsigned_abs() as f64)
                    .sum::<f64>()
            })
            .fold(0.0, f64::max);
        let coef_f32 = (bound < F32_EXACT).then(|| coef.iter().map(|&c| c as f32).collect());
        TraceMatrix {
            k,
            rows: boards.len(),
            coef,
            coef_f32,
            constant,
        }
    }

    /// Always multiply in f64 (for tests and comparisons).
    pub fn without_f32(mut self) -> TraceMatrix {
        self.coef_f32 = None;
        self
    }

    /// Whether products run in f32 (exact by the bound above) rather than f64.
    pub fn uses_f32(&self) -> bool {
        self.coef_f32.is_some()
    }

    /// Scores (white-relative centipawns) of `organisms` (row-major `m × k` evolved values,
    /// each within the bounds given to `build`) on the positions `rows` (all when `None`):
    /// `out[o * n + r]`.
    pub fn scores(&self, organisms: &[f64], rows: Option<&[usize]>) -> Vec<i32> {
        let mut out = Vec::new();
        self.for_each_score(organisms, rows, |_, scores| out.extend_from_slice(scores));
        out
    }

    /// Calls `f(organism, scores on the rows)` for each organism, without keeping the whole
    /// organisms × positions score matrix.
    pub fn for_each_score(
        &self,
        organisms: &[f64],
        rows: Option<&[usize]>,
        mut f: impl FnMut(usize, &[i32]),
    ) {
        let k = self.k;
        assert!(
            k > 0 && organisms.len().is_multiple_of(k),
            "organism matrix is not m × k"
        );
        let m = organisms.len() / k;
        let n = rows.map_or(self.rows, <[usize]>::len);
        let constants: Vec<i64> = match rows {
            None => self.constant.clone(),
            Some(rows) => rows.iter().map(|&r| self.constant[r]).collect(),
        };
        let mut scores = vec![0i32; n];
        match &self.coef_f32 {
            Some(coef) => {
                let a: Vec<f32> = organisms.iter().map(|&v| v as f32).collect();
                let b = gather(coef, k, rows);
                let sums = gemm_f32(&a, b.as_deref().unwrap_or(coef), m, k, n);
                for o in 0..m {
                    let row = &sums[o * n..(o + 1) * n];
                    for i in 0..n {
                        scores[i] = scale_trace_sum(row[i] as i64 + constants[i]);
                    }
                    f(o, &scores);
                }
            }
            None => {
                let b = gather(&self.coef, k, rows);
                let sums = gemm_f64(organisms, b.as_deref().unwrap_or(&self.coef), m, k, n);
                for o in 0..m {
                    let row = &sums[o * n..(o + 1) * n];
                    for i in 0..n {
                        scores[i] = scale_trace_sum(row[i] as i64 + constants[i]);
                    }
                    f(o, &scores);
                }
            }
        }
    }
}

/// The chosen rows of a row-major `rows × k` matrix (`None`: use the matrix as it is).
fn gather<T: Copy>(coef: &[T], k: usize, rows: Option<&[usize]>) -> Option<Vec<T>> {
    rows.map(|rows| {
        let mut out = Vec::with_capacity(rows.len() * k);
        for &r in rows {
            out.extend_from_slice(&coef[r * k..(r + 1) * k]);
        }
        out
    })
}

/// C (m × n) = A (m × k, row-major) · Bᵀ with B (n × k, row-major).
fn gemm_f64(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    assert!(a.len() == m * k && b.len() == n * k);
    let mut c = vec![0.0f64; m * n];
    if m > 0 && n > 0 {
        // SAFETY: a, b and c hold m*k, n*k and m*n elements, matching the dimensions and the
        // strides (B read as k × n with row stride 1 and column stride k).
        unsafe {
            matrixmultiply::dgemm(
                m,
                k,
                n,
                1.0,
                a.as_ptr(),
                k as isize,
                1,
                b.as_ptr(),
                1,
                k as isize,
                0.0,
                c.as_mut_ptr(),
                n as isize,
                1,
            );
        }
    }
    c
}

/// [`gemm_f64`] in f32.
fn gemm_f32(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    assert!(a.len() == m * k && b.len() == n * k);
    let mut c = vec![0.0f32; m * n];
    if m > 0 && n > 0 {
        // SAFETY: as in gemm_f64.
        unsafe {
            matrixmultiply::sgemm(
                m,
                k,
                n,
                1.0,
                a.as_ptr(),
                k as isize,
                1,
                b.as_ptr(),
                1,
                k as isize,
                0.0,
                c.as_mut_ptr(),
                n as isize,
                1,
            );
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_eval::{COMPACT_SET, EVAL_TABLE, Evaluator};
    use kestrel_ga::{BitGenome, BitSpace, Genome};
    use kestrel_params::{BitSchema, Coding, ParamValues};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn boards() -> Vec<Board> {
        [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
            "8/5pk1/6p1/3P4/1r6/5PP1/R5K1/8 b - - 1 45",
            "2r3k1/5ppp/p3p3/1p1nP3/3P4/P2B1N2/1P3PPP/6K1 w - - 0 27",
            "r4rk1/1bq1bppp/p3pn2/1p6/3N4/1BN1Q3/PPP2PPP/R4RK1 b - - 4 15",
            "8/8/4k3/8/2P5/8/5K2/8 w - - 0 60",
        ]
        .iter()
        .map(|f| Board::from_fen(f).unwrap())
        .collect()
    }

    fn check(schema: &BitSchema, base: &ParamValues, organisms: usize, use_f32: bool) {
        let boards = boards();
        let columns: Vec<usize> = schema.fields.iter().map(|f| f.flat_index).collect();
        let max_abs: Vec<i32> = schema
            .fields
            .iter()
            .map(|f| f.min.abs().max(f.max.abs()))
            .collect();
        let matrix = TraceMatrix::build(&boards, &columns, &max_abs, &base.values);
        assert!(matrix.uses_f32(), "these magnitudes fit f32 exactly");
        let matrix = if use_f32 {
            matrix
        } else {
            matrix.without_f32()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let space = BitSpace {
            len: schema.bit_len(),
        };
        let genomes: Vec<BitGenome> = (0..organisms)
            .map(|_| BitGenome::random(&space, &mut rng))
            .collect();
        let flat: Vec<f64> = genomes
            .iter()
            .flat_map(|g| schema.decode_fields(&g.0).into_iter().map(f64::from))
            .collect();
        let rows = [4usize, 0, 2, 5];
        let all = matrix.scores(&flat, None);
        let some = matrix.scores(&flat, Some(&rows));
        for (o, g) in genomes.iter().enumerate() {
            let eval = Evaluator::new(schema.decode(&g.0, base));
            for (r, b) in boards.iter().enumerate() {
                assert_eq!(
                    all[o * boards.len() + r],
                    eval.evaluate_white(b),
                    "org {o} pos {r}"
                );
            }
            for (i, &r) in rows.iter().enumerate() {
                assert_eq!(some[o * rows.len() + i], eval.evaluate_white(&boards[r]));
            }
        }
    }

    #[test]
    fn compact_matrix_scores_equal_the_evaluator() {
        let schema = BitSchema::new(&EVAL_TABLE, Some(COMPACT_SET), Coding::Binary).unwrap();
        for use_f32 in [true, false] {
            check(&schema, &ParamValues::zeros(&EVAL_TABLE), 7, use_f32);
            // With the hand-tuned values as base, the non-evolved constant matters too.
            check(&schema, &ParamValues::defaults(&EVAL_TABLE), 3, use_f32);
        }
    }

    #[test]
    fn full_matrix_scores_equal_the_evaluator() {
        let schema = BitSchema::new(&EVAL_TABLE, None, Coding::Gray).unwrap();
        check(&schema, &ParamValues::zeros(&EVAL_TABLE), 3, true);
        check(&schema, &ParamValues::zeros(&EVAL_TABLE), 3, false);
    }

    #[test]
    fn huge_values_fall_back_to_f64() {
        let boards = boards();
        let matrix = TraceMatrix::build(&boards, &[0], &[1 << 20], &vec![0; EVAL_TABLE.len()]);
        assert!(!matrix.uses_f32());
    }
}
