//! The board: piece placement as bitboards and a mailbox, the side to move,
//! the Zobrist key, and an undo stack of [`StateInfo`] records.

pub mod attacks;
mod fen;
mod makemove;
mod movegen;
mod see;
pub mod zobrist;

use std::fmt;

pub use fen::{FenError, START_FEN};
pub use movegen::GenType;
pub use see::SEE_VALUE;

use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};
use attacks::{
    between, cannon_attacks, horse_leg, horse_pseudo, horse_sources, line, pawn_sources, rook_attacks,
};

/// Everything needed to take a move back, plus facts about the position that
/// are cheaper to keep than to recompute (key, checkers, king shields).
/// One record per ply; the position keeps the current one and a stack of the
/// earlier ones, which is also what repetition detection walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInfo {
    /// Zobrist key of the position (placement and side to move).
    pub key: u64,
    /// Enemy pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// Pieces of the side to move that shield its king (the only piece between
    /// it and a rook or the enemy king, one of two screens of a cannon, or a
    /// horse's leg): moving one of them may expose the king.
    pub blockers: Bitboard,
    /// Empty squares between an enemy cannon and the king with nothing else
    /// between: a piece of the side to move landing there would become the
    /// cannon's screen and expose its own king.
    pub drop_danger: Bitboard,
    /// The piece captured by the move that led here.
    pub captured: Option<Piece>,
    /// The move that led here ([`Move::NONE`] at the start, [`Move::NULL`] after a null move).
    pub last_move: Move,
    /// Plies since the last capture (the 60-round rule counter).
    pub rule60: u16,
    /// Plies since the last null move (or the start position).
    pub plies_from_null: u16,
}

/// A xiangqi position with its move history since the FEN it was set up from.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; 90],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
    king_sq: [Square; 2],
    side: Color,
    st: StateInfo,
    history: Vec<StateInfo>,
    start_fullmove: u32,
    start_side: Color,
    /// How many positions of the history (the current one included) have a
    /// key in each of [`REPETITION_SLOTS`] slots: a count of 1 in the current
    /// key's slot proves the position has not occurred before.
    repetition_filter: [u16; REPETITION_SLOTS],
}

/// Size of the repetition filter (a power of two).
const REPETITION_SLOTS: usize = 1 << 12;

#[inline(always)]
fn filter_slot(key: u64) -> usize {
    (key >> 52) as usize & (REPETITION_SLOTS - 1)
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Every occupied point.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The king square of `color`.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.king_sq[color.index()]
    }

    /// Zobrist key of the position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.key
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.st.checkers
    }

    /// True if the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st.checkers.any()
    }

    /// Pieces of the side to move that shield their own king (see [`StateInfo::blockers`]).
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.st.blockers
    }

    /// Plies since the last capture.
    #[inline(always)]
    pub fn rule60(&self) -> u16 {
        self.st.rule60
    }

    /// Plies since the last null move.
    #[inline(always)]
    pub fn plies_from_null(&self) -> u16 {
        self.st.plies_from_null
    }

    /// The current state record.
    #[inline(always)]
    pub fn state(&self) -> &StateInfo {
        &self.st
    }

    /// The state records of the earlier positions, oldest first (the current one is [`Position::state`]).
    #[inline(always)]
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }

    /// The state `plies_ago` plies back (0 = now). Panics if out of range.
    #[inline(always)]
    pub fn state_back(&self, plies_ago: usize) -> &StateInfo {
        if plies_ago == 0 { &self.st } else { &self.history[self.history.len() - plies_ago] }
    }

    /// Number of plies played since the FEN this position was set up from.
    #[inline(always)]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// The full-move number (as printed in a FEN).
    pub fn fullmove(&self) -> u32 {
        let plies = self.history.len() as u32 + (self.start_side == Color::Black) as u32;
        self.start_fullmove + plies / 2
    }

    /// Plies since the game's first move as the move number counts them:
    /// 2 × (full-move number − 1), plus one with Black to move.
    pub fn move_number_ply(&self) -> u32 {
        2 * (self.fullmove() - 1) + (self.side_to_move() == Color::Black) as u32
    }

    /// The last move played, or [`Move::NONE`].
    #[inline(always)]
    pub fn last_move(&self) -> Move {
        self.st.last_move
    }

    /// The piece captured by the last move.
    #[inline(always)]
    pub fn captured_piece(&self) -> Option<Piece> {
        self.st.captured
    }

    /// Makes sure `extra` more moves can be made without the undo stack growing
    /// (the search calls this once, so that making moves never allocates).
    pub fn reserve(&mut self, extra: usize) {
        self.history.reserve(extra);
    }

    /// False if the current position certainly has not occurred earlier in
    /// the history (a cheap test before looking for repetitions; true may
    /// still mean no repetition).
    #[inline(always)]
    pub fn may_repeat(&self) -> bool {
        self.repetition_filter[filter_slot(self.st.key)] > 1
    }

    /// False if the position with key `key` (that after a move, from
    /// [`Position::key_after`]) certainly has not occurred earlier in the
    /// history: the test of [`Position::may_repeat`], one move ahead.
    #[inline(always)]
    pub fn may_repeat_as(&self, key: u64) -> bool {
        self.repetition_filter[filter_slot(key)] > 0
    }

    /// Counts the current key in the repetition filter (after a move).
    #[inline(always)]
    fn filter_add(&mut self) {
        let slot = &mut self.repetition_filter[filter_slot(self.st.key)];
        *slot = slot.wrapping_add(1);
    }

    /// Uncounts the current key (before taking a move back).
    #[inline(always)]
    fn filter_remove(&mut self) {
        let slot = &mut self.repetition_filter[filter_slot(self.st.key)];
        *slot = slot.wrapping_sub(1);
    }

    /// True if `color`'s king would be attacked on `sq` given occupancy `occ`,
    /// counting only enemy pieces in `enemy` (so a captured piece can be left out).
    /// The enemy king counts as a rook along the file: the flying-general rule.
    #[inline(always)]
    pub fn attacked(&self, color: Color, sq: Square, occ: Bitboard, enemy: Bitboard) -> bool {
        let them = !color;
        ((rook_attacks(sq, occ) & (self.kind_bb(PieceKind::Rook) | self.kind_bb(PieceKind::King)))
            | (cannon_attacks(sq, occ) & self.kind_bb(PieceKind::Cannon))
            | (horse_sources(sq, occ) & self.kind_bb(PieceKind::Horse))
            | (pawn_sources(them, sq) & self.kind_bb(PieceKind::Pawn)))
            & enemy
            != Bitboard::EMPTY
    }

    /// Pieces of `by` that attack `sq` under occupancy `occ` (rooks, cannons,
    /// horses, pawns, and the king along its file or palace steps; advisors
    /// and elephants included for completeness).
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        use attacks::{advisor_attacks, elephant_attacks, king_attacks};
        let mine = self.pieces(by);
        ((rook_attacks(sq, occ) & self.kind_bb(PieceKind::Rook))
            | (cannon_attacks(sq, occ) & self.kind_bb(PieceKind::Cannon))
            | (horse_sources(sq, occ) & self.kind_bb(PieceKind::Horse))
            | (pawn_sources(by, sq) & self.kind_bb(PieceKind::Pawn))
            | (king_attacks(sq) & self.kind_bb(PieceKind::King))
            | (advisor_attacks(sq) & self.kind_bb(PieceKind::Advisor))
            | (elephant_attacks(sq, occ) & self.kind_bb(PieceKind::Elephant)))
            & mine
    }

    /// Checkers, king shields and cannon drop squares for the side to move,
    /// computed from the placement (see the fields of [`StateInfo`]).
    fn check_info(&self) -> (Bitboard, Bitboard, Bitboard) {
        let us = self.side;
        let them = !us;
        let k = self.king_sq[us.index()];
        let occ = self.occupied();
        let mut checkers = Bitboard::EMPTY;
        let mut blockers = Bitboard::EMPTY;
        let mut drop_danger = Bitboard::EMPTY;
        let l = line(k);
        for s in l & (self.pieces_of(them, PieceKind::Rook) | self.pieces_of(them, PieceKind::King)) {
            let b = between(k, s) & occ;
            if b.is_empty() {
                checkers |= s;
            } else if !b.more_than_one() {
                blockers |= b;
            }
        }
        for s in l & self.pieces_of(them, PieceKind::Cannon) {
            let ray = between(k, s);
            let b = ray & occ;
            match b.count() {
                0 => drop_danger |= ray,
                1 => checkers |= s,
                2 => blockers |= b,
                _ => {}
            }
        }
        for s in horse_pseudo(k) & self.pieces_of(them, PieceKind::Horse) {
            let leg = horse_leg(s, k);
            if occ.has(leg) {
                blockers |= leg;
            } else {
                checkers |= s;
            }
        }
        checkers |= pawn_sources(them, k) & self.pieces_of(them, PieceKind::Pawn);
        (checkers, blockers & self.pieces(us), drop_danger)
    }

    /// Stores [`Position::check_info`] in the current state record.
    #[inline(always)]
    fn compute_check_info(&mut self) {
        (self.st.checkers, self.st.blockers, self.st.drop_danger) = self.check_info();
    }

    /// The key recomputed from scratch (for tests and debug checks).
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::side_key(self.side);
        for sq in self.occupied() {
            key ^= zobrist::piece_square(self.board[sq.index()].expect("occupied"), sq);
        }
        key
    }

    /// Checks every incremental field against a recomputation; returns a description of the first mismatch.
    pub fn validate(&self) -> Result<(), String> {
        let info = (self.st.checkers, self.st.blockers, self.st.drop_danger);
        if self.check_info() != info {
            return Err(format!("check info differs: {:?} vs {:?}", self.check_info(), info));
        }
        if self.compute_key() != self.st.key {
            return Err("incremental key differs from recomputed key".into());
        }
        let mut filter = [0u16; REPETITION_SLOTS];
        for key in self.history.iter().map(|st| st.key).chain([self.st.key]) {
            filter[filter_slot(key)] += 1;
        }
        if filter != self.repetition_filter {
            return Err("repetition filter differs from the history".into());
        }
        for sq in Square::all() {
            let p = self.board[sq.index()];
            for c in Color::ALL {
                for k in PieceKind::ALL {
                    if self.pieces_of(c, k).has(sq) != (p == Some(Piece::new(c, k))) {
                        return Err(format!("bitboards and mailbox disagree on {sq}"));
                    }
                }
            }
        }
        for c in Color::ALL {
            if self.pieces_of(c, PieceKind::King) != Bitboard::from_square(self.king_sq[c.index()]) {
                return Err(format!("{} king square is stale", c.name()));
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    /// A board diagram (rank 9 on top), then the FEN, key and checkers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "   +-------------------+")?;
        for r in (0..10u8).rev() {
            write!(f, " {r} |")?;
            for file in 0..9u8 {
                let c = self.piece_on(Square::from_coords(file, r)).map_or('.', |p| p.fen_char());
                write!(f, " {c}")?;
            }
            writeln!(f, " |")?;
            if r == 5 {
                writeln!(f, "   |~~~~~~~~~~~~~~~~~~~|")?;
            }
        }
        writeln!(f, "   +-------------------+")?;
        writeln!(f, "     a b c d e f g h i")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.fen())?;
        writeln!(f, "Key: {:016X}", self.key())?;
        let checkers: Vec<String> = self.checkers().map(|s| s.to_string()).collect();
        write!(f, "Checkers: {}", checkers.join(" "))
    }
}
