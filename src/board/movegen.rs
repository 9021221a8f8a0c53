//! Legal move generation.
//!
//! Moves are generated from attack sets; legality is settled without making
//! the move. When the side to move is not in check, a non-king move can only
//! expose its king if the piece is one of the king's shields
//! ([`StateInfo::blockers`](super::StateInfo::blockers)) or if it lands
//! between an enemy cannon and the king on an otherwise open line
//! ([`StateInfo::drop_danger`](super::StateInfo::drop_danger)); only shield
//! moves get a full test. King moves and check evasions are tested in full
//! with the occupancy after the move, which also covers the flying general.

use super::Position;
use super::attacks::{
    advisor_attacks, between, cannon_attacks, check_zone, elephant_attacks, horse_attacks, horse_leg,
    horse_sources, king_attacks, pawn_attacks, pawn_sources, rook_attacks,
};
use crate::types::{Bitboard, Color, Move, MoveList, PieceKind, Square};

/// Which pseudo-legal moves [`Position::generate`] produces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    /// Moves onto enemy pieces.
    Captures,
    /// Moves onto empty points.
    Quiets,
    /// Both.
    All,
}

/// Pseudo-legal targets of a `kind` piece of colour `us` on `from`
/// (own pieces not yet removed, except for the cannon, whose slides and
/// captures differ).
#[inline(always)]
fn targets_of(kind: PieceKind, us: Color, from: Square, occ: Bitboard, theirs: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Rook => rook_attacks(from, occ),
        PieceKind::Cannon => (rook_attacks(from, occ) & !occ) | (cannon_attacks(from, occ) & theirs),
        PieceKind::Horse => horse_attacks(from, occ),
        PieceKind::Pawn => pawn_attacks(us, from),
        PieceKind::Advisor => advisor_attacks(from),
        PieceKind::Elephant => elephant_attacks(from, occ),
        PieceKind::King => king_attacks(from),
    }
}

/// Non-king kinds in generation order.
const NON_KING: [PieceKind; 6] = [
    PieceKind::Rook,
    PieceKind::Cannon,
    PieceKind::Horse,
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

impl Position {
    /// Calls `f(from, targets)` for every non-king piece of the side to move,
    /// with its pseudo-legal targets inside `mask` (which must exclude own pieces).
    #[inline(always)]
    fn for_each_target(&self, mask: Bitboard, mut f: impl FnMut(Square, Bitboard)) {
        let us = self.side;
        let occ = self.occupied();
        let theirs = self.pieces(!us);
        for kind in NON_KING {
            for from in self.pieces_of(us, kind) {
                f(from, targets_of(kind, us, from, occ, theirs) & mask);
            }
        }
    }

    /// True if the king of the side to move, stepping from `from` to `to`, is safe there.
    #[inline(always)]
    fn king_move_safe(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let occ = self.occupied().toggled(from).with(to);
        !self.attacked(us, to, occ, self.pieces(!us).without(to))
    }

    /// True if the non-king move `from`-`to` would leave the mover's king attacked.
    #[inline(always)]
    fn exposes_king(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let occ = self.occupied().toggled(from).with(to);
        self.attacked(us, self.king_sq[us.index()], occ, self.pieces(!us).without(to))
    }

    /// Appends every legal move.
    pub fn generate_legal(&self, list: &mut MoveList) {
        if self.in_check() {
            return self.generate_evasions(list);
        }
        let blockers = self.st.blockers;
        self.for_each_target(!self.pieces(self.side) & !self.st.drop_danger, |from, targets| {
            if blockers.has(from) {
                for to in targets {
                    if !self.exposes_king(from, to) {
                        list.push(Move::new(from, to));
                    }
                }
            } else {
                for to in targets {
                    list.push(Move::new(from, to));
                }
            }
        });
        self.generate_king_moves(!self.pieces(self.side), list);
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// The number of legal moves, counted without listing them where possible
    /// (perft's bulk count at the last ply).
    pub fn legal_move_count(&self) -> usize {
        if self.in_check() {
            let mut list = MoveList::new();
            self.generate_evasions(&mut list);
            return list.len();
        }
        let blockers = self.st.blockers;
        let mut n = 0usize;
        self.for_each_target(!self.pieces(self.side) & !self.st.drop_danger, |from, targets| {
            n += if blockers.has(from) {
                targets.filter(|&to| !self.exposes_king(from, to)).count()
            } else {
                targets.count() as usize
            };
        });
        let k = self.king_sq[self.side.index()];
        n + (king_attacks(k) & !self.pieces(self.side)).filter(|&to| self.king_move_safe(k, to)).count()
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Appends the legal king moves whose destination lies in `mask`.
    fn generate_king_moves(&self, mask: Bitboard, list: &mut MoveList) {
        let k = self.king_sq[self.side.index()];
        for to in king_attacks(k) & mask {
            if self.king_move_safe(k, to) {
                list.push(Move::new(k, to));
            }
        }
    }

    /// Appends every legal move of a side in check.
    pub fn generate_evasions(&self, list: &mut MoveList) {
        let us = self.side;
        let ours = self.pieces(us);
        let k = self.king_sq[us.index()];
        let occ = self.occupied();
        self.generate_king_moves(!ours, list);
        // Any legal non-king evasion lands on a checker, a blocking point or a
        // horse leg, or moves a cannon's screen away.
        let mut targets = Bitboard::EMPTY;
        let mut screens = Bitboard::EMPTY;
        for c in self.st.checkers {
            targets |= c;
            match self.piece_on(c).map(|p| p.kind()) {
                Some(PieceKind::Horse) => targets |= horse_leg(c, k),
                Some(PieceKind::Cannon) => {
                    targets |= between(k, c);
                    screens |= between(k, c) & occ & ours;
                }
                _ => targets |= between(k, c),
            }
        }
        self.for_each_target(!ours, |from, t| {
            let t = if screens.has(from) { t } else { t & targets };
            for to in t {
                if !self.exposes_king(from, to) {
                    list.push(Move::new(from, to));
                }
            }
        });
    }

    /// Appends pseudo-legal moves of the given type (for the search's move
    /// picker; filter each with [`Position::is_legal`]). Not for positions in
    /// check: use [`Position::generate_evasions`] there.
    pub fn generate(&self, kind: GenType, list: &mut MoveList) {
        let us = self.side;
        let mask = match kind {
            GenType::Captures => self.pieces(!us),
            GenType::Quiets => !self.occupied(),
            GenType::All => !self.pieces(us),
        };
        self.for_each_target(mask, |from, targets| {
            for to in targets {
                list.push(Move::new(from, to));
            }
        });
        let k = self.king_sq[us.index()];
        for to in king_attacks(k) & mask {
            list.push(Move::new(k, to));
        }
    }

    /// True if `m` moves a piece of the side to move along its movement rules
    /// onto a point not held by its own side (king safety not checked).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if !m.is_some() {
            return false;
        }
        let us = self.side;
        match self.piece_on(m.from()) {
            Some(p) if p.color() == us && !self.pieces(us).has(m.to()) => {
                targets_of(p.kind(), us, m.from(), self.occupied(), self.pieces(!us)).has(m.to())
            }
            _ => false,
        }
    }

    /// True if the pseudo-legal move `m` does not leave the mover's king
    /// attacked or facing the enemy king.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        if from == self.king_sq[self.side.index()] {
            return self.king_move_safe(from, to);
        }
        if self.in_check() {
            return !self.exposes_king(from, to);
        }
        if self.st.drop_danger.has(to) {
            return false;
        }
        !self.st.blockers.has(from) || !self.exposes_king(from, to)
    }

    /// Parses a move in `h2e2` form and returns it if it is legal here.
    pub fn parse_legal_move(&self, s: &str) -> Option<Move> {
        let m = Move::parse(s)?;
        (self.is_pseudo_legal(m) && self.is_legal(m)).then_some(m)
    }

    /// True if the legal move `m` checks the opponent's king.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let Some(pc) = self.piece_on(from) else { return false };
        let ek = self.king_sq[(!us).index()];
        let zone = check_zone(ek);
        if !zone.has(from) && !zone.has(to) {
            // No line or leg onto the king changes (and none checks now, with
            // us to move), and a pawn checks only from the king's lines: only
            // the moving horse itself can check.
            return pc.kind() == PieceKind::Horse && horse_sources(ek, self.occupied()).has(to);
        }
        let occ = self.occupied().toggled(from).with(to);
        let mine = |kind: PieceKind| {
            let b = self.pieces_of(us, kind);
            if pc.kind() == kind { b.toggled(from).with(to) } else { b }
        };
        (rook_attacks(ek, occ) & mine(PieceKind::Rook)).any()
            || (cannon_attacks(ek, occ) & mine(PieceKind::Cannon)).any()
            || (horse_sources(ek, occ) & mine(PieceKind::Horse)).any()
            || (pawn_sources(us, ek) & mine(PieceKind::Pawn)).any()
    }
}
