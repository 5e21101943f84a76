//! Adam on the full-batch gradient, for the trainable values only, each value clamped into
//! its declared range after every step.

use kestrel_params::ParamTable;
use serde::{Deserialize, Serialize};

/// Which values move and where they must stay.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// Lowest declared value of every flat parameter.
    pub min: Vec<f64>,
    /// Highest declared value of every flat parameter.
    pub max: Vec<f64>,
    /// Whether each flat parameter moves (`false`: frozen at its start value).
    pub trainable: Vec<bool>,
}

impl Bounds {
    /// The declared range of every flat value of `table`; `trainable` names which move.
    pub fn new(table: &ParamTable, trainable: Vec<bool>) -> Bounds {
        let (mut min, mut max) = (Vec::new(), Vec::new());
        for d in table.decls {
            for _ in 0..d.width() {
                min.push(d.min as f64);
                max.push(d.max as f64);
            }
        }
        assert_eq!(trainable.len(), min.len());
        Bounds {
            min,
            max,
            trainable,
        }
    }
}

/// Adam's settings and moment estimates (saved in checkpoints, so a resumed run continues
/// with the same steps).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adam {
    /// Learning rate (step size) of every update.
    pub lr: f64,
    /// Decay of the first-moment (mean) estimate; 0.9.
    pub beta1: f64,
    /// Decay of the second-moment (uncentred variance) estimate; 0.999.
    pub beta2: f64,
    /// Added to the root of the second moment to avoid dividing by zero; 1e-8.
    pub eps: f64,
    /// Steps taken.
    pub t: u64,
    /// First-moment estimate of every value's gradient.
    pub m: Vec<f64>,
    /// Second-moment estimate of every value's gradient.
    pub v: Vec<f64>,
}

impl Adam {
    /// Adam for `len` values at rate `lr`, with β1 0.9, β2 0.999, ε 1e-8 and zero moments.
    pub fn new(len: usize, lr: f64) -> Adam {
        Adam {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            t: 0,
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }

    /// One step downhill on `grad`; frozen values are left alone, the rest clamped.
    pub fn step(&mut self, values: &mut [f64], grad: &[f64], bounds: &Bounds) {
        self.t += 1;
        let c1 = 1.0 - self.beta1.powi(self.t as i32);
        let c2 = 1.0 - self.beta2.powi(self.t as i32);
        for i in 0..values.len() {
            if !bounds.trainable[i] {
                continue;
            }
            let g = grad[i];
            self.m[i] = self.beta1 * self.m[i] + (1.0 - self.beta1) * g;
            self.v[i] = self.beta2 * self.v[i] + (1.0 - self.beta2) * g * g;
            let step = self.lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + self.eps);
            values[i] = (values[i] - step).clamp(bounds.min[i], bounds.max[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_eval::EVAL_TABLE;

    #[test]
    fn steps_respect_ranges_and_frozen_values() {
        let n = EVAL_TABLE.len();
        let mut trainable = vec![true; n];
        trainable[0] = false;
        let bounds = Bounds::new(&EVAL_TABLE, trainable);
        let mut values: Vec<f64> = EVAL_TABLE.defaults().iter().map(|&v| v as f64).collect();
        let start = values.clone();
        // Huge pushes down, then (fresh moments) up: every trainable value ends at its bound.
        for (g, at_max) in [(1e6, false), (-1e6, true)] {
            let mut adam = Adam::new(n, 500.0);
            for _ in 0..4 {
                adam.step(&mut values, &vec![g; n], &bounds);
                let in_range = |(i, v): (usize, &f64)| bounds.min[i] <= *v && *v <= bounds.max[i];
                assert!(values.iter().enumerate().all(in_range));
            }
            let ends = if at_max { &bounds.max } else { &bounds.min };
            assert_eq!(values[1..], ends[1..]);
            assert_eq!(values[0], start[0]);
        }
    }
}
