//! The network's costs with each instruction set of the processor: one
//! incremental accumulator update (a move, both perspectives), one capture,
//! a full refresh, and the output layer.

use std::hint::black_box;

use chariot::board::Position;
use chariot::eval::nnue::network::EMBEDDED_BYTES;
use chariot::eval::nnue::simd::Simd;
use chariot::eval::nnue::{AccumulatorStack, Network, accumulator};
use chariot::types::Move;
use criterion::{Criterion, criterion_group, criterion_main};

fn nnue(c: &mut Criterion) {
    let pos =
        Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1").unwrap();
    let quiet = Move::parse("f3f6").unwrap();
    let capture = Move::parse("f3f8").unwrap();
    assert!(pos.piece_on(quiet.to()).is_none() && pos.piece_on(capture.to()).is_some());
    let mut group = c.benchmark_group("nnue");
    for simd in Simd::available() {
        let net = Network::from_bytes(EMBEDDED_BYTES).unwrap().with_simd(simd).unwrap();
        let mut stack = AccumulatorStack::new(8, &net);
        stack.reset(&net, &pos);
        for (name, m) in [("update_move", quiet), ("update_capture", capture)] {
            let mut after = pos.clone();
            after.do_move(m);
            group.bench_function(format!("{name}_{simd:?}"), |b| {
                b.iter(|| {
                    stack.push_move(&pos, black_box(m));
                    black_box(stack.current(&net, &after));
                    stack.pop();
                })
            });
        }
        group.bench_function(format!("refresh_{simd:?}"), |b| {
            b.iter(|| accumulator::refresh(&net, black_box(&pos)))
        });
        let [red, black] = accumulator::refresh(&net, &pos);
        group.bench_function(format!("output_{simd:?}"), |b| {
            b.iter(|| {
                net.output(black_box([&red, &black]), pos.side_to_move(), pos.occupied().count() as usize)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, nnue);
criterion_main!(benches);
