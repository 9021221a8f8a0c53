//! One self-play game for the training data: an opening, then moves searched
//! to a node or depth limit by the engine, to the end by the rule arbiter
//! (or adjudicated when the scores agree that the game is decided, or the
//! position is a dead draw). Positions are kept when quiet: the side to
//! move is not in check and the best move is not a capture.
//!
//! A game depends only on its opening, the settings and its random
//! generator: the table and the histories are cleared before it starts, and
//! a search with one thread and a node or depth limit is deterministic.

use std::sync::Arc;

use crossbeam_channel::{Receiver, unbounded};

use super::format::{End, Record};
use crate::board::zobrist::SplitMix64;
use crate::board::{Position, START_FEN};
use crate::engine::Engine;
use crate::eval::is_dead_draw;
use crate::eval::nnue::Network;
use crate::rules::{self, Outcome, Rules};
use crate::search::{SearchEvent, SearchLimits};
use crate::types::score::MATE;
use crate::types::{Color, Move};

/// Table size of each game's engine, in megabytes (ample for the short
/// searches of self-play, and quick to clear between games).
pub const HASH_MB: usize = 16;
/// A game is adjudicated when the scores give one side at least this much…
pub const WIN_SCORE: i32 = 2000;
/// …for this many plies in a row (both sides agree).
pub const WIN_PLIES: u32 = 4;
/// For this many searched moves at the start of a game, the move played is
/// picked at random among the near-best moves, so that games differ.
pub const RANDOM_CHOICE_MOVES: usize = 8;
/// How many moves are searched (MultiPV) for that choice.
pub const RANDOM_CHOICE_LINES: usize = 4;
/// The moves picked from score within this many centipawns of the best.
pub const RANDOM_CHOICE_MARGIN: i32 = 20;
/// Each search's node limit is drawn from ±this share (in percent) around
/// the one asked for, so that games from the same opening keep diverging
/// after the random choices (with one fixed limit, the same position is
/// searched to the same move, and games that meet stay the same to the end).
pub const NODE_JITTER_PERCENT: u64 = 25;
/// After random plies, an opening whose first search scores beyond this is
/// replaced by another (random moves can simply lose a piece).
pub const OPENING_MAX_SCORE: i32 = 400;
/// How many random openings are tried before one is taken as it is.
const OPENING_TRIES: usize = 100;

/// How games are played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The limits of every search (nodes and/or depth; each search draws
    /// its node limit within [`NODE_JITTER_PERCENT`] of this one).
    pub limits: SearchLimits,
    /// Random legal plies played after the opening position.
    pub random_plies: usize,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Game {
    /// Its quiet positions, with the game's result.
    pub records: Vec<Record>,
    /// The result.
    pub result: Outcome,
    /// The rule that ended it.
    pub end: End,
    /// Moves searched (each position searched once).
    pub searched: usize,
    /// The last position, with the whole game as its history.
    pub final_position: Position,
}

impl Game {
    /// The game as one line of text: where it started (`startpos`, or the
    /// FEN), `moves` and every move in `h2e2` form, then the result from
    /// Red's side (`1-0`, `0-1`, `1/2-1/2`). `chariot book build` reads it.
    pub fn line(&self) -> String {
        let mut pos = self.final_position.clone();
        let mut moves = Vec::with_capacity(pos.game_ply());
        while pos.game_ply() > 0 {
            moves.push(pos.last_move().to_string());
            pos.undo_move();
        }
        moves.reverse();
        let fen = pos.fen();
        let start = if fen == START_FEN { "startpos" } else { fen.as_str() };
        format!("{start} moves {} {}", moves.join(" "), self.result.pgn())
    }
}

/// The result of one search.
struct Searched {
    best: Move,
    score: i32,
    /// The first move and score of each line (more than one when MultiPV).
    lines: Vec<(Move, i32)>,
}

/// An engine that plays self-play games, one search thread, its own table.
pub struct Player {
    engine: Engine,
    events: Receiver<SearchEvent>,
}

impl Player {
    /// A player with a [`HASH_MB`] table, evaluating with `network` (the
    /// classical evaluation if `None`); an error if the table cannot be had.
    pub fn new(network: Option<Arc<Network>>) -> Result<Player, String> {
        let (tx, events) = unbounded();
        let mut engine = Engine::new(tx);
        engine.set_hash_mb(HASH_MB)?;
        engine.config_mut().network = network;
        Ok(Player { engine, events })
    }

    /// Plays a game from `opening` (a position with its history).
    pub fn play(&mut self, opening: &Position, settings: &Settings, rng: &mut SplitMix64) -> Game {
        let mut tries = 0;
        let (mut pos, mut first) = loop {
            tries += 1;
            let last_try = tries >= OPENING_TRIES;
            // Clearing a table of HASH_MB writes over it in place: it cannot fail.
            let _ = self.engine.new_game();
            let mut pos = opening.clone();
            pos.reserve(1024);
            for _ in 0..settings.random_plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.do_move(moves[rng.below(moves.len())]);
            }
            if settings.random_plies == 0 || last_try {
                break (pos, None);
            }
            if rules::adjudicate(&mut pos, Rules::DEFAULT).outcome.is_some() || is_dead_draw(&pos) {
                continue;
            }
            let s = self.search(&pos, &settings.limits, RANDOM_CHOICE_LINES, rng);
            if s.score.abs() <= OPENING_MAX_SCORE || s.score.abs() > MATE {
                break (pos, Some(s));
            }
        };

        let mut records = Vec::new();
        let mut searched = 0;
        // Plies in a row won for Red (> 0) or Black (< 0) by the scores.
        let mut streak: i32 = 0;
        let (result, end) = loop {
            let ruling = rules::adjudicate(&mut pos, Rules::DEFAULT);
            if let (Some(outcome), Some(end)) = (ruling.outcome, End::of_rule(&ruling.rule)) {
                break (outcome, end);
            }
            if is_dead_draw(&pos) {
                break (Outcome::Draw, End::DeadDraw);
            }
            let lines = if searched < RANDOM_CHOICE_MOVES { RANDOM_CHOICE_LINES } else { 1 };
            let s = match first.take() {
                Some(s) => s,
                None => self.search(&pos, &settings.limits, lines, rng),
            };
            searched += 1;
            // A search stopped before its first iteration has no score.
            let scored = s.score.abs() <= MATE;
            if scored && !pos.in_check() && pos.piece_on(s.best.to()).is_none() {
                records.push(Record::new(&pos, s.score, s.best, Outcome::Draw, End::DeadDraw));
            }
            let red_score = if pos.side_to_move() == Color::Red { s.score } else { -s.score };
            streak = if !scored {
                streak
            } else if red_score >= WIN_SCORE {
                streak.max(0) + 1
            } else if red_score <= -WIN_SCORE {
                streak.min(0) - 1
            } else {
                0
            };
            if streak.unsigned_abs() >= WIN_PLIES {
                let winner = if streak > 0 { Color::Red } else { Color::Black };
                break (Outcome::win_for(winner), End::Adjudicated);
            }
            pos.do_move(s.choose(rng));
        };
        for r in &mut records {
            r.result = result;
            r.end = end;
        }
        Game { records, result, end, searched, final_position: pos }
    }

    /// Searches `pos` with `lines` principal variations, within `limits`
    /// with the node limit drawn by [`jittered`].
    fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        lines: usize,
        rng: &mut SplitMix64,
    ) -> Searched {
        self.engine.config_mut().multipv = lines;
        self.engine.set_game(pos.clone());
        self.engine.go(jittered(limits, rng));
        self.engine.wait();
        let mut result = Searched { best: Move::NONE, score: 0, lines: Vec::with_capacity(lines) };
        while let Ok(event) = self.events.try_recv() {
            match event {
                SearchEvent::Info(info) if info.bound.is_none() && !info.pv.is_empty() => {
                    let (line, i) = ((info.pv[0], info.score), info.multipv - 1);
                    if i < result.lines.len() {
                        result.lines[i] = line;
                    } else if i == result.lines.len() {
                        result.lines.push(line);
                    }
                }
                SearchEvent::BestMove { best, score, .. } => {
                    result.best = best;
                    result.score = score;
                }
                _ => {}
            }
        }
        result
    }
}

/// `limits` with the node limit, if any, drawn at random within
/// [`NODE_JITTER_PERCENT`] of it.
fn jittered(limits: &SearchLimits, rng: &mut SplitMix64) -> SearchLimits {
    let mut limits = limits.clone();
    if let Some(n) = limits.nodes {
        let spread = n * NODE_JITTER_PERCENT / 100;
        limits.nodes = Some(n - spread + rng.below(2 * spread as usize + 1) as u64);
    }
    limits
}

impl Searched {
    /// The move to play: the best one, or with several lines a random one
    /// among those within [`RANDOM_CHOICE_MARGIN`] of the best score.
    fn choose(&self, rng: &mut SplitMix64) -> Move {
        let near: Vec<Move> = self
            .lines
            .iter()
            .filter(|&&(m, score)| m.is_some() && score >= self.score - RANDOM_CHOICE_MARGIN)
            .map(|&(m, _)| m)
            .collect();
        if near.len() <= 1 { self.best } else { near[rng.below(near.len())] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jittered_node_limits_spread_evenly_around_the_limit() {
        let mut rng = SplitMix64(7);
        let limits = SearchLimits { nodes: Some(5000), ..SearchLimits::default() };
        let drawn: Vec<u64> = (0..10_000).map(|_| jittered(&limits, &mut rng).nodes.unwrap()).collect();
        assert!(drawn.iter().all(|&n| (3750..=6250).contains(&n)));
        assert!(*drawn.iter().min().unwrap() < 3800 && *drawn.iter().max().unwrap() > 6200);
        let mean = drawn.iter().sum::<u64>() as f64 / drawn.len() as f64;
        assert!((mean - 5000.0).abs() < 50.0, "mean {mean}");
    }

    #[test]
    fn a_depth_limit_is_not_jittered() {
        let limits = SearchLimits { depth: Some(6), ..SearchLimits::default() };
        let out = jittered(&limits, &mut SplitMix64(1));
        assert_eq!((out.depth, out.nodes), (Some(6), None));
    }
}
