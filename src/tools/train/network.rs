//! The float network the trainer fits, the same as the engine's:
//! `INPUTS → HIDDEN` per perspective with weights shared by both
//! perspectives, SCReLU `clamp(x, 0, 1)²`, both halves concatenated (side
//! to move first) into one output, `eval_cp = output × SCALE`. All its
//! parameters are in one vector, in the order of the network file.
//!
//! The loss of a position is `(sigmoid(eval_cp / K) − target)²`, the target
//! `λ · result + (1 − λ) · sigmoid(score / K)` ([`target`]).

use crate::board::zobrist::SplitMix64;
use crate::eval::nnue::format::{HIDDEN, INPUTS, QA, SCALE};

/// Feature weights, `INPUTS × HIDDEN`, input-major, start at 0.
pub const FT_WEIGHTS: usize = 0;
/// Where the `HIDDEN` feature biases start.
pub const FT_BIAS: usize = INPUTS * HIDDEN;
/// Where the `2 × HIDDEN` output weights start (the side to move's half first).
pub const OUT_WEIGHTS: usize = FT_BIAS + HIDDEN;
/// Where the output bias is.
pub const OUT_BIAS: usize = OUT_WEIGHTS + 2 * HIDDEN;
/// Number of parameters.
pub const PARAMS: usize = OUT_BIAS + 1;
/// Centipawns per unit of the logistic's argument.
pub const K: f32 = 400.0;
/// Bound of the output weights: quantised with QB they stay within ±127,
/// so the integer output sum fits an i32.
pub const OUT_CLIP: f32 = 1.98;
/// Bound of the feature weights and biases: quantised with QA they fit an i16.
pub const FT_CLIP: f32 = i16::MAX as f32 / QA as f32;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of a position with search score `score` and game result
/// `result` in halves (2 win, 1 draw, 0 loss), both from the side to
/// move's view, with weight `lambda` on the result.
#[inline]
pub fn target(score: i16, result: u8, lambda: f32) -> f32 {
    lambda * result as f32 / 2.0 + (1.0 - lambda) * sigmoid(score as f32 / K)
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Every parameter, laid out as the constants above say.
    pub params: Vec<f32>,
}

/// The hidden layer's values for the side to move and for the other side.
type Accumulators = ([f32; HIDDEN], [f32; HIDDEN]);

/// SCReLU.
#[inline]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl Network {
    /// A network with small random weights drawn from `seed`: feature
    /// weights uniform in ±0.1 (about 30 active inputs put a hidden unit
    /// within ±0.5), output weights uniform in ±1/16, biases zero.
    pub fn random(seed: u64) -> Network {
        let mut rng = SplitMix64(seed ^ 0x4E4E_5545);
        let mut uniform =
            |bound: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * bound;
        let mut params = vec![0.0; PARAMS];
        for w in &mut params[FT_WEIGHTS..FT_BIAS] {
            *w = uniform(0.1);
        }
        for w in &mut params[OUT_WEIGHTS..OUT_BIAS] {
            *w = uniform(1.0 / 16.0);
        }
        Network { params }
    }

    /// The feature weights of input `i`.
    #[inline]
    fn row(&self, i: u16) -> &[f32] {
        let start = FT_WEIGHTS + i as usize * HIDDEN;
        &self.params[start..start + HIDDEN]
    }

    /// The hidden layer before SCReLU, for both views.
    #[inline]
    fn accumulate(&self, inputs: &[[u16; 2]]) -> Accumulators {
        let mut us = [0.0; HIDDEN];
        us.copy_from_slice(&self.params[FT_BIAS..OUT_WEIGHTS]);
        let mut them = us;
        for &[u, t] in inputs {
            for (a, w) in us.iter_mut().zip(self.row(u)) {
                *a += w;
            }
            for (a, w) in them.iter_mut().zip(self.row(t)) {
                *a += w;
            }
        }
        (us, them)
    }

    /// The output for `acc`.
    #[inline]
    fn output(&self, (us, them): &Accumulators) -> f32 {
        let w = &self.params[OUT_WEIGHTS..OUT_BIAS];
        let mut out = self.params[OUT_BIAS];
        for j in 0..HIDDEN {
            out += screlu(us[j]) * w[j] + screlu(them[j]) * w[HIDDEN + j];
        }
        out
    }

    /// The evaluation in centipawns, side to move's view, of a position
    /// with active `inputs` ([`super::data::Dataset::inputs`]).
    pub fn eval_cp(&self, inputs: &[[u16; 2]]) -> f32 {
        self.output(&self.accumulate(inputs)) * SCALE as f32
    }

    /// The loss of a position against `target`.
    pub fn loss(&self, inputs: &[[u16; 2]], target: f32) -> f32 {
        let p = sigmoid(self.eval_cp(inputs) / K);
        (p - target) * (p - target)
    }

    /// The loss of a position against `target`; adds its gradient to `grad`.
    pub fn backprop(&self, inputs: &[[u16; 2]], target: f32, grad: &mut [f32]) -> f32 {
        let acc = self.accumulate(inputs);
        let p = sigmoid(self.output(&acc) * SCALE as f32 / K);
        let g = 2.0 * (p - target) * p * (1.0 - p) * SCALE as f32 / K;
        grad[OUT_BIAS] += g;
        let w = &self.params[OUT_WEIGHTS..OUT_BIAS];
        let (mut d_us, mut d_them) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
        let out_grad = &mut grad[OUT_WEIGHTS..OUT_BIAS];
        for j in 0..HIDDEN {
            let (u, t) = (acc.0[j].clamp(0.0, 1.0), acc.1[j].clamp(0.0, 1.0));
            out_grad[j] += g * u * u;
            out_grad[HIDDEN + j] += g * t * t;
            // d clamp(x)² / dx = 2 clamp(x) inside (0, 1), zero outside.
            d_us[j] = if acc.0[j] < 1.0 { g * w[j] * 2.0 * u } else { 0.0 };
            d_them[j] = if acc.1[j] < 1.0 { g * w[HIDDEN + j] * 2.0 * t } else { 0.0 };
        }
        for (b, (du, dt)) in grad[FT_BIAS..OUT_WEIGHTS].iter_mut().zip(d_us.iter().zip(&d_them)) {
            *b += du + dt;
        }
        for &[u, t] in inputs {
            let row = |i: u16| FT_WEIGHTS + i as usize * HIDDEN..FT_WEIGHTS + (i as usize + 1) * HIDDEN;
            for (gw, d) in grad[row(u)].iter_mut().zip(&d_us) {
                *gw += d;
            }
            for (gw, d) in grad[row(t)].iter_mut().zip(&d_them) {
                *gw += d;
            }
        }
        (p - target) * (p - target)
    }

    /// Clips every parameter to the range it is quantised in: the feature
    /// weights and biases to ±[`FT_CLIP`], the output weights to ±[`OUT_CLIP`].
    pub fn clip(&mut self) {
        for w in &mut self.params[FT_WEIGHTS..OUT_WEIGHTS] {
            *w = w.clamp(-FT_CLIP, FT_CLIP);
        }
        for w in &mut self.params[OUT_WEIGHTS..OUT_BIAS] {
            *w = w.clamp(-OUT_CLIP, OUT_CLIP);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two positions' inputs, with repeated rows across views.
    fn positions() -> Vec<Vec<[u16; 2]>> {
        vec![vec![[4, 634], [90 * 7 + 81, 9], [200, 1100], [1259, 0]], vec![[4, 5], [5, 4], [700, 12]]]
    }

    #[test]
    fn the_gradient_is_the_derivative_of_the_loss() {
        let mut net = Network::random(3);
        // Units on both sides of the SCReLU's kinks, and a real bias.
        for (j, b) in net.params[FT_BIAS..OUT_WEIGHTS].iter_mut().enumerate() {
            *b = (j % 5) as f32 * 0.2 - 0.1;
        }
        net.params[OUT_BIAS] = 0.3;
        let targets = [0.8, 0.2];
        let total = |net: &Network| -> f64 {
            positions().iter().zip(targets).map(|(p, t)| net.loss(p, t) as f64).sum()
        };
        let mut grad = vec![0.0; PARAMS];
        for (p, t) in positions().iter().zip(targets) {
            net.backprop(p, t, &mut grad);
        }
        let checked = [
            FT_WEIGHTS + 4 * HIDDEN + 7,
            FT_WEIGHTS + 5 * HIDDEN + 2,
            FT_WEIGHTS + 634 * HIDDEN + 1,
            FT_WEIGHTS + 1259 * HIDDEN + 101,
            FT_BIAS + 3,
            FT_BIAS + 64,
            OUT_WEIGHTS + 2,
            OUT_WEIGHTS + HIDDEN + 77,
            OUT_BIAS,
        ];
        for i in checked {
            let h = 1e-2;
            let (mut up, mut down) = (net.clone(), net.clone());
            up.params[i] += h;
            down.params[i] -= h;
            let numeric = (total(&up) - total(&down)) / (2.0 * h as f64);
            let analytic = grad[i] as f64;
            assert!(
                (numeric - analytic).abs() <= 1e-2 * analytic.abs() + 5e-6,
                "parameter {i}: analytic {analytic}, finite difference {numeric}"
            );
            assert!(analytic.abs() > 1e-4, "parameter {i}: a gradient of {analytic} checks little");
        }
    }

    #[test]
    fn the_target_mixes_result_and_score() {
        assert_eq!(target(0, 2, 1.0), 1.0);
        assert_eq!(target(0, 0, 0.0), 0.5);
        assert!((target(400, 1, 0.3) - (0.15 + 0.7 * sigmoid(1.0))).abs() < 1e-6);
    }

    #[test]
    fn clipping_keeps_the_quantised_range() {
        let mut net = Network::random(1);
        net.params[FT_WEIGHTS] = 500.0;
        net.params[FT_BIAS] = -500.0;
        net.params[OUT_WEIGHTS] = 3.0;
        net.params[OUT_BIAS] = 5.0;
        net.clip();
        assert_eq!(net.params[FT_WEIGHTS], FT_CLIP);
        assert_eq!(net.params[FT_BIAS], -FT_CLIP);
        assert_eq!(net.params[OUT_WEIGHTS], OUT_CLIP);
        assert_eq!(net.params[OUT_BIAS], 5.0);
        assert!((FT_CLIP * QA as f32).round() <= i16::MAX as f32);
    }
}
