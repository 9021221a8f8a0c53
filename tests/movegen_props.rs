//! Property tests of the board over random games from the perft positions:
//! incremental state equals recomputed state after every move, generated
//! moves equal brute-force legal moves, and taking every move back restores
//! the position exactly.

mod common;

use std::collections::BTreeSet;

use chariot::board::{GenType, Position};
use chariot::types::{Move, MoveList, PieceKind, Square};
use common::{Rng, perft_cases};

/// Legal by brute force: make the move, then ask whether the mover's king is
/// attacked (which includes facing the enemy king).
fn legal_by_making(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    let us = p.side_to_move();
    p.do_move(m);
    !p.attacked(us, p.king_square(us), p.occupied(), p.pieces(!us))
}

fn pseudo_legal_all(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.generate(GenType::All, &mut list);
    list.to_vec()
}

fn check_position(pos: &Position) {
    pos.validate().unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
    let legal: BTreeSet<u16> = pos.legal_moves().iter().map(|m| m.raw()).collect();
    assert_eq!(legal.len(), pos.legal_moves().len(), "duplicate moves in {}", pos.fen());
    assert_eq!(pos.legal_move_count(), legal.len(), "count in {}", pos.fen());
    let pseudo = pseudo_legal_all(pos);
    let brute: BTreeSet<u16> = pseudo.iter().filter(|&&m| legal_by_making(pos, m)).map(|m| m.raw()).collect();
    assert_eq!(legal, brute, "legal moves of {}", pos.fen());
    for &m in &pseudo {
        assert!(pos.is_pseudo_legal(m), "{m} in {}", pos.fen());
        assert_eq!(pos.is_legal(m), legal.contains(&m.raw()), "is_legal({m}) in {}", pos.fen());
    }
    let mut caps = MoveList::new();
    pos.generate(GenType::Captures, &mut caps);
    pos.generate(GenType::Quiets, &mut caps);
    let split: BTreeSet<u16> = caps.iter().map(|m| m.raw()).collect();
    assert_eq!(split, pseudo.iter().map(|m| m.raw()).collect(), "captures+quiets in {}", pos.fen());
    for m in pos.legal_moves() {
        let mut p = pos.clone();
        p.do_move(m);
        assert_eq!(pos.gives_check(m), p.in_check(), "gives_check({m}) in {}", pos.fen());
    }
    // Any from/to pair is pseudo-legal exactly when the generator makes it.
    let pseudo_set: BTreeSet<u16> = pseudo.iter().map(|m| m.raw()).collect();
    for from in Square::all().filter(|&s| pos.piece_on(s).is_some()) {
        for to in Square::all().filter(|&t| t != from) {
            let m = Move::new(from, to);
            assert_eq!(pos.is_pseudo_legal(m), pseudo_set.contains(&m.raw()), "{m} in {}", pos.fen());
        }
    }
}

#[test]
fn random_games_keep_incremental_state_exact() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut positions = 0;
    for case in perft_cases() {
        for _game in 0..3 {
            let mut pos = Position::from_fen(&case.fen).unwrap();
            let start = pos.clone();
            let mut played = 0;
            for _ply in 0..60 {
                check_position(&pos);
                positions += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let key_before = pos.key();
                pos.do_move(m);
                played += 1;
                assert_eq!(pos.key(), pos.compute_key(), "key after {m}");
                assert_ne!(pos.key(), key_before);
            }
            for _ in 0..played {
                pos.undo_move();
                pos.validate().unwrap();
            }
            assert_eq!(pos, start, "undo did not restore {}", case.fen);
        }
    }
    assert!(positions > 5000, "{positions}");
}

#[test]
fn null_moves_round_trip() {
    let mut pos = Position::startpos();
    let start = pos.clone();
    pos.do_move(Move::parse("h2e2").unwrap());
    pos.do_null_move();
    assert_eq!(pos.key(), pos.compute_key());
    assert_eq!(pos.plies_from_null(), 0);
    pos.do_move(Move::parse("e2e6").unwrap());
    assert_eq!(pos.plies_from_null(), 1);
    assert_eq!(pos.rule60(), 0, "capture resets the counter");
    pos.undo_move();
    pos.undo_null_move();
    pos.undo_move();
    assert_eq!(pos, start);
}

#[test]
fn xiangqi_rules_in_move_generation() {
    let legal = |fen: &str| -> BTreeSet<String> {
        Position::from_fen(fen).unwrap().legal_moves().iter().map(|m| m.to_string()).collect()
    };
    // Flying general: a piece alone between the kings may only move along the file.
    let moves = legal("4k4/9/9/9/9/9/9/9/4C4/4K4 w");
    assert!(moves.contains("e1e5") && !moves.contains("e1d1"), "{moves:?}");
    let moves = legal("4k4/9/9/9/9/9/9/9/4N4/4K4 w");
    assert!(!moves.iter().any(|m| m.starts_with("e1")), "{moves:?}");
    // The king may not step onto the enemy king's open file.
    let moves = legal("4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert!(!moves.contains("d0e0") && moves.contains("d0d1"), "{moves:?}");
    // A horse is blocked at the leg; an elephant at the eye and at the river.
    let moves = legal("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w");
    assert!(!moves.contains("b0c2") && moves.contains("b0d1"), "{moves:?}");
    let moves = legal("3k5/9/9/9/9/2B6/3N5/9/9/4K4 w");
    assert!(!moves.contains("c4e2") && moves.contains("c4a2"), "{moves:?}");
    assert!(!moves.contains("c4e6") && !moves.contains("c4a6"), "{moves:?}");
    // A pawn moves sideways only after crossing the river.
    let moves = legal("3k5/9/9/9/9/9/4P4/9/9/4K4 w");
    assert!(moves.contains("e3e4") && !moves.contains("e3d3"), "{moves:?}");
    let moves = legal("3k5/9/9/9/4P4/9/9/9/9/4K4 w");
    assert!(moves.contains("e5d5") && moves.contains("e5f5") && moves.contains("e5e6"), "{moves:?}");
    // Cannon: slides to empty points, captures over exactly one screen.
    let moves = legal("3k5/9/9/4p4/9/4p4/9/4C4/9/4K4 w");
    assert!(moves.contains("e2e3") && moves.contains("e2e6"), "{moves:?}");
    assert!(!moves.contains("e2e4") && !moves.contains("e2e5"), "{moves:?}");
    // A piece may not step between an enemy cannon and its own king when nothing else is there.
    let moves = legal("5k3/9/9/9/4c4/9/9/3R5/9/4K4 w");
    assert!(!moves.contains("d2e2") && moves.contains("d2d3"), "{moves:?}");
}

#[test]
fn every_piece_kind_appears_in_generated_moves() {
    let pos = Position::startpos();
    let kinds: BTreeSet<u8> =
        pos.legal_moves().iter().map(|m| pos.piece_on(m.from()).unwrap().kind() as u8).collect();
    assert_eq!(kinds.len(), PieceKind::ALL.len());
}
