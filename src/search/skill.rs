//! Strength levels: how a weakened engine searches and which move it plays.
//!
//! A level runs from 0 to 20 in hundredths ([`Strength::level_x100`]); 20 is
//! full strength, where nothing here changes the search. Below it the search
//! is the same alpha-beta search, with three changes:
//!
//! * it stops after a node budget ([`Skill::nodes`]), so that a weak level
//!   answers in milliseconds whatever the clock (it never thinks for
//!   seconds to pick a poor move); the first iteration always completes;
//! * it searches several lines (MultiPV, [`Skill::lines`]) whatever the GUI
//!   asked for (only the GUI's lines are reported);
//! * it plays one of those lines at random, each line's score raised by a
//!   random amount up to [`Skill::spread`] centipawns, the highest total
//!   played ([`Skill::pick`]): moves close to the best are played often,
//!   moves far below it never. A line the search sees losing (mated, or lost
//!   by the rules, such as a perpetual check the arbiter forbids) is never
//!   played while another line does not lose.
//!
//! The Elo scale: `UCI_Elo` runs from 800 to 2800, anchored at full
//! strength = 2800 at the calibration time control (2+0.02, see
//! `docs/levels.md`); the levels below depend on nodes, not on the machine (at
//! 2+0.02 the clock also limits levels 16–19, whose budgets take 30–90
//! ms). Each even `Skill Level` has the Elo the ladder in `docs/levels.md` measured
//! for it (`LADDER_ELO`, each level against the one two below, 100 games
//! a step, summed down from 2800); `UCI_Elo` plays the level of that Elo,
//! interpolated between the even levels. `Skill Level` itself is the
//! ladder's index (about 107 Elo a level on average, 65–138).

use crate::board::zobrist::SplitMix64;
use crate::types::Move;
use crate::types::score::MATE_BOUND;

/// The lowest `UCI_Elo`.
pub const MIN_ELO: u16 = 800;
/// The highest `UCI_Elo`: full strength.
pub const MAX_ELO: u16 = 2800;
/// The highest `Skill Level`: full strength.
pub const MAX_LEVEL: u8 = 20;

/// The Elo of the even levels 0, 2, …, 20 as the ladder measured them
/// (`docs/levels.md`, "Calibration"): full strength is 2800 and each level lies below
/// the next by the measured result of their match.
const LADDER_ELO: [u16; 11] = [662, 830, 1026, 1295, 1525, 1725, 2000, 2131, 2375, 2600, MAX_ELO];

/// Node budget of each level (interpolated geometrically between whole
/// levels); the last entry, at 20, is only the end point of that
/// interpolation (level 20 itself is the unlimited search).
const NODES: [u64; 21] = [
    500, 780, 1_200, 2_000, 3_200, 4_300, 5_700, 7_200, 9_000, 11_200, 14_000, 17_800, 22_500, 28_500,
    36_000, 45_000, 57_000, 72_000, 90_000, 160_000, 300_000,
];

/// Random spread in centipawns of each level (interpolated linearly).
const SPREAD: [i32; 21] = [450, 320, 200, 100, 70, 60, 52, 45, 40, 34, 28, 27, 26, 17, 11, 9, 7, 6, 5, 3, 0];

/// Lines searched to choose from, by whole level.
const LINES: [usize; 20] = [12, 8, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 3, 2, 2, 2];

/// The strength options as the GUI set them, and the random stream of the
/// game. The level they give is [`Strength::level_x100`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `Skill Level`, 0..=20.
    pub skill_level: u8,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (overrides `Skill Level`).
    pub limit_strength: bool,
    /// `UCI_Elo`, [`MIN_ELO`]..=[`MAX_ELO`].
    pub elo: u16,
    /// Mixed into every choice of a weakened engine; changed for each new
    /// game so that games differ.
    pub seed: u64,
}

impl Strength {
    /// Full strength (the options' defaults).
    pub const DEFAULT: Strength =
        Strength { skill_level: MAX_LEVEL, limit_strength: false, elo: 1800, seed: 0 };

    /// The level in hundredths, 0..=2000: that of `UCI_Elo` on the
    /// measured ladder when strength is limited (level 0 for an Elo below
    /// the weakest level's), else `Skill Level`.
    pub fn level_x100(self) -> u16 {
        if self.limit_strength {
            level_x100_of_elo(self.elo.clamp(MIN_ELO, MAX_ELO))
        } else {
            u16::from(self.skill_level.min(MAX_LEVEL)) * 100
        }
    }

    /// How to play at this strength; `None` at full strength.
    pub fn skill(self) -> Option<Skill> {
        let level = self.level_x100();
        (level < u16::from(MAX_LEVEL) * 100).then_some(Skill { level_x100: level, seed: self.seed })
    }
}

/// The level (in hundredths) the ladder puts at `elo`: linear between the
/// two even levels whose measured Elo it lies between, 0 below the ladder
/// and full strength above it.
fn level_x100_of_elo(elo: u16) -> u16 {
    let i = LADDER_ELO.windows(2).position(|w| elo <= w[1]).unwrap_or(LADDER_ELO.len() - 2);
    let (lo, hi) = (LADDER_ELO[i], LADDER_ELO[i + 1]);
    let frac = u32::from(elo.min(hi).saturating_sub(lo)) * 200 / u32::from(hi - lo);
    (i as u32 * 200 + frac) as u16
}

impl Default for Strength {
    fn default() -> Self {
        Strength::DEFAULT
    }
}

/// A level below full strength: its budget, its lines and its choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level_x100: u16,
    seed: u64,
}

impl Skill {
    /// The level as a number from 0 to 20 (exclusive).
    fn level(self) -> f64 {
        f64::from(self.level_x100) / 100.0
    }

    /// The table entries either side of the level and the fraction between.
    fn between(self) -> (usize, usize, f64) {
        let lo = (self.level_x100 / 100) as usize;
        let hi = lo + 1;
        (lo, hi, self.level() - lo as f64)
    }

    /// Nodes the search may spend: no iteration starts once it has spent
    /// half, and it stops at the budget (but never before its first
    /// iteration is complete).
    pub fn nodes(self) -> u64 {
        let (lo, hi, t) = self.between();
        let (a, b) = (NODES[lo] as f64, NODES[hi] as f64);
        (a * (b / a).powf(t)).round() as u64
    }

    /// How many lines are searched to choose from: 2 near full strength, up
    /// to 12 at level 0.
    pub fn lines(self) -> usize {
        LINES[usize::from(self.level_x100 / 100)]
    }

    /// The most centipawns a move may be worse than the best and still be
    /// played.
    pub fn spread(self) -> i32 {
        let (lo, hi, t) = self.between();
        let (a, b) = (f64::from(SPREAD[lo]), f64::from(SPREAD[hi]));
        (a + (b - a) * t).round() as i32
    }

    /// Picks the move to play from the searched lines (move and score, best
    /// first) of the position with key `key`. Every line's score is raised
    /// by a random amount in `0..=spread`, and the highest total wins (the
    /// better line on a tie). Lines that lose (a mate score against the
    /// mover, which includes losses by the rules) are left out unless every
    /// line loses. `None` if there is no line.
    pub fn pick(self, lines: &[(Move, i32)], key: u64) -> Option<Move> {
        let losing = |s: i32| s <= -MATE_BOUND;
        let all_lose = lines.iter().all(|&(_, s)| losing(s));
        let mut rng = SplitMix64(self.seed ^ key);
        let spread = self.spread().max(0) as usize;
        lines
            .iter()
            .filter(|&&(_, s)| all_lose || !losing(s))
            .map(|&(m, s)| (m, i64::from(s) + rng.below(spread + 1) as i64))
            .fold(None, |best: Option<(Move, i64)>, (m, v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((m, v)),
            })
            .map(|(m, _)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::score::{mate_in, mated_in};

    fn skill(level: u8) -> Skill {
        Strength { skill_level: level, ..Strength::DEFAULT }.skill().expect("below full strength")
    }

    #[test]
    fn levels_and_elo() {
        assert_eq!(Strength::DEFAULT.skill(), None);
        assert_eq!(Strength { limit_strength: true, elo: MAX_ELO, ..Strength::DEFAULT }.skill(), None);
        let s = Strength { limit_strength: true, elo: 1850, skill_level: 3, seed: 0 };
        assert_eq!(Strength { limit_strength: false, ..s }.level_x100(), 300);
        // An Elo below the range is its lowest, which lies between levels 0 and 2.
        let lowest = Strength { elo: MIN_ELO, ..s }.level_x100();
        assert_eq!(Strength { elo: 100, ..s }.level_x100(), lowest);
        assert!(lowest < 200);
        assert_eq!(level_x100_of_elo(LADDER_ELO[0] - 1), 0);
        // Each even level at its measured Elo, and between them in proportion.
        for (i, &elo) in LADDER_ELO.iter().enumerate().skip(1) {
            assert_eq!(Strength { elo, ..s }.level_x100(), i as u16 * 200, "{elo}");
            let mid = (elo + LADDER_ELO[i - 1]) / 2;
            let level = level_x100_of_elo(mid);
            assert!(level.abs_diff(i as u16 * 200 - 100) <= 1, "{mid}: {level}");
        }
        // The scale rises with the Elo.
        let levels: Vec<u16> = (MIN_ELO..=MAX_ELO).map(|elo| Strength { elo, ..s }.level_x100()).collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]) && levels[levels.len() - 1] == 2000);
    }

    #[test]
    fn budgets_grow_with_the_level() {
        for level in 1..20 {
            let (a, b) = (skill(level - 1), skill(level));
            assert!(a.nodes() < b.nodes() && a.spread() > b.spread() && a.lines() >= b.lines());
        }
        assert_eq!(skill(0).nodes(), 500);
        assert_eq!(skill(19).lines(), 2);
        assert_eq!(skill(0).lines(), 12);
        let half = Strength { limit_strength: true, elo: 2780, ..Strength::DEFAULT }.skill().unwrap();
        assert!(half.nodes() > skill(19).nodes() && half.spread() < skill(19).spread());
    }

    #[test]
    fn picks_near_the_best_and_never_a_loss() {
        let m = |s: &str| Move::parse(s).expect("move");
        let lines = [(m("h2e2"), 30), (m("b2e2"), 20), (m("h0g2"), -400), (m("c3c4"), mated_in(5))];
        let mut seen = Vec::new();
        for key in 0..2000 {
            let chosen = skill(0).pick(&lines, key).unwrap();
            assert!(chosen != m("c3c4") && chosen != m("h0g2"));
            if !seen.contains(&chosen) {
                seen.push(chosen);
            }
        }
        assert_eq!(seen.len(), 2);
        // Near full strength a 5 cp worse move is played, a 40 cp worse one never.
        let close = [(m("h2e2"), 30), (m("b2e2"), 25), (m("h0g2"), -10)];
        let picks: Vec<Move> = (0..1000).map(|k| skill(17).pick(&close, k).unwrap()).collect();
        assert!(picks.contains(&m("b2e2")) && !picks.contains(&m("h0g2")));
        // A mate found is played; when everything loses, something is played.
        assert_eq!(skill(0).pick(&[(m("h2e2"), 0), (m("b2e2"), mate_in(3))], 7), Some(m("b2e2")));
        assert_eq!(skill(0).pick(&[(m("h2e2"), mated_in(2))], 7), Some(m("h2e2")));
        assert_eq!(skill(0).pick(&[], 7), None);
    }
}
