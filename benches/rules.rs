//! The rule arbiter's cost: `search_ruling` at nodes without a repetition
//! (the common case: a scan over the stored keys), with one (the window's
//! moves classified), and the game-level `adjudicate`, under the Asian rules
//! (the default) and the Chinese rules (value-based chases with exchange
//! sequences, and the kill test).

use std::collections::HashSet;
use std::hint::black_box;

use chariot::board::Position;
use chariot::rules::{RuleSet, Rules, adjudicate, search_ruling};
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

const FULL: &str = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1";

fn rules(c: &mut Criterion) {
    // Constants, as callers pass them (the search passes its config's copy).
    const ASIAN: Rules = Rules::DEFAULT;
    const CHINESE: Rules = Rules::of(RuleSet::Chinese);
    let mut group = c.benchmark_group("rules");
    for plies in [10, 60, 110] {
        let mut pos = quiet_walk(plies);
        assert_eq!(search_ruling(&mut pos, 8, ASIAN), None);
        group.bench_function(format!("search_ruling/no_repetition/{plies}_plies"), |b| {
            b.iter(|| search_ruling(black_box(&mut pos), 8, ASIAN))
        });
    }
    // A second occurrence inside the tree in a full-material shuffle: every
    // move of the window gets its chase set.
    let mut shuffle = play(FULL, &["a0a1", "i9i8", "a1a0", "i8i9"]);
    assert!(search_ruling(&mut shuffle, 5, ASIAN).is_some());
    group.bench_function("search_ruling/twofold_full_material", |b| {
        b.iter(|| search_ruling(black_box(&mut shuffle), 5, ASIAN))
    });
    // A perpetual check: settled from the check flags, no chase work.
    let mut checks = play("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1", &["a8a9", "e9e8", "a9a8", "e8e9"]);
    group.bench_function("search_ruling/twofold_perpetual_check", |b| {
        b.iter(|| search_ruling(black_box(&mut checks), 5, ASIAN))
    });
    let mut chase = play(
        "4k4/9/9/1c7/9/9/9/2R6/9/3K5 w - - 0 1",
        &["c2b2", "b6c6", "b2c2", "c6b6", "c2b2", "b6c6", "b2c2", "c6b6"],
    );
    group.bench_function("adjudicate/threefold_chase", |b| {
        b.iter(|| adjudicate(black_box(&mut chase), ASIAN))
    });

    // The Chinese rules. Without a repetition they cost what the Asian
    // rules do (the same scan).
    let mut pos = quiet_walk(110);
    assert_eq!(search_ruling(&mut pos, 8, CHINESE), None);
    group.bench_function("chinese/search_ruling/no_repetition/110_plies", |b| {
        b.iter(|| search_ruling(black_box(&mut pos), 8, CHINESE))
    });
    // The full-material shuffle: a chase test and a kill test (finding no
    // mate) on each side's first move, which is idle.
    group.bench_function("chinese/search_ruling/twofold_full_material", |b| {
        b.iter(|| search_ruling(black_box(&mut shuffle), 5, CHINESE))
    });
    // A window with a kill: Red's rook and king threaten mate on every move
    // (长杀); each Red move needs the chase test and the kill test.
    let kill_fen = "3a5/5k3/4b4/9/9/8R/9/9/4K4/4C4 w - - 0 1";
    let kill_moves = ["e1d1", "e7g5", "d1e1", "g5e7", "e1d1", "e7g5", "d1e1", "g5e7"];
    let mut kill = play(kill_fen, &kill_moves[..4]);
    assert!(search_ruling(&mut kill, 5, CHINESE).is_some_and(|o| o.winner().is_some()));
    group.bench_function("chinese/search_ruling/twofold_kill", |b| {
        b.iter(|| search_ruling(black_box(&mut kill), 5, CHINESE))
    });
    let mut kill3 = play(kill_fen, &kill_moves);
    group.bench_function("chinese/adjudicate/threefold_kill", |b| {
        b.iter(|| adjudicate(black_box(&mut kill3), CHINESE))
    });
    // A chase decided by an exchange sequence: two rooks against a cannon
    // protected by one rook (R x C, R x R, R x R wins a cannon).
    let exchange_fen = "1r2ka3/4a4/1c7/7R1/9/9/9/1R7/4A4/4K4 w - - 0 1";
    let exchange_moves = ["h6h7", "b7b6", "h7h6", "b6b7", "h6h7", "b7b6", "h7h6", "b6b7"];
    let mut exchange = play(exchange_fen, &exchange_moves[..4]);
    assert!(search_ruling(&mut exchange, 5, CHINESE).is_some_and(|o| o.winner().is_some()));
    group.bench_function("chinese/search_ruling/twofold_exchange_chase", |b| {
        b.iter(|| search_ruling(black_box(&mut exchange), 5, CHINESE))
    });
    let mut exchange3 = play(exchange_fen, &exchange_moves);
    group.bench_function("chinese/adjudicate/threefold_exchange_chase", |b| {
        b.iter(|| adjudicate(black_box(&mut exchange3), CHINESE))
    });
    group.finish();
}

criterion_group!(benches, rules);
criterion_main!(benches);
