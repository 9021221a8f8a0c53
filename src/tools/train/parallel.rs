//! The loss and its gradient over many positions, split across threads:
//! each thread sums into its own gradient buffer, and the buffers are added
//! in thread order, so that a run with the same threads gives the same sums.

use super::data::Dataset;
use super::network::{Network, target};

/// Splits `idx` in `threads` consecutive parts.
fn parts(idx: &[u32], threads: usize) -> std::slice::Chunks<'_, u32> {
    idx.chunks(idx.len().div_ceil(threads.max(1)).max(1))
}

/// The sum of the losses of positions `idx`, and their gradients summed
/// into `grads[0]` (one buffer per thread, each of the network's size; the
/// number of buffers is the number of threads).
pub fn gradient(net: &Network, data: &Dataset, idx: &[u32], lambda: f32, grads: &mut [Vec<f32>]) -> f64 {
    let losses: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = parts(idx, grads.len())
            .zip(grads.iter_mut())
            .map(|(part, grad)| {
                s.spawn(move || {
                    grad.fill(0.0);
                    let mut loss = 0.0;
                    for &i in part {
                        let i = i as usize;
                        let t = target(data.scores[i], data.results[i], lambda);
                        loss += net.backprop(data.inputs(i), t, grad) as f64;
                    }
                    loss
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a trainer thread failed")).collect()
    });
    let used = losses.len();
    let (first, rest) = grads.split_first_mut().expect("a gradient buffer");
    for other in &rest[..used.saturating_sub(1)] {
        for (a, b) in first.iter_mut().zip(other) {
            *a += b;
        }
    }
    losses.iter().sum()
}

/// The mean loss of positions `idx` (NaN if there is none).
pub fn loss(net: &Network, data: &Dataset, idx: &[u32], lambda: f32, threads: usize) -> f64 {
    if idx.is_empty() {
        return f64::NAN;
    }
    let sums: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = parts(idx, threads)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|&i| {
                            let i = i as usize;
                            net.loss(data.inputs(i), target(data.scores[i], data.results[i], lambda)) as f64
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a trainer thread failed")).collect()
    });
    sums.iter().sum::<f64>() / idx.len() as f64
}
