//! Making a book from games: every (position, move) of the first
//! `max_ply` plies of every game is counted with the game's result from
//! the mover's side; the moves played at least `min_count` times that
//! scored at least `min_score` are kept.
//!
//! A kept move's weight is the Polyglot rule, twice its wins plus its
//! draws (so a move that lost every game, having no weight, is never
//! kept), scaled down within its position if the largest exceeds 65535.
//! Positions are counted by their key, so transpositions add up; a
//! position that occurs twice in one game (a repetition) counts once.

use std::collections::HashMap;

use super::format::{Book, Entry};
use super::games::Game;
use crate::types::Move;

/// What is kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filter {
    /// Plies of each game that are read (from its start).
    pub max_ply: usize,
    /// Games a move must have been played in.
    pub min_count: u32,
    /// Score the move must have made for its side, 0 to 1 (win 1, draw ½).
    pub min_score: f64,
}

impl Default for Filter {
    /// Every move of the first 20 plies that scored anything.
    fn default() -> Filter {
        Filter { max_ply: 20, min_count: 1, min_score: 0.0 }
    }
}

/// Results of one move in one position, from the mover's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Tally {
    fn count(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Twice the points: 2 a win, 1 a draw.
    fn points2(self) -> u64 {
        2 * self.wins as u64 + self.draws as u64
    }
}

/// Collects games, then makes the book.
#[derive(Debug, Default)]
pub struct Builder {
    filter: Filter,
    tallies: HashMap<(u64, Move), Tally>,
    games: u64,
}

/// What a finished build holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Games counted.
    pub games: u64,
    /// (position, move) pairs seen in them.
    pub pairs_seen: usize,
    /// Positions in the book.
    pub positions: usize,
    /// Moves (entries) in the book.
    pub moves: usize,
}

impl Builder {
    /// A builder keeping what `filter` lets through.
    pub fn new(filter: Filter) -> Builder {
        Builder { filter, ..Builder::default() }
    }

    /// Counts the first `max_ply` plies of `game`.
    pub fn add(&mut self, game: &Game) {
        self.games += 1;
        let mut pos = game.start.clone();
        let mut seen: Vec<u64> = Vec::with_capacity(self.filter.max_ply);
        for &m in game.moves.iter().take(self.filter.max_ply) {
            let key = pos.key();
            if !seen.contains(&key) {
                seen.push(key);
                let t = self.tallies.entry((key, m)).or_default();
                match (game.result.winner(), pos.side_to_move()) {
                    (None, _) => t.draws += 1,
                    (Some(w), side) if w == side => t.wins += 1,
                    _ => t.losses += 1,
                }
            }
            pos.do_move(m);
        }
    }

    /// The games counted so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The book of the moves that pass the filter.
    pub fn finish(self) -> (Book, Summary) {
        let f = self.filter;
        let mut kept: Vec<(u64, Move, Tally)> = self
            .tallies
            .iter()
            .filter(|(_, t)| {
                let score = t.points2() as f64 / (2.0 * t.count() as f64);
                t.count() >= f.min_count && score >= f.min_score && t.points2() > 0
            })
            .map(|(&(key, m), &t)| (key, m, t))
            .collect();
        kept.sort_by_key(|&(key, m, _)| (key, m.raw()));
        let mut entries = Vec::with_capacity(kept.len());
        for group in kept.chunk_by(|a, b| a.0 == b.0) {
            let max = group.iter().map(|(_, _, t)| t.points2()).max().unwrap_or(1);
            for &(key, mv, t) in group {
                let weight = if max > u16::MAX as u64 {
                    ((t.points2() * u16::MAX as u64 + max / 2) / max).max(1)
                } else {
                    t.points2()
                };
                entries.push(Entry {
                    key,
                    mv,
                    weight: weight as u16,
                    count: t.count().min(u16::MAX as u32) as u16,
                    score: ((t.points2() * 500 + t.count() as u64 / 2) / t.count() as u64) as u16,
                });
            }
        }
        let summary = Summary {
            games: self.games,
            pairs_seen: self.tallies.len(),
            positions: kept.chunk_by(|a, b| a.0 == b.0).count(),
            moves: entries.len(),
        };
        let book = Book::from_entries(entries).expect("unique keys and moves, weights of at least 1");
        (book, summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::rules::Outcome;

    fn game(moves: &str, result: Outcome) -> Game {
        let mut pos = Position::startpos();
        let moves = moves
            .split_whitespace()
            .map(|w| {
                let m = pos.parse_legal_move(w).unwrap();
                pos.do_move(m);
                m
            })
            .collect();
        Game { start: Position::startpos(), moves, result }
    }

    fn key_after(moves: &str) -> u64 {
        let mut pos = Position::startpos();
        for w in moves.split_whitespace() {
            pos.do_move(pos.parse_legal_move(w).unwrap());
        }
        pos.key()
    }

    #[test]
    fn counts_weights_scores_and_filters() {
        let games = [
            game("h2e2 h9g7 h0g2", Outcome::RedWins),
            game("h2e2 h9g7 b0c2", Outcome::Draw),
            game("h2e2 b9c7", Outcome::BlackWins),
            game("b2e2 h9g7", Outcome::RedWins),
        ];
        let mut b = Builder::new(Filter { max_ply: 2, min_count: 1, min_score: 0.0 });
        for g in &games {
            b.add(g);
        }
        let (book, s) = b.finish();
        // Seen: h2e2 (×3), b2e2, h9g7 after h2e2 (×2), b9c7, h9g7 after b2e2.
        assert_eq!(s, Summary { games: 4, pairs_seen: 5, positions: 2, moves: 4 });
        let start = book.moves(Position::startpos().key());
        let row = |e: &Entry| (e.mv.to_string(), e.weight, e.count, e.score);
        let rows: Vec<_> = start.iter().map(row).collect();
        // h2e2: 1 win, 1 draw, 1 loss for Red: weight 3, score 500.
        assert!(rows.contains(&("h2e2".into(), 3, 3, 500)), "{rows:?}");
        assert!(rows.contains(&("b2e2".into(), 2, 1, 1000)), "{rows:?}");
        let after = book.moves(key_after("h2e2"));
        // h9g7 for Black: a loss and a draw; b9c7: a win.
        let rows: Vec<_> = after.iter().map(row).collect();
        assert_eq!(rows.len(), 2);
        assert!(rows.contains(&("h9g7".into(), 1, 2, 250)) && rows.contains(&("b9c7".into(), 2, 1, 1000)));
        // Black's h9g7 after b2e2 lost its only game: no weight, not kept.
        assert!(book.moves(key_after("b2e2")).is_empty());

        let mut b = Builder::new(Filter { max_ply: 2, min_count: 2, min_score: 0.0 });
        games.iter().for_each(|g| b.add(g));
        let (book, s) = b.finish();
        assert_eq!((s.positions, s.moves), (2, 2));
        assert_eq!(book.moves(Position::startpos().key())[0].mv.to_string(), "h2e2");

        let mut b = Builder::new(Filter { max_ply: 2, min_count: 1, min_score: 0.6 });
        games.iter().for_each(|g| b.add(g));
        let (book, _) = b.finish();
        let kept: Vec<String> = book.entries().iter().map(|e| e.mv.to_string()).collect();
        assert_eq!(kept.len(), 2);
        assert!(kept.contains(&"b2e2".to_string()) && kept.contains(&"b9c7".to_string()));
    }

    #[test]
    fn large_counts_are_scaled_into_16_bits() {
        let mut b = Builder::new(Filter::default());
        let (win, draw) = (game("h2e2", Outcome::RedWins), game("b2e2", Outcome::Draw));
        for _ in 0..70_000 {
            b.add(&win);
        }
        for _ in 0..1000 {
            b.add(&draw);
        }
        let (book, _) = b.finish();
        let rows: Vec<_> =
            book.entries().iter().map(|e| (e.mv.to_string(), e.weight, e.count, e.score)).collect();
        // 140,000 and 1,000 half-points: scaled by 65535 / 140000.
        assert_eq!(rows, [("b2e2".to_string(), 468, 1000, 500), ("h2e2".to_string(), 65535, 65535, 1000)]);
    }
}
