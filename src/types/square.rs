use std::fmt;

use super::Color;

/// A file (column) `a`..`i`, numbered 0..8 from Red's left.
pub type File = u8;
/// A rank (row) `0`..`9`, numbered from Red's back rank.
pub type Rank = u8;

/// One of the 90 points of the board, numbered rank-major: `a0` = 0, `i0` = 8,
/// `a1` = 9, …, `i9` = 89. Rank 0 is Red's back rank.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 90;

    /// The square with index `i` (`i < 90`).
    #[inline(always)]
    pub const fn new(i: u8) -> Square {
        debug_assert!(i < 90);
        Square(i)
    }

    /// The square on `file` (0..9) and `rank` (0..10).
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        debug_assert!(file < 9 && rank < 10);
        Square(rank * 9 + file)
    }

    /// The square at (`file`, `rank`) if both are on the board.
    pub const fn try_from_coords(file: i32, rank: i32) -> Option<Square> {
        // Negative numbers wrap to large ones, so one comparison each.
        if (file as u32) < 9 && (rank as u32) < 10 {
            Some(Square::from_coords(file as u8, rank as u8))
        } else {
            None
        }
    }

    /// Index 0..90 into per-square arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (`a`..`i`).
    #[inline(always)]
    pub const fn file(self) -> File {
        self.0 % 9
    }

    /// Rank 0..10.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        self.0 / 9
    }

    /// The same point seen from the other side (rank r -> 9 - r, same file).
    pub const fn flip_rank(self) -> Square {
        Square::from_coords(self.file(), 9 - self.rank())
    }

    /// True if the square lies in `color`'s own half (Red: ranks 0–4).
    #[inline(always)]
    pub const fn on_own_half(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// True if the square is inside `color`'s palace (files d–f, three ranks).
    pub const fn in_palace(self, color: Color) -> bool {
        let (f, r) = (self.file(), self.rank());
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// Iterates over all 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }

    /// Parses `a0`..`i9` (exactly two characters).
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'0');
        (f < 9 && r < 10).then(|| Square::from_coords(f, r))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}
