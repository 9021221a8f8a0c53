//! Static evaluation: material, square tables, mobility, king safety and
//! piece-specific terms, tapered between middlegame and endgame by the
//! remaining rooks, horses and cannons. Scores are centipawns from the side
//! to move's point of view. All weights live in [`params`].

pub mod params;

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use crate::board::Position;
use crate::board::attacks::{cannon_attacks, horse_attacks, king_attacks, pawn_attacks, rook_attacks};
use crate::types::{Bitboard, Color, PieceKind, Square};
use params::*;

/// A (middlegame, endgame) pair of centipawn values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}
impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}
impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

/// Table value for a `color` piece on `sq` (tables are drawn from Red's side, rank 9 first).
#[inline(always)]
fn pst(table: &[[i32; 9]; 10], color: Color, sq: Square) -> i32 {
    let rank = if color == Color::Red { sq.rank() } else { 9 - sq.rank() };
    table[9 - rank as usize][sq.file() as usize]
}

/// Material and square-table score of one side.
fn material_and_squares(pos: &Position, c: Color) -> S {
    let mut s = S::default();
    for kind in PieceKind::ALL {
        let bb = pos.pieces_of(c, kind);
        s += MATERIAL[kind.index()] * bb.count() as i32;
        for sq in bb {
            s += match kind {
                PieceKind::Rook => S(pst(&ROOK_PST, c, sq), pst(&ROOK_PST, c, sq)),
                PieceKind::Horse => S(pst(&HORSE_PST, c, sq), pst(&HORSE_PST, c, sq)),
                PieceKind::Cannon => S(pst(&CANNON_PST, c, sq), pst(&CANNON_PST, c, sq) / 2),
                PieceKind::Pawn => {
                    let v = pst(&PAWN_PST, c, sq);
                    S(v, v * PAWN_PST_ENDGAME_PERCENT / 100)
                }
                PieceKind::Advisor => S(pst(&ADVISOR_PST, c, sq), 0),
                PieceKind::Elephant => S(pst(&ELEPHANT_PST, c, sq), 0),
                PieceKind::King => {
                    let v = pst(&KING_PST, c, sq);
                    S(v, v * KING_PST_ENDGAME_PERCENT / 100)
                }
            };
        }
    }
    s
}

/// The nine palace points plus the ring around them that attackers use.
fn king_zone(k: Square) -> Bitboard {
    let palace_centre = if k.rank() <= 2 { Square::from_coords(4, 1) } else { Square::from_coords(4, 8) };
    let mut zone = king_attacks(palace_centre).with(palace_centre);
    for sq in zone {
        zone |= king_attacks(sq);
    }
    zone | king_attacks(k)
}

/// Mobility, king attack and piece terms of side `c`.
fn activity(pos: &Position, c: Color) -> S {
    let them = !c;
    let occ = pos.occupied();
    let own = pos.pieces(c);
    let their_king = pos.king_square(them);
    let zone = king_zone(their_king);
    let mut s = S::default();
    let mut units = 0;
    let mut attackers = 0;
    let pawns = pos.kind_bb(PieceKind::Pawn);
    let their_pawns = pos.pieces_of(them, PieceKind::Pawn);

    for sq in pos.pieces_of(c, PieceKind::Rook) {
        let att = rook_attacks(sq, occ);
        s += ROOK_MOBILITY * (att & !own).count() as i32;
        let file = Bitboard::file(sq.file());
        if (file & pawns).is_empty() {
            s += ROOK_OPEN_FILE;
        } else if (file & pawns) == (file & their_pawns) {
            s += ROOK_HALF_OPEN_FILE;
        }
        if (att & zone).any() {
            units += ATTACK_WEIGHT_ROOK;
            attackers += 1;
        }
    }
    for sq in pos.pieces_of(c, PieceKind::Horse) {
        let att = horse_attacks(sq, occ);
        let n = (att & !own).count() as i32;
        s += HORSE_MOBILITY * n;
        if n <= 1 {
            s += HORSE_TRAPPED;
        }
        if (att & zone).any() {
            units += ATTACK_WEIGHT_HORSE;
            attackers += 1;
        }
    }
    for sq in pos.pieces_of(c, PieceKind::Cannon) {
        let slides = rook_attacks(sq, occ) & !occ;
        let caps = cannon_attacks(sq, occ) & pos.pieces(them);
        s += CANNON_MOBILITY * (slides | caps).count() as i32;
        if sq.file() == their_king.file() {
            let screens = crate::board::attacks::between(sq, their_king) & occ;
            s += match screens.count() {
                0 => CANNON_EMPTY_HEAD,
                1 => CANNON_AIMED,
                2 => CANNON_BEHIND_TWO,
                _ => S::default(),
            };
        }
        if ((slides | cannon_attacks(sq, occ)) & zone).any() {
            units += ATTACK_WEIGHT_CANNON;
            attackers += 1;
        }
    }
    for sq in pos.pieces_of(c, PieceKind::Pawn) {
        if (pawn_attacks(c, sq) & zone).any() {
            units += ATTACK_WEIGHT_PAWN;
            attackers += 1;
        }
    }
    if attackers >= 2 {
        let defenders =
            (pos.pieces_of(them, PieceKind::Advisor) | pos.pieces_of(them, PieceKind::Elephant)).count();
        let missing = 4 - defenders.min(4) as i32;
        let danger = KING_DANGER[(units as usize).min(KING_DANGER.len() - 1)];
        s += S(danger * (100 + MISSING_DEFENDER_PERCENT * missing) / 100, danger / 4);
    }
    let advisors = pos.pieces_of(c, PieceKind::Advisor);
    if advisors.count() == 2 {
        s += DEFENDER_PAIR;
    }
    if pos.pieces_of(c, PieceKind::Elephant).count() == 2 {
        s += DEFENDER_PAIR;
    }
    s
}

/// Game phase: [`PHASE_MAX`] with all rooks, horses and cannons on the board, 0 with none.
fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for kind in PieceKind::ALL {
        p += PHASE[kind.index()] * pos.kind_bb(kind).count() as i32;
    }
    p.min(PHASE_MAX)
}

/// True if `c` has a piece that can ever give mate (rook, horse, cannon or pawn).
fn has_mating_material(pos: &Position, c: Color) -> bool {
    (pos.pieces_of(c, PieceKind::Rook)
        | pos.pieces_of(c, PieceKind::Horse)
        | pos.pieces_of(c, PieceKind::Cannon)
        | pos.pieces_of(c, PieceKind::Pawn))
    .any()
}

/// True if neither side can ever mate (no rook, horse, cannon or pawn on the board).
pub fn is_dead_draw(pos: &Position) -> bool {
    !has_mating_material(pos, Color::Red) && !has_mating_material(pos, Color::Black)
}

/// The evaluation of `pos` from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    if is_dead_draw(pos) {
        return 0;
    }
    let red = material_and_squares(pos, Color::Red) + activity(pos, Color::Red);
    let black = material_and_squares(pos, Color::Black) + activity(pos, Color::Black);
    let mut total = red - black;
    total += if pos.side_to_move() == Color::Red { TEMPO } else { -TEMPO };
    let ph = phase(pos);
    let mut v = (total.0 * ph + total.1 * (PHASE_MAX - ph)) / PHASE_MAX;
    // A side without mating material cannot win: its advantage counts for little.
    if (v > 0 && !has_mating_material(pos, Color::Red)) || (v < 0 && !has_mating_material(pos, Color::Black))
    {
        v /= 16;
    }
    if pos.side_to_move() == Color::Red { v } else { -v }
}

/// A per-term breakdown of the evaluation (for the `eval` command).
pub fn trace(pos: &Position) -> String {
    let ph = phase(pos);
    let taper = |s: S| (s.0 * ph + s.1 * (PHASE_MAX - ph)) / PHASE_MAX;
    let mut out = String::new();
    out.push_str("      term |    red  |  black  |  total (mg, eg -> tapered)\n");
    for (name, f) in
        [("material+psq", material_and_squares as fn(&Position, Color) -> S), ("activity", activity)]
    {
        let (r, b) = (f(pos, Color::Red), f(pos, Color::Black));
        out.push_str(&format!(
            "{name:>12} | {:>7} | {:>7} | {:>6} ({}, {})\n",
            taper(r),
            taper(b),
            taper(r - b),
            r.0 - b.0,
            r.1 - b.1
        ));
    }
    out.push_str(&format!("phase {ph}/{PHASE_MAX}\n"));
    let v = evaluate(pos);
    let red_view = if pos.side_to_move() == Color::Red { v } else { -v };
    out.push_str(&format!("Final evaluation: {red_view} (Red's view), {v} (side to move)"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let pos = Position::startpos();
        let v = evaluate(&pos);
        assert!(v.abs() <= 30, "{v}");
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b").unwrap();
        assert_eq!(evaluate(&black), v, "colour symmetry");
    }

    #[test]
    fn material_counts_and_dead_draws() {
        let up_rook =
            Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap();
        assert!(evaluate(&up_rook) > 700);
        let bare = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w").unwrap();
        assert!(is_dead_draw(&bare));
        assert!(!is_dead_draw(&up_rook));
    }
}
