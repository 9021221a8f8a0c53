//! Choosing a book move. A position's entries are candidates if the move
//! is among the allowed ones, the legal root moves the search would
//! consider (UCCI `banmoves`, CECP `exclude` and `searchmoves` apply; so a
//! key collision or a damaged book cannot make the engine play an illegal
//! move),
//! and does not end the game by the rules other than as a win for the
//! mover (a book move never loses or draws by repetition or the move
//! limit). One is picked at random with chances shaped by the variety:
//! weight^k with k = (100 − variety) / variety, so variety 50 follows the
//! weights, 100 makes every candidate equally likely, and 0 always takes
//! the heaviest (the first of equals in move order).

use super::format::{Book, Entry};
use crate::board::Position;
use crate::board::zobrist::SplitMix64;
use crate::rules::{self, Outcome, Rules};
use crate::types::Move;

/// The largest variety: every candidate equally likely.
pub const MAX_VARIETY: u32 = 100;

/// A book move that may be played, with its chance of being chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The book's entry.
    pub entry: Entry,
    /// The chance of being chosen, 0 to 1 (the candidates' chances sum to 1).
    pub chance: f64,
}

/// The entries of `pos` that may be played (see the module comment; every
/// move of `allowed` must be legal in `pos`), with their chances for `variety` (0 to [`MAX_VARIETY`]). `pos` is left
/// as it was.
pub fn candidates(
    book: &Book,
    pos: &mut Position,
    rules: Rules,
    allowed: &[Move],
    variety: u32,
) -> Vec<Candidate> {
    let mover = pos.side_to_move();
    let mut playable: Vec<Entry> = Vec::new();
    for e in book.moves(pos.key()) {
        if !allowed.contains(&e.mv) {
            continue;
        }
        pos.do_move(e.mv);
        let outcome = rules::adjudicate(pos, rules).outcome;
        pos.undo_move();
        if outcome.is_none() || outcome == Some(Outcome::win_for(mover)) {
            playable.push(*e);
        }
    }
    let Some(max) = playable.iter().map(|e| e.weight).max() else { return Vec::new() };
    let variety = variety.min(MAX_VARIETY);
    let heaviest = playable.iter().position(|e| e.weight == max).unwrap_or(0);
    let shaped: Vec<f64> = playable
        .iter()
        .enumerate()
        .map(|(i, e)| match variety {
            0 => f64::from(u8::from(i == heaviest)),
            v => (f64::from(e.weight) / f64::from(max)).powf(f64::from(MAX_VARIETY - v) / f64::from(v)),
        })
        .collect();
    let total: f64 = shaped.iter().sum();
    playable.into_iter().zip(shaped).map(|(entry, w)| Candidate { entry, chance: w / total }).collect()
}

/// Picks one of `candidates` by their chances; `None` if there is none.
pub fn pick(candidates: &[Candidate], rng: &mut SplitMix64) -> Option<Candidate> {
    let r = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut sum = 0.0;
    for c in candidates {
        sum += c.chance;
        if r < sum {
            return Some(*c);
        }
    }
    // Rounding left r above the last sum: the last one with a chance.
    candidates.iter().rev().find(|c| c.chance > 0.0).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book_at(pos: &Position, moves: &[(&str, u16)]) -> Book {
        let entries = moves
            .iter()
            .map(|&(m, weight)| Entry {
                key: pos.key(),
                mv: Move::parse(m).unwrap(),
                weight,
                count: 1,
                score: 500,
            })
            .collect();
        Book::from_entries(entries).unwrap()
    }

    fn chances(c: &[Candidate]) -> Vec<(String, f64)> {
        c.iter().map(|c| (c.entry.mv.to_string(), (c.chance * 1000.0).round() / 1000.0)).collect()
    }

    #[test]
    fn legal_allowed_and_shaped_by_variety() {
        let mut pos = Position::startpos();
        // h2h8 would jump without capturing; a0a4 is blocked: neither is a candidate.
        let book = book_at(&pos, &[("h2e2", 30), ("b2e2", 10), ("h2h8", 99), ("a0a4", 99)]);
        let all = pos.legal_moves().to_vec();
        let rules = Rules::DEFAULT;
        let c = candidates(&book, &mut pos, rules, &all, 50);
        assert_eq!(chances(&c), [("b2e2".to_string(), 0.25), ("h2e2".to_string(), 0.75)]);
        let c = candidates(&book, &mut pos, rules, &all, 100);
        assert_eq!(chances(&c), [("b2e2".to_string(), 0.5), ("h2e2".to_string(), 0.5)]);
        let c = candidates(&book, &mut pos, rules, &all, 0);
        assert_eq!(chances(&c), [("b2e2".to_string(), 0.0), ("h2e2".to_string(), 1.0)]);
        // k = 3 at variety 25: 27 to 1.
        let c = candidates(&book, &mut pos, rules, &all, 25);
        assert_eq!(chances(&c), [("b2e2".to_string(), 0.036), ("h2e2".to_string(), 0.964)]);
        let banned: Vec<Move> = all.iter().copied().filter(|m| m.to_string() != "h2e2").collect();
        let c = candidates(&book, &mut pos, rules, &banned, 0);
        assert_eq!(chances(&c), [("b2e2".to_string(), 1.0)]);
        assert_eq!(pos, Position::startpos());
        let mut rng = SplitMix64(1);
        let picks: Vec<String> = (0..1000)
            .map(|_| {
                pick(&candidates(&book, &mut pos, rules, &all, 50), &mut rng).unwrap().entry.mv.to_string()
            })
            .collect();
        let h2e2 = picks.iter().filter(|m| *m == "h2e2").count();
        assert!((700..800).contains(&h2e2), "{h2e2} of 1000");
        assert!(pick(&[], &mut rng).is_none());
    }

    #[test]
    fn no_move_that_loses_by_the_rules() {
        // Red checks with the rook from e8 and d8 in turn; Black's king
        // steps between f9 and f8. The third e8 check would be a perpetual
        // check: Red loses by it.
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1").unwrap();
        let line = ["a0a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9"];
        for m in line {
            pos.do_move(pos.parse_legal_move(m).unwrap());
        }
        let book = book_at(&pos, &[("a8a9", 50), ("a8b8", 1)]);
        let all = pos.legal_moves().to_vec();
        let after = |m: &str| {
            let mut p = pos.clone();
            p.do_move(p.parse_legal_move(m).unwrap());
            rules::adjudicate(&mut p, Rules::DEFAULT).outcome
        };
        assert_eq!(after("a8a9"), Some(Outcome::BlackWins), "the test line must end in a perpetual check");
        let c = candidates(&book, &mut pos, Rules::DEFAULT, &all, 0);
        assert_eq!(chances(&c), [("a8b8".to_string(), 1.0)]);
    }
}
