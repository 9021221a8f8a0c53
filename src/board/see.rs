//! Static exchange evaluation: the material balance of the capture sequence
//! on one square, each side always recapturing with its cheapest piece.
//! Attackers are recomputed after every capture, because removing a piece
//! can give a cannon its screen (or take it away) and free a horse's leg.

use super::Position;
use crate::types::{Bitboard, Move, PieceKind};

/// Piece values used by exchange evaluation and capture ordering, in `PieceKind` order.
pub const SEE_VALUE: [i32; 7] = [1000, 110, 450, 80, 430, 110, 20_000];

impl Position {
    /// True if the exchange started by `m` wins at least `threshold` centipawns
    /// for the mover (pins are ignored; a king never captures into an attack).
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.piece_on(from) else { return false };
        let captured = self.piece_on(to).map_or(0, |p| SEE_VALUE[p.kind().index()]);
        let mut swap = captured - threshold;
        if swap < 0 {
            return false;
        }
        swap = SEE_VALUE[mover.kind().index()] - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = self.occupied().without(from).with(to);
        let mut stm = mover.color();
        let mut res = true;
        loop {
            stm = !stm;
            let attackers = self.attackers_to(to, stm, occ) & occ.without(to);
            if attackers.is_empty() {
                break;
            }
            res = !res;
            let (sq, kind) = least_valuable(self, attackers);
            if kind == PieceKind::King {
                let defended = (self.attackers_to(to, !stm, occ) & occ.without(to)).any();
                return if defended { !res } else { res };
            }
            swap = SEE_VALUE[kind.index()] - swap;
            if swap < res as i32 {
                break;
            }
            occ = occ.without(sq);
        }
        res
    }
}

/// The cheapest piece in `attackers` (which is non-empty) and its kind.
fn least_valuable(pos: &Position, attackers: Bitboard) -> (crate::types::Square, PieceKind) {
    for kind in PieceKind::CHEAPEST_FIRST {
        let bb = attackers & pos.kind_bb(kind);
        if bb.any() {
            return (bb.lsb(), kind);
        }
    }
    unreachable!("least_valuable called with no attackers")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        pos.see_ge(Move::parse(mv).unwrap(), threshold)
    }

    #[test]
    fn exchanges() {
        // Rook takes an undefended horse.
        assert!(see("3k5/9/9/9/4n4/9/9/9/4R4/4K4 w", "e1e5", 430));
        assert!(!see("3k5/9/9/9/4n4/9/9/9/4R4/4K4 w", "e1e5", 431));
        // Rook takes a pawn defended by a rook: loses the rook.
        assert!(!see("3k5/9/9/4r4/4p4/9/9/9/4R4/4K4 w", "e1e5", 0));
        // Rook takes a pawn; the pawn behind becomes the screen of the black cannon.
        assert!(!see("3kc4/9/9/4p4/4p4/9/9/9/4R4/4K4 w", "e1e5", 0));
        // Cannon takes over its screen; a horse recaptures.
        assert!(!see("3k5/9/9/2n6/4p4/9/4P4/4C4/9/4K4 w", "e2e5", 0));
        assert!(see("3k5/9/9/9/4p4/9/4P4/4C4/9/4K4 w", "e2e5", 80));
    }
}
