//! The Chinese rules' threat sets (rules-chinese.md §3.3–3.4): the enemy
//! pieces a side could win material from by capturing, judged by piece
//! values over the whole exchange on the victim's square, and not counting a
//! capture the opponent answers with mate at once.
//!
//! The first capture is screened with attack lookups, like the Asian threat
//! set (`chase`); the exchange and the mate test then play real captures and
//! replies on the position and take them back, so cannon screens, x-rays,
//! hidden protectors and false protectors all come out of the legal moves.

use super::chase::{can_capture_back, chasers_and_victims, feasible, kind};
use crate::board::Position;
use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// The value of `piece` standing on `sq` in the exchange test
/// (rules-chinese.md §3.3): rook 4, horse and cannon 2, advisor, elephant and
/// crossed pawn 1, uncrossed pawn and king 0.
pub(super) fn piece_value(piece: Piece, sq: Square) -> i32 {
    match piece.kind() {
        PieceKind::Rook => 4,
        PieceKind::Horse | PieceKind::Cannon => 2,
        PieceKind::Advisor | PieceKind::Elephant => 1,
        PieceKind::Pawn => i32::from(!sq.on_own_half(piece.color())),
        PieceKind::King => 0,
    }
}

/// Th_cn(`pos`, `side`): the enemy pieces `side` threatens to win material
/// from, as if `side` were to move (rules-chinese.md §3.4). An enemy piece V
/// belongs to it when a `side` piece A other than the king and pawns can
/// feasibly capture it (rules.md §3.2), A and V are not a same-type pair that
/// can take each other (an exchange offer), the exchange on V's square that A
/// starts wins material, and the opponent cannot mate at once after A x V.
///
/// `None` when the opponent is to move and in check: no legal position has
/// `side` to move there. `pos` is left exactly as it was.
pub fn value_threats(pos: &mut Position, side: Color) -> Option<Bitboard> {
    if pos.side_to_move() == side {
        return Some(mover_threats(pos, Bitboard::FULL));
    }
    if pos.in_check() {
        return None;
    }
    pos.do_null_move();
    let threats = mover_threats(pos, Bitboard::FULL);
    pos.undo_null_move();
    Some(threats)
}

/// Th_cn for the side to move (its current checkers ignored when it judges
/// its captures, as in rules.md §3.2), restricted to the pieces on `among`.
pub(super) fn mover_threats(pos: &mut Position, among: Bitboard) -> Bitboard {
    let side = pos.side_to_move();
    let checkers = pos.checkers();
    let (chasers, victims) = chasers_and_victims(pos, side);
    let occ = pos.occupied();
    let mut threatened = Bitboard::EMPTY;
    for v in victims & among {
        let Some(victim) = pos.piece_on(v) else { continue };
        for a in pos.attackers_to(v, side, occ) & chasers {
            if feasible(pos, side, a, v, checkers)
                && !(kind(pos, a) == victim.kind() && can_capture_back(pos, !side, v, a))
                && wins_material(pos, Move::new(a, v), piece_value(victim, v))
            {
                threatened |= v;
                break;
            }
        }
    }
    threatened
}

/// True if the feasible capture `m` of a piece worth `worth` gains material
/// over the exchange it starts (`worth` minus the most the opponent can win
/// back on that square is positive) and is not answered by mate at once.
fn wins_material(pos: &mut Position, m: Move, worth: i32) -> bool {
    pos.do_move(m);
    let wins = !gain_at_least(pos, m.to(), worth) && !mates_at_once(pos);
    pos.undo_move();
    wins
}

/// True if the side to move can win at least `k` by capturing on `v`, where
/// either side may stop capturing at any point (the exchange gain of
/// rules-chinese.md §3.4 is at least `k`). The gain is
/// `max(0, value(piece on v) - min over legal captures of the reply's gain)`,
/// so it is at least `k > 0` iff the piece is worth `k` or more and some
/// legal capture leaves the opponent less than `value - k + 1`.
fn gain_at_least(pos: &mut Position, v: Square, k: i32) -> bool {
    if k <= 0 {
        return true;
    }
    let Some(target) = pos.piece_on(v) else { return false };
    let worth = piece_value(target, v);
    if worth < k {
        return false;
    }
    let side = pos.side_to_move();
    let capturers = pos.attackers_to(v, side, pos.occupied());
    // The cheapest capturer first usually settles an exchange soonest.
    for kind in PieceKind::CHEAPEST_FIRST {
        for b in capturers & pos.pieces_of(side, kind) {
            let m = Move::new(b, v);
            if !pos.is_legal(m) {
                continue;
            }
            pos.do_move(m);
            let refuted = gain_at_least(pos, v, worth - k + 1);
            pos.undo_move();
            if !refuted {
                return true;
            }
        }
    }
    false
}

/// True if the side to move has a legal move after which the opponent is
/// checkmated. The opponent may already stand in check (it captured while in
/// check, ignoring the checker, as threat sets do), and then any move can
/// mate; otherwise only checking moves are tried. Moves onto a king are
/// never moves.
fn mates_at_once(pos: &mut Position) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let their_king = pos.king_square(them);
    let already = pos.attacked(them, their_king, pos.occupied(), pos.pieces(us));
    let moves = pos.legal_moves();
    moves.iter().any(|&m| {
        if m.to() == their_king || !(already || pos.gives_check(m)) {
            return false;
        }
        pos.do_move(m);
        let mate = pos.in_check() && !pos.has_legal_move();
        pos.undo_move();
        mate
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(names: &[&str]) -> Bitboard {
        names.iter().fold(Bitboard::EMPTY, |b, s| b | Square::parse(s).unwrap())
    }

    fn th(fen: &str, side: Color) -> Bitboard {
        let mut pos = Position::from_fen(fen).unwrap();
        let before = pos.clone();
        let th = value_threats(&mut pos, side).unwrap();
        assert!(pos == before, "value_threats changed the position");
        th
    }

    #[test]
    fn values() {
        let on =
            |c: char, sq: &str| piece_value(Piece::from_fen_char(c).unwrap(), Square::parse(sq).unwrap());
        assert_eq!(
            (on('R', "a0"), on('n', "a0"), on('C', "a0"), on('a', "d9"), on('B', "c0")),
            (4, 2, 2, 1, 1)
        );
        assert_eq!(
            (on('P', "a4"), on('P', "a5"), on('p', "a5"), on('p', "a4"), on('K', "e0")),
            (0, 1, 0, 1, 0)
        );
    }

    #[test]
    fn unprotected_and_protected_by_value() {
        // A rook on an unprotected cannon; on a cannon protected once (a
        // follow, no gain); a horse on a protected rook (gain 2).
        assert_eq!(th("4k4/9/9/1c7/9/9/9/1R7/9/3K5 b", Color::Red), squares(&["b6"]));
        assert_eq!(th("4k4/9/9/rc7/9/9/9/1R7/9/3K5 b", Color::Red), Bitboard::EMPTY);
        assert_eq!(th("4k4/9/4N4/r1r6/9/9/9/9/9/3K5 b", Color::Red), squares(&["c6"]));
        // Equal values, protected: no gain.
        assert_eq!(th("4k4/9/4N4/r1c6/9/9/9/9/9/3K5 b", Color::Red), Bitboard::EMPTY);
    }

    #[test]
    fn under_protected_piece_is_chased() {
        // The cannon b7 is attacked by the rooks b2 and h7 and protected only
        // by the rook b9: R x C, R x R, R x R wins a cannon.
        let fen = "1r2ka3/4a4/1c5R1/9/9/9/9/1R7/4A4/4K4 w";
        assert_eq!(th(fen, Color::Red), squares(&["b7"]));
        // With one attacker it is only a follow.
        assert_eq!(th("1r2ka3/4a4/1c7/9/9/9/9/1R7/4A4/4K4 w", Color::Red), Bitboard::EMPTY);
    }

    #[test]
    fn exchange_offer_and_mate_after_capture() {
        // Rook against rook, both able to take: an exchange offer.
        assert_eq!(th("4k4/9/9/1r7/9/9/9/1R7/9/3K5 b", Color::Red), Bitboard::EMPTY);
        // The rook g5 may take the cannon a5, but the horse i2 then mates on
        // g1 (the case cn_capture_answered_by_mate_not_chase_draw); the Asian
        // rules count it.
        let fen = "4k4/4a4/9/9/c5R2/9/9/8n/4N4/3AKA3 b";
        assert_eq!(th(fen, Color::Red), Bitboard::EMPTY);
        assert_eq!(super::super::threats(&Position::from_fen(fen).unwrap(), Color::Red), squares(&["a5"]));
    }

    #[test]
    fn opponent_in_check_has_no_threat_set_for_the_other_side() {
        let mut check = Position::from_fen("R3k4/9/9/9/9/9/9/9/9/3K5 b").unwrap();
        assert_eq!(value_threats(&mut check, Color::Red), None);
        assert_eq!(value_threats(&mut check, Color::Black), Some(Bitboard::EMPTY));
    }
}
