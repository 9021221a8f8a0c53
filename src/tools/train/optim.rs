//! AdamW (Adam with decoupled weight decay) and the learning-rate schedule.

use std::ops::Range;

/// Adam's first-moment decay.
const BETA1: f32 = 0.9;
/// Adam's second-moment decay.
const BETA2: f32 = 0.999;
/// Adam's guard against division by zero.
const EPSILON: f32 = 1e-8;
/// The learning rate falls to this fraction of `--lr` by the last step.
pub const FINAL_LR_FRACTION: f64 = 0.05;

/// The optimizer's state: one pair of moments per parameter and the steps taken.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub steps: u64,
}

impl AdamW {
    /// Fresh state for `n` parameters.
    pub fn new(n: usize) -> AdamW {
        AdamW { m: vec![0.0; n], v: vec![0.0; n], steps: 0 }
    }

    /// One step on `params` along the gradient `grad` times `scale` (one
    /// over the batch size for a sum of gradients), each group of
    /// parameters `(range, lr, wd)` with its learning rate `lr` and
    /// decoupled weight decay `wd` (the parameters shrink by `lr · wd`).
    /// Parameters in no group stay as they are.
    pub fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        scale: f32,
        groups: &[(Range<usize>, f32, f32)],
    ) {
        self.steps += 1;
        let t = self.steps.min(i32::MAX as u64) as i32;
        let (c1, c2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        for (range, lr, wd) in groups.iter().cloned() {
            let decay = 1.0 - lr * wd;
            let (m, v) = (&mut self.m[range.clone()], &mut self.v[range.clone()]);
            for (((p, &g), m), v) in params[range.clone()].iter_mut().zip(&grad[range]).zip(m).zip(v) {
                let g = g * scale;
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                *p = *p * decay - lr * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
            }
        }
    }
}

/// The learning rate of step `step` (from 0) of `total`: a cosine from
/// `lr` down to `lr · FINAL_LR_FRACTION`.
pub fn cosine(lr: f64, step: u64, total: u64) -> f64 {
    let progress = step as f64 / total.max(1) as f64;
    let low = lr * FINAL_LR_FRACTION;
    low + (lr - low) * 0.5 * (1.0 + (std::f64::consts::PI * progress.min(1.0)).cos())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_moves_each_parameter_by_about_the_learning_rate() {
        let mut adam = AdamW::new(3);
        let mut p = vec![1.0, 1.0, 0.0];
        adam.step(&mut p, &[2.0, -0.001, 0.0], 1.0, &[(0..3, 0.01, 0.0)]);
        assert!((p[0] - 0.99).abs() < 1e-5 && (p[1] - 1.01).abs() < 1e-4, "{p:?}");
        assert_eq!(p[2], 0.0);
        let mut decayed = vec![1.0];
        AdamW::new(1).step(&mut decayed, &[0.0], 1.0, &[(0..1, 0.1, 0.5)]);
        assert!((decayed[0] - 0.95).abs() < 1e-6);
        // Two groups, each at its own rate; a parameter outside both stays.
        let mut p = vec![1.0, 1.0, 1.0];
        AdamW::new(3).step(&mut p, &[1.0, 1.0, 1.0], 1.0, &[(0..1, 0.01, 0.0), (1..2, 0.001, 0.0)]);
        assert!((p[0] - 0.99).abs() < 1e-5 && (p[1] - 0.999).abs() < 1e-6 && p[2] == 1.0, "{p:?}");
    }

    #[test]
    fn the_schedule_falls_from_lr_to_its_floor() {
        assert_eq!(cosine(0.01, 0, 100), 0.01);
        assert!((cosine(0.01, 50, 100) - 0.01 * (1.0 + FINAL_LR_FRACTION) / 2.0).abs() < 1e-12);
        assert!((cosine(0.01, 100, 100) - 0.01 * FINAL_LR_FRACTION).abs() < 1e-12);
    }
}
