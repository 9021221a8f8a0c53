//! Move-ordering statistics learned during the search: the butterfly
//! history (side, from, to), continuation history (previous move's piece and
//! destination -> this move's piece and destination), capture history, and
//! counter moves. All use the "gravity" update that keeps values bounded.

use crate::types::{Color, Move, Piece, Square};

/// Upper bound of every history value.
pub const HISTORY_MAX: i32 = 16_384;

/// Number of distinct coloured pieces (7 kinds × 2 colours).
pub const PIECES: usize = 14;
const SQUARES: usize = 90;

/// Dense 0..14 index of a coloured piece.
#[inline(always)]
pub fn piece_index(p: Piece) -> usize {
    p.kind().index() + 7 * p.color().index()
}

/// Index of "piece `p` moved to `to`" in the continuation tables.
#[inline(always)]
pub fn cont_index(p: Piece, to: Square) -> usize {
    piece_index(p) * SQUARES + to.index()
}

#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *entry as i32;
    *entry = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
}

/// All history tables of one search thread.
pub struct Histories {
    butterfly: Box<[i16]>,
    continuation: Box<[i16]>,
    capture: Box<[i16]>,
    counter: Box<[Move]>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            butterfly: vec![0; 2 * SQUARES * SQUARES].into_boxed_slice(),
            continuation: vec![0; PIECES * SQUARES * PIECES * SQUARES].into_boxed_slice(),
            capture: vec![0; PIECES * SQUARES * 7].into_boxed_slice(),
            counter: vec![Move::NONE; PIECES * SQUARES].into_boxed_slice(),
        }
    }
}

impl Histories {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        // The continuation table is megabytes of which a short search
        // touches little: write only the blocks that hold something, so
        // pages never written stay unmapped (reading them costs nothing).
        for block in self.continuation.chunks_mut(2048) {
            if block.iter().any(|&v| v != 0) {
                block.fill(0);
            }
        }
        self.capture.fill(0);
        self.counter.fill(Move::NONE);
    }

    #[inline(always)]
    fn bf_index(c: Color, m: Move) -> usize {
        (c.index() * SQUARES + m.from().index()) * SQUARES + m.to().index()
    }

    /// Butterfly history of `m` for side `c`.
    #[inline(always)]
    pub fn butterfly(&self, c: Color, m: Move) -> i32 {
        self.butterfly[Self::bf_index(c, m)] as i32
    }

    /// Adds `bonus` (negative for a malus) to the butterfly history.
    #[inline(always)]
    pub fn update_butterfly(&mut self, c: Color, m: Move, bonus: i32) {
        gravity(&mut self.butterfly[Self::bf_index(c, m)], bonus);
    }

    /// Continuation history: after the move indexed `prev`, moving to `cur`.
    #[inline(always)]
    pub fn continuation(&self, prev: usize, cur: usize) -> i32 {
        self.continuation[prev * PIECES * SQUARES + cur] as i32
    }

    /// Adds `bonus` to a continuation-history entry.
    #[inline(always)]
    pub fn update_continuation(&mut self, prev: usize, cur: usize, bonus: i32) {
        gravity(&mut self.continuation[prev * PIECES * SQUARES + cur], bonus);
    }

    /// Capture history: piece `p` capturing a `victim`-kind piece on `to`.
    #[inline(always)]
    pub fn capture(&self, p: Piece, to: Square, victim: usize) -> i32 {
        self.capture[(piece_index(p) * SQUARES + to.index()) * 7 + victim] as i32
    }

    /// Adds `bonus` to a capture-history entry.
    #[inline(always)]
    pub fn update_capture(&mut self, p: Piece, to: Square, victim: usize, bonus: i32) {
        gravity(&mut self.capture[(piece_index(p) * SQUARES + to.index()) * 7 + victim], bonus);
    }

    /// The remembered reply to the move indexed `prev`.
    #[inline(always)]
    pub fn counter(&self, prev: usize) -> Move {
        self.counter[prev]
    }

    /// Remembers `m` as the reply to the move indexed `prev`.
    #[inline(always)]
    pub fn set_counter(&mut self, prev: usize, m: Move) {
        self.counter[prev] = m;
    }
}
