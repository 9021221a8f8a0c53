//! What the evaluation tuner and the network trainer share: telling the
//! games of a data file apart and choosing the games held out.
//!
//! Records carry no game number, but a game's records are consecutive and
//! their ply increases: a record starts a new game when it is the first of
//! a file, when its ply is not above the previous record's, or when its
//! result or its kind of end differs from the previous record's (both are
//! the same for every record of a game). Two games can only be taken for
//! one when a game's first recorded ply exceeds the previous game's last and
//! both ended alike.

use crate::board::zobrist::SplitMix64;
use crate::rules::Outcome;
use crate::tools::datagen::format::{End, Record};

/// Numbers the games of a sequence of records, from 0 in the order read.
#[derive(Clone, Debug, Default)]
pub struct Games {
    /// Ply, result and end of the last record, while in a file.
    last: Option<(u16, Outcome, End)>,
    /// Games seen so far.
    count: u32,
}

impl Games {
    /// The next record starts a new game (a new file begins).
    pub fn new_file(&mut self) {
        self.last = None;
    }

    /// The game of `r`, the record read after the previous one.
    pub fn of(&mut self, r: &Record) -> u32 {
        let same = match self.last {
            Some((ply, result, end)) => r.ply > ply && r.result == result && r.end == end,
            None => false,
        };
        if !same {
            self.count += 1;
        }
        self.last = Some((r.ply, r.result, r.end));
        self.count - 1
    }

    /// Games seen so far (including those whose positions were all left out).
    pub fn count(&self) -> u32 {
        self.count
    }
}

/// True if the positions of game `game` (numbered in the order read) are
/// held out: a `fraction` of the games, chosen by a hash of the number,
/// whatever the seed of the run. Whole games, because the positions of one
/// game are much alike.
pub fn is_holdout(game: u32, fraction: f64) -> bool {
    let h = SplitMix64(game as u64 ^ 0x401D).next_u64();
    ((h >> 11) as f64) < fraction * (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fraction_of_games_held_out_is_the_one_asked() {
        for (fraction, lo, hi) in [(0.1, 9_500, 10_500), (0.05, 4_600, 5_400), (0.0, 0, 0)] {
            let held = (0..100_000).filter(|&g| is_holdout(g, fraction)).count();
            assert!((lo..=hi).contains(&held), "{fraction}: {held}");
        }
        let runs = (0..100_000).filter(|&g| is_holdout(g, 0.1) && is_holdout(g + 1, 0.1)).count();
        assert!((700..=1_300).contains(&runs), "neighbours are independent ({runs})");
        assert!((0..1000).all(|g| is_holdout(g, 1.0)));
    }
}
