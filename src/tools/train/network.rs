//! The float network the trainer fits, the same as the engine's: inputs
//! ([`FeatureSet`]) → `HIDDEN` per perspective with weights shared by both
//! perspectives, SCReLU `clamp(x, 0, 1)²`, both halves concatenated (side
//! to move first) into one output, `eval_cp = output × SCALE`. All its
//! parameters are in one vector ([`Layout`]).
//!
//! With king buckets the trainer also learns a *factor*: one row per
//! (plane, square) shared by all nine buckets, added to the bucket's own row
//! wherever that input is active (Stockfish's trainer calls these virtual
//! features). The engine's row of an input is the sum, folded at export
//! ([`Network::engine_row`]). Every position teaches the shared rows, so a
//! piece-square seen rarely in one bucket still gets the value it has in
//! the others, and the buckets learn only what differs; weight decay pulls
//! the buckets' own rows toward zero, toward the shared value. A plain
//! network started from ([`Network::rebucket`]) becomes the factor, with
//! every bucket's own row zero: the same evaluations, to go on from.
//!
//! The loss of a position is `(sigmoid(eval_cp / K) − target)²`, the target
//! `λ · result + (1 − λ) · sigmoid(score / K)` ([`target`]).

use crate::board::zobrist::SplitMix64;
use crate::eval::nnue::features::{FeatureSet, plain_of_compact};
use crate::eval::nnue::format::{HIDDEN, QA, SCALE};

/// Centipawns per unit of the logistic's argument.
pub const K: f32 = 400.0;
/// Bound of the output weights: quantised with QB they stay within ±127,
/// so the integer output sum fits an i32.
pub const OUT_CLIP: f32 = 1.98;
/// Bound of the feature weights and biases: quantised with QA they fit an
/// i16 (an input's own row and its factor row each get half).
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

/// Where each group of parameters starts in [`Network::params`], in the
/// order of the network file with the factor rows after the feature weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The inputs.
    pub features: FeatureSet,
    /// Rows of the factor (0 for the plain set).
    pub factor_rows: usize,
    /// The factor rows, `factor_rows × HIDDEN` (the feature weights,
    /// `features.inputs() × HIDDEN`, start at 0).
    pub factor: usize,
    /// The `HIDDEN` feature biases.
    pub ft_bias: usize,
    /// The `2 × HIDDEN` output weights (the side to move's half first).
    pub out_weights: usize,
    /// The output bias.
    pub out_bias: usize,
    /// Number of parameters.
    pub params: usize,
}

impl Layout {
    /// The layout of a network reading `features`.
    pub const fn of(features: FeatureSet) -> Layout {
        let factor_rows = match features {
            FeatureSet::Plain => 0,
            FeatureSet::KingBuckets => features.bucket_inputs(),
        };
        let factor = features.inputs() * HIDDEN;
        let ft_bias = factor + factor_rows * HIDDEN;
        let out_weights = ft_bias + HIDDEN;
        let out_bias = out_weights + 2 * HIDDEN;
        Layout { features, factor_rows, factor, ft_bias, out_weights, out_bias, params: out_bias + 1 }
    }

    /// The factor row of input `i` (a row index), if the set has a factor.
    #[inline(always)]
    fn factor_row(&self, i: usize) -> Option<usize> {
        (self.factor_rows > 0).then(|| self.factor / HIDDEN + i % self.factor_rows)
    }
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Where the parameters are.
    pub layout: Layout,
    /// Every parameter, laid out as [`Network::layout`] says.
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
    /// A network reading `features` with small random weights drawn from
    /// `seed`: feature weights uniform in ±0.1 (about 30 active inputs put
    /// a hidden unit within ±0.5; the factor rows start at zero), output
    /// weights uniform in ±1/16, biases zero.
    pub fn random(features: FeatureSet, seed: u64) -> Network {
        let layout = Layout::of(features);
        let mut rng = SplitMix64(seed ^ 0x4E4E_5545);
        let mut uniform =
            |bound: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * bound;
        let mut params = vec![0.0; layout.params];
        for w in &mut params[..layout.factor] {
            *w = uniform(0.1);
        }
        for w in &mut params[layout.out_weights..layout.out_bias] {
            *w = uniform(1.0 / 16.0);
        }
        Network { layout, params }
    }

    /// A network of the plain set turned into one reading `features` with
    /// the same evaluations where the plain one's inputs meet the new set's
    /// (see the module comment): the plain rows become the factor.
    pub fn rebucket(&self, features: FeatureSet) -> Network {
        if self.layout.features == features || self.layout.features != FeatureSet::Plain {
            return self.clone();
        }
        let (from, to) = (self.layout, Layout::of(features));
        let mut params = vec![0.0; to.params];
        for c in 0..to.factor_rows {
            let p = plain_of_compact(c);
            params[to.factor + c * HIDDEN..to.factor + (c + 1) * HIDDEN]
                .copy_from_slice(&self.params[p * HIDDEN..(p + 1) * HIDDEN]);
        }
        params[to.ft_bias..].copy_from_slice(&self.params[from.ft_bias..]);
        Network { layout: to, params }
    }

    /// The engine's weights of input `i`: its own row plus its factor row.
    pub fn engine_row(&self, i: usize) -> impl Iterator<Item = f32> + '_ {
        let own = &self.params[i * HIDDEN..(i + 1) * HIDDEN];
        let factor = self.layout.factor_row(i).map(|f| &self.params[f * HIDDEN..(f + 1) * HIDDEN]);
        own.iter().enumerate().map(move |(j, w)| w + factor.map_or(0.0, |f| f[j]))
    }

    /// The hidden layer before SCReLU, for both views.
    #[inline]
    fn accumulate(&self, inputs: &[[u16; 2]]) -> Accumulators {
        let mut us = [0.0; HIDDEN];
        us.copy_from_slice(&self.params[self.layout.ft_bias..self.layout.out_weights]);
        let mut them = us;
        for pair in inputs {
            for (acc, &i) in [&mut us, &mut them].into_iter().zip(pair) {
                for row in self.rows(i as usize) {
                    for (a, w) in acc.iter_mut().zip(&self.params[row..row + HIDDEN]) {
                        *a += w;
                    }
                }
            }
        }
        (us, them)
    }

    /// Where the rows input `i` adds start: its own, then its factor's.
    #[inline(always)]
    fn rows(&self, i: usize) -> impl Iterator<Item = usize> {
        std::iter::once(i * HIDDEN).chain(self.layout.factor_row(i).map(|f| f * HIDDEN))
    }

    /// The output for `acc`.
    #[inline]
    fn output(&self, (us, them): &Accumulators) -> f32 {
        let w = &self.params[self.layout.out_weights..self.layout.out_bias];
        let mut out = self.params[self.layout.out_bias];
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
        let l = self.layout;
        let acc = self.accumulate(inputs);
        let p = sigmoid(self.output(&acc) * SCALE as f32 / K);
        let g = 2.0 * (p - target) * p * (1.0 - p) * SCALE as f32 / K;
        grad[l.out_bias] += g;
        let w = &self.params[l.out_weights..l.out_bias];
        let (mut d_us, mut d_them) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
        let out_grad = &mut grad[l.out_weights..l.out_bias];
        for j in 0..HIDDEN {
            let (u, t) = (acc.0[j].clamp(0.0, 1.0), acc.1[j].clamp(0.0, 1.0));
            out_grad[j] += g * u * u;
            out_grad[HIDDEN + j] += g * t * t;
            // d clamp(x)² / dx = 2 clamp(x) inside (0, 1), zero outside.
            d_us[j] = if acc.0[j] < 1.0 { g * w[j] * 2.0 * u } else { 0.0 };
            d_them[j] = if acc.1[j] < 1.0 { g * w[HIDDEN + j] * 2.0 * t } else { 0.0 };
        }
        for (b, (du, dt)) in grad[l.ft_bias..l.out_weights].iter_mut().zip(d_us.iter().zip(&d_them)) {
            *b += du + dt;
        }
        for pair in inputs {
            for (d, &i) in [&d_us, &d_them].into_iter().zip(pair) {
                for row in self.rows(i as usize) {
                    for (gw, d) in grad[row..row + HIDDEN].iter_mut().zip(d) {
                        *gw += d;
                    }
                }
            }
        }
        (p - target) * (p - target)
    }

    /// Clips every parameter to the range it is quantised in: the feature
    /// weights and biases to ±[`FT_CLIP`] (an input's own and factor rows
    /// to half that each, when there is a factor), the output weights to
    /// ±[`OUT_CLIP`].
    pub fn clip(&mut self) {
        let l = self.layout;
        let rows = if l.factor_rows > 0 { FT_CLIP / 2.0 } else { FT_CLIP };
        for w in &mut self.params[..l.ft_bias] {
            *w = w.clamp(-rows, rows);
        }
        for w in &mut self.params[l.ft_bias..l.out_weights] {
            *w = w.clamp(-FT_CLIP, FT_CLIP);
        }
        for w in &mut self.params[l.out_weights..l.out_bias] {
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
        for features in FeatureSet::ALL {
            gradient_check(features);
        }
    }

    fn gradient_check(features: FeatureSet) {
        let mut net = Network::random(features, 3);
        let l = net.layout;
        // Units on both sides of the SCReLU's kinks, a real bias and factor.
        for (j, b) in net.params[l.ft_bias..l.out_weights].iter_mut().enumerate() {
            *b = (j % 5) as f32 * 0.2 - 0.1;
        }
        for (j, f) in net.params[l.factor..l.ft_bias].iter_mut().enumerate() {
            *f = (j % 7) as f32 * 0.02 - 0.06;
        }
        net.params[l.out_bias] = 0.3;
        let targets = [0.8, 0.2];
        let total = |net: &Network| -> f64 {
            positions().iter().zip(targets).map(|(p, t)| net.loss(p, t) as f64).sum()
        };
        let mut grad = vec![0.0; l.params];
        for (p, t) in positions().iter().zip(targets) {
            net.backprop(p, t, &mut grad);
        }
        let mut checked = vec![
            4 * HIDDEN + 7,
            5 * HIDDEN + 2,
            634 * HIDDEN + 1,
            1259 * HIDDEN + 101,
            l.ft_bias + 3,
            l.ft_bias + 64,
            l.out_weights + 2,
            l.out_weights + HIDDEN + 77,
            l.out_bias,
        ];
        if l.factor_rows > 0 {
            // The shared rows of inputs 4 and 634.
            checked.extend([l.factor + 4 * HIDDEN + 7, l.factor + (634 % l.factor_rows) * HIDDEN + 1]);
        }
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
        for features in FeatureSet::ALL {
            let mut net = Network::random(features, 1);
            let l = net.layout;
            net.params[0] = 500.0;
            net.params[l.factor] = -500.0;
            net.params[l.ft_bias] = -500.0;
            net.params[l.out_weights] = 3.0;
            net.params[l.out_bias] = 5.0;
            net.clip();
            let row = if l.factor_rows > 0 { FT_CLIP / 2.0 } else { FT_CLIP };
            assert_eq!(net.params[0], row);
            assert_eq!(net.engine_row(0).next(), Some(if l.factor_rows > 0 { 0.0 } else { FT_CLIP }));
            assert_eq!(net.params[l.ft_bias], -FT_CLIP);
            assert_eq!(net.params[l.out_weights], OUT_CLIP);
            assert_eq!(net.params[l.out_bias], 5.0);
        }
        assert!((FT_CLIP * QA as f32).round() <= i16::MAX as f32);
    }

    #[test]
    fn a_rebucketed_plain_network_evaluates_as_before() {
        use crate::board::Position;
        let plain = Network::random(FeatureSet::Plain, 8);
        let kb = plain.rebucket(FeatureSet::KingBuckets);
        assert_eq!(kb.layout, Layout::of(FeatureSet::KingBuckets));
        for fen in [crate::board::START_FEN, "3k5/4a4/9/9/9/9/9/4B4/4R4/3AK4 w"] {
            let pos = Position::from_fen(fen).unwrap();
            let inputs = |set: FeatureSet| -> Vec<[u16; 2]> {
                let frames =
                    [pos.side_to_move(), !pos.side_to_move()].map(|v| set.frame(v, pos.king_square(v)));
                pos.occupied()
                    .map(|sq| frames.map(|f| f.index(pos.piece_on(sq).unwrap(), sq) as u16))
                    .collect()
            };
            let p = inputs(FeatureSet::Plain);
            assert_eq!(p[0][0] as usize, {
                let sq = pos.occupied().next().unwrap();
                let piece = pos.piece_on(sq).unwrap();
                let red = FeatureSet::Plain.frame_raw(false, 0);
                red.index_raw(piece.color() == crate::types::Color::Black, piece.kind().index(), sq.index())
            });
            let (a, b) = (plain.eval_cp(&p), kb.eval_cp(&inputs(FeatureSet::KingBuckets)));
            assert!((a - b).abs() < 1e-3, "{fen}: {a} against {b}");
        }
    }
}
