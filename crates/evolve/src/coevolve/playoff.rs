//! The final pick of a coevolution: a round robin between the parents and the last
//! generation's best organisms, with more openings and more nodes than the evolution's own
//! games. The parents play in it, so a coevolved organism is chosen only if it outscores every
//! parent there; otherwise the best parent is the result (coevolution cannot end below it).

use super::round_robin_scores;
use crate::mentor::organism::Organism;
use kestrel_ga::{Evaluation, RealGenome, fittest_first};
use kestrel_params::BitSchema;
use kestrel_tools::{EngineSpec, Opening, Wdl};

/// Every finalist's playoff result and the winner.
#[derive(Clone, Debug)]
pub struct Playoff {
    /// Each finalist's games against all the others.
    pub scores: Vec<Wdl>,
    /// Index of the finalist with the most points; ties go to the lower index, so list the
    /// parents first and a tie keeps a parent.
    pub winner: usize,
}

/// Plays the playoff round robin (every pairing on every opening, both colours).
pub fn playoff(finalists: &[EngineSpec], openings: &[Opening], nodes: u64) -> Playoff {
    let scores = round_robin_scores(finalists, openings, nodes);
    Playoff {
        winner: most_points(&scores),
        scores,
    }
}

/// Up to `count` organisms of the last generation, best round-robin score first, that play
/// differently from every parent and from each other (their rounded values differ).
pub fn challengers(
    schema: &BitSchema,
    parents: &[RealGenome],
    population: &[RealGenome],
    evaluations: &[Evaluation],
    count: usize,
) -> Vec<RealGenome> {
    let ranked = fittest_first(|i| evaluations[i].fitness, population.len());
    let mut seen: Vec<Vec<i32>> = parents.iter().map(|p| p.field_values(schema)).collect();
    let mut picked = Vec::new();
    for i in ranked {
        let values = population[i].field_values(schema);
        if picked.len() < count && !seen.contains(&values) {
            seen.push(values);
            picked.push(population[i].clone());
        }
    }
    picked
}

/// Index of the highest score; the first one on ties.
pub fn most_points(scores: &[Wdl]) -> usize {
    let mut best = 0;
    for (i, s) in scores.iter().enumerate() {
        if s.points() > scores[best].points() {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn the_most_points_win_and_ties_keep_the_earlier_finalist() {
        assert_eq!(most_points(&[wdl(1, 2, 1), wdl(2, 1, 1), wdl(0, 1, 3)]), 1);
        // 2 points each: the parent listed first stays.
        assert_eq!(most_points(&[wdl(1, 2, 1), wdl(2, 0, 2)]), 0);
    }

    #[test]
    fn challengers_are_the_best_organisms_that_are_not_parents_or_repeats() {
        let schema = crate::mentor::run::ParamSet::Compact.schema(kestrel_params::Coding::Binary);
        let k = schema.fields.len();
        let genome = |v: f64| RealGenome(vec![v; k]);
        let parent = genome(10.0);
        // 10.2 rounds to the parent's values, 20.4 to the 20.0 organism's.
        let population = [
            genome(10.2),
            genome(20.0),
            genome(20.4),
            genome(30.0),
            genome(40.0),
        ];
        let evaluations: Vec<Evaluation> = [9.0, 8.0, 7.0, 1.0, 5.0]
            .iter()
            .map(|&f| Evaluation {
                fitness: f,
                objective: f,
            })
            .collect();
        let picked = challengers(&schema, &[parent], &population, &evaluations, 2);
        assert_eq!(picked, vec![genome(20.0), genome(40.0)]);
    }
}
