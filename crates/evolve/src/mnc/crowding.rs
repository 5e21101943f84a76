//! Cedeno's multi-niche crowding: crowding selection (a parent mates with the most similar of
//! C_s random individuals) and "worst among the most similar" replacement (C_f groups of s
//! random individuals; each group's most similar to the child is a candidate; the least fit
//! candidate dies).

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The mate of `parent`: the nearest of `crowd` individuals drawn with replacement (never
/// the parent itself; the first drawn wins ties). `distance(i, j)` is phenotypic.
pub fn crowding_mate(
    parent: usize,
    population: usize,
    crowd: usize,
    distance: &dyn Fn(usize, usize) -> f64,
    rng: &mut ChaCha8Rng,
) -> usize {
    debug_assert!(population >= 2);
    let mut best: Option<(usize, f64)> = None;
    for _ in 0..crowd.max(1) {
        // Uniform over everyone but the parent.
        let mut j = rng.random_range(0..population - 1);
        if j >= parent {
            j += 1;
        }
        let d = distance(parent, j);
        if best.is_none_or(|(_, bd)| d < bd) {
            best = Some((j, d));
        }
    }
    best.expect("at least one candidate").0
}

/// The individual a child replaces: among `groups` groups of `size` random individuals, each
/// group's most similar to the child (`distance_to_child`) is a candidate; the candidate with
/// the lowest fitness dies (the first candidate wins ties).
pub fn worst_among_most_similar(
    fitness: &[f64],
    groups: usize,
    size: usize,
    distance_to_child: &dyn Fn(usize) -> f64,
    rng: &mut ChaCha8Rng,
) -> usize {
    let n = fitness.len();
    let mut victim: Option<usize> = None;
    for _ in 0..groups.max(1) {
        let mut nearest: Option<(usize, f64)> = None;
        for _ in 0..size.max(1) {
            let i = rng.random_range(0..n);
            let d = distance_to_child(i);
            if nearest.is_none_or(|(_, bd)| d < bd) {
                nearest = Some((i, d));
            }
        }
        let (candidate, _) = nearest.expect("a group has members");
        if victim.is_none_or(|v| fitness[candidate] < fitness[v]) {
            victim = Some(candidate);
        }
    }
    victim.expect("at least one group")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Two niches on a line: 0..10 near 0, 10..20 near 100.
    fn position(i: usize) -> f64 {
        if i < 10 { i as f64 } else { 100.0 + i as f64 }
    }

    #[test]
    fn mates_come_from_the_parents_niche() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let dist = |a: usize, b: usize| (position(a) - position(b)).abs();
        let mut same = 0;
        for t in 0..1000 {
            let parent = t % 20;
            let mate = crowding_mate(parent, 20, 4, &dist, &mut rng);
            assert_ne!(mate, parent);
            same += ((mate < 10) == (parent < 10)) as usize;
        }
        // With 4 candidates, a mate from the other niche needs all 4 from there: ~(10/19)^4.
        assert!(same > 900, "{same}");
        // One candidate: no crowding, about half the mates from the other niche.
        let mut same = 0;
        for t in 0..1000 {
            let parent = t % 20;
            same +=
                ((crowding_mate(parent, 20, 1, &dist, &mut rng) < 10) == (parent < 10)) as usize;
        }
        assert!((400..600).contains(&same), "{same}");
    }

    #[test]
    fn the_victim_is_similar_to_the_child_and_weak() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        // Fitness rises with the index within each niche.
        let fitness: Vec<f64> = (0..20).map(|i| (i % 10) as f64).collect();
        let child = 105.0; // in the second niche
        let to_child = |i: usize| (position(i) - child).abs();
        let mut in_niche = 0;
        let mut fitness_sum = 0.0;
        for _ in 0..1000 {
            let v = worst_among_most_similar(&fitness, 3, 4, &to_child, &mut rng);
            in_niche += (v >= 10) as usize;
            fitness_sum += fitness[v];
        }
        assert!(in_niche > 950, "{in_niche}");
        // Less fit than the niche's mean (4.5): the worst of three candidates.
        assert!(fitness_sum / 1000.0 < 4.0, "{}", fitness_sum / 1000.0);
    }
}
