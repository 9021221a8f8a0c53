//! Perft over every position in `perft-data/`: the counts there were agreed
//! by two independent engines. CI runs each position up to the deepest depth
//! whose count is at most `CI_NODE_LIMIT`; `make perft-full` runs them all.

mod common;

use chariot::board::{GenType, Position};
use chariot::tools::perft::perft;
use chariot::types::MoveList;
use common::perft_cases;

const CI_NODE_LIMIT: u64 = 2_000_000;

fn check(limit: u64) {
    let mut checked = 0;
    for case in perft_cases() {
        let mut pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= limit) {
            assert_eq!(perft(&mut pos, depth), expected, "perft {depth} of {}", case.fen);
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} counts checked");
}

#[test]
fn perft_data_up_to_ci_limit() {
    check(CI_NODE_LIMIT);
}

#[test]
#[ignore = "deep counts (minutes): make perft-full"]
fn perft_data_full() {
    check(u64::MAX);
}

/// Perft through the search's path: pseudo-legal captures and quiets (or
/// evasions) filtered by `is_legal`, no bulk counting.
fn perft_pseudo(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    if pos.in_check() {
        pos.generate_evasions(&mut list);
    } else {
        pos.generate(GenType::Captures, &mut list);
        pos.generate(GenType::Quiets, &mut list);
    }
    let mut nodes = 0;
    for m in list {
        if pos.is_legal(m) {
            pos.do_move(m);
            nodes += perft_pseudo(pos, depth - 1);
            pos.undo_move();
        }
    }
    nodes
}

#[test]
fn staged_generation_agrees_with_perft_data() {
    for case in perft_cases() {
        let mut pos = Position::from_fen(&case.fen).unwrap();
        for &(depth, expected) in case.counts.iter().filter(|(d, n)| *d <= 3 && *n <= 200_000) {
            assert_eq!(perft_pseudo(&mut pos, depth), expected, "pseudo perft {depth} of {}", case.fen);
        }
    }
}
