//! How a move's loss becomes a mark and an accuracy figure.
//!
//! The loss of a move is what it costs its side in expected score (a win
//! counts 1, a draw ½): the expected score of the engine's best move, minus
//! that of the move played, both read from the engine's win/draw/loss model
//! (`eval::wdl`) at the scores its searches give. A move the engine would
//! have played itself loses nothing. Expected score, not centipawns, because
//! 200 centipawns matter when the game is level and not at all when it is
//! won by a rook.

/// A judgement of a move by its loss.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Mark {
    /// `?!`: the move gives away at least [`INACCURACY`] of the expected score.
    Inaccuracy,
    /// `?`: at least [`MISTAKE`].
    Mistake,
    /// `??`: at least [`BLUNDER`].
    Blunder,
}

/// The least loss marked `?!` (5 % of a game).
pub const INACCURACY: f64 = 0.05;
/// The least loss marked `?` (10 % of a game).
pub const MISTAKE: f64 = 0.10;
/// The least loss marked `??` (20 % of a game: a won game drawn, a drawn
/// one lost, or worse).
pub const BLUNDER: f64 = 0.20;

impl Mark {
    /// The mark a move losing `loss` (0 to 1) earns, if any.
    pub fn of_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The PGN numeric annotation glyph: `$6`, `$2` or `$4`.
    pub fn nag(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "$6",
            Mark::Mistake => "$2",
            Mark::Blunder => "$4",
        }
    }

    /// `inaccuracy`, `mistake` or `blunder`.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// The accuracy of one move, 0 to 100, from its side's expected score
/// before it (with the best move) and after it: 100 for a move that loses
/// nothing, falling off exponentially with the loss (about 80 at a loss of
/// 5 %, 64 at 10 %, 40 at 20 %). The curve is the one Lichess publishes for
/// its accuracy figure, fitted to human games; the game's accuracy is the
/// mean over the side's moves.
pub fn accuracy(expected_before: f64, expected_after: f64) -> f64 {
    let drop = 100.0 * (expected_before - expected_after).max(0.0);
    (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(Mark::of_loss(0.0), None);
        assert_eq!(Mark::of_loss(0.049), None);
        assert_eq!(Mark::of_loss(0.05), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of_loss(0.12), Some(Mark::Mistake));
        assert_eq!(Mark::of_loss(0.2), Some(Mark::Blunder));
        assert_eq!(Mark::of_loss(1.0).map(Mark::symbol), Some("??"));
        assert_eq!(Mark::Mistake.nag(), "$2");
    }

    #[test]
    fn accuracy_is_100_for_no_loss_and_falls_with_it() {
        assert!((accuracy(0.6, 0.6) - 100.0).abs() < 0.01);
        assert!((accuracy(0.6, 0.7) - 100.0).abs() < 0.01, "a gain is no loss");
        let a5 = accuracy(0.55, 0.50);
        let a20 = accuracy(0.70, 0.50);
        assert!((78.0..82.0).contains(&a5), "{a5}");
        assert!((38.0..43.0).contains(&a20), "{a20}");
        assert_eq!(accuracy(1.0, 0.0), 0.0);
    }
}
