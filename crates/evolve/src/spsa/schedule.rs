//! The gain schedule of OpenBench's SPSA: per parameter, `c = c_end · N^γ` and
//! `a = r_end · c_end² · (A + N)^α`, so that at the last iteration `c_N = c_end` (the declared
//! step) and `a_N / c_N² = r_end`. Iteration `k` (from 1) perturbs by `c_k = c / k^γ` and
//! learns at `a_k = a / (A + k)^α`.

use serde::{Deserialize, Serialize};

/// One tuned value: its start, range, end perturbation (`c_end`, the declared step) and end
/// learning rate (`r_end`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    /// Parameter name (the tuned element's name).
    pub name: String,
    /// Start value of θ, inside `[min, max]`.
    pub start: f64,
    /// Lowest value θ, θ+ and θ− may take.
    pub min: f64,
    /// Highest value θ, θ+ and θ− may take (above `min`).
    pub max: f64,
    /// End perturbation; 0 freezes the value (it keeps its start and is never perturbed).
    pub c_end: f64,
    /// End learning rate: `a_N / c_N²` at the last iteration (above 0).
    pub r_end: f64,
    /// A real value (OpenBench's `float`): sent as it is, never rounded.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub float: bool,
}

impl SpsaParam {
    /// Whether the value is frozen (`c_end` 0): it keeps its start.
    pub fn frozen(&self) -> bool {
        self.c_end == 0.0
    }

    /// A clear error for a negative step, an empty range or a start outside the range.
    pub fn validate(&self) -> Result<(), String> {
        let n = &self.name;
        if !(self.c_end >= 0.0 && self.c_end.is_finite()) {
            return Err(format!(
                "{n}: step (c_end) must be 0 (frozen) or above, got {}",
                self.c_end
            ));
        }
        if !(self.r_end > 0.0 && self.r_end.is_finite()) {
            return Err(format!("{n}: r_end must be above 0, got {}", self.r_end));
        }
        if self.min.is_nan() || self.max.is_nan() || self.min >= self.max {
            return Err(format!("{n}: empty range [{}, {}]", self.min, self.max));
        }
        if !(self.min..=self.max).contains(&self.start) {
            return Err(format!(
                "{n}: start value {} is outside its range [{}, {}]",
                self.start, self.min, self.max
            ));
        }
        Ok(())
    }
}

/// Run settings (fishtest's and OpenBench's defaults for α, γ and A).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaSettings {
    /// Iterations N (one iteration = one duel of θ+ against θ−).
    pub iterations: u64,
    /// Decay exponent α of the learning gain `a_k = a / (A + k)^α` (0.602 by default).
    pub alpha: f64,
    /// Decay exponent γ of the perturbation `c_k = c / k^γ` (0.101 by default).
    pub gamma: f64,
    /// A as a fraction of N (0.1: A = 10% of the iterations).
    pub a_fraction: f64,
    /// Seed of every iteration's random stream (perturbation signs and probabilistic rounding).
    pub seed: u64,
    /// Write the checkpoint every this many iterations (and at the end).
    pub checkpoint_every: u64,
    /// Iterations drawn from the same θ and played side by side (1: classic SPSA, one duel
    /// after another). More keep every core busy between θ updates; the updates are still
    /// applied one iteration at a time, in order, so the run depends on the batch but never on
    /// the threads or the executor.
    #[serde(default = "one")]
    pub batch: u64,
    /// Batches played ahead: the batch starting at iteration `k` is drawn around θ after
    /// iteration `k − 1 − lag·batch` (the θ of `lag` batches back), so the next batches' pairs
    /// can start while the last pairs of a batch finish. 0: classic, every batch waits for the
    /// one before. The updates are still applied in order, so the run depends on the lag but
    /// never on timing, threads or the executor.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lag: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// The most batches a run may play ahead (each batch in play holds a thread).
pub const MAX_LAG: u64 = 16;

fn one() -> u64 {
    1
}

impl SpsaSettings {
    /// α = 0.602, γ = 0.101, A = 10% of the iterations, a checkpoint every 10 iterations,
    /// batches of 1, no lag.
    pub fn new(iterations: u64, seed: u64) -> SpsaSettings {
        SpsaSettings {
            iterations,
            alpha: 0.602,
            gamma: 0.101,
            a_fraction: 0.1,
            seed,
            checkpoint_every: 10,
            batch: 1,
            lag: 0,
        }
    }

    /// A clear error for settings no run can use.
    pub fn validate(&self) -> Result<(), String> {
        if self.iterations == 0 {
            return Err("SPSA needs at least 1 iteration".into());
        }
        if self.checkpoint_every == 0 {
            return Err("checkpoint interval must be at least 1".into());
        }
        if self.batch == 0 {
            return Err("an SPSA batch must hold at least 1 iteration".into());
        }
        if self.lag > MAX_LAG {
            return Err(format!(
                "an SPSA lag of {} batches is more than the {MAX_LAG} allowed",
                self.lag
            ));
        }
        for (name, v) in [("alpha", self.alpha), ("gamma", self.gamma)] {
            if !(v > 0.0 && v.is_finite()) {
                return Err(format!("SPSA {name} must be above 0, got {v}"));
            }
        }
        if !(self.a_fraction >= 0.0 && self.a_fraction.is_finite()) {
            return Err(format!(
                "SPSA A fraction must be >= 0, got {}",
                self.a_fraction
            ));
        }
        Ok(())
    }

    /// A (the stability constant).
    pub fn big_a(&self) -> f64 {
        self.a_fraction * self.iterations as f64
    }

    /// The iteration whose θ the batch starting at iteration `first` is drawn around: the one
    /// before it without lag, `lag` batches earlier with (0: the start values).
    pub fn theta_source(&self, first: u64) -> u64 {
        first.saturating_sub(1 + self.lag.saturating_mul(self.batch))
    }

    /// `(c_k, a_k)` of `param` at iteration `k` (1-based); both 0 for a frozen value.
    pub fn gains(&self, param: &SpsaParam, k: u64) -> (f64, f64) {
        if param.frozen() {
            return (0.0, 0.0);
        }
        let n = self.iterations as f64;
        let c = param.c_end * n.powf(self.gamma);
        let a = param.r_end * param.c_end * param.c_end * (self.big_a() + n).powf(self.alpha);
        let k = k as f64;
        (
            c / k.powf(self.gamma),
            a / (self.big_a() + k).powf(self.alpha),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param() -> SpsaParam {
        SpsaParam {
            name: "X".into(),
            start: 100.0,
            min: 0.0,
            max: 1000.0,
            c_end: 10.0,
            r_end: 0.002,
            float: false,
        }
    }

    #[test]
    fn last_iteration_ends_at_c_end_and_r_end() {
        let s = SpsaSettings::new(1000, 1);
        let (c, a) = s.gains(&param(), 1000);
        assert!((c - 10.0).abs() < 1e-9, "{c}");
        assert!((a / (c * c) - 0.002).abs() < 1e-12, "{a}");
        // First iteration: c_1 = 10 * 1000^0.101 = 20.091; a_1 = 0.2 * 1100^0.602 / 101^0.602.
        let (c1, a1) = s.gains(&param(), 1);
        assert!((c1 - 10.0 * 1000f64.powf(0.101)).abs() < 1e-9);
        assert!((c1 - 20.091).abs() < 1e-3, "{c1}");
        assert!((a1 - 0.2 * (1100f64 / 101.0).powf(0.602)).abs() < 1e-12);
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(param().validate().is_ok());
        let mut p = param();
        p.c_end = -1.0;
        assert!(p.validate().unwrap_err().contains("step"));
        p.c_end = 0.0;
        assert!(p.validate().is_ok() && p.frozen());
        assert_eq!(SpsaSettings::new(10, 1).gains(&p, 3), (0.0, 0.0));
        let mut p = param();
        p.start = 2000.0;
        assert!(p.validate().unwrap_err().contains("outside its range"));
        assert!(SpsaSettings::new(0, 1).validate().is_err());
    }
}
