//! Perft: counts the leaf nodes of the legal move tree to a fixed depth, the
//! standard test of a move generator. The last ply is bulk-counted.

use crate::board::Position;
use crate::types::Move;

/// Number of legal move sequences of length `depth` from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_move_count() as u64,
        _ => {
            let mut nodes = 0;
            for m in pos.legal_moves() {
                pos.do_move(m);
                nodes += perft(pos, depth - 1);
                pos.undo_move();
            }
            nodes
        }
    }
}

/// Perft split by root move, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            pos.do_move(m);
            let n = perft(pos, depth - 1);
            pos.undo_move();
            (m, n)
        })
        .collect()
}
