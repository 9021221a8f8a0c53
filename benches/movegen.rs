//! Move generation over the perft-data positions, and raw attack lookups.

use std::hint::black_box;

use chariot::board::attacks::{cannon_attacks, horse_attacks, rook_attacks};
use chariot::board::{GenType, Position};
use chariot::types::{Bitboard, MoveList, Square};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod common;

fn movegen(c: &mut Criterion) {
    let positions: Vec<Position> =
        common::perft_fens().iter().map(|f| Position::from_fen(f).unwrap()).collect();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                n += black_box(pos).legal_moves().len();
            }
            n
        })
    });
    group.bench_function("legal_count", |b| {
        b.iter(|| positions.iter().map(|p| black_box(p).legal_move_count()).sum::<usize>())
    });
    group.bench_function("pseudo_captures_quiets", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in positions.iter().filter(|p| !p.in_check()) {
                let mut list = MoveList::new();
                black_box(pos).generate(GenType::Captures, &mut list);
                black_box(pos).generate(GenType::Quiets, &mut list);
                n += list.len();
            }
            n
        })
    });
    group.finish();

    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let occupancies: Vec<Bitboard> = (0..1000)
        .map(|_| {
            let mut r = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            Bitboard(((r() as u128) << 64 | r() as u128) & (r() as u128) << 64 | r() as u128) & Bitboard::FULL
        })
        .collect();
    let mut group = c.benchmark_group("attacks");
    group.throughput(Throughput::Elements(occupancies.len() as u64 * 90));
    for (name, f) in [
        ("rook", rook_attacks as fn(Square, Bitboard) -> Bitboard),
        ("cannon", cannon_attacks),
        ("horse", horse_attacks),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut acc = Bitboard::EMPTY;
                for &occ in &occupancies {
                    for sq in Square::all() {
                        acc ^= f(sq, black_box(occ));
                    }
                }
                acc
            })
        });
    }
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
