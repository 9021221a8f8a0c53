//! The latency a GUI adds to every move, learnt from the clocks it sends.
//!
//! A GUI charges a move from the moment it sends `go` (or the opponent's
//! move) until it has read the engine's answer: the engine's own thinking
//! plus pipes, scheduling on a busy machine, and the GUI's own work (drawing
//! and animating the move, refereeing). Only the thinking is the engine's to
//! measure; the rest shows in the next clock the GUI sends. Before move `n`
//! the clock is `C(n)`; the engine thinks `t(n)` and the GUI adds `inc`
//! after charging `t(n) + L(n)`, so at the engine's next move
//! `L(n) = C(n) + inc - t(n) - C(n+1)`. The mean of the last few such
//! samples is the latency the time manager plans with when it is larger
//! than `Move Overhead`.

use super::limits::SearchLimits;
use crate::types::Color;

/// Samples kept: the estimate follows a machine that gets busier within a
/// few moves.
const WINDOW: usize = 8;

/// A sample above this (milliseconds) is not a latency: a clock set anew
/// (a new game that the GUI did not announce, a clock changed by hand).
const MAX_SAMPLE_MS: i64 = 2000;

/// A sample below this (milliseconds) is not one either; small negative
/// ones are rounding (CECP clocks come in centiseconds) and count as 0.
const MIN_SAMPLE_MS: i64 = -50;

/// A timed search that ended with a move: what the next clock is read against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Timed {
    side: Color,
    ply: u32,
    clock_ms: u64,
    inc_ms: u64,
    /// Its move ended a period of a `movestogo` control: the next clock is
    /// refilled, not charged.
    period_end: bool,
    /// The engine's own thinking time (from `ponderhit` when pondering).
    thought_ms: u64,
}

/// See the module comment.
#[derive(Clone, Debug, Default)]
pub struct Latency {
    last: Option<Timed>,
    samples: [u64; WINDOW],
    count: usize,
}

impl Latency {
    /// No samples: the estimate is 0.
    pub fn new() -> Latency {
        Latency::default()
    }

    /// A search of the position `side` is to move in at `ply` under
    /// `limits` ended: with a move after thinking `thought_ms` (`None` for
    /// a search that did not end with a timed move: a ponder search that
    /// missed, an analysis, a search without a clock).
    pub fn searched(&mut self, limits: &SearchLimits, side: Color, ply: u32, thought_ms: Option<u64>) {
        self.last = match (limits.time[side.index()], thought_ms) {
            (Some(clock_ms), Some(thought_ms)) if limits.movetime.is_none() && !limits.infinite => {
                Some(Timed {
                    side,
                    ply,
                    clock_ms,
                    inc_ms: limits.inc[side.index()],
                    period_end: limits.movestogo == Some(1),
                    thought_ms,
                })
            }
            _ => None,
        };
    }

    /// A new search for `side` at `ply` under `limits`: when it follows the
    /// engine's previous timed move in the same game, the clock it gives
    /// is a sample.
    pub fn observe(&mut self, limits: &SearchLimits, side: Color, ply: u32) {
        let Some(last) = self.last.take() else { return };
        let Some(clock_ms) = limits.time[side.index()] else { return };
        if last.side != side || last.ply + 2 != ply || last.period_end {
            return;
        }
        let sample = last.clock_ms as i64 + last.inc_ms as i64 - last.thought_ms as i64 - clock_ms as i64;
        if (MIN_SAMPLE_MS..=MAX_SAMPLE_MS).contains(&sample) {
            self.samples[self.count % WINDOW] = sample.max(0) as u64;
            self.count += 1;
        }
    }

    /// The mean of the last samples, in milliseconds (0 without any).
    pub fn estimate_ms(&self) -> u64 {
        let n = self.count.min(WINDOW);
        if n == 0 {
            return 0;
        }
        self.samples[..n].iter().sum::<u64>() / n as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64) -> SearchLimits {
        SearchLimits { time: [Some(ms), Some(ms)], inc: [inc; 2], ..Default::default() }
    }

    #[test]
    fn the_clock_the_gui_sends_next_gives_the_latency() {
        let mut l = Latency::new();
        // 10 s + 0.1 s: the engine thinks 200 ms, the GUI takes 260 from
        // the clock: 9840 ms at the next move, a latency of 60 ms.
        l.observe(&clock(10_000, 100), Color::Red, 0);
        l.searched(&clock(10_000, 100), Color::Red, 0, Some(200));
        l.observe(&clock(9_840, 100), Color::Red, 2);
        assert_eq!(l.estimate_ms(), 60);
        // Then 300 ms thought and 9640 ms at the next move: none; the mean of 60 and 0.
        l.searched(&clock(9_840, 100), Color::Red, 2, Some(300));
        l.observe(&clock(9_640, 100), Color::Red, 4);
        assert_eq!(l.estimate_ms(), 30);
    }

    #[test]
    fn only_a_continued_game_gives_a_sample() {
        let mut l = Latency::new();
        l.searched(&clock(10_000, 100), Color::Red, 0, Some(200));
        // Another game (the ply went back), the other side, a ponder miss.
        l.observe(&clock(9_000, 100), Color::Red, 0);
        l.searched(&clock(10_000, 100), Color::Red, 0, Some(200));
        l.observe(&clock(9_000, 100), Color::Black, 2);
        l.searched(&clock(10_000, 100), Color::Red, 0, None);
        l.observe(&clock(9_000, 100), Color::Red, 2);
        // The end of a period: the clock is refilled.
        let end = SearchLimits { movestogo: Some(1), ..clock(1_000, 0) };
        l.searched(&end, Color::Red, 0, Some(500));
        l.observe(&clock(60_000, 0), Color::Red, 2);
        // A clock set anew.
        l.searched(&clock(1_000, 0), Color::Red, 0, Some(100));
        l.observe(&clock(60_000, 0), Color::Red, 2);
        assert_eq!(l.estimate_ms(), 0);
        // Small negative samples (rounding) count as 0; the window keeps 8.
        l.searched(&clock(1_000, 0), Color::Red, 0, Some(100));
        l.observe(&clock(920, 0), Color::Red, 2);
        assert_eq!((l.count, l.estimate_ms()), (1, 0));
        for ply in (2..20).step_by(2) {
            l.searched(&clock(1_000, 0), Color::Red, ply, Some(100));
            l.observe(&clock(800, 0), Color::Red, ply + 2);
        }
        assert_eq!(l.estimate_ms(), 100);
    }
}
