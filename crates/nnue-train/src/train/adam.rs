//! Adam with a learning-rate schedule (linear warm-up, then cosine decay to a floor), and the
//! clip every weight is held to after each step.

use rayon::prelude::*;

/// Adam's moment decay rates.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The learning rate over the run.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Schedule {
    /// The peak learning rate.
    pub lr: f32,
    /// Steps of linear warm-up from 0 to the peak.
    pub warmup_steps: u64,
    /// Steps in the whole run (the cosine ends here).
    pub total_steps: u64,
    /// The rate at the end, as a fraction of the peak.
    pub final_factor: f32,
}

impl Schedule {
    /// The rate of step `step` (from 0).
    pub fn rate(&self, step: u64) -> f32 {
        if step < self.warmup_steps {
            return self.lr * (step + 1) as f32 / self.warmup_steps as f32;
        }
        let span = self.total_steps.saturating_sub(self.warmup_steps).max(1);
        let t = ((step - self.warmup_steps) as f32 / span as f32).min(1.0);
        let cosine = 0.5 * (1.0 + (std::f32::consts::PI * t).cos());
        self.lr * (self.final_factor + (1.0 - self.final_factor) * cosine)
    }
}

/// Adam's state: the moments of every parameter and the steps taken.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub step: u64,
}

impl Adam {
    /// Fresh state for `n` parameters.
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
        }
    }

    /// One step on `params` with gradient `grad` at rate `lr`; every value is then clipped to
    /// ±`clip` (the quantised network's range).
    pub fn update(&mut self, params: &mut [f32], grad: &[f32], lr: f32, clip: Clip) {
        self.step += 1;
        let t = self.step as i32;
        let c1 = 1.0 - BETA1.powi(t);
        let c2 = 1.0 - BETA2.powi(t);
        const PIECE: usize = 4096;
        params
            .par_chunks_mut(PIECE)
            .zip(self.m.par_chunks_mut(PIECE))
            .zip(self.v.par_chunks_mut(PIECE))
            .zip(grad.par_chunks(PIECE))
            .enumerate()
            .for_each(|(chunk, (((p, m), v), g))| {
                for i in 0..p.len() {
                    let clip = clip.at(chunk * PIECE + i);
                    m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i];
                    v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i];
                    let step = lr * (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
                    p[i] = (p[i] - step).clamp(-clip, clip);
                }
            });
    }
}

/// Where each parameter is clipped after a step: the first layer to kestrel-nnue's
/// `WEIGHT_CLIP`, the output layer (from `output_start` on) to its `OUT_WEIGHT_CLIP`, the
/// bounds the quantised network needs.
#[derive(Clone, Copy, Debug)]
pub struct Clip {
    /// Index of the first output-layer parameter in the flat parameter vector.
    pub output_start: usize,
}

impl Clip {
    /// The clip of parameter `index`.
    #[inline]
    pub fn at(self, index: usize) -> f32 {
        if index < self.output_start {
            kestrel_nnue::WEIGHT_CLIP
        } else {
            kestrel_nnue::OUT_WEIGHT_CLIP
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_warms_up_then_decays_to_its_floor() {
        let s = Schedule {
            lr: 0.01,
            warmup_steps: 10,
            total_steps: 110,
            final_factor: 0.1,
        };
        assert!((s.rate(0) - 0.001).abs() < 1e-7);
        assert!((s.rate(9) - 0.01).abs() < 1e-7);
        assert!((s.rate(10) - 0.01).abs() < 1e-7);
        assert!((s.rate(60) - 0.0055).abs() < 1e-6);
        assert!((s.rate(110) - 0.001).abs() < 1e-7);
        assert!((s.rate(500) - 0.001).abs() < 1e-7);
    }

    #[test]
    fn the_clip_is_the_networks() {
        let mut net = kestrel_nnue::FloatNetwork::zeros(1);
        let clip = Clip { output_start: 769 };
        net.ft_bias[0] = clip.at(768);
        net.out_weights[0] = clip.at(769);
        assert!(net.within_clip());
        net.ft_bias[0] = clip.at(768) + 1e-4;
        assert!(!net.within_clip());
        net.ft_bias[0] = 0.0;
        net.out_weights[0] = clip.at(769) + 1e-4;
        assert!(!net.within_clip());
    }

    #[test]
    fn adam_moves_against_the_gradient_and_clips() {
        let mut adam = Adam::new(3);
        let mut p = vec![0.0, 1.97, -0.98];
        let clip = Clip { output_start: 2 };
        adam.update(&mut p, &[1.0, -1.0, 1.0], 0.1, clip);
        assert!(p[0] < -0.09, "{p:?}");
        assert_eq!(p[1], kestrel_nnue::WEIGHT_CLIP);
        assert_eq!(p[2], -kestrel_nnue::OUT_WEIGHT_CLIP);
    }
}
