//! XBoard's own count towards the move-limit draw, which decides whether
//! it accepts the engine's claim of that draw.
//!
//! The Asian rules end a game drawn after 60 rounds without a capture
//! (`Rules::move_limit`, 120 plies). XBoard counts differently
//! (`backend.c`, `Adjudicate`): the plies since the last capture *or pawn
//! move*, less, in xiangqi, every position in check and every position
//! after one (a check and its evasion do not count); and with
//! `-testClaims` (on by default) it accepts a claimed draw by the move
//! limit only when that count is at least 100, whatever its `-ruleMoves`,
//! and forfeits the claimer otherwise ("False draw claim"). A pawn move or
//! a few checks within the last 120 plies are enough for a correct claim by
//! the Asian rules to lose the game under XBoard. So the CECP session
//! claims the move limit only when XBoard's count allows it, and otherwise
//! plays on until it does (or XBoard adjudicates by its own `-ruleMoves`).

use crate::board::Position;
use crate::types::PieceKind;

/// XBoard accepts a claim of the move-limit draw from this count on (its
/// `EP_RULE_DRAW`: 50 chess moves).
pub const CLAIMABLE_PLIES: u32 = 100;

/// XBoard's count towards the move-limit draw in `pos` (see the module
/// comment): plies since the last capture or pawn move (the FEN's counter
/// added when there is none since it), less the positions in check and
/// those right after one, counted once the plies alone reach
/// [`CLAIMABLE_PLIES`] (as XBoard does).
pub fn counted_plies(pos: &Position) -> u32 {
    // Walk back to the position after the last irreversible move (or the FEN).
    let mut p = pos.clone();
    while p.game_ply() > 0 {
        let moved = p.piece_on(p.last_move().to());
        if p.captured_piece().is_some() || moved.is_some_and(|piece| piece.kind() == PieceKind::Pawn) {
            break;
        }
        p.undo_move();
    }
    let back = pos.game_ply() - p.game_ply();
    // Back at the FEN, its counter says how long before it.
    let mut plies = back as u32 + if p.game_ply() == 0 { u32::from(p.rule60()) } else { 0 };
    if plies < CLAIMABLE_PLIES {
        return plies;
    }
    let mut last = false;
    for check in (0..=back).rev().map(|ago| pos.state_back(ago).checkers.any()) {
        if check || last {
            plies -= 1;
        }
        last = check;
    }
    plies
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::play_moves;

    /// `pos` after `moves` repeated `times` times.
    fn shuffled(fen: &str, moves: &[&str], times: usize) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for _ in 0..times {
            play_moves(&mut pos, moves).unwrap();
        }
        pos
    }

    /// A rook and a king that shuffle without checks, and a pawn each.
    const QUIET: &str = "3k5/9/9/9/p8/8P/9/9/9/R3K4 w - - 0 1";

    #[test]
    fn quiet_moves_count_from_the_last_capture_or_pawn_move() {
        // 4 plies a round, 30 rounds: 120 plies, no check.
        let pos = shuffled(QUIET, &["a0a1", "d9d8", "a1a0", "d8d9"], 30);
        assert_eq!((pos.rule60(), counted_plies(&pos)), (120, 120));
        // A pawn move 8 plies ago: XBoard counts 8, the Asian rules 128.
        let mut pos = pos;
        play_moves(&mut pos, &["i4i5", "d9d8", "a0a1", "d8d9", "a1a0", "d9d8", "a0a1", "d8d9"]).unwrap();
        assert_eq!((pos.rule60(), counted_plies(&pos)), (128, 7));
        // A black pawn's move counts the same.
        play_moves(&mut pos, &["a1a0", "a5a4", "a0a1"]).unwrap();
        assert_eq!((pos.rule60(), counted_plies(&pos)), (131, 1));
    }

    #[test]
    fn checks_and_their_evasions_do_not_count() {
        // A rook checks, the king steps aside, the rook goes back and so
        // does the king: of every 4 plies a check and its evasion do not
        // count once the plies reach 100. 120 plies, XBoard counts 60.
        let pos = shuffled("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1", &["a0d0", "d9e9", "d0a0", "e9d9"], 30);
        assert_eq!((pos.rule60(), counted_plies(&pos)), (120, 60));
        // Below 100 plies XBoard does not look at checks.
        let pos = shuffled("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1", &["a0d0", "d9e9", "d0a0", "e9d9"], 24);
        assert_eq!(counted_plies(&pos), 96);
    }

    #[test]
    fn the_fen_counter_adds_to_the_count() {
        let pos = shuffled("3k5/9/9/9/p8/8P/9/9/9/R3K4 w - - 90 1", &["a0a1", "d9d8", "a1a0", "d8d9"], 3);
        assert_eq!(counted_plies(&pos), 102);
    }
}
