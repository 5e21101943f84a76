//! Move agreement at a deeper search (on request): every organism searches every sampled
//! position with Kestrel's alpha-beta search and its own evaluation. Exact for any depth, but
//! a search per organism and position, so far slower than the 1-ply matrix fitness.

use crate::mentor::organism::{Organism, with_fields};
use crate::moves::data::MovePosition;
use crate::moves::run::base_values;
use kestrel_eval::Evaluator;
use kestrel_ga::{Evaluation, FitnessFunction};
use kestrel_params::{BitSchema, ParamValues};
use kestrel_search::{EngineConfig, SearchLimits, Searcher};

/// Move agreement of real fixed-depth searches.
pub struct SearchMovesFitness {
    /// Which evaluation values evolve and how genomes decode to them.
    pub schema: BitSchema,
    /// Positions with the played moves each organism searches.
    pub positions: Vec<MovePosition>,
    /// Search depth in plies.
    pub depth: i32,
    /// Positions drawn per generation (0: all).
    pub sample: usize,
    /// Names the data for checkpoints.
    pub data_id: String,
}

impl SearchMovesFitness {
    fn sample_positions(&self, seed: u64) -> Vec<usize> {
        kestrel_ga::sample_rows(self.positions.len(), self.sample, seed)
    }

    /// Positions (of `rows`) where the organism's search plays the recorded move.
    fn agreements<G: Organism>(&self, genome: &G, rows: &[usize]) -> usize {
        let values = with_fields(
            &self.schema,
            &base_values(),
            &genome.field_values(&self.schema),
        );
        rows.iter()
            .filter(|&&i| plays_recorded(&values, &self.positions[i], self.depth))
            .count()
    }
}

/// Whether a `depth`-ply search with `values` plays the recorded move.
fn plays_recorded(values: &ParamValues, p: &MovePosition, depth: i32) -> bool {
    // A fresh small searcher per position: the choice never depends on the order.
    let mut searcher = Searcher::new(EngineConfig {
        hash_mb: 1,
        threads: 1,
        evaluator: Evaluator::new(values.clone()),
        ..EngineConfig::default()
    });
    let result = searcher.search(&p.board, &SearchLimits::depth(depth), &mut |_| {});
    result.best_move == Some(p.played)
}

/// Agreement (%) of `depth`-ply searches with `values` over `positions` (in parallel).
pub fn searched_agreement(values: &ParamValues, positions: &[MovePosition], depth: i32) -> f64 {
    use rayon::prelude::*;
    let hits = positions
        .par_iter()
        .filter(|p| plays_recorded(values, p, depth))
        .count();
    100.0 * hits as f64 / positions.len().max(1) as f64
}

impl<G: Organism> FitnessFunction<G> for SearchMovesFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[G]) -> Vec<Evaluation> {
        let rows = self.sample_positions(sample_seed);
        genomes
            .iter()
            .map(|g| {
                let m = self.agreements(g, &rows) as f64;
                Evaluation {
                    fitness: m * m,
                    objective: 100.0 * m / rows.len().max(1) as f64,
                }
            })
            .collect()
    }

    fn fingerprint(&self) -> String {
        format!(
            "moves-search {} | {} | sample {}",
            self.data_id,
            G::describe(&self.schema),
            self.sample
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_chess::Board;
    use kestrel_eval::EVAL_TABLE;

    fn position(fen: &str, played: &str) -> MovePosition {
        let board = Board::from_fen(fen).unwrap();
        let played = board.parse_uci_move(played).unwrap();
        MovePosition {
            board,
            played,
            game: 0,
            player: "test".into(),
        }
    }

    #[test]
    fn searched_agreement_counts_the_positions_whose_search_plays_the_recorded_move() {
        let positions = [
            // A back-rank mate: every sane evaluation's 2-ply search plays it.
            position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
            // The recorded move leaves the queen en prise instead of taking the other one.
            position("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1", "d1c2"),
        ];
        let values = ParamValues::defaults(&EVAL_TABLE);
        assert_eq!(searched_agreement(&values, &positions, 2), 50.0);
        assert_eq!(searched_agreement(&values, &positions[..1], 2), 100.0);
    }
}
