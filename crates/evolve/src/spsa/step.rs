//! One SPSA iteration's arithmetic: the ±1 perturbation, the two evaluation points rounded to
//! integers probabilistically (so that a perturbation smaller than 1 still moves the engine on
//! average), and the update of θ from the duel's W − L.

use super::schedule::{SpsaParam, SpsaSettings};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The random stream of iteration `k`, derived from the seed alone so that a resumed run
/// draws exactly what an uninterrupted one draws.
pub fn iteration_rng(seed: u64, k: u64) -> ChaCha8Rng {
    // SplitMix64-style mixing keeps nearby (seed, k) pairs far apart.
    let mut z = seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ChaCha8Rng::seed_from_u64(z ^ (z >> 31))
}

/// `x` rounded down or up with the probability of its fractional part.
pub fn round_probabilistic(x: f64, rng: &mut impl Rng) -> i32 {
    let floor = x.floor();
    let up = rng.random::<f64>() < x - floor;
    floor as i32 + i32::from(up)
}

/// The perturbation and the two points of one iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// ±1 per parameter.
    pub delta: Vec<i8>,
    /// θ + c_k·Δ, clamped to the range; integer values rounded probabilistically (as
    /// OpenBench does), real (`float`) values as they are.
    pub plus: Vec<f64>,
    /// θ − c_k·Δ, clamped and rounded likewise.
    pub minus: Vec<f64>,
}

/// Draws iteration `k`'s perturbation around `theta`.
pub fn perturb(
    params: &[SpsaParam],
    settings: &SpsaSettings,
    theta: &[f64],
    k: u64,
) -> Perturbation {
    let mut rng = iteration_rng(settings.seed, k);
    let delta: Vec<i8> = params
        .iter()
        .map(|_| if rng.random::<bool>() { 1 } else { -1 })
        .collect();
    let mut point = |sign: f64| -> Vec<f64> {
        params
            .iter()
            .zip(theta)
            .zip(&delta)
            .map(|((p, &t), &d)| {
                let (c_k, _) = settings.gains(p, k);
                let x = (t + sign * c_k * f64::from(d)).clamp(p.min, p.max);
                if p.float {
                    x
                } else {
                    f64::from(round_probabilistic(x, &mut rng).clamp(p.min as i32, p.max as i32))
                }
            })
            .collect()
    };
    let plus = point(1.0);
    let minus = point(-1.0);
    Perturbation { delta, plus, minus }
}

/// θ after an iteration whose duel gave θ+ the result `wins − losses`.
pub fn update(
    params: &[SpsaParam],
    settings: &SpsaSettings,
    theta: &[f64],
    delta: &[i8],
    k: u64,
    wins_minus_losses: f64,
) -> Vec<f64> {
    params
        .iter()
        .zip(theta)
        .zip(delta)
        .map(|((p, &t), &d)| {
            let (c_k, a_k) = settings.gains(p, k);
            if p.frozen() {
                return t;
            }
            (t + a_k / c_k * wins_minus_losses * f64::from(d)).clamp(p.min, p.max)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilistic_rounding_is_unbiased() {
        let mut rng = iteration_rng(7, 1);
        let n = 20_000;
        let sum: i64 = (0..n)
            .map(|_| i64::from(round_probabilistic(2.3, &mut rng)))
            .sum();
        let mean = sum as f64 / n as f64;
        // Binomial: sd of the mean = sqrt(0.21/20000) = 0.0032; 5 sd = 0.016.
        assert!((mean - 2.3).abs() < 0.016, "{mean}");
        assert_eq!(round_probabilistic(-1.0, &mut rng), -1);
        let r = round_probabilistic(-1.5, &mut rng);
        assert!(r == -2 || r == -1);
    }

    #[test]
    fn plus_and_minus_straddle_theta_and_stay_in_range() {
        let params = vec![
            SpsaParam {
                name: "A".into(),
                start: 50.0,
                min: 0.0,
                max: 100.0,
                c_end: 5.0,
                r_end: 0.002,
                float: false,
            },
            SpsaParam {
                name: "B".into(),
                start: 1.0,
                min: 0.0,
                max: 2.0,
                c_end: 1.0,
                r_end: 0.002,
                float: false,
            },
        ];
        let s = SpsaSettings::new(100, 3);
        let p = perturb(&params, &s, &[50.0, 1.0], 1);
        assert_eq!(p, perturb(&params, &s, &[50.0, 1.0], 1), "seeded");
        let (c1, _) = s.gains(&params[0], 1);
        let expected = 50.0 + c1 * f64::from(p.delta[0]);
        assert!((p.plus[0] - expected).abs() < 1.0 && p.plus[0].fract() == 0.0);
        assert!((0.0..=2.0).contains(&p.plus[1]) && (0.0..=2.0).contains(&p.minus[1]));
        // A win for θ+ moves θ towards θ+.
        let next = update(&params, &s, &[50.0, 1.0], &p.delta, 1, 1.0);
        assert_eq!((next[0] - 50.0).signum(), f64::from(p.delta[0]));
    }
}
