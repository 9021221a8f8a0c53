//! Threat sets (rules.md §3.2–3.5): which enemy pieces a side really
//! threatens in a position, with feasible captures, real and false
//! protectors, the stronger-victim rule and the same-type exemption. The
//! helpers for feasible captures and exchange offers are shared with the
//! Chinese threat sets (`value_chase`).
//!
//! Everything is answered with the board's attack lookups on a hypothetical
//! occupancy; nothing is made on the board and no move list is generated.

use crate::board::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};

/// Th(`pos`, `side`): the enemy pieces that `side` threatens in `pos`, as if
/// `side` were to move (rules.md §3.5). Only membership is recorded, not
/// which or how many pieces attack a victim.
///
/// When `side` is in check (only possible if it is to move), its captures are
/// judged ignoring the current checkers (§3.2), so that an evasion does not
/// turn an old threat into a new one.
pub fn threats(pos: &Position, side: Color) -> Bitboard {
    let checkers = checkers_of(pos, side);
    let (chasers, victims) = chasers_and_victims(pos, side);
    let occ = pos.occupied();
    let mut threatened = Bitboard::EMPTY;
    for v in victims {
        let mut attackers = pos.attackers_to(v, side, occ) & chasers;
        // (`Bitboard::any` is the non-empty test, hence the explicit trait call.)
        if Iterator::any(&mut attackers, |a| threatens(pos, side, a, v, checkers)) {
            threatened |= v;
        }
    }
    threatened
}

/// The pieces giving check to `side` (none unless `side` is to move: the
/// side not to move is never in check in a legal position).
#[inline]
pub(super) fn checkers_of(pos: &Position, side: Color) -> Bitboard {
    if pos.side_to_move() == side { pos.checkers() } else { Bitboard::EMPTY }
}

/// The `side` pieces that may chase (all but its king and pawns) and the
/// enemy pieces that may be chased (all but the king and uncrossed pawns):
/// rules.md §3.4, rules-chinese.md §3.3.
#[inline]
pub(super) fn chasers_and_victims(pos: &Position, side: Color) -> (Bitboard, Bitboard) {
    let them = !side;
    let never_chase = pos.kind_bb(PieceKind::King) | pos.kind_bb(PieceKind::Pawn);
    let chasers = pos.pieces(side) & !never_chase;
    let uncrossed_pawns = pos.pieces_of(them, PieceKind::Pawn) & own_half(them);
    let victims = pos.pieces(them) & !pos.kind_bb(PieceKind::King) & !uncrossed_pawns;
    (chasers, victims)
}

/// The half of the board `color` starts on (its pawns there have not crossed).
fn own_half(color: Color) -> Bitboard {
    match color {
        Color::Red => Bitboard::RED_HALF,
        Color::Black => Bitboard::BLACK_HALF,
    }
}

/// True if the `side` piece on `a`, which pseudo-attacks the enemy piece on
/// `v`, puts it in the threat set (§3.5 steps 2–5).
fn threatens(pos: &Position, side: Color, a: Square, v: Square, checkers: Bitboard) -> bool {
    if !feasible(pos, side, a, v, checkers) {
        return false;
    }
    let (attacker, victim) = (kind(pos, a), kind(pos, v));
    if stronger_victim(attacker, victim) {
        return true;
    }
    if protected(pos, side, a, v) {
        return false;
    }
    !(attacker == victim && can_capture_back(pos, !side, v, a))
}

/// §3.2: the `side` piece on `a` may capture on `v` (which it pseudo-attacks)
/// without exposing its king (flying general included), counting only
/// attackers other than `checkers`, the pieces giving check now.
#[inline]
pub(super) fn feasible(pos: &Position, side: Color, a: Square, v: Square, checkers: Bitboard) -> bool {
    let occ_after = pos.occupied().without(a);
    let enemies = pos.pieces(!side).without(v) & !checkers;
    !pos.attacked(side, pos.king_square(side), occ_after, enemies)
}

/// The kind of the piece on the occupied square `sq`.
pub(super) fn kind(pos: &Position, sq: Square) -> PieceKind {
    pos.piece_on(sq).expect("square holds a piece").kind()
}

/// §3.5 step 2: a Horse or Cannon attacking a Rook, or an Advisor or Elephant
/// attacking a Rook, Horse or Cannon, threatens it even if it is protected.
fn stronger_victim(attacker: PieceKind, victim: PieceKind) -> bool {
    use PieceKind::*;
    match attacker {
        Horse | Cannon => victim == Rook,
        Advisor | Elephant => matches!(victim, Rook | Horse | Cannon),
        _ => false,
    }
}

/// §3.3: after the `side` piece on `a` captures on `v`, can the opponent
/// legally recapture on `v`? False protectors (pinned pieces, the only piece
/// between the kings, a king stepping onto a covered square, any recapture
/// leaving the king attacked) do not count.
fn protected(pos: &Position, side: Color, a: Square, v: Square) -> bool {
    let them = !side;
    let occ = pos.occupied().without(a); // the capturer now stands on v
    let enemies = pos.pieces(side).without(a); // ... and is taken back there
    let king = pos.king_square(them);
    Iterator::any(&mut pos.attackers_to(v, them, occ), |b| {
        let k = if b == king { v } else { king };
        !pos.attacked(them, k, occ.without(b), enemies)
    })
}

/// §3.5 step 4 (and the exchange offer of rules-chinese.md §3.4): can the
/// piece on `v` (of colour `them`) legally capture the piece on `a`, with
/// `them` to move in this position?
pub(super) fn can_capture_back(pos: &Position, them: Color, v: Square, a: Square) -> bool {
    let occ = pos.occupied();
    pos.attackers_to(a, them, occ).has(v)
        && !pos.attacked(them, pos.king_square(them), occ.without(v), pos.pieces(!them).without(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(names: &[&str]) -> Bitboard {
        names.iter().fold(Bitboard::EMPTY, |b, s| b | Square::parse(s).unwrap())
    }

    fn th(fen: &str, side: Color) -> Bitboard {
        threats(&Position::from_fen(fen).unwrap(), side)
    }

    #[test]
    fn unprotected_piece_is_threatened_protected_one_is_not() {
        assert_eq!(th("4k4/9/9/1c7/9/9/9/1R7/9/3K5 b", Color::Red), squares(&["b6"]));
        assert_eq!(th("4k4/9/9/rc7/9/9/9/1R7/9/3K5 b", Color::Red), Bitboard::EMPTY);
    }

    #[test]
    fn stronger_victim_counts_even_if_protected() {
        // Horse e7 against the rook c6, protected by the rook a6.
        assert_eq!(th("4k4/9/4N4/r1r6/9/9/9/9/9/3K5 b", Color::Red), squares(&["c6"]));
        // Elephant e2 against the horse c4 (protected by the rook c5), but not
        // against a crossed pawn there.
        assert_eq!(th("4k4/9/9/9/2r6/2n6/9/4B4/9/3K5 b", Color::Red), squares(&["c4"]));
        assert_eq!(th("4k4/9/9/9/2r6/2p6/9/4B4/9/3K5 b", Color::Red), Bitboard::EMPTY);
    }

    #[test]
    fn same_type_exempt_only_if_victim_can_capture_back() {
        // Rook against rook: mutual, exempt.
        assert_eq!(th("4k4/9/9/1r7/9/9/9/1R7/9/3K5 b", Color::Red), Bitboard::EMPTY);
        // Horse c7 against horse d5: exempt while d5 can jump back, not once
        // its leg d6 is blocked.
        assert_eq!(th("9/9/2N2k3/9/3n5/9/9/1p7/9/4K4 b", Color::Red), Bitboard::EMPTY);
        assert_eq!(th("9/9/2N2k3/3P5/3n5/9/9/1p7/9/4K4 b", Color::Red), squares(&["d5"]));
    }

    #[test]
    fn kings_pawns_and_uncrossed_pawns() {
        // A king or pawn attack is no threat; an uncrossed pawn is never threatened.
        assert_eq!(th("5k3/9/9/9/9/9/9/9/3cK4/9 b", Color::Red), Bitboard::EMPTY);
        assert_eq!(th("4k4/9/1c7/P8/9/9/9/9/9/3K5 b", Color::Red), Bitboard::EMPTY);
        assert_eq!(th("4k4/9/9/2p6/9/9/9/2R6/9/3K5 b", Color::Red), Bitboard::EMPTY);
        assert_eq!(th("4k4/9/9/9/9/2p6/9/2R6/9/3K5 b", Color::Red), squares(&["c4"]));
    }

    #[test]
    fn pinned_attacker_and_false_protectors() {
        // The rook on d4 is pinned on the d-file by the rook on d9: no threat on g3.
        assert_eq!(th("3rk4/9/9/9/9/3R5/6c2/9/9/3K5 b", Color::Red), Bitboard::EMPTY);
        // The black rook e6 "protects" b6 but is pinned by the red rook e2.
        assert_eq!(th("4k4/9/9/1c2r4/9/9/9/1R2R4/9/3K5 b", Color::Red), squares(&["b6"]));
        // The king could take back on d9 but the horse on f8 covers it.
        assert_eq!(th("2Rck4/5N3/9/9/9/9/9/9/9/5K3 b", Color::Red), squares(&["d9"]));
        assert_eq!(th("2Rck4/9/9/9/9/9/9/9/9/5K3 b", Color::Red), Bitboard::EMPTY);
    }

    #[test]
    fn current_checkers_are_ignored_for_the_side_in_check() {
        // Black is in check from the rook on f2; its rook b2 still threatens the cannon b7.
        let fen = "5k3/9/1C7/9/9/9/9/1r3R3/9/4K4 b";
        assert_eq!(th(fen, Color::Black), squares(&["b7"]));
    }
}
