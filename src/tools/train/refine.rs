//! Correcting the rounding of the output layer.
//!
//! One step of a quantised output weight (1/QB) moves the evaluation by
//! 400 / 64 = 6.25 cp in every position where its hidden unit is saturated,
//! and a trained network has many such units: rounded to the nearest, the
//! output weights of a first network were 14 cp from the float network on
//! average. On a sample of training positions, with the hidden values of the
//! quantised feature transformer, [`refine_output`] therefore
//! 1. fits the output weights to the float network's evaluations by least
//!    squares, pulled toward the trained weights (a small ridge);
//! 2. rounds them one after the other, the weights seen in most positions
//!    first, each time moving the weights not yet rounded to absorb the
//!    rounding error (GPTQ's error feedback, Frantar et al. 2022, through
//!    the Cholesky factor of the inverse of the least squares' matrix);
//! 3. sets the output bias to cancel the mean difference.
//!
//! That brought the first network to 3.8 cp on average. With output
//! buckets each bucket's layer is fitted on positions of its own.

use super::data::Dataset;
use super::network::{Network, OUT_CLIP};
use super::quantise::{accumulate, screlu};
use crate::eval::nnue::format::{NetworkData, QA, QB, SCALE};

/// The largest quantised output weight, in absolute value.
const OUT_LIMIT: i32 = (OUT_CLIP * QB as f32 + 0.5) as i32;
/// The ridge's strength, relative to the mean of the matrix's diagonal.
const RIDGE: f64 = 1e-3;

/// Sets the output weights and bias of output bucket `bucket` of `q`, the
/// quantised `float`, so that its evaluations of positions `sample` of
/// `data` (positions of that bucket) come close to the float network's
/// (see the module).
pub fn refine_output(float: &Network, q: &mut NetworkData, data: &Dataset, sample: &[u32], bucket: usize) {
    if sample.is_empty() {
        return;
    }
    // Per position, the centipawns per step of each of the n output weights, and the float evaluation.
    let n = 2 * q.hidden;
    let per_step = SCALE as f64 / (QA as f64 * QA as f64 * QB as f64);
    let mut steps = Vec::with_capacity(sample.len() * n);
    let mut target = Vec::with_capacity(sample.len());
    for &i in sample {
        let inputs = data.inputs(i as usize);
        steps.extend(accumulate(q, inputs).iter().flatten().map(|&a| screlu(a) as f64 * per_step));
        target.push(float.eval_cp(inputs) as f64);
    }
    let head = float.layout.out_weights + bucket * n;
    let trained: Vec<f64> = float.params[head..head + n].iter().map(|&w| (w * QB as f32) as f64).collect();
    let (h, w) = least_squares(&steps, &target, &trained);
    let rounded = round_with_feedback(&h, w);
    let mean_residual = steps
        .chunks_exact(n)
        .zip(&target)
        .map(|(row, y)| row.iter().zip(&rounded).map(|(c, &w)| c * w as f64).sum::<f64>() - y)
        .sum::<f64>()
        / target.len() as f64;
    for (o, &w) in q.out_weights[bucket * n..(bucket + 1) * n].iter_mut().zip(&rounded) {
        *o = w as i16;
    }
    q.out_bias[bucket] = (-mean_residual * (QA * QB) as f64 / SCALE as f64).round() as i32;
}

/// Step 1: the matrix `h` of the centred normal equations (with the ridge)
/// and the weights `w` that solve them, for `trained.len()` weights.
fn least_squares(steps: &[f64], target: &[f64], trained: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let n = trained.len();
    let m = target.len() as f64;
    let mut mean = vec![0.0; n];
    for row in steps.chunks_exact(n) {
        for (a, c) in mean.iter_mut().zip(row) {
            *a += c / m;
        }
    }
    let mean_target = target.iter().sum::<f64>() / m;
    // h = Σ c cᵀ, g = Σ c y, over the centred rows (the lower half of h first).
    let mut h = vec![0.0; n * n];
    let mut g = vec![0.0; n];
    let mut c = vec![0.0; n];
    for (row, &y) in steps.chunks_exact(n).zip(target) {
        for k in 0..n {
            c[k] = row[k] - mean[k];
        }
        for i in 0..n {
            g[i] += c[i] * (y - mean_target);
            if c[i] != 0.0 {
                for j in 0..=i {
                    h[i * n + j] += c[i] * c[j];
                }
            }
        }
    }
    let ridge = RIDGE * (0..n).map(|i| h[i * n + i]).sum::<f64>() / n as f64 + 1e-12;
    for i in 0..n {
        for j in 0..i {
            h[j * n + i] = h[i * n + j];
        }
        h[i * n + i] += ridge;
        g[i] += ridge * trained[i];
    }
    let inverse = inverse(&h, n);
    let w = (0..n).map(|i| (0..n).map(|j| inverse[i * n + j] * g[j]).sum()).collect();
    (h, w)
}

/// Step 2: `w` rounded one weight after the other, in decreasing order of
/// the diagonal of `h`, the error of each fed back into those not yet
/// rounded.
fn round_with_feedback(h: &[f64], w: Vec<f64>) -> Vec<i32> {
    let n = w.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| h[b * n + b].total_cmp(&h[a * n + a]));
    let permuted: Vec<f64> = (0..n * n).map(|x| h[order[x / n] * n + order[x % n]]).collect();
    let mut w: Vec<f64> = order.iter().map(|&i| w[i]).collect();
    // The upper factor u of the inverse (inverse = uᵀu) is lᵀ: u[k][j] = l[j][k].
    let l = cholesky(&inverse(&permuted, n), n);
    let mut out = vec![0; n];
    for k in 0..n {
        let q = (w[k].round() as i32).clamp(-OUT_LIMIT, OUT_LIMIT);
        out[order[k]] = q;
        let err = (w[k] - q as f64) / l[k * n + k];
        for j in k + 1..n {
            w[j] -= err * l[j * n + k];
        }
    }
    out
}

/// The lower Cholesky factor of the symmetric positive definite `a` (n × n, row-major).
fn cholesky(a: &[f64], n: usize) -> Vec<f64> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s = a[i * n + j] - (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum::<f64>();
            l[i * n + j] = if i == j { s.max(1e-300).sqrt() } else { s / l[j * n + j] };
        }
    }
    l
}

/// The inverse of the symmetric positive definite `a` (n × n, row-major).
fn inverse(a: &[f64], n: usize) -> Vec<f64> {
    let l = cholesky(a, n);
    // li = l⁻¹ (lower triangular), then a⁻¹ = liᵀ li.
    let mut li = vec![0.0; n * n];
    for col in 0..n {
        for i in col..n {
            let s = (i == col) as u8 as f64 - (col..i).map(|k| l[i * n + k] * li[k * n + col]).sum::<f64>();
            li[i * n + col] = s / l[i * n + i];
        }
    }
    let mut inv = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            inv[i * n + j] = (i.max(j)..n).map(|k| li[k * n + i] * li[k * n + j]).sum();
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The output weights of a 128-unit network.
    const N: usize = 256;

    #[test]
    fn the_inverse_and_the_factor_are_right() {
        // A well-conditioned symmetric positive definite matrix.
        let a: Vec<f64> = (0..N * N)
            .map(|x| {
                let (i, j) = (x / N, x % N);
                if i == j { 4.0 + (i % 7) as f64 } else { 1.0 / (1.0 + (i as f64 - j as f64).abs()) }
            })
            .collect();
        let l = cholesky(&a, N);
        let inv = inverse(&a, N);
        for i in (0..N).step_by(17) {
            for j in (0..N).step_by(13) {
                let llt: f64 = (0..N).map(|k| l[i * N + k] * l[j * N + k]).sum();
                assert!((llt - a[i * N + j]).abs() < 1e-9, "l lᵀ at {i},{j}");
                let id: f64 = (0..N).map(|k| a[i * N + k] * inv[k * N + j]).sum();
                assert!((id - (i == j) as u8 as f64).abs() < 1e-9, "a a⁻¹ at {i},{j}: {id}");
            }
        }
    }

    #[test]
    fn with_a_diagonal_matrix_rounding_is_to_the_nearest() {
        let h: Vec<f64> =
            (0..N * N).map(|x| if x / N == x % N { 1.0 + (x % 5) as f64 } else { 0.0 }).collect();
        let w: Vec<f64> = (0..N).map(|i| i as f64 * 0.37 - 40.0).collect();
        let want: Vec<i32> = w.iter().map(|x| (x.round() as i32).clamp(-OUT_LIMIT, OUT_LIMIT)).collect();
        assert_eq!(round_with_feedback(&h, w), want);
    }
}
