//! The evaluation a search thread uses: the classical one, or a network
//! with its accumulator stack. The search makes and takes back moves
//! through it, so that the network's accumulators (or, for the classical
//! evaluation, its material and square-table sum) follow the board.

use std::sync::Arc;

use super::nnue::{AccumulatorStack, Network, accumulator};
use super::{S, Taper, evaluate_given_squares, piece_square, piece_squares};
use crate::board::Position;
use crate::types::{Color, Move};

/// The network's evaluation of `pos` given its accumulators, from the side
/// to move's view, with the classical evaluation's game knowledge: a dead
/// draw is 0, and the advantage of a side that cannot mate is damped (see
/// [`Taper::apply`]).
#[inline]
fn network_eval(net: &Network, acc: accumulator::Accumulators<'_>, pos: &Position) -> i32 {
    let Some(taper) = Taper::of(pos) else { return 0 };
    let v = net.output(acc, pos.side_to_move(), pos.occupied().count() as usize);
    let red = if pos.side_to_move() == Color::Red { v } else { -v };
    // The same value for both phases: the taper leaves it whole.
    taper.apply(S(red, red))
}

/// The network's evaluation of `pos` computed from scratch (for the `eval`
/// command and one-off evaluations; a search uses an [`Evaluator`]).
pub fn evaluate_with(net: &Network, pos: &Position) -> i32 {
    let [red, black] = accumulator::refresh(net, pos);
    network_eval(net, [&red, &black], pos)
}

/// The network's line of the `eval` command: its name, the instruction set
/// it runs on, its evaluation of `pos` and whether the search uses it.
pub fn network_trace(net: &Network, pos: &Position, in_use: bool) -> String {
    let v = evaluate_with(net, pos);
    let red_view = if pos.side_to_move() == Color::Red { v } else { -v };
    let usage = if in_use { "in use" } else { "not in use: option Use NNUE is off" };
    format!(
        "NNUE evaluation ({}, {:?}): {red_view} (Red's view), {v} (side to move); {usage}",
        net.name(),
        net.simd()
    )
}

/// See the module comment.
pub struct Evaluator {
    /// The network, if the thread evaluates with one.
    net: Option<Arc<Network>>,
    /// Its accumulators along the search path (allocated with the first
    /// network, and again for a network of another width).
    stack: Option<AccumulatorStack>,
    /// Without a network: the material and square-table sum ([`piece_squares`])
    /// of each position along the search path, the current one last (empty
    /// while a network is in use).
    squares: Vec<S>,
    max_ply: usize,
}

impl Evaluator {
    /// The classical evaluation, for lines of up to `max_ply` moves.
    pub fn new(max_ply: usize) -> Evaluator {
        Evaluator { net: None, stack: None, squares: Vec::with_capacity(max_ply + 1), max_ply }
    }

    /// Evaluates with `net` from now on, or classically if `None`; then
    /// [`Evaluator::reset`] must be called before the next evaluation.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        if let Some(net) = &net
            && !self.stack.as_ref().is_some_and(|s| s.fits(net))
        {
            self.stack = Some(AccumulatorStack::new(self.max_ply, net));
        }
        self.net = net;
    }

    /// Starts a search from `pos`.
    pub fn reset(&mut self, pos: &Position) {
        self.squares.clear();
        match (&self.net, &mut self.stack) {
            (Some(net), Some(stack)) => stack.reset(net, pos),
            _ => self.squares.push(piece_squares(pos)),
        }
    }

    /// Plays the legal move `m` on `pos`.
    #[inline(always)]
    pub fn do_move(&mut self, pos: &mut Position, m: Move) {
        if self.net.is_some()
            && let Some(stack) = &mut self.stack
        {
            stack.push_move(pos, m);
        } else if let Some(&before) = self.squares.last() {
            let mut after = before;
            if let Some(mover) = pos.piece_on(m.from()) {
                after += piece_square(mover, m.to()) - piece_square(mover, m.from());
            }
            if let Some(victim) = pos.piece_on(m.to()) {
                after -= piece_square(victim, m.to());
            }
            self.squares.push(after);
        }
        pos.do_move(m);
    }

    /// Takes back the last move played with [`Evaluator::do_move`].
    #[inline(always)]
    pub fn undo_move(&mut self, pos: &mut Position) {
        self.pop();
        pos.undo_move();
    }

    /// Passes the turn on `pos` (not in check).
    #[inline(always)]
    pub fn do_null_move(&mut self, pos: &mut Position) {
        if self.net.is_some()
            && let Some(stack) = &mut self.stack
        {
            stack.push_null();
        } else if let Some(&same) = self.squares.last() {
            self.squares.push(same);
        }
        pos.do_null_move();
    }

    /// Takes back a null move.
    #[inline(always)]
    pub fn undo_null_move(&mut self, pos: &mut Position) {
        self.pop();
        pos.undo_null_move();
    }

    #[inline(always)]
    fn pop(&mut self) {
        if self.net.is_some()
            && let Some(stack) = &mut self.stack
        {
            stack.pop();
        } else {
            self.squares.pop();
        }
    }

    /// The evaluation of `pos`, the position reached by the moves made
    /// through this evaluator since [`Evaluator::reset`], from the side to
    /// move's view.
    #[inline(always)]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match (&self.net, &mut self.stack) {
            (Some(net), Some(stack)) => network_eval(net, stack.current(net, pos), pos),
            _ => {
                let squares = self.squares.last().copied().unwrap_or_else(|| piece_squares(pos));
                debug_assert_eq!(squares, piece_squares(pos), "incremental material and squares");
                evaluate_given_squares(pos, squares)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use crate::eval::nnue::features::FeatureSet;
    use crate::eval::nnue::format::NetworkData;

    #[test]
    fn classical_unless_a_network_is_set() {
        let mut pos = Position::startpos();
        let mut ev = Evaluator::new(8);
        ev.reset(&pos);
        let m = Move::parse("h2e2").unwrap();
        ev.do_move(&mut pos, m);
        assert_eq!(ev.evaluate(&pos), evaluate(&pos));
        let net = Arc::new(
            Network::from_data(&NetworkData::random(FeatureSet::KingBuckets, 128, 9, 300), "t".into())
                .unwrap(),
        );
        ev.set_network(Some(Arc::clone(&net)));
        ev.reset(&pos);
        ev.do_null_move(&mut pos);
        assert_eq!(ev.evaluate(&pos), evaluate_with(&net, &pos));
        ev.undo_null_move(&mut pos);
        assert_eq!(ev.evaluate(&pos), evaluate_with(&net, &pos));
        ev.set_network(None);
        assert_eq!(ev.evaluate(&pos), evaluate(&pos));
    }

    #[test]
    fn incremental_squares_match_a_recount() {
        use crate::board::zobrist::SplitMix64;
        let mut rng = SplitMix64(7);
        for game in 0..40 {
            let mut pos = Position::startpos();
            let mut ev = Evaluator::new(200);
            ev.reset(&pos);
            let mut made = Vec::new();
            for _ in 0..160 {
                let moves = pos.legal_moves();
                // Now and then take a move back, or pass when not in check.
                let roll = rng.below(10);
                if moves.is_empty() || roll == 0 && !made.is_empty() {
                    match made.pop() {
                        Some(true) => ev.undo_null_move(&mut pos),
                        Some(false) => ev.undo_move(&mut pos),
                        None => break,
                    }
                } else if roll == 1 && !pos.in_check() {
                    ev.do_null_move(&mut pos);
                    made.push(true);
                } else {
                    // Captures twice as likely as their share, to empty the board.
                    let captures: Vec<Move> =
                        moves.iter().copied().filter(|m| pos.piece_on(m.to()).is_some()).collect();
                    let m = if !captures.is_empty() && rng.below(2) == 0 {
                        captures[rng.below(captures.len())]
                    } else {
                        moves[rng.below(moves.len())]
                    };
                    ev.do_move(&mut pos, m);
                    made.push(false);
                }
                assert_eq!(ev.evaluate(&pos), evaluate(&pos), "game {game}: {}", pos.fen());
            }
        }
    }

    #[test]
    fn the_game_knowledge_wraps_the_network() {
        let data =
            NetworkData { out_bias: vec![2 * 255 * 64], ..NetworkData::zeroed(FeatureSet::Plain, 128) };
        let net = Network::from_data(&data, "flat".into()).unwrap();
        // The network says +800 for the side to move whatever the position.
        let lone_rook = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w").unwrap();
        assert_eq!(evaluate_with(&net, &lone_rook), 800);
        // Black cannot mate: its +800 counts a sixteenth.
        let black = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 b").unwrap();
        assert_eq!(evaluate_with(&net, &black), 50);
        let bare = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w").unwrap();
        assert_eq!(evaluate_with(&net, &bare), 0);
        let line = network_trace(&net, &black, false);
        assert!(line.starts_with("NNUE evaluation (flat, "), "{line}");
        assert!(line.ends_with("): -50 (Red's view), 50 (side to move); not in use: option Use NNUE is off"));
    }
}
