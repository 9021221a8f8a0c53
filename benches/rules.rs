//! The rule arbiter's cost: `search_ruling` at nodes without a repetition
//! (the common case: a scan over the stored keys), with one (chase
//! classification of the window), and the game-level `adjudicate`.

use std::collections::HashSet;
use std::hint::black_box;

use chariot::board::Position;
use chariot::rules::{Rules, adjudicate, search_ruling};
use chariot::types::Move;
use criterion::{Criterion, criterion_group, criterion_main};

/// The position after `moves` from `fen`.
fn play(fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves {
        let m = pos.parse_legal_move(m).unwrap();
        pos.do_move(m);
    }
    pos
}

/// A middlegame after `plies` non-capturing moves that never repeat a
/// position: the longest scan for its history length.
fn quiet_walk(plies: usize) -> Position {
    let mut pos = play("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1", &[]);
    let mut seen = HashSet::from([pos.key()]);
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    while pos.game_ply() < plies {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let fresh: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| pos.piece_on(m.to()).is_none() && !seen.contains(&pos.key_after(m)))
            .collect();
        let m = fresh[(state % fresh.len() as u64) as usize];
        pos.do_move(m);
        seen.insert(pos.key());
    }
    pos
}

fn rules(c: &mut Criterion) {
    chariot::init();
    let mut group = c.benchmark_group("rules");
    for plies in [10, 60, 110] {
        let mut pos = quiet_walk(plies);
        assert_eq!(search_ruling(&mut pos, 8, Rules::DEFAULT), None);
        group.bench_function(format!("search_ruling/no_repetition/{plies}_plies"), |b| {
            b.iter(|| search_ruling(black_box(&mut pos), 8, Rules::DEFAULT))
        });
    }
    // A second occurrence inside the tree in a full-material shuffle: every
    // move of the window gets its chase set.
    let mut shuffle = play(
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
        &["a0a1", "i9i8", "a1a0", "i8i9"],
    );
    assert!(search_ruling(&mut shuffle, 5, Rules::DEFAULT).is_some());
    group.bench_function("search_ruling/twofold_full_material", |b| {
        b.iter(|| search_ruling(black_box(&mut shuffle), 5, Rules::DEFAULT))
    });
    // A perpetual check: settled from the check flags, no chase work.
    let mut checks = play("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1", &["a8a9", "e9e8", "a9a8", "e8e9"]);
    group.bench_function("search_ruling/twofold_perpetual_check", |b| {
        b.iter(|| search_ruling(black_box(&mut checks), 5, Rules::DEFAULT))
    });
    let mut chase = play(
        "4k4/9/9/1c7/9/9/9/2R6/9/3K5 w - - 0 1",
        &["c2b2", "b6c6", "b2c2", "c6b6", "c2b2", "b6c6", "b2c2", "c6b6"],
    );
    group.bench_function("adjudicate/threefold_chase", |b| {
        b.iter(|| adjudicate(black_box(&mut chase), Rules::DEFAULT))
    });
    group.finish();
}

criterion_group!(benches, rules);
criterion_main!(benches);
