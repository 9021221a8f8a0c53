//! perft(4) from the start position (3,290,240 leaves).

use std::hint::black_box;

use chariot::board::Position;
use chariot::tools::perft::perft;
use criterion::{Criterion, criterion_group, criterion_main};

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    group.bench_function("startpos_4", |b| {
        let mut pos = Position::startpos();
        b.iter(|| perft(black_box(&mut pos), 4))
    });
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
