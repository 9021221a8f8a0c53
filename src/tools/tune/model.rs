//! The tuner's loss and its exact gradient. A position's evaluation with
//! weights `w` is `sign · scale · (mg · p + eg · (1 − p))`, where `mg` and `eg`
//! are its feature counts times `w`, `p` the phase over [`PHASE_MAX`],
//! `scale` 1/16 when the side ahead cannot mate, and `sign` −1 with Black to
//! move: the integer evaluation without its rounding. The loss is the cross
//! entropy between `sigmoid(eval / K)` and the target
//! `λ · result + (1 − λ) · sigmoid(score / K)`.

use super::dataset::{Dataset, Entry, Sample};
use crate::eval::params::PHASE_MAX;

/// How the target is made: the scale `k` of the sigmoid and the weight
/// `lambda` of the game result (the search score has `1 − lambda`).
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Centipawns per unit of the logistic's argument.
    pub k: f64,
    /// Weight of the game result in the target.
    pub lambda: f64,
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross entropy of prediction `p` against target `t`.
#[inline]
fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The evaluation of a position with weights `w`, and its derivatives with
/// respect to the middlegame and the endgame sums.
#[inline]
fn evaluate(sample: &Sample, entries: &[Entry], w: &[f64]) -> (f64, f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for e in entries {
        let c = e.count as f64;
        mg += w[e.mg as usize] * c;
        eg += w[e.eg as usize] * c;
    }
    let taper = sample.taper();
    let p = taper.phase as f64 / PHASE_MAX as f64;
    let v = mg * p + eg * (1.0 - p);
    let scale =
        if (v > 0.0 && !taper.red_can_mate) || (v < 0.0 && !taper.black_can_mate) { 1.0 / 16.0 } else { 1.0 };
    let sign = if taper.red_to_move { 1.0 } else { -1.0 };
    (sign * scale * v, sign * scale * p, sign * scale * (1.0 - p))
}

impl Target {
    /// The target of a position.
    #[inline]
    fn of(&self, s: &Sample) -> f64 {
        self.lambda * s.result as f64 + (1.0 - self.lambda) * sigmoid(s.score as f64 / self.k)
    }
}

/// Splits `idx` over `threads` threads, runs `f` on each part and returns
/// the results.
fn in_parallel<T: Send>(idx: &[u32], threads: usize, f: impl Fn(&[u32]) -> T + Sync) -> Vec<T> {
    if idx.is_empty() {
        return Vec::new();
    }
    let part = idx.len().div_ceil(threads.max(1));
    std::thread::scope(|s| {
        let f = &f;
        let handles: Vec<_> = idx.chunks(part).map(|c| s.spawn(move || f(c))).collect();
        handles.into_iter().map(|h| h.join().expect("a tuner thread failed")).collect()
    })
}

/// The mean loss over the positions `idx`.
pub fn loss(data: &Dataset, idx: &[u32], w: &[f64], target: Target, threads: usize) -> f64 {
    let sums = in_parallel(idx, threads, |part| {
        part.iter()
            .map(|&i| {
                let s = &data.samples[i as usize];
                let (e, _, _) = evaluate(s, data.features(i as usize), w);
                cross_entropy(sigmoid(e / target.k), target.of(s))
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / idx.len().max(1) as f64
}

/// The mean loss over the positions `idx` and its gradient with respect to `w`.
pub fn gradient(data: &Dataset, idx: &[u32], w: &[f64], target: Target, threads: usize) -> (f64, Vec<f64>) {
    let parts = in_parallel(idx, threads, |part| {
        let mut grad = vec![0.0; w.len()];
        let mut total = 0.0;
        for &i in part {
            let s = &data.samples[i as usize];
            let entries = data.features(i as usize);
            let (e, d_mg, d_eg) = evaluate(s, entries, w);
            let (p, t) = (sigmoid(e / target.k), target.of(s));
            total += cross_entropy(p, t);
            // d(loss)/d(eval) for the cross entropy of a sigmoid.
            let d = (p - t) / target.k;
            for x in entries {
                let c = x.count as f64 * d;
                grad[x.mg as usize] += c * d_mg;
                grad[x.eg as usize] += c * d_eg;
            }
        }
        (total, grad)
    });
    let n = idx.len().max(1) as f64;
    let mut grad = vec![0.0; w.len()];
    let mut total = 0.0;
    for (t, g) in parts {
        total += t;
        for (a, b) in grad.iter_mut().zip(g) {
            *a += b / n;
        }
    }
    (total / n, grad)
}

/// The `k` that makes `sigmoid(eval / k)` fit the game results best (the
/// search scores left out), by golden-section search over 10..=2000.
pub fn fit_k(data: &Dataset, idx: &[u32], w: &[f64], threads: usize) -> f64 {
    let f = |k: f64| loss(data, idx, w, Target { k, lambda: 1.0 }, threads);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (10.0f64, 2000.0f64);
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 0.5 {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - g * (b - a);
            fc = f(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// Weights fitted as one parameter: pairs of weights that stay equal (the
/// left-right mirrored entries of the square tables).
#[derive(Clone, Debug, Default)]
pub struct Ties {
    /// The pairs `(i, j)`, `i < j`.
    pub pairs: Vec<(usize, usize)>,
}

impl Ties {
    /// Every square-table entry tied to its mirror across the e file.
    pub fn mirrors() -> Ties {
        let m = crate::eval::weights::mirrors();
        Ties { pairs: m.iter().enumerate().filter(|&(i, &j)| i < j).map(|(i, &j)| (i, j)).collect() }
    }

    /// Sets both weights of each pair to their mean; returns how many pairs differed.
    pub fn average(&self, w: &mut [f64]) -> usize {
        let mut changed = 0;
        for &(i, j) in &self.pairs {
            if w[i] != w[j] {
                let mean = (w[i] + w[j]) / 2.0;
                (w[i], w[j]) = (mean, mean);
                changed += 1;
            }
        }
        changed
    }

    /// Turns the gradient with respect to the weights into the gradient with
    /// respect to the parameters: both weights of a pair get the sum of
    /// their derivatives (the derivative of the loss when the one parameter
    /// they share moves). Equal weights with equal gradients take equal
    /// steps, so a pair stays equal.
    pub fn tie(&self, g: &mut [f64]) {
        for &(i, j) in &self.pairs {
            let sum = g[i] + g[j];
            (g[i], g[j]) = (sum, sum);
        }
    }
}

/// An L2 pull toward the starting values: `l2 · Σ (w − start)²` over every
/// weight is added to the (mean, per-position) loss, so that a weight that
/// few positions inform stays near its hand-set value.
#[derive(Clone, Debug)]
pub struct Prior {
    /// The strength of the pull (0: none).
    pub l2: f64,
    /// The values the weights are pulled toward.
    pub start: Vec<f64>,
}

impl Prior {
    /// The penalty of the weights `w`.
    pub fn penalty(&self, w: &[f64]) -> f64 {
        if self.l2 == 0.0 {
            return 0.0;
        }
        self.l2 * w.iter().zip(&self.start).map(|(x, s)| (x - s) * (x - s)).sum::<f64>()
    }

    /// Adds the penalty's gradient at `w` to `g`.
    pub fn add_gradient(&self, w: &[f64], g: &mut [f64]) {
        if self.l2 == 0.0 {
            return;
        }
        for ((g, x), s) in g.iter_mut().zip(w).zip(&self.start) {
            *g += 2.0 * self.l2 * (x - s);
        }
    }
}

/// The Adam optimiser (Kingma and Ba), one moment pair per weight.
pub struct Adam {
    lr: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;

    /// An optimiser of `n` weights with learning rate `lr` (about the
    /// largest step of a weight, in centipawns).
    pub fn new(n: usize, lr: f64) -> Adam {
        Adam { lr, m: vec![0.0; n], v: vec![0.0; n], steps: 0 }
    }

    /// Moves `w` against the gradient `g`. A weight whose gradient has
    /// always been zero (a feature no position has) does not move.
    pub fn step(&mut self, w: &mut [f64], g: &[f64]) {
        self.steps += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.steps);
        let c2 = 1.0 - Self::BETA2.powi(self.steps);
        for i in 0..w.len() {
            self.m[i] = Self::BETA1 * self.m[i] + (1.0 - Self::BETA1) * g[i];
            self.v[i] = Self::BETA2 * self.v[i] + (1.0 - Self::BETA2) * g[i] * g[i];
            w[i] -= self.lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + Self::EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tied_weights_start_at_their_mean_and_stay_equal() {
        let ties = Ties { pairs: vec![(0, 2), (1, 3)] };
        let mut w = vec![10.0, 5.0, 14.0, 5.0, 7.0];
        assert_eq!(ties.average(&mut w), 1);
        assert_eq!(w, [12.0, 5.0, 12.0, 5.0, 7.0]);
        let mut adam = Adam::new(w.len(), 0.5);
        for step in 0..50 {
            let mut g: Vec<f64> = (0..w.len()).map(|i| ((i * 7 + step * 3) % 5) as f64 - 2.1).collect();
            let (a, b) = (g[0], g[2]);
            ties.tie(&mut g);
            assert_eq!((g[0], g[2]), (a + b, a + b));
            adam.step(&mut w, &g);
            assert_eq!((w[0], w[1]), (w[2], w[3]));
        }
        assert_ne!(w[0], 12.0);
    }

    #[test]
    fn the_prior_gradient_is_the_derivative_of_its_penalty() {
        let prior = Prior { l2: 0.003, start: vec![1.0, -4.0, 20.0] };
        let w = [3.5, -4.0, 11.0];
        assert!((prior.penalty(&w) - 0.003 * (2.5 * 2.5 + 81.0)).abs() < 1e-12);
        let mut g = vec![1.0; 3];
        prior.add_gradient(&w, &mut g);
        for i in 0..3 {
            let (mut up, mut down) = (w, w);
            up[i] += 1e-4;
            down[i] -= 1e-4;
            let numeric = (prior.penalty(&up) - prior.penalty(&down)) / 2e-4;
            assert!((g[i] - 1.0 - numeric).abs() < 1e-9, "{i}: {} vs {numeric}", g[i] - 1.0);
        }
        let none = Prior { l2: 0.0, ..prior };
        assert_eq!(none.penalty(&w), 0.0);
    }

    #[test]
    fn the_mirror_ties_pair_the_files_of_every_square_table() {
        use crate::eval::weights::at;
        let ties = Ties::mirrors();
        assert_eq!(ties.pairs.len(), 14 * 10 * 4);
        assert!(ties.pairs.contains(&(at::ROOK_PST_MG, at::ROOK_PST_MG + 8)));
        assert!(ties.pairs.contains(&(at::KING_PST_EG + 9 * 9 + 3, at::KING_PST_EG + 9 * 9 + 5)));
        assert!(ties.pairs.iter().all(|&(i, j)| i < j && j - i <= 8));
    }
}
