//! A tournament organism: the teaching engine's 19 evolved weights (pawn advancement, then
//! mobility, threats and protects per piece kind), integers in `0..=max`. Material is not
//! evolved (the page presets it), and the king's "possession" weight, the page's 25th, is a
//! constant that cancels between the two sides, so it has no `EVAL_TABLE` term.

use kestrel_eval::EVAL_TABLE;
use kestrel_ga::{Crossover, GaSettings, Genome};
use kestrel_params::ParamValues;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The fixed material (pawn, knight, bishop, rook, queen) of every organism. The page's own
/// table is an image that is lost; these are the classical values it describes ("very large
/// integers" against weights of 0..5).
pub const PAGE_MATERIAL: [i32; 5] = [100, 300, 300, 500, 900];

/// Gene names in genome order (for logs and docs).
pub const GENE_NAMES: [&str; 19] = [
    "pawn_advancement",
    "mobility.pawn",
    "mobility.knight",
    "mobility.bishop",
    "mobility.rook",
    "mobility.queen",
    "mobility.king",
    "threats.pawn",
    "threats.knight",
    "threats.bishop",
    "threats.rook",
    "threats.queen",
    "threats.king",
    "protects.pawn",
    "protects.knight",
    "protects.bishop",
    "protects.rook",
    "protects.queen",
    "protects.king",
];

/// The 19 evolved weights, in [`GENE_NAMES`] order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Organism(pub Vec<i32>);

/// What every organism of a run shares: the gene range `0..=max` (the page: 0..5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrganismSpace {
    /// Highest gene value; genes are integers in `0..=max`.
    pub max: i32,
}

impl Organism {
    /// The page's hand-set evaluation: queen mobility 1; threats 0,1,1,2,5,4; protects of
    /// knight and bishop 1; pawn advancement 1.
    pub fn page_default() -> Organism {
        let mut g = vec![1];
        g.extend([0, 0, 0, 0, 1, 0]);
        g.extend([0, 1, 1, 2, 5, 4]);
        g.extend([0, 1, 1, 0, 0, 0]);
        Organism(g)
    }

    /// Kestrel's own tuned values of the same terms (middle-game entries), clamped to
    /// `[-64, 63]`, for comparison.
    pub fn kestrel_tuned() -> Organism {
        let d = ParamValues::defaults(&EVAL_TABLE);
        let mut g = vec![d.get("PAWN_ADVANCEMENT").expect("declared")[0]];
        for term in ["MOBILITY", "THREATS", "PROTECTS"] {
            g.extend_from_slice(&d.get(term).expect("declared")[..6]);
        }
        Organism(g)
    }

    /// The evaluation parameters: material, these weights (middle and end game alike) and
    /// every other evaluation value zero.
    pub fn to_params(&self) -> ParamValues {
        let mut p = ParamValues::zeros(&EVAL_TABLE);
        let names = [
            "PAWN_VALUE",
            "KNIGHT_VALUE",
            "BISHOP_VALUE",
            "ROOK_VALUE",
            "QUEEN_VALUE",
        ];
        for (name, v) in names.iter().zip(PAGE_MATERIAL) {
            p.set_scalar(name, v).expect("declared material term");
        }
        let g = &self.0;
        p.set("PAWN_ADVANCEMENT", &[g[0], g[0]]).expect("declared");
        for (k, term) in ["MOBILITY", "THREATS", "PROTECTS"].iter().enumerate() {
            let w = &g[1 + 6 * k..7 + 6 * k];
            let both: Vec<i32> = w.iter().chain(w).copied().collect();
            p.set(term, &both).expect("declared per-kind term");
        }
        p
    }

    /// "mobility.queen=1 threats.knight=1 ..." (non-zero genes only).
    pub fn describe(&self) -> String {
        let parts: Vec<String> = GENE_NAMES
            .iter()
            .zip(&self.0)
            .filter(|(_, v)| **v != 0)
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        if parts.is_empty() {
            "all zero".into()
        } else {
            parts.join(" ")
        }
    }
}

impl Genome for Organism {
    type Space = OrganismSpace;

    fn random(space: &OrganismSpace, rng: &mut ChaCha8Rng) -> Self {
        Organism(
            (0..GENE_NAMES.len())
                .map(|_| rng.random_range(0..=space.max))
                .collect(),
        )
    }

    fn check(space: &OrganismSpace, _settings: &GaSettings) -> Result<(), String> {
        if (1..=63).contains(&space.max) {
            Ok(())
        } else {
            Err(format!("gene maximum {} is not in 1..=63", space.max))
        }
    }

    /// Uniform crossover (each weight from either parent).
    fn crossover(
        &self,
        other: &Self,
        _space: &OrganismSpace,
        _kind: Crossover,
        rng: &mut ChaCha8Rng,
    ) -> (Self, Self) {
        let (mut a, mut b) = (self.clone(), other.clone());
        for (x, y) in a.0.iter_mut().zip(b.0.iter_mut()) {
            if rng.random_bool(0.5) {
                std::mem::swap(x, y);
            }
        }
        (a, b)
    }

    /// Each weight, with probability `rate`, moves one step up or down (within the range).
    fn mutate(
        &mut self,
        space: &OrganismSpace,
        rate: f64,
        _step: Option<f64>,
        rng: &mut ChaCha8Rng,
    ) {
        for x in &mut self.0 {
            if rng.random_bool(rate) {
                let delta = if rng.random_bool(0.5) { 1 } else { -1 };
                let moved = *x + delta;
                *x = if (0..=space.max).contains(&moved) {
                    moved
                } else {
                    *x - delta
                };
            }
        }
    }

    /// Mean per-gene standard deviation over half the range (1: split between the bounds).
    fn diversity(population: &[Self], space: &OrganismSpace) -> f64 {
        let n = population.len() as f64;
        if population.len() < 2 {
            return 0.0;
        }
        let genes = GENE_NAMES.len();
        let total: f64 = (0..genes)
            .map(|i| {
                let mean = population.iter().map(|g| g.0[i] as f64).sum::<f64>() / n;
                let var = population
                    .iter()
                    .map(|g| (g.0[i] as f64 - mean).powi(2))
                    .sum::<f64>()
                    / n;
                2.0 * var.sqrt() / space.max as f64
            })
            .sum();
        total / genes as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_eval::Evaluator;
    use rand::SeedableRng;

    #[test]
    fn params_hold_material_and_the_weights_and_nothing_else() {
        let org = Organism::page_default();
        let p = org.to_params();
        assert_eq!(p.get("QUEEN_VALUE").unwrap(), &[900]);
        assert_eq!(
            p.get("THREATS").unwrap(),
            &[0, 1, 1, 2, 5, 4, 0, 1, 1, 2, 5, 4]
        );
        assert_eq!(p.get("PAWN_ADVANCEMENT").unwrap(), &[1, 1]);
        assert!(p.get("PST_KNIGHT").unwrap().iter().all(|&v| v == 0));
        let nonzero = p.values.iter().filter(|&&v| v != 0).count();
        // 5 material + pawn advancement (mg, eg) + 8 non-zero per-kind weights, mg and eg.
        assert_eq!(nonzero, 5 + 2 + 2 * 8);
        // Start position is symmetric: the evaluation is only the side-to-move-free zero.
        let eval = Evaluator::new(p).evaluate_white(&kestrel_chess::Board::startpos());
        assert_eq!(eval, 0);
    }

    #[test]
    fn random_and_mutated_organisms_stay_in_range() {
        let space = OrganismSpace { max: 5 };
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..50 {
            let mut o = Organism::random(&space, &mut rng);
            o.mutate(&space, 1.0, None, &mut rng);
            assert_eq!(o.0.len(), 19);
            assert!(o.0.iter().all(|v| (0..=5).contains(v)));
        }
    }
}
