//! Move-agreement fitness, scored for a whole population with one matrix product: every
//! child leaf of every position is a row of a [`TraceMatrix`], so an organism's scores of all
//! leaves are one GEMM row, and its 1-ply choice in a position is the arg-max over that
//! position's rows. Fitness is the paper's squared count of agreeing positions.

use crate::mentor::fitness::organism_matrix;
use crate::mentor::organism::Organism;
use crate::mentor::trace_matrix::TraceMatrix;
use crate::moves::data::MovePosition;
use crate::moves::leaves::{Terminal, children};
use kestrel_chess::Board;
use kestrel_eval::Evaluator;
use kestrel_ga::{Evaluation, FitnessFunction};
use kestrel_params::{BitSchema, ParamValues};
use rayon::prelude::*;

/// Every position's child leaves, traced for the evolved columns.
pub struct ChildSet {
    matrix: TraceMatrix,
    /// Leaf rows of position `i`: `starts[i]..starts[i + 1]`.
    starts: Vec<usize>,
    /// Per position: index (within its rows) of the move that was played.
    played: Vec<usize>,
    /// Per position: +1 when White is to move, −1 for Black (leaf scores are White's).
    sign: Vec<i32>,
    /// Per leaf row: mate or stalemate, whatever the evaluation says.
    terminal: Vec<Option<Terminal>>,
    /// The leaf positions (for reference evaluations outside the matrix).
    leaves: Vec<Board>,
}

impl ChildSet {
    /// Expands and traces `positions`; `leaf_eval` chooses the capture lines followed to the
    /// leaves (at most `max_captures` plies).
    pub fn build(
        positions: &[MovePosition],
        schema: &BitSchema,
        base: &ParamValues,
        leaf_eval: &Evaluator,
        max_captures: i32,
    ) -> ChildSet {
        let expanded: Vec<_> = positions
            .par_iter()
            .map(|p| children(&p.board, leaf_eval, max_captures))
            .collect();
        let mut starts = vec![0];
        let mut played = Vec::with_capacity(positions.len());
        let mut terminal = Vec::new();
        let mut leaves = Vec::new();
        for (p, kids) in positions.iter().zip(expanded) {
            let index = kids.iter().position(|(mv, _)| *mv == p.played);
            played.push(index.expect("the played move is legal in its position"));
            for (_, leaf) in kids {
                terminal.push(leaf.terminal);
                leaves.push(leaf.board);
            }
            starts.push(leaves.len());
        }
        let columns: Vec<usize> = schema.fields.iter().map(|f| f.flat_index).collect();
        let max_abs: Vec<i32> = schema
            .fields
            .iter()
            .map(|f| f.min.abs().max(f.max.abs()))
            .collect();
        ChildSet {
            matrix: TraceMatrix::build(&leaves, &columns, &max_abs, &base.values),
            starts,
            played,
            sign: positions
                .iter()
                .map(|p| p.board.side_to_move().sign())
                .collect(),
            terminal,
            leaves,
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.played.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.played.is_empty()
    }

    /// Number of leaf rows (legal moves over all positions).
    pub fn leaf_count(&self) -> usize {
        self.leaves.len()
    }

    /// Expected agreement of a uniformly random move choice: mean of 1 / legal moves.
    pub fn chance(&self) -> f64 {
        let total: f64 = (0..self.len())
            .map(|i| 1.0 / (self.starts[i + 1] - self.starts[i]) as f64)
            .sum();
        total / self.len().max(1) as f64
    }

    /// Credit of position `i` given its leaves' White-relative scores: 1 when the played move
    /// is the only best, 1/t when it ties with t−1 others (a random tie-break), else 0.
    fn credit(&self, i: usize, scores: &[i32]) -> f64 {
        let rows = self.starts[i]..self.starts[i + 1];
        let value = |r: usize, s: i32| -> i64 {
            match self.terminal[r] {
                Some(Terminal::Mate) => i64::MAX,
                Some(Terminal::Draw) => 0,
                None => (self.sign[i] * s) as i64,
            }
        };
        let values: Vec<i64> = rows.zip(scores).map(|(r, &s)| value(r, s)).collect();
        let best = *values.iter().max().expect("a position has legal moves");
        if values[self.played[i]] != best {
            return 0.0;
        }
        1.0 / values.iter().filter(|&&v| v == best).count() as f64
    }

    /// Per organism (`organisms`: row-major m × k evolved values) and per position of
    /// `positions` (all when `None`): the agreement credit, `out[o][j]`.
    pub fn credits(&self, organisms: &[f64], positions: Option<&[usize]>) -> Vec<Vec<f64>> {
        let all: Vec<usize>;
        let positions = match positions {
            Some(p) => p,
            None => {
                all = (0..self.len()).collect();
                &all
            }
        };
        let rows: Vec<usize> = positions
            .iter()
            .flat_map(|&i| self.starts[i]..self.starts[i + 1])
            .collect();
        let whole = rows.len() == self.leaf_count();
        let mut out = Vec::new();
        self.matrix.for_each_score(
            organisms,
            (!whole).then_some(rows.as_slice()),
            |_, scores| {
                let mut at = 0;
                let mut credits = Vec::with_capacity(positions.len());
                for &i in positions {
                    let n = self.starts[i + 1] - self.starts[i];
                    credits.push(self.credit(i, &scores[at..at + n]));
                    at += n;
                }
                out.push(credits);
            },
        );
        out
    }

    /// Agreeing positions per organism on `positions` (all when `None`).
    pub fn matches(&self, organisms: &[f64], positions: Option<&[usize]>) -> Vec<f64> {
        self.credits(organisms, positions)
            .into_iter()
            .map(|c| c.iter().sum())
            .collect()
    }

    /// Agreeing positions of any evaluation (e.g. Kestrel's full hand-tuned one), scored on
    /// the same leaves.
    pub fn matches_of(&self, eval: &Evaluator) -> f64 {
        (0..self.len())
            .into_par_iter()
            .map(|i| {
                let scores: Vec<i32> = self.leaves[self.starts[i]..self.starts[i + 1]]
                    .iter()
                    .map(|b| eval.evaluate_white(b))
                    .collect();
                self.credit(i, &scores)
            })
            .sum()
    }
}

/// The move-agreement fitness on a training set.
pub struct MovesFitness {
    /// Which evaluation values evolve and how genomes decode to them.
    pub schema: BitSchema,
    /// The training positions' child leaves with the played moves.
    pub train: ChildSet,
    /// Training positions drawn per generation (0: all of them, the paper's setting).
    pub sample: usize,
    /// Names the data (positions, leaves, parameter set) for checkpoints.
    pub data_id: String,
}

impl MovesFitness {
    /// The generation's positions: `sample` distinct indices chosen by `seed` (all when 0).
    pub fn sample_positions(&self, seed: u64) -> Vec<usize> {
        kestrel_ga::sample_rows(self.train.len(), self.sample, seed)
    }
}

impl<G: Organism> FitnessFunction<G> for MovesFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[G]) -> Vec<Evaluation> {
        let positions = self.sample_positions(sample_seed);
        let organisms = organism_matrix(&self.schema, genomes);
        self.train
            .matches(&organisms, Some(&positions))
            .into_iter()
            .map(|m| Evaluation {
                fitness: m * m,
                objective: 100.0 * m / positions.len().max(1) as f64,
            })
            .collect()
    }

    fn chunk_size(&self) -> usize {
        // One GEMM per chunk; two chunks of a 100-organism population keep two cores busy.
        50
    }

    fn fingerprint(&self) -> String {
        format!(
            "moves {} | {} | sample {}",
            self.data_id,
            G::describe(&self.schema),
            self.sample
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mentor::run::ParamSet;
    use kestrel_eval::EVAL_TABLE;
    use kestrel_ga::{BitGenome, BitSpace, Genome};
    use kestrel_params::Coding;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn positions() -> Vec<MovePosition> {
        [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "f1b5",
            ),
            (
                "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
                "e1c1",
            ),
            (
                "2r3k1/5ppp/p3p3/1p1nP3/3P4/P2B1N2/1P3PPP/6K1 w - - 0 27",
                "g1f1",
            ),
            ("8/5pk1/6p1/3P4/1r6/5PP1/R5K1/8 b - - 1 45", "b4d4"),
            (
                "r4rk1/1bq1bppp/p3pn2/1p6/3N4/1BN1Q3/PPP2PPP/R4RK1 b - - 4 15",
                "a8d8",
            ),
        ]
        .iter()
        .enumerate()
        .map(|(i, (fen, mv))| {
            let board = Board::from_fen(fen).unwrap();
            let played = board.parse_uci_move(mv).unwrap();
            MovePosition {
                board,
                played,
                game: i,
                player: "X".into(),
            }
        })
        .collect()
    }

    /// The slow way: evaluate every leaf with the organism's own evaluator.
    fn direct_matches(set: &ChildSet, params: ParamValues) -> f64 {
        set.matches_of(&Evaluator::new(params))
    }

    #[test]
    fn matrix_agreement_equals_evaluating_every_leaf() {
        let pos = positions();
        let zeros = ParamValues::zeros(&EVAL_TABLE);
        let expert = Evaluator::new(ParamValues::defaults(&EVAL_TABLE));
        for set in [ParamSet::Compact, ParamSet::Full] {
            let schema = set.schema(Coding::Binary);
            let kids = ChildSet::build(&pos, &schema, &zeros, &expert, 8);
            assert_eq!(kids.len(), 5);
            let mut rng = ChaCha8Rng::seed_from_u64(4);
            let space = BitSpace {
                len: schema.bit_len(),
            };
            let genomes: Vec<BitGenome> = (0..6)
                .map(|_| BitGenome::random(&space, &mut rng))
                .collect();
            let fast = kids.matches(&organism_matrix(&schema, &genomes), None);
            for (g, &m) in genomes.iter().zip(&fast) {
                let slow = direct_matches(&kids, schema.decode(&g.0, &zeros));
                assert!((slow - m).abs() < 1e-9, "{slow} vs {m}");
            }
            // A subset gives the subset's credits.
            let sub = kids.credits(&organism_matrix(&schema, &genomes), Some(&[3, 1]));
            let all = kids.credits(&organism_matrix(&schema, &genomes), None);
            for (s, a) in sub.iter().zip(&all) {
                assert_eq!(s, &vec![a[3], a[1]]);
            }
        }
    }

    #[test]
    fn ties_share_credit_and_chance_is_one_over_moves() {
        let pos = positions();
        let zeros = ParamValues::zeros(&EVAL_TABLE);
        let expert = Evaluator::new(ParamValues::defaults(&EVAL_TABLE));
        let schema = ParamSet::Compact.schema(Coding::Binary);
        let kids = ChildSet::build(&pos, &schema, &zeros, &expert, 0);
        // The all-zero organism scores every leaf 0: each position credits 1 / legal moves.
        let zero_org = vec![0.0; schema.fields.len()];
        let m = kids.matches(&zero_org, None)[0];
        assert!((m / 5.0 - kids.chance()).abs() < 1e-12);
        let legal: Vec<f64> = pos
            .iter()
            .map(|p| 1.0 / p.board.legal_moves().len() as f64)
            .collect();
        assert!((kids.chance() - legal.iter().sum::<f64>() / 5.0).abs() < 1e-12);
    }
}
