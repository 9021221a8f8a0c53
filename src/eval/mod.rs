//! Static evaluation: material, square tables, mobility, king safety and
//! piece-specific terms, tapered between middlegame and endgame by the
//! remaining rooks, horses and cannons. Scores are centipawns from the side
//! to move's point of view. All weights live in [`params`]. A search can
//! evaluate with a network instead ([`nnue`], through an [`Evaluator`]).

pub mod evaluator;
pub mod features;
pub mod nnue;
pub mod params;
pub mod wdl;
pub mod weights;

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use once_cell::sync::Lazy;

use crate::board::Position;
use crate::board::attacks::{cannon_attacks, horse_attacks, king_attacks, pawn_sources, rook_attacks};
use crate::types::{Bitboard, Color, Piece, PieceKind, Square};
use features::Accumulator;
use params::*;
use weights::{Weight, at};

pub use evaluator::{Evaluator, evaluate_with, network_trace};

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

/// Index of `sq` in a square table (drawn from Red's side, rank 9 first,
/// row by row) for a `color` piece.
#[inline(always)]
fn cell(color: Color, sq: Square) -> usize {
    let rank = if color == Color::Red { sq.rank() } else { 9 - sq.rank() };
    (9 - rank as usize) * 9 + sq.file() as usize
}

/// A square table pair (middlegame, endgame) and where each starts in the parameter vector.
type Tables = (&'static [[i32; 9]; 10], usize, &'static [[i32; 9]; 10], usize);

/// The square tables of each kind, in `PieceKind` order.
const SQUARE_TABLES: [Tables; 7] = [
    (&ROOK_PST_MG, at::ROOK_PST_MG, &ROOK_PST_EG, at::ROOK_PST_EG),
    (&ADVISOR_PST_MG, at::ADVISOR_PST_MG, &ADVISOR_PST_EG, at::ADVISOR_PST_EG),
    (&CANNON_PST_MG, at::CANNON_PST_MG, &CANNON_PST_EG, at::CANNON_PST_EG),
    (&PAWN_PST_MG, at::PAWN_PST_MG, &PAWN_PST_EG, at::PAWN_PST_EG),
    (&HORSE_PST_MG, at::HORSE_PST_MG, &HORSE_PST_EG, at::HORSE_PST_EG),
    (&ELEPHANT_PST_MG, at::ELEPHANT_PST_MG, &ELEPHANT_PST_EG, at::ELEPHANT_PST_EG),
    (&KING_PST_MG, at::KING_PST_MG, &KING_PST_EG, at::KING_PST_EG),
];

/// Material and square-table score of one side.
fn material_and_squares<A: Accumulator>(pos: &Position, c: Color) -> A {
    let mut s = A::default();
    for kind in PieceKind::ALL {
        let bb = pos.pieces_of(c, kind);
        let k = kind.index();
        s.term(Weight::pair(MATERIAL[k], at::MATERIAL + 2 * k), bb.count() as i32);
        for sq in bb {
            s.term(square_weight(c, kind, sq), 1);
        }
    }
    s
}

/// The square-table weight of a `c` piece of `kind` on `sq`.
#[inline(always)]
fn square_weight(c: Color, kind: PieceKind, sq: Square) -> Weight {
    let (mg, mg_at, eg, eg_at) = SQUARE_TABLES[kind.index()];
    let i = cell(c, sq);
    Weight::split(mg.as_flattened()[i], mg_at, eg.as_flattened()[i], eg_at, i)
}

/// Material and square-table value of `p` on `sq`, Red's minus Black's
/// (what [`material_and_squares`] adds for that piece): the search keeps the
/// sum of these up to date move by move instead of recounting every piece.
#[inline(always)]
pub(crate) fn piece_square(p: Piece, sq: Square) -> S {
    let v = MATERIAL[p.kind().index()] + square_weight(p.color(), p.kind(), sq).value;
    if p.color() == Color::Red { v } else { -v }
}

/// Material and square tables of both sides, Red's minus Black's.
pub(crate) fn piece_squares(pos: &Position) -> S {
    material_and_squares::<S>(pos, Color::Red) - material_and_squares::<S>(pos, Color::Black)
}

/// The king zone of every square of the king, and for each colour the squares
/// from which that colour's pawns attack it, computed once.
struct KingZones {
    zone: [Bitboard; 90],
    pawn_attackers: [[Bitboard; 90]; 2],
}

static KING_ZONES: Lazy<KingZones> = Lazy::new(|| {
    let zone: [Bitboard; 90] = std::array::from_fn(|i| king_zone_of(Square::new(i as u8)));
    let pawn_attackers = Color::ALL
        .map(|c| std::array::from_fn(|i| zone[i].fold(Bitboard::EMPTY, |b, sq| b | pawn_sources(c, sq))));
    KingZones { zone, pawn_attackers }
});

/// The nine palace points plus the ring around them that attackers use.
#[inline(always)]
fn king_zone(k: Square) -> Bitboard {
    KING_ZONES.zone[k.index()]
}

/// The squares from which a pawn of `c` attacks [`king_zone`]`(k)`.
#[inline(always)]
fn king_zone_pawn_attackers(c: Color, k: Square) -> Bitboard {
    KING_ZONES.pawn_attackers[c.index()][k.index()]
}

/// [`king_zone`], computed.
fn king_zone_of(k: Square) -> Bitboard {
    let palace_centre = if k.rank() <= 2 { Square::from_coords(4, 1) } else { Square::from_coords(4, 8) };
    let mut zone = king_attacks(palace_centre).with(palace_centre);
    for sq in zone {
        zone |= king_attacks(sq);
    }
    zone | king_attacks(k)
}

/// Mobility, king attack and piece terms of side `c`.
fn activity<A: Accumulator>(pos: &Position, c: Color) -> A {
    let them = !c;
    let occ = pos.occupied();
    let own = pos.pieces(c);
    let their_king = pos.king_square(them);
    let zone = king_zone(their_king);
    let mut s = A::default();
    let mut units = 0;
    let mut attackers = 0;
    let pawns = pos.kind_bb(PieceKind::Pawn);
    let their_pawns = pos.pieces_of(them, PieceKind::Pawn);

    for sq in pos.pieces_of(c, PieceKind::Rook) {
        let att = rook_attacks(sq, occ);
        s.term(Weight::pair(ROOK_MOBILITY, at::ROOK_MOBILITY), (att & !own).count() as i32);
        let file = Bitboard::file(sq.file());
        if (file & pawns).is_empty() {
            s.term(Weight::pair(ROOK_OPEN_FILE, at::ROOK_OPEN_FILE), 1);
        } else if (file & pawns) == (file & their_pawns) {
            s.term(Weight::pair(ROOK_HALF_OPEN_FILE, at::ROOK_HALF_OPEN_FILE), 1);
        }
        if (att & zone).any() {
            units += ATTACK_WEIGHT_ROOK;
            attackers += 1;
        }
    }
    for sq in pos.pieces_of(c, PieceKind::Horse) {
        let att = horse_attacks(sq, occ);
        let n = (att & !own).count() as i32;
        s.term(Weight::pair(HORSE_MOBILITY, at::HORSE_MOBILITY), n);
        if n <= 1 {
            s.term(Weight::pair(HORSE_TRAPPED, at::HORSE_TRAPPED), 1);
        }
        if (att & zone).any() {
            units += ATTACK_WEIGHT_HORSE;
            attackers += 1;
        }
    }
    for sq in pos.pieces_of(c, PieceKind::Cannon) {
        let slides = rook_attacks(sq, occ) & !occ;
        let hits = cannon_attacks(sq, occ);
        let caps = hits & pos.pieces(them);
        s.term(Weight::pair(CANNON_MOBILITY, at::CANNON_MOBILITY), (slides | caps).count() as i32);
        if sq.file() == their_king.file() {
            let screens = crate::board::attacks::between(sq, their_king) & occ;
            match screens.count() {
                0 => s.term(Weight::pair(CANNON_EMPTY_HEAD, at::CANNON_EMPTY_HEAD), 1),
                1 => s.term(Weight::pair(CANNON_AIMED, at::CANNON_AIMED), 1),
                2 => s.term(Weight::pair(CANNON_BEHIND_TWO, at::CANNON_BEHIND_TWO), 1),
                _ => {}
            }
        }
        if ((slides | hits) & zone).any() {
            units += ATTACK_WEIGHT_CANNON;
            attackers += 1;
        }
    }
    let pawn_attackers =
        (pos.pieces_of(c, PieceKind::Pawn) & king_zone_pawn_attackers(c, their_king)).count();
    units += ATTACK_WEIGHT_PAWN * pawn_attackers as i32;
    attackers += pawn_attackers;
    if attackers >= 2 {
        let defenders =
            (pos.pieces_of(them, PieceKind::Advisor) | pos.pieces_of(them, PieceKind::Elephant)).count();
        let missing = 4 - defenders.min(4) as usize;
        let u = (units as usize).min(KING_DANGER_MG[0].len() - 1);
        let i = missing * KING_DANGER_MG[0].len() + u;
        let (mg, eg) = (KING_DANGER_MG[missing][u], KING_DANGER_EG[missing][u]);
        s.term(Weight::split(mg, at::KING_DANGER_MG, eg, at::KING_DANGER_EG, i), 1);
    }
    if pos.pieces_of(c, PieceKind::Advisor).count() == 2 {
        s.term(Weight::pair(DEFENDER_PAIR, at::DEFENDER_PAIR), 1);
    }
    if pos.pieces_of(c, PieceKind::Elephant).count() == 2 {
        s.term(Weight::pair(DEFENDER_PAIR, at::DEFENDER_PAIR), 1);
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

/// Both sides' terms, Red's minus Black's, with the side to move's bonus.
fn sum<A: Accumulator>(pos: &Position) -> A {
    material_and_squares::<A>(pos, Color::Red) - material_and_squares::<A>(pos, Color::Black)
        + sum_but_squares::<A>(pos)
}

/// The terms of [`sum`] other than material and square tables.
fn sum_but_squares<A: Accumulator>(pos: &Position) -> A {
    let mut total = activity::<A>(pos, Color::Red) - activity::<A>(pos, Color::Black);
    total.term(Weight::pair(TEMPO, at::TEMPO), if pos.side_to_move() == Color::Red { 1 } else { -1 });
    total
}

/// How a position turns its (middlegame, endgame) sums into the evaluation:
/// the phase, which sides can still mate, and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Taper {
    /// The game phase, 0..=[`PHASE_MAX`].
    pub phase: i32,
    /// Red has a rook, horse, cannon or pawn.
    pub red_can_mate: bool,
    /// Black has a rook, horse, cannon or pawn.
    pub black_can_mate: bool,
    /// Red is to move.
    pub red_to_move: bool,
}

impl Taper {
    /// The taper of `pos`; `None` for a dead draw.
    #[inline]
    pub fn of(pos: &Position) -> Option<Taper> {
        let red_can_mate = has_mating_material(pos, Color::Red);
        let black_can_mate = has_mating_material(pos, Color::Black);
        (red_can_mate || black_can_mate).then(|| Taper {
            phase: phase(pos),
            red_can_mate,
            black_can_mate,
            red_to_move: pos.side_to_move() == Color::Red,
        })
    }

    /// The evaluation from the side to move's view, given Red's minus
    /// Black's (middlegame, endgame) sums.
    #[inline]
    pub fn apply(self, total: S) -> i32 {
        let ph = self.phase;
        let mut v = (total.0 * ph + total.1 * (PHASE_MAX - ph)) / PHASE_MAX;
        // A side without mating material cannot win: its advantage counts for little.
        if (v > 0 && !self.red_can_mate) || (v < 0 && !self.black_can_mate) {
            v /= 16;
        }
        if self.red_to_move { v } else { -v }
    }
}

/// The evaluation of `pos` from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_given_squares(pos, piece_squares(pos))
}

/// [`evaluate`], given [`piece_squares`] of `pos` (kept up to date by an [`Evaluator`]).
#[inline]
pub(crate) fn evaluate_given_squares(pos: &Position, squares: S) -> i32 {
    match Taper::of(pos) {
        None => 0,
        Some(taper) => taper.apply(squares + sum_but_squares::<S>(pos)),
    }
}

/// A per-term breakdown of the evaluation (for the `eval` command).
pub fn trace(pos: &Position) -> String {
    let ph = phase(pos);
    let taper = |s: S| (s.0 * ph + s.1 * (PHASE_MAX - ph)) / PHASE_MAX;
    let mut out = String::new();
    out.push_str("      term |    red  |  black  |  total (mg, eg -> tapered)\n");
    for (name, f) in
        [("material+psq", material_and_squares::<S> as fn(&Position, Color) -> S), ("activity", activity)]
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
    fn the_square_tables_are_the_weights_items_of_board_shape() {
        let mut used: Vec<usize> = SQUARE_TABLES.iter().flat_map(|t| [t.1, t.3]).collect();
        used.sort_unstable();
        let mut shaped: Vec<usize> =
            weights::TUNED.iter().filter(|item| item.is_square_table()).map(|item| item.start).collect();
        shaped.sort_unstable();
        assert_eq!(used, shaped);
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
