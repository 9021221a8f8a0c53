//! The float network the trainer fits, the same as the engine's: inputs
//! ([`FeatureSet`]) → `H` per perspective (the width, [`Layout::hidden`]) with weights shared by both
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
//! A network made wider ([`Network::widen`]) keeps its units as they are
//! and gets new ones with small random input weights and zero output
//! weights: the same evaluations again, with room to learn more.
//!
//! With output buckets ([`output_bucket`]) the output layer is one per
//! range of piece counts; a position teaches its own bucket's. A network
//! of one output given more ([`Network::with_buckets`]) starts with a copy
//! of its output in every bucket: the same evaluations, each bucket then
//! free to weigh the hidden units its own way.
//!
//! The loss of a position is `(sigmoid(eval_cp / K) − target)²`, the target
//! `λ · result + (1 − λ) · sigmoid(score / K)` ([`target`]).

use crate::board::zobrist::SplitMix64;
use crate::eval::nnue::features::{FeatureSet, plain_of_compact};
use crate::eval::nnue::format::{MAX_HIDDEN, QA, SCALE, output_bucket};

/// Centipawns per unit of the logistic's argument.
pub const K: f32 = 400.0;
/// Bound of the output weights: quantised with QB they stay within ±127
/// (the engine takes up to ±128, `MAX_OUTPUT_WEIGHT`).
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
    /// Hidden units per perspective (`H`, the length of every row).
    pub hidden: usize,
    /// Output buckets (`B`, [`output_bucket`]).
    pub buckets: usize,
    /// Rows of the factor (0 for the plain set).
    pub factor_rows: usize,
    /// The factor rows, `factor_rows × H` (the feature weights,
    /// `features.inputs() × H`, start at 0).
    pub factor: usize,
    /// The `H` feature biases.
    pub ft_bias: usize,
    /// The `B × 2 × H` output weights (per bucket, the side to move's half first).
    pub out_weights: usize,
    /// The `B` output biases.
    pub out_bias: usize,
    /// Number of parameters.
    pub params: usize,
}

impl Layout {
    /// The layout of a network reading `features` with `hidden` units per
    /// perspective (a width [`crate::eval::nnue::format::check_hidden`] accepts)
    /// and one output.
    pub const fn of(features: FeatureSet, hidden: usize) -> Layout {
        Layout::with_buckets(features, hidden, 1)
    }

    /// [`Layout::of`] with `buckets` output buckets (a number
    /// [`crate::eval::nnue::format::check_buckets`] accepts).
    pub const fn with_buckets(features: FeatureSet, hidden: usize, buckets: usize) -> Layout {
        let factor_rows = match features {
            FeatureSet::Plain => 0,
            FeatureSet::KingBuckets => features.bucket_inputs(),
        };
        let factor = features.inputs() * hidden;
        let ft_bias = factor + factor_rows * hidden;
        let out_weights = ft_bias + hidden;
        let out_bias = out_weights + buckets * 2 * hidden;
        let params = out_bias + buckets;
        Layout { features, hidden, buckets, factor_rows, factor, ft_bias, out_weights, out_bias, params }
    }

    /// Where the output weights of the bucket of a position with `pieces`
    /// pieces start, and where its bias is.
    #[inline(always)]
    fn head(&self, pieces: usize) -> (usize, usize) {
        let b = output_bucket(pieces, self.buckets);
        (self.out_weights + b * 2 * self.hidden, self.out_bias + b)
    }

    /// The factor row of input `i` (a row index), if the set has a factor.
    #[inline(always)]
    fn factor_row(&self, i: usize) -> Option<usize> {
        (self.factor_rows > 0).then(|| self.factor / self.hidden + i % self.factor_rows)
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

/// The hidden layer's values for the side to move and for the other side,
/// the first [`Layout::hidden`] of `N` (the network's width rounded up to
/// a power of two from 128, so that they live on the stack: see
/// [`Network::eval_cp`]).
type Accumulators<const N: usize> = ([f32; N], [f32; N]);

// The widest network fits the largest accumulators.
const _: () = assert!(MAX_HIDDEN <= 1024);

/// `$net.$method::<N, EXACT>($args)` with `N` the capacity of the
/// accumulators for `$net`'s width (128, 256, 512 or 1024) and `EXACT` true
/// if the width is `N`: then the loops have a constant length, which the
/// compiler unrolls and vectorises as it did when the width was a constant
/// (a run-time length made the 128-unit trainer 25 % slower).
macro_rules! at_capacity {
    ($net:expr, $method:ident($($arg:expr),*)) => {
        match $net.layout.hidden {
            128 => $net.$method::<128, true>($($arg),*),
            256 => $net.$method::<256, true>($($arg),*),
            512 => $net.$method::<512, true>($($arg),*),
            1024 => $net.$method::<1024, true>($($arg),*),
            0..=128 => $net.$method::<128, false>($($arg),*),
            129..=256 => $net.$method::<256, false>($($arg),*),
            257..=512 => $net.$method::<512, false>($($arg),*),
            _ => $net.$method::<1024, false>($($arg),*),
        }
    };
}

/// A number uniform in `±bound` from `rng`.
fn uniform(rng: &mut SplitMix64, bound: f32) -> f32 {
    ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * bound
}

/// SCReLU.
#[inline]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl Network {
    /// A network reading `features`, `hidden` units per perspective, with
    /// small random weights drawn from `seed`: feature weights uniform in
    /// ±0.1 (about 30 active inputs put a hidden unit within ±0.5; the
    /// factor rows start at zero), output weights uniform in ±1/16, biases
    /// zero.
    pub fn random(features: FeatureSet, hidden: usize, seed: u64) -> Network {
        let layout = Layout::of(features, hidden);
        let mut rng = SplitMix64(seed ^ 0x4E4E_5545);
        let mut params = vec![0.0; layout.params];
        for w in &mut params[..layout.factor] {
            *w = uniform(&mut rng, 0.1);
        }
        for w in &mut params[layout.out_weights..layout.out_bias] {
            *w = uniform(&mut rng, 1.0 / 16.0);
        }
        Network { layout, params }
    }

    /// The network made `hidden` units wide (see the module comment): its
    /// units as they are, then new ones with input weights uniform in ±0.1
    /// drawn from `seed` (each input's own row; the factor rows, biases and
    /// output weights of the new units zero), so that it evaluates every
    /// position as before. A width not above the network's gives it as it is.
    pub fn widen(&self, hidden: usize, seed: u64) -> Network {
        let (from, old) = (self.layout, self.layout.hidden);
        if hidden <= old {
            return self.clone();
        }
        let to = Layout::with_buckets(from.features, hidden, from.buckets);
        let mut rng = SplitMix64(seed ^ 0x5749_4445);
        let mut params = vec![0.0; to.params];
        // Every row (the inputs' own, then the factor's), the feature
        // biases, then each half of the output weights: the old units first.
        let inputs = from.features.inputs();
        for r in 0..inputs + from.factor_rows {
            let row = &mut params[r * hidden..(r + 1) * hidden];
            row[..old].copy_from_slice(&self.params[r * old..(r + 1) * old]);
            if r < inputs {
                for w in &mut row[old..] {
                    *w = uniform(&mut rng, 0.1);
                }
            }
        }
        params[to.ft_bias..to.ft_bias + old].copy_from_slice(&self.params[from.ft_bias..from.out_weights]);
        for half in 0..2 * from.buckets {
            let (a, b) = (to.out_weights + half * hidden, from.out_weights + half * old);
            params[a..a + old].copy_from_slice(&self.params[b..b + old]);
        }
        params[to.out_bias..].copy_from_slice(&self.params[from.out_bias..]);
        Network { layout: to, params }
    }

    /// A network of `k` output buckets given `buckets` output buckets, a
    /// multiple of `k` (from one output to any number, from 8 to 16): each
    /// new bucket a copy of the old one whose range of piece counts holds
    /// its own ([`output_bucket`] cuts the counts into equal ranges, so the
    /// old ranges split exactly), so that it evaluates every position as
    /// before (see the module comment). Given a number that is not a
    /// multiple of its own, the network is given as it is.
    pub fn with_buckets(&self, buckets: usize) -> Network {
        let from = self.layout;
        if !buckets.is_multiple_of(from.buckets) {
            return self.clone();
        }
        let split = buckets / from.buckets;
        let to = Layout::with_buckets(from.features, from.hidden, buckets);
        let head = 2 * from.hidden;
        let mut params = self.params[..from.out_weights].to_vec();
        for b in 0..buckets {
            let old = from.out_weights + b / split * head;
            params.extend_from_slice(&self.params[old..old + head]);
        }
        params.extend((0..buckets).map(|b| self.params[from.out_bias + b / split]));
        Network { layout: to, params }
    }

    /// A network of the plain set turned into one reading `features` with
    /// the same evaluations where the plain one's inputs meet the new set's
    /// (see the module comment): the plain rows become the factor.
    pub fn rebucket(&self, features: FeatureSet) -> Network {
        if self.layout.features == features || self.layout.features != FeatureSet::Plain {
            return self.clone();
        }
        let (from, to) =
            (self.layout, Layout::with_buckets(features, self.layout.hidden, self.layout.buckets));
        let h = to.hidden;
        let mut params = vec![0.0; to.params];
        for c in 0..to.factor_rows {
            let p = plain_of_compact(c);
            params[to.factor + c * h..to.factor + (c + 1) * h]
                .copy_from_slice(&self.params[p * h..(p + 1) * h]);
        }
        params[to.ft_bias..].copy_from_slice(&self.params[from.ft_bias..]);
        Network { layout: to, params }
    }

    /// The engine's weights of input `i`: its own row plus its factor row.
    pub fn engine_row(&self, i: usize) -> impl Iterator<Item = f32> + '_ {
        let h = self.layout.hidden;
        let own = &self.params[i * h..(i + 1) * h];
        let factor = self.layout.factor_row(i).map(|f| &self.params[f * h..(f + 1) * h]);
        own.iter().enumerate().map(move |(j, w)| w + factor.map_or(0.0, |f| f[j]))
    }

    /// The width: `N` if `EXACT` (see [`at_capacity`]), a constant.
    #[inline(always)]
    fn width<const N: usize, const EXACT: bool>(&self) -> usize {
        if EXACT { N } else { self.layout.hidden }
    }

    /// The hidden layer before SCReLU, for both views (`N` ≥ the width).
    #[inline]
    fn accumulate<const N: usize, const EXACT: bool>(&self, inputs: &[[u16; 2]]) -> Accumulators<N> {
        let h = self.width::<N, EXACT>();
        let mut us = [0.0; N];
        us[..h].copy_from_slice(&self.params[self.layout.ft_bias..self.layout.out_weights]);
        let mut them = us;
        for pair in inputs {
            for (acc, &i) in [&mut us, &mut them].into_iter().zip(pair) {
                for row in self.rows::<N, EXACT>(i as usize) {
                    for (a, w) in acc[..h].iter_mut().zip(&self.params[row..row + h]) {
                        *a += w;
                    }
                }
            }
        }
        (us, them)
    }

    /// Where the rows input `i` adds start: its own, then its factor's.
    #[inline(always)]
    fn rows<const N: usize, const EXACT: bool>(&self, i: usize) -> impl Iterator<Item = usize> {
        let h = self.width::<N, EXACT>();
        std::iter::once(i * h).chain(self.layout.factor_row(i).map(move |f| f * h))
    }

    /// The output for `acc` of a position with `pieces` pieces (the bucket).
    #[inline]
    fn output<const N: usize, const EXACT: bool>(&self, (us, them): &Accumulators<N>, pieces: usize) -> f32 {
        let h = self.width::<N, EXACT>();
        let (w, bias) = self.layout.head(pieces);
        let w = &self.params[w..w + 2 * h];
        let mut out = self.params[bias];
        for j in 0..h {
            out += screlu(us[j]) * w[j] + screlu(them[j]) * w[h + j];
        }
        out
    }

    /// The evaluation in centipawns, side to move's view, of a position
    /// with active `inputs` ([`super::data::Dataset::inputs`]).
    pub fn eval_cp(&self, inputs: &[[u16; 2]]) -> f32 {
        at_capacity!(self, eval_cp_in(inputs))
    }

    /// [`Network::eval_cp`] with accumulators of `N` values.
    fn eval_cp_in<const N: usize, const EXACT: bool>(&self, inputs: &[[u16; 2]]) -> f32 {
        self.output::<N, EXACT>(&self.accumulate::<N, EXACT>(inputs), inputs.len()) * SCALE as f32
    }

    /// The loss of a position against `target`.
    pub fn loss(&self, inputs: &[[u16; 2]], target: f32) -> f32 {
        let p = sigmoid(self.eval_cp(inputs) / K);
        (p - target) * (p - target)
    }

    /// The loss of a position against `target`; adds its gradient to `grad`.
    pub fn backprop(&self, inputs: &[[u16; 2]], target: f32, grad: &mut [f32]) -> f32 {
        at_capacity!(self, backprop_in(inputs, target, grad))
    }

    /// [`Network::backprop`] with accumulators of `N` values.
    fn backprop_in<const N: usize, const EXACT: bool>(
        &self,
        inputs: &[[u16; 2]],
        target: f32,
        grad: &mut [f32],
    ) -> f32 {
        let l = self.layout;
        let h = self.width::<N, EXACT>();
        let acc = self.accumulate::<N, EXACT>(inputs);
        let p = sigmoid(self.output::<N, EXACT>(&acc, inputs.len()) * SCALE as f32 / K);
        let g = 2.0 * (p - target) * p * (1.0 - p) * SCALE as f32 / K;
        let (head, bias) = l.head(inputs.len());
        grad[bias] += g;
        let w = &self.params[head..head + 2 * h];
        let (mut d_us, mut d_them) = ([0.0f32; N], [0.0f32; N]);
        let out_grad = &mut grad[head..head + 2 * h];
        for j in 0..h {
            let (u, t) = (acc.0[j].clamp(0.0, 1.0), acc.1[j].clamp(0.0, 1.0));
            out_grad[j] += g * u * u;
            out_grad[h + j] += g * t * t;
            // d clamp(x)² / dx = 2 clamp(x) inside (0, 1), zero outside.
            d_us[j] = if acc.0[j] < 1.0 { g * w[j] * 2.0 * u } else { 0.0 };
            d_them[j] = if acc.1[j] < 1.0 { g * w[h + j] * 2.0 * t } else { 0.0 };
        }
        for (b, (du, dt)) in grad[l.ft_bias..l.out_weights].iter_mut().zip(d_us.iter().zip(&d_them)) {
            *b += du + dt;
        }
        for pair in inputs {
            for (d, &i) in [&d_us, &d_them].into_iter().zip(pair) {
                for row in self.rows::<N, EXACT>(i as usize) {
                    for (gw, d) in grad[row..row + h].iter_mut().zip(&d[..h]) {
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
    use crate::tools::train::data::position_inputs;

    /// Three positions' inputs, with repeated rows across views: 4, 3 and
    /// 9 pieces (with 8 output buckets, buckets 0, 0 and 2).
    fn positions() -> Vec<Vec<[u16; 2]>> {
        vec![
            vec![[4, 634], [90 * 7 + 81, 9], [200, 1100], [1259, 0]],
            vec![[4, 5], [5, 4], [700, 12]],
            (0..9).map(|i| [300 + 50 * i, 1000 - 70 * i]).collect(),
        ]
    }

    #[test]
    fn the_gradient_is_the_derivative_of_the_loss() {
        for features in FeatureSet::ALL {
            gradient_check(features, 128, 3, 1);
        }
        // Wider and narrower (a seed whose checked units are active).
        gradient_check(FeatureSet::Plain, 256, 4, 1);
        gradient_check(FeatureSet::KingBuckets, 160, 3, 1);
        // Output buckets.
        gradient_check(FeatureSet::Plain, 128, 3, 8);
    }

    fn gradient_check(features: FeatureSet, hidden: usize, seed: u64, buckets: usize) {
        let mut net = Network::random(features, hidden, seed).with_buckets(buckets);
        let l = net.layout;
        let h = hidden;
        // Every bucket's output its own.
        for (j, w) in net.params[l.out_weights..l.out_bias].iter_mut().enumerate() {
            *w += (j % 13) as f32 * 0.01 - 0.06;
        }
        // Units on both sides of the SCReLU's kinks, a real bias and factor.
        for (j, b) in net.params[l.ft_bias..l.out_weights].iter_mut().enumerate() {
            *b = (j % 5) as f32 * 0.2 - 0.1;
        }
        for (j, f) in net.params[l.factor..l.ft_bias].iter_mut().enumerate() {
            *f = (j % 7) as f32 * 0.02 - 0.06;
        }
        net.params[l.out_bias] = 0.3;
        let targets = [0.8, 0.2, 0.6];
        let total = |net: &Network| -> f64 {
            positions().iter().zip(targets).map(|(p, t)| net.loss(p, t) as f64).sum()
        };
        let mut grad = vec![0.0; l.params];
        for (p, t) in positions().iter().zip(targets) {
            net.backprop(p, t, &mut grad);
        }
        let mut checked = vec![
            4 * h + 7,
            5 * h + 2,
            634 * h + 1,
            1259 * h + 101,
            l.ft_bias + 3,
            l.ft_bias + 64,
            l.out_weights + 2,
            l.out_weights + h + 77,
            l.out_bias,
        ];
        if l.factor_rows > 0 {
            // The shared rows of inputs 4 and 634.
            checked.extend([l.factor + 4 * h + 7, l.factor + (634 % l.factor_rows) * h + 1]);
        }
        if buckets == 8 {
            // The third position's bucket, 2: its bias and the output weight
            // of its most active unit.
            let head = l.out_weights + 2 * 2 * h;
            let most =
                (0..2 * h).max_by(|&a, &b| grad[head + a].abs().total_cmp(&grad[head + b].abs())).unwrap();
            checked.extend([head + most, l.out_bias + 2]);
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
            let mut net = Network::random(features, 128, 1);
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
        let plain = Network::random(FeatureSet::Plain, 128, 8);
        let kb = plain.rebucket(FeatureSet::KingBuckets);
        assert_eq!(kb.layout, Layout::of(FeatureSet::KingBuckets, 128));
        for fen in [crate::board::START_FEN, "3k5/4a4/9/9/9/9/9/4B4/4R4/3AK4 w"] {
            let pos = Position::from_fen(fen).unwrap();
            let inputs = |set: FeatureSet| position_inputs(set, &pos);
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

    #[test]
    fn a_widened_network_evaluates_as_before_and_its_new_units_learn() {
        let fens = [crate::board::START_FEN, "3k5/4a4/9/9/9/9/9/4B4/4R4/3AK4 w"];
        for features in FeatureSet::ALL {
            let mut narrow = Network::random(features, 128, 4);
            let l = narrow.layout;
            for (j, f) in narrow.params[l.factor..l.out_weights].iter_mut().enumerate() {
                *f = (j % 7) as f32 * 0.01 - 0.03;
            }
            let wide = narrow.widen(256, 1);
            let w = wide.layout;
            assert_eq!(w, Layout::of(features, 256));
            assert_eq!(narrow.widen(128, 1), narrow);
            assert_eq!(wide.widen(256, 1), wide);
            // The old units where they were; the new ones' output weights zero.
            assert_eq!(wide.params[1259 * 256..1259 * 256 + 128], narrow.params[1259 * 128..1260 * 128]);
            assert!(wide.params[1259 * 256 + 128..1260 * 256].iter().all(|x| x.abs() <= 0.1 && *x != 0.0));
            assert_eq!(wide.params[w.ft_bias..w.ft_bias + 128], narrow.params[l.ft_bias..l.out_weights]);
            assert_eq!(
                wide.params[w.out_weights + 256..w.out_weights + 384],
                narrow.params[l.out_weights + 128..l.out_bias]
            );
            assert!(wide.params[w.out_weights + 128..w.out_weights + 256].iter().all(|&x| x == 0.0));
            assert!(wide.params[w.out_weights + 384..w.out_bias].iter().all(|&x| x == 0.0));
            assert_eq!(wide.params[w.out_bias], narrow.params[l.out_bias]);
            for fen in fens {
                let pos = crate::board::Position::from_fen(fen).unwrap();
                let inputs = position_inputs(features, &pos);
                let (a, b) = (narrow.eval_cp(&inputs), wide.eval_cp(&inputs));
                assert!((a - b).abs() < 1e-3, "{fen}: {a} against {b}");
                // The new units' output weights get a gradient (they are
                // active: random input weights), so that they start to count.
                let mut grad = vec![0.0; w.params];
                wide.backprop(&inputs, 0.9, &mut grad);
                assert!(grad[w.out_weights + 128..w.out_weights + 256].iter().any(|&g| g != 0.0), "{fen}");
            }
        }
    }

    #[test]
    fn a_network_given_output_buckets_evaluates_as_before_and_each_bucket_learns_its_own() {
        let fens = [crate::board::START_FEN, "3k5/4a4/9/9/9/9/9/4B4/4R4/3AK4 w"];
        let one = Network::random(FeatureSet::Plain, 128, 6);
        let eight = one.with_buckets(8);
        let l = eight.layout;
        assert_eq!(l, Layout::with_buckets(FeatureSet::Plain, 128, 8));
        assert_eq!((l.params - one.layout.params), 7 * (2 * 128 + 1));
        assert_eq!(eight.with_buckets(4), eight);
        assert_eq!(eight.with_buckets(12), eight);
        assert_eq!(one.with_buckets(1), one);
        // Split again, 8 to 16: every piece count's new bucket is a half of its old one.
        let sixteen = eight.with_buckets(16);
        assert_eq!(sixteen.layout, Layout::with_buckets(FeatureSet::Plain, 128, 16));
        for pieces in 2..=32 {
            assert_eq!(output_bucket(pieces, 16) / 2, output_bucket(pieces, 8), "{pieces} pieces");
        }
        for (fen, bucket) in fens.into_iter().zip([7, 1]) {
            let pos = crate::board::Position::from_fen(fen).unwrap();
            let inputs = position_inputs(FeatureSet::Plain, &pos);
            let (a, b) = (one.eval_cp(&inputs), eight.eval_cp(&inputs));
            assert!((a - b).abs() < 1e-3, "{fen}: {a} against {b}");
            assert!((sixteen.eval_cp(&inputs) - b).abs() < 1e-3, "{fen}: 16 buckets");
            // Only the position's own bucket gets a gradient.
            let mut grad = vec![0.0; l.params];
            eight.backprop(&inputs, 0.9, &mut grad);
            for k in 0..8 {
                let head = &grad[l.out_weights + k * 256..l.out_weights + (k + 1) * 256];
                let touched = head.iter().any(|&g| g != 0.0) || grad[l.out_bias + k] != 0.0;
                assert_eq!(touched, k == bucket, "{fen}: bucket {k}");
            }
            // Widened, it still evaluates the same.
            let wide = eight.widen(256, 2);
            assert_eq!(wide.layout, Layout::with_buckets(FeatureSet::Plain, 256, 8));
            assert!((wide.eval_cp(&inputs) - b).abs() < 1e-3, "{fen}");
        }
    }
}
