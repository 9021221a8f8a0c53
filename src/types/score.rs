//! Search scores: centipawns from the side to move's point of view, with a
//! band at the top for mates. A score of `MATE - n` means "mate in n plies".

/// Deepest ply the search ever reaches.
pub const MAX_PLY: usize = 128;

/// The score of delivering mate right now (never reached: a mate is found one ply later).
pub const MATE: i32 = 32_000;
/// Scores at or beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// Larger than any score; the initial search window.
pub const INFINITE: i32 = MATE + 1;
/// The score of a drawn position.
pub const DRAW: i32 = 0;
/// "No score" marker (for stored static evaluations).
pub const NONE: i32 = -INFINITE - 1;

/// Score of mating at `ply` plies from the root.
#[inline(always)]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Score of being mated at `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// True for mate scores of either sign.
#[inline(always)]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a score from "relative to the root" to "relative to this node"
/// before it goes into the transposition table.
#[inline(always)]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
#[inline(always)]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as the protocols print it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reported {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl Reported {
    /// Turns an internal score into centipawns or a signed mate distance in moves.
    pub fn from_score(score: i32) -> Reported {
        if score >= MATE_BOUND {
            Reported::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Reported::Mate(-(MATE + score) / 2)
        } else {
            Reported::Cp(score)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores() {
        assert_eq!(Reported::from_score(mate_in(1)), Reported::Mate(1));
        assert_eq!(Reported::from_score(mate_in(3)), Reported::Mate(2));
        assert_eq!(Reported::from_score(mated_in(0)), Reported::Mate(0));
        assert_eq!(Reported::from_score(mated_in(2)), Reported::Mate(-1));
        assert_eq!(Reported::from_score(35), Reported::Cp(35));
        assert_eq!(from_tt(to_tt(mate_in(9), 4), 4), mate_in(9));
        assert_eq!(from_tt(to_tt(mated_in(9), 4), 6), mated_in(11));
    }
}
