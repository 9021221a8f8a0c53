//! The network's inputs: one per (piece relative to the perspective, kind,
//! square), 14 × 90 = 1,260 per perspective.
//!
//! A perspective sees its own pieces as planes 0–6 and the other side's as
//! planes 7–13 (each in `PieceKind` order: rook, advisor, cannon, pawn,
//! horse, elephant, king), on squares numbered from its own side: Red's view
//! is the board as it is (`a0` = 0, `i0` = 8, `a1` = 9, …, `i9` = 89), Black's
//! view has the ranks flipped (rank r read as 9 − r, files unchanged). A
//! position and its colour-flipped twin therefore give the same inputs to the
//! side to move. The trainer and the engine both index through this module.

use crate::types::{Color, Piece, Square};

/// Inputs per perspective.
pub const INPUTS: usize = 14 * Square::COUNT;

/// The input of a piece of colour `piece_black` and kind `kind` (a
/// `PieceKind` index) on square `sq` (0..90), seen by Black if
/// `view_black` and by Red otherwise.
#[inline(always)]
pub const fn raw_index(view_black: bool, piece_black: bool, kind: usize, sq: usize) -> usize {
    let plane = if piece_black == view_black { kind } else { 7 + kind };
    let sq = if view_black { (9 - sq / 9) * 9 + sq % 9 } else { sq };
    plane * Square::COUNT + sq
}

/// The input of `piece` on `sq` seen from `view`'s side.
#[inline(always)]
pub fn index(view: Color, piece: Piece, sq: Square) -> usize {
    raw_index(view == Color::Black, piece.color() == Color::Black, piece.kind().index(), sq.index())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceKind;

    #[test]
    fn every_input_is_hit_once_per_view() {
        for view in Color::ALL {
            let mut seen = vec![false; INPUTS];
            for color in Color::ALL {
                for kind in PieceKind::ALL {
                    for sq in Square::all() {
                        let i = index(view, Piece::new(color, kind), sq);
                        assert!(!seen[i], "input {i} twice");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn colour_flip_gives_the_same_input() {
        let sq = Square::parse("c3").unwrap();
        let red = index(Color::Red, Piece::new(Color::Red, PieceKind::Horse), sq);
        let black = index(Color::Black, Piece::new(Color::Black, PieceKind::Horse), sq.flip_rank());
        assert_eq!(red, black);
        assert_eq!(red, 4 * 90 + 3 * 9 + 2);
        let their =
            index(Color::Red, Piece::new(Color::Black, PieceKind::Rook), Square::parse("a9").unwrap());
        assert_eq!(their, 7 * 90 + 81);
    }
}
