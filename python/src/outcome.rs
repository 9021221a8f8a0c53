//! `Outcome`: how the rule arbiter ended a game, in the words `chariot judge`
//! prints.

use pyo3::prelude::*;

use chariot::rules::Ruling;
use chariot::types::Color;

/// The arbiter's ruling on a finished game (see `Board.outcome`).
#[pyclass(module = "chariot", frozen, get_all)]
#[derive(Clone)]
pub struct Outcome {
    /// The PGN result: `"1-0"` (Red wins), `"0-1"` or `"1/2-1/2"`.
    pub result: String,
    /// True if Red won, False if Black won, None for a draw.
    pub winner: Option<bool>,
    /// `"red_wins"`, `"black_wins"` or `"draw"` (the verdict of `chariot judge`).
    pub verdict: String,
    /// The rule that ended the game, in words (e.g. "perpetual check by red").
    pub reason: String,
    /// What `chariot judge` prints: the verdict line, the rule, and for a
    /// repetition the window, each side's class and every window move.
    pub explanation: String,
}

impl Outcome {
    /// The Python object of a ruling that ends the game.
    pub fn of(ruling: &Ruling) -> Outcome {
        let outcome = ruling.outcome;
        Outcome {
            result: outcome.map_or("*", |o| o.pgn()).to_string(),
            winner: outcome.and_then(|o| o.winner()).map(|c| c == Color::Red),
            verdict: ruling.verdict().to_string(),
            reason: ruling.rule.to_string(),
            explanation: ruling.report(),
        }
    }
}

#[pymethods]
impl Outcome {
    fn __str__(&self) -> String {
        format!("{} ({})", self.result, self.reason)
    }

    fn __repr__(&self) -> String {
        format!("<Outcome {} {:?}>", self.result, self.reason)
    }
}
