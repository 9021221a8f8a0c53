//! From the float network to the engine's integers ([`NetworkData`]), a
//! plain scalar evaluation of the integer network by the formula of
//! [`crate::eval::nnue::format`], and the check that the two agree. The
//! output layer's rounding is then corrected by [`super::refine`].

use super::data::Dataset;
use super::network::{Layout, Network};
use crate::eval::nnue::format::{NetworkData, QA, QB, SCALE, output_bucket};

/// The quantised check fails if the mean difference exceeds this, in centipawns.
pub const TOLERANCE_CP: f64 = 5.0;

/// Rounds the float network to the file's integers: feature weights (each
/// input's own row plus its factor row, [`Network::engine_row`]) and biases
/// times QA, output weights times QB, the output biases times QA × QB.
pub fn quantise(net: &Network) -> NetworkData {
    let round16 = |x: f32, scale: i32| (x * scale as f32).round() as i16;
    let (p, l) = (&net.params, net.layout);
    NetworkData {
        features: l.features,
        hidden: l.hidden,
        buckets: l.buckets,
        ft_weights: (0..l.features.inputs())
            .flat_map(|i| net.engine_row(i))
            .map(|w| round16(w, QA))
            .collect(),
        ft_bias: p[l.ft_bias..l.out_weights].iter().map(|&w| round16(w, QA)).collect(),
        out_weights: p[l.out_weights..l.out_bias].iter().map(|&w| round16(w, QB)).collect(),
        out_bias: p[l.out_bias..].iter().map(|&b| (b as f64 * (QA * QB) as f64).round() as i32).collect(),
    }
}

/// The float network an integer one stands for (the inverse of
/// [`quantise`], with the factor rows zero): a network file as the
/// starting point of a training run.
pub fn dequantise(q: &NetworkData) -> Network {
    let layout = Layout::with_buckets(q.features, q.hidden, q.buckets);
    let mut params = Vec::with_capacity(layout.params);
    params.extend(q.ft_weights.iter().map(|&w| f32::from(w) / QA as f32));
    params.resize(layout.ft_bias, 0.0);
    params.extend(q.ft_bias.iter().map(|&w| f32::from(w) / QA as f32));
    params.extend(q.out_weights.iter().map(|&w| f32::from(w) / QB as f32));
    params.extend(q.out_bias.iter().map(|&b| (f64::from(b) / f64::from(QA * QB)) as f32));
    Network { layout, params }
}

/// The integer network's evaluation in centipawns, side to move's view, of a
/// position with active `inputs`, and its largest accumulator value in
/// absolute terms (an engine keeping accumulators in i16 needs it ≤ 32,767).
pub fn evaluate(net: &NetworkData, inputs: &[[u16; 2]]) -> (i32, i32) {
    let acc = accumulate(net, inputs);
    let b = output_bucket(inputs.len(), net.buckets);
    let mut sum = 0i64;
    for (half, view) in acc.iter().enumerate() {
        for (&a, &w) in view.iter().zip(&net.bucket_weights(b)[half * net.hidden..]) {
            sum += i64::from(screlu(a) * w as i32);
        }
    }
    let largest = acc.iter().flatten().map(|a| a.abs()).max().unwrap_or(0);
    let cp = (sum / QA as i64 + net.out_bias[b] as i64) * SCALE as i64 / (QA * QB) as i64;
    (cp as i32, largest)
}

/// The integer SCReLU.
#[inline]
pub(super) fn screlu(a: i32) -> i32 {
    let c = a.clamp(0, QA);
    c * c
}

/// The accumulators of both views (side to move first), at scale QA.
pub(super) fn accumulate(net: &NetworkData, inputs: &[[u16; 2]]) -> [Vec<i32>; 2] {
    let bias: Vec<i32> = net.ft_bias.iter().map(|&b| b as i32).collect();
    let mut acc = [bias.clone(), bias];
    let h = net.hidden;
    for pair in inputs {
        for (view, &i) in acc.iter_mut().zip(pair) {
            let row = &net.ft_weights[i as usize * h..(i as usize + 1) * h];
            for (a, &w) in view.iter_mut().zip(row) {
                *a += w as i32;
            }
        }
    }
    acc
}

/// How far the integer network is from the float one.
#[derive(Clone, Copy, Debug)]
pub struct Check {
    /// Positions compared.
    pub positions: usize,
    /// Mean of |integer − float|, centipawns.
    pub mean_cp: f64,
    /// Largest |integer − float|, centipawns.
    pub max_cp: f64,
    /// Largest accumulator value in absolute terms (at scale QA).
    pub max_accumulator: i32,
}

/// Compares the float and the integer network on positions `idx` of `data`.
pub fn check(float: &Network, int: &NetworkData, data: &Dataset, idx: &[u32]) -> Check {
    let mut c = Check { positions: idx.len(), mean_cp: 0.0, max_cp: 0.0, max_accumulator: 0 };
    for &i in idx {
        let inputs = data.inputs(i as usize);
        let (cp, largest) = evaluate(int, inputs);
        let diff = (cp as f64 - float.eval_cp(inputs) as f64).abs();
        c.mean_cp += diff;
        c.max_cp = c.max_cp.max(diff);
        c.max_accumulator = c.max_accumulator.max(largest);
    }
    c.mean_cp /= idx.len().max(1) as f64;
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::eval::nnue::features::FeatureSet;

    #[test]
    fn the_integer_network_follows_the_float_one() {
        let mut net = Network::random(FeatureSet::KingBuckets, 128, 5);
        let l = net.layout;
        net.params[l.out_bias] = 0.37;
        // A factor: folded into every bucket's rows.
        for (j, f) in net.params[l.factor..l.ft_bias].iter_mut().enumerate() {
            *f = (j % 11) as f32 * 0.01 - 0.05;
        }
        let q = quantise(&net);
        assert_eq!(q.features, FeatureSet::KingBuckets);
        assert_eq!(q.ft_weights[10], ((net.params[10] + net.params[l.factor + 10]) * 255.0).round() as i16);
        assert_eq!(q.out_bias, [(0.37f64 * 255.0 * 64.0).round() as i32]);
        let positions: [&[[u16; 2]]; 3] = [&[], &[[3, 900]], &[[4, 634], [100, 4000], [631, 5], [7, 7]]];
        for inputs in positions {
            let (cp, _) = evaluate(&q, inputs);
            let float = net.eval_cp(inputs);
            assert!((cp as f32 - float).abs() <= 3.0, "{cp} against {float}");
        }
    }

    #[test]
    fn a_network_file_dequantised_quantises_back_to_itself() {
        for (features, hidden, buckets) in [
            (FeatureSet::Plain, 128, 1),
            (FeatureSet::KingBuckets, 128, 1),
            (FeatureSet::Plain, 256, 1),
            (FeatureSet::Plain, 128, 8),
        ] {
            let mut q = NetworkData::random(features, hidden, 9, 2000);
            if buckets > 1 {
                q.buckets = buckets;
                let head = q.out_weights.clone();
                q.out_weights =
                    (0..buckets as i16).flat_map(|b| head.iter().map(move |w| w / 2 + b)).collect();
                q.out_bias = (0..buckets as i32).map(|b| q.out_bias[0] + 1000 * b).collect();
            }
            let net = dequantise(&q);
            assert_eq!(net.params.len(), Layout::with_buckets(features, hidden, buckets).params);
            assert_eq!(quantise(&net), q);
            let bias = net.params[net.layout.out_bias] as f64;
            assert!((bias * (QA * QB) as f64 - q.out_bias[0] as f64).abs() < 0.5);
        }
    }

    #[test]
    fn the_formula_is_the_format_s() {
        for hidden in [128, 256] {
            let mut q = NetworkData::zeroed(FeatureSet::Plain, hidden);
            q.ft_bias[0] = 100;
            q.ft_weights[7 * hidden] = 300; // input 7 saturates unit 0: 400 → 255
            q.out_weights[0] = 64;
            q.out_weights[hidden] = -32;
            q.out_bias = vec![1000];
            // Us: unit 0 at 255, them (input 9): unit 0 at 100.
            let (cp, largest) = evaluate(&q, &[[7, 9]]);
            let sum = 255 * 255 * 64 - 100 * 100 * 32;
            assert_eq!(cp, (sum / 255 + 1000) * 400 / (255 * 64));
            assert_eq!(largest, 400);
        }
        // With buckets, the one of the piece count: 2 pieces bucket 0, 9 bucket 2.
        let mut q = NetworkData::zeroed_buckets(FeatureSet::Plain, 64, 8);
        q.ft_bias[0] = 255;
        q.out_weights[2 * 2 * 64] = 64;
        q.out_bias[0] = 7 * 255 * 64;
        let nine: Vec<[u16; 2]> = (0..9).map(|i| [i, i]).collect();
        assert_eq!(evaluate(&q, &[[0, 0], [1, 1]]).0, 7 * 400);
        assert_eq!(evaluate(&q, &nine).0, 255 * 64 * 400 / (255 * 64));
        // Every unit of a 256-wide network saturated against weights of
        // 127: a sum beyond an i32, whole.
        let mut q = NetworkData::zeroed(FeatureSet::Plain, 256);
        q.ft_bias.fill(255);
        q.out_weights.fill(127);
        let sum = 512i64 * 255 * 255 * 127;
        assert_eq!(evaluate(&q, &[]).0 as i64, sum / 255 * 400 / (255 * 64));
    }
}
