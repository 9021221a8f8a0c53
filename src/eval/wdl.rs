//! Win/draw/loss chances from a search score and the material on the board
//! (`UCI_ShowWDL`), by a model fitted to Chariot's own self-play games with
//! `tools/fit_wdl.py` (the fit's data and figures are in `docs/levels.md`).
//!
//! With `x` the score in centipawns from the side to move and `t` the
//! material ([`material`]) divided by 50 (its value at the start):
//!
//! ```text
//! win  = 1 / (1 + exp((a(t) - x) / b(t)))
//! loss = 1 / (1 + exp((a(t) + x) / b(t)))
//! draw = 1 - win - loss
//! ```
//!
//! with `a` and `b` cubic polynomials. `a` is the score at which a win is
//! as likely as not, `b` how fast the chances change with the score.

use crate::board::Position;
use crate::types::score::MATE_BOUND;
use crate::types::{Color, PieceKind};

/// `a(t)`: coefficients of `t⁰..t³`.
const A: [f64; 4] = [547.924, 10.429, -1335.899, 1035.912];
/// `b(t)`: coefficients of `t⁰..t³`.
const B: [f64; 4] = [35.216, 371.960, -121.423, 21.157];
/// The material at the start position.
pub const START_MATERIAL: u32 = 50;

/// Win, draw and loss chances in permille, from the side to move's view;
/// they add up to 1000.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Chance of winning, ‰.
    pub win: u16,
    /// Chance of a draw, ‰.
    pub draw: u16,
    /// Chance of losing, ‰.
    pub loss: u16,
}

/// The material of both sides, as the model counts it: rook 4, horse 2,
/// cannon 2, advisor 1, elephant 1, pawn 1 (50 at the start).
pub fn material(pos: &Position) -> u32 {
    let value = |kind| match kind {
        PieceKind::Rook => 4,
        PieceKind::Horse | PieceKind::Cannon => 2,
        PieceKind::Advisor | PieceKind::Elephant | PieceKind::Pawn => 1,
        PieceKind::King => 0,
    };
    let mut total = 0;
    for kind in PieceKind::ALL {
        let count = pos.pieces_of(Color::Red, kind).count() + pos.pieces_of(Color::Black, kind).count();
        total += value(kind) * count;
    }
    total
}

fn poly(c: &[f64; 4], t: f64) -> f64 {
    c[0] + t * (c[1] + t * (c[2] + t * c[3]))
}

/// The chances of a search score (side to move's view) with `material` on
/// the board. Mate scores are certain; the win chance never falls and the
/// loss chance never rises as the score rises.
pub fn wdl(score: i32, material: u32) -> Wdl {
    if score >= MATE_BOUND {
        return Wdl { win: 1000, draw: 0, loss: 0 };
    }
    if score <= -MATE_BOUND {
        return Wdl { win: 0, draw: 0, loss: 1000 };
    }
    let t = f64::from(material.min(START_MATERIAL)) / f64::from(START_MATERIAL);
    // Clamped as the fitting script clamps them: a > 0 keeps win + loss
    // below 1.
    let a = poly(&A, t).max(1.0);
    let b = poly(&B, t).max(10.0);
    let x = f64::from(score);
    let chance = |z: f64| (1000.0 / (1.0 + ((a - z) / b).exp())).round() as u16;
    let win = chance(x);
    // Rounding can make win + loss 1001 when draws are nearly impossible.
    let loss = chance(-x).min(1000 - win);
    Wdl { win, draw: 1000 - win - loss, loss }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::score::{mate_in, mated_in};

    #[test]
    fn sums_and_monotone() {
        for material in 0..=60 {
            let mut last = wdl(-5000, material);
            for score in -5000..5000 {
                let w = wdl(score, material);
                assert_eq!(w.win + w.draw + w.loss, 1000);
                assert!(w.win >= last.win && w.loss <= last.loss, "{score} {material}");
                last = w;
            }
        }
        assert_eq!(wdl(mate_in(5), 20), Wdl { win: 1000, draw: 0, loss: 0 });
        assert_eq!(wdl(mated_in(4), 20), Wdl { win: 0, draw: 0, loss: 1000 });
        // The fit: at the start a level score wins or loses 30 % each; with
        // 20 of the 50 points of material left it is drawn more than four
        // times in five; 900 cp ahead with 10 points left, it is won more
        // than seven times in ten.
        assert_eq!(wdl(0, START_MATERIAL), Wdl { win: 301, draw: 398, loss: 301 });
        assert!(wdl(0, 20).draw > 800);
        assert!(wdl(900, 10).win > 700);
        assert_eq!(material(&Position::startpos()), START_MATERIAL);
    }
}
