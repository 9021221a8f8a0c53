//! What the tools' command lines share: value parsers for `clap` that keep a
//! number within its range and say the range when it is not, and positions
//! given as a FEN and moves.

use std::ops::RangeInclusive;

use crate::board::{Position, START_FEN};
use crate::rules::RuleSet;
use crate::types::Move;

/// Which rules judge the game, for the commands that take `--rules`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct RuleArgs {
    /// The rule set: asian (the default) or chinese.
    #[arg(long, default_value_t = RuleSet::Asian, value_parser = clap::value_parser!(RuleSet))]
    pub rules: RuleSet,
}

/// The evaluations a command can search with (`--eval`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Eval {
    /// The built-in network.
    Nnue,
    /// The classical evaluation.
    Classical,
}

/// A parser for a real number within `range` (`--lr 0.001`).
pub fn real(
    range: RangeInclusive<f64>,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        text.parse::<f64>()
            .ok()
            .filter(|x| range.contains(x))
            .ok_or_else(|| format!("expected a number from {} to {}", range.start(), range.end()))
    }
}

/// A parser for a whole number within `range` (`--threads 2`), for the
/// types clap's own ranged parser does not take (`usize`, `u32`).
pub fn whole<T>(
    range: RangeInclusive<u64>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64>,
{
    move |text: &str| {
        text.parse::<u64>()
            .ok()
            .filter(|n| range.contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| format!("expected a whole number from {} to {}", range.start(), range.end()))
    }
}

/// The number of cores, the default thread count of the learning tools.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Parses the FEN given as one argument or as several (`startpos` or
/// nothing means the start position).
pub fn fen(args: &[String]) -> Result<Position, String> {
    let joined = args.join(" ");
    let fen = match joined.trim() {
        "" | "startpos" => START_FEN,
        f => f,
    };
    Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))
}

/// Parses a position given as a FEN (one argument or its fields as several)
/// or `startpos`, then the moves played from it (`h2e2`, optionally after
/// the word `moves`); the position has the moves as its history.
pub fn position(args: &[String]) -> Result<Position, String> {
    let is_fen_field = |a: &&String| {
        matches!(a.as_str(), "w" | "r" | "b" | "-")
            || (!a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()))
    };
    let fen_len = if args.is_empty() { 0 } else { 1 + args[1..].iter().take_while(is_fen_field).count() };
    let mut pos = fen(&args[..fen_len])?;
    let moves = &args[fen_len..];
    let moves = if moves.first().is_some_and(|m| m == "moves") { &moves[1..] } else { moves };
    for (i, text) in moves.iter().enumerate() {
        let m = Move::parse(text)
            .ok_or_else(|| format!("malformed move '{text}' (move {}; moves look like h2e2)", i + 1))?;
        if !(pos.is_pseudo_legal(m) && pos.is_legal(m)) {
            return Err(format!("illegal move '{text}' (move {}) in {}", i + 1, pos.fen()));
        }
        pos.do_move(m);
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_checked_against_their_range() {
        assert_eq!(real(0.0..=1.0)("0.5"), Ok(0.5));
        assert_eq!(real(0.0..=1.0)("1.5").unwrap_err(), "expected a number from 0 to 1");
        assert!(real(0.0..=1.0)("x").is_err());
        assert_eq!(whole::<usize>(1..=20)("12"), Ok(12));
        assert_eq!(whole::<u32>(1..=20)("0").unwrap_err(), "expected a whole number from 1 to 20");
        assert!(whole::<u8>(0..=1000)("300").is_err(), "300 does not fit a u8");
        assert!(whole::<u32>(0..=10)("-1").is_err());
    }

    fn strings(words: &str) -> Vec<String> {
        words.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn positions_are_a_fen_then_moves() {
        let pos = position(&strings("startpos moves h2e2 h9g7")).unwrap();
        assert_eq!(pos.fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
        assert_eq!(pos.game_ply(), 2);
        let same =
            position(&strings(&format!("{} h9g7", position(&strings("startpos h2e2")).unwrap().fen())));
        assert_eq!(same.unwrap().key(), pos.key());
        assert_eq!(position(&[]).unwrap().fen(), START_FEN);
        assert_eq!(
            position(&strings("startpos h2e")).unwrap_err(),
            "malformed move 'h2e' (move 1; moves look like h2e2)"
        );
        assert!(
            position(&strings("startpos h2e2 h2e2")).unwrap_err().starts_with("illegal move 'h2e2' (move 2)")
        );
        assert!(position(&strings("rnbakabnr/9 w")).unwrap_err().starts_with("bad FEN"));
    }
}
