//! Make and unmake every legal move of the perft-data positions.

use std::hint::black_box;

use chariot::board::Position;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod common;

fn makemove(c: &mut Criterion) {
    let mut positions: Vec<Position> =
        common::perft_fens().iter().map(|f| Position::from_fen(f).unwrap()).collect();
    let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    let total: usize = moves.iter().map(|m| m.len()).sum();
    let mut group = c.benchmark_group("makemove");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("do_undo_all_legal", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for (pos, list) in positions.iter_mut().zip(&moves) {
                for &m in list {
                    pos.do_move(black_box(m));
                    acc ^= pos.key();
                    pos.undo_move();
                }
            }
            acc
        })
    });
    group.finish();
}

criterion_group!(benches, makemove);
criterion_main!(benches);
