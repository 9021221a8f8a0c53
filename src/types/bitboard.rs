use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::Square;

/// A set of board points: bit `i` stands for the square with index `i`
/// (rank-major, `a0` = bit 0). Only the low 90 bits are ever set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 points.
    pub const FULL: Bitboard = Bitboard((1u128 << 90) - 1);
    /// File `a` (file 0) on every rank.
    pub const FILE_A: Bitboard = {
        let mut b = 0u128;
        let mut r = 0;
        while r < 10 {
            b |= 1u128 << (r * 9);
            r += 1;
        }
        Bitboard(b)
    };
    /// Rank 0 (Red's back rank).
    pub const RANK_0: Bitboard = Bitboard(0x1FF);
    /// Red's half of the board (ranks 0–4).
    pub const RED_HALF: Bitboard = Bitboard((1u128 << 45) - 1);
    /// Black's half of the board (ranks 5–9).
    pub const BLACK_HALF: Bitboard = Bitboard(((1u128 << 90) - 1) ^ ((1u128 << 45) - 1));

    /// The set holding just `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// The points of file `f` (0..9).
    #[inline(always)]
    pub const fn file(f: u8) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << f)
    }

    /// The points of rank `r` (0..10).
    #[inline(always)]
    pub const fn rank(r: u8) -> Bitboard {
        Bitboard(Bitboard::RANK_0.0 << (9 * r))
    }

    /// True if no point is in the set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if at least one point is in the set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True if `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    /// Number of points in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        (self.0 as u64).count_ones() + ((self.0 >> 64) as u64).count_ones()
    }

    /// True if the set holds two or more points.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest point of a non-empty set.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.any());
        let lo = self.0 as u64;
        let i = if lo != 0 { lo.trailing_zeros() } else { 64 + ((self.0 >> 64) as u64).trailing_zeros() };
        Square::new(i as u8)
    }

    /// Removes and returns the lowest point of a non-empty set.
    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        sq
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1u128 << sq.index()))
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// The set with `sq` toggled.
    #[inline(always)]
    pub const fn toggled(self, sq: Square) -> Bitboard {
        Bitboard(self.0 ^ (1u128 << sq.index()))
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(self.pop_lsb()) }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tr<Square> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Square) -> Bitboard {
                Bitboard(self.0 $op (1u128 << rhs.index()))
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
        impl $atr<Square> for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Square) {
                self.0 = self.0 $op (1u128 << rhs.index());
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 90 board points.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a 10×9 grid, rank 9 on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for r in (0..10u8).rev() {
            for file in 0..9u8 {
                let c = if self.has(Square::from_coords(file, r)) { 'x' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_and_counts() {
        let sqs = [0u8, 8, 63, 64, 89].map(Square::new);
        let b = sqs.iter().fold(Bitboard::EMPTY, |b, &s| b | s);
        assert_eq!(b.count(), 5);
        assert!(b.more_than_one());
        assert_eq!(b.collect::<Vec<_>>(), sqs.to_vec());
        assert_eq!((!Bitboard::EMPTY), Bitboard::FULL);
        assert_eq!(Bitboard::RED_HALF | Bitboard::BLACK_HALF, Bitboard::FULL);
        assert_eq!(Bitboard::file(8).count(), 10);
        assert_eq!(Bitboard::rank(9).count(), 9);
    }
}
