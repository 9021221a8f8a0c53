//! Zobrist keys: one random 64-bit number per (piece, square) and one for the
//! side to move, drawn from a fixed-seed generator so that keys, hash indices
//! and therefore `bench` are the same on every run and machine.

use crate::types::{Color, Piece, Square};

struct Keys {
    piece_square: [[u64; 90]; Piece::INDEX_COUNT],
    side: u64,
}

/// Computed by the compiler, so a lookup is a plain load.
static KEYS: Keys = {
    let mut rng = SplitMix64(0x0C4A_7107_0000_1070);
    let mut piece_square = [[0u64; 90]; Piece::INDEX_COUNT];
    let mut p = 0;
    while p < Piece::INDEX_COUNT {
        let mut sq = 0;
        while sq < 90 {
            piece_square[p][sq] = rng.next_u64();
            sq += 1;
        }
        p += 1;
    }
    Keys { piece_square, side: rng.next_u64() }
};

/// The SplitMix64 generator (Steele, Lea and Flood): small, fast, well
/// mixed. The one seeded generator of the crate (keys, self-play, tuning).
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0), each about equally likely.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    KEYS.piece_square[piece.index()][sq.index()]
}

/// Key mixed in when Black is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}

/// The side-to-move part of a key.
#[inline(always)]
pub fn side_key(color: Color) -> u64 {
    if color == Color::Black { KEYS.side } else { 0 }
}
