//! The Chinese rules' kill test (rules-chinese.md §3.2): after a move that
//! does not give check, would its side mate by consecutive checks if it
//! could move again? The caller passes the turn with a null move; this
//! module searches checking moves of the side to move against every reply.

use crate::board::Position;
use crate::types::Move;

/// The first move of a mate by consecutive checks of the side to move, of at
/// most `depth` of its moves, against every defence: a legal checking move
/// after which the opponent has no legal move, or (with `depth` > 1) after
/// every legal reply to which such a mate of `depth - 1` moves follows.
/// `None` if there is none (always for `depth` 0). A threat to stalemate is
/// not a mate. `pos` is left exactly as it was.
pub(super) fn mate_by_checks(pos: &mut Position, depth: u8) -> Option<Move> {
    if depth == 0 {
        return None;
    }
    let moves = pos.legal_moves();
    moves.iter().copied().find(|&m| {
        if !pos.gives_check(m) {
            return false;
        }
        pos.do_move(m);
        let mated = every_reply_mated(pos, depth);
        pos.undo_move();
        mated
    })
}

/// The side to move is in check: true if it has no legal move, or if
/// `depth` > 1 and every legal reply is met by a mate by checks of
/// `depth - 1` moves.
fn every_reply_mated(pos: &mut Position, depth: u8) -> bool {
    let replies = pos.legal_moves();
    if replies.is_empty() {
        return true;
    }
    depth > 1
        && replies.iter().all(|&r| {
            pos.do_move(r);
            let mated = mate_by_checks(pos, depth - 1).is_some();
            pos.undo_move();
            mated
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mate(fen: &str, depth: u8) -> Option<String> {
        let mut pos = Position::from_fen(fen).unwrap();
        let before = pos.clone();
        let m = mate_by_checks(&mut pos, depth).map(|m| m.to_string());
        assert!(pos == before, "mate_by_checks changed the position");
        m
    }

    #[test]
    fn mate_in_one_by_check() {
        // Two rooks: a1d1 and a1a9 mate (the flying general covers e8, e9).
        let fen = "3k5/1R7/9/9/9/9/9/9/R8/4K4 w";
        assert!(matches!(mate(fen, 1).as_deref(), Some("a1d1" | "a1a9")));
        assert_eq!(mate(fen, 0), None);
        // One rook and the flying general: a0d0 mates.
        assert_eq!(mate("3k5/9/9/9/9/9/9/9/9/R3K4 w", 1).as_deref(), Some("a0d0"));
    }

    #[test]
    fn stalemate_is_no_mate() {
        // h8e8 (among others) leaves Black without a move, but it is no
        // check, and no mate by checks exists (the Python reference agrees).
        assert_eq!(mate("9/7R1/3k5/5P3/9/9/9/9/5K3/9 w", 3), None);
    }

    #[test]
    fn consecutive_checks_need_enough_depth() {
        // Two rooks against the bare king e9 mate by three checks, not fewer
        // (the Python reference agrees).
        let fen = "4k4/9/9/9/9/9/9/9/9/RR1K5 w";
        assert_eq!((mate(fen, 1), mate(fen, 2)), (None, None));
        assert!(mate(fen, 3).is_some());
    }
}
