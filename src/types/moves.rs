use std::fmt;

use arrayvec::ArrayVec;

use super::Square;

/// More than the largest number of pseudo-legal moves in any xiangqi position
/// (two rooks and two cannons with 17 targets each, and so on: at most 119).
pub const MAX_MOVES: usize = 128;

/// A move packed in 16 bits: `from << 7 | to`. Xiangqi has no promotions,
/// castling or en passant, so the two squares say everything.
/// [`Move::NONE`] (`a0a0`) and [`Move::NULL`] (`a1a1`) have `from == to`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

/// A list of moves on the stack, never on the heap.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

impl Move {
    /// "No move" (printed as `(none)`).
    pub const NONE: Move = Move(0);
    /// The null move used by null-move pruning (printed as `0000`).
    pub const NULL: Move = Move((9 << 7) | 9);

    /// The move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(((from.index() as u16) << 7) | to.index() as u16)
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 >> 7) as u8)
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 & 0x7F) as u8)
    }

    /// True for real moves (neither NONE nor NULL).
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        (self.0 >> 7) != (self.0 & 0x7F)
    }

    /// The raw 16-bit encoding (for hash tables).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::raw`]; `None` if the bits are not a move
    /// between two board squares.
    pub fn from_raw(raw: u16) -> Option<Move> {
        let (f, t) = (raw >> 7, raw & 0x7F);
        (f < 90 && t < 90).then_some(Move(raw))
    }

    /// Parses the coordinate form `h2e2` (ranks 0–9). Does not check legality.
    pub fn parse(s: &str) -> Option<Move> {
        if s.len() != 4 || !s.is_ascii() {
            return None;
        }
        let from = Square::parse(&s[..2])?;
        let to = Square::parse(&s[2..])?;
        (from != to).then(|| Move::new(from, to))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NONE {
            write!(f, "(none)")
        } else if *self == Move::NULL {
            write!(f, "0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(m.from(), Square::from_coords(7, 2));
        assert_eq!(m.to(), Square::from_coords(4, 2));
        assert_eq!(m.to_string(), "h2e2");
        assert!(m.is_some());
        assert!(!Move::NONE.is_some() && !Move::NULL.is_some());
        for bad in ["", "h2e", "h2e2x", "j2e2", "h2h2", "h:e2", "é2e2"] {
            assert_eq!(Move::parse(bad), None, "{bad}");
        }
        assert_eq!(Move::from_raw(m.raw()), Some(m));
        assert_eq!(Move::from_raw(0x7FFF), None);
    }
}
