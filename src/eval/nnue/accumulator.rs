//! The accumulators — each perspective's feature biases plus the weights of
//! its active inputs — and the per-thread stack that keeps them along the
//! search path. Making a move only records what changed; an entry is
//! computed when a node is evaluated, from the nearest computed entry below
//! it. With no king buckets no move ever needs a full refresh: only the
//! root does.

use arrayvec::ArrayVec;

use super::features::index;
use super::network::Network;
use super::simd::Row;
use crate::board::Position;
use crate::types::{Color, Move, Piece, Square};

/// Both perspectives' accumulators, indexed by colour (Red, Black).
pub type Accumulators = [Row; 2];

/// The accumulators of `pos` computed from scratch.
pub fn refresh(net: &Network, pos: &Position) -> Accumulators {
    let mut acc = [Row::ZERO; 2];
    for view in Color::ALL {
        let rows: ArrayVec<&Row, 32> = pos
            .occupied()
            .into_iter()
            .map(|sq| net.weights(index(view, pos.piece_on(sq).expect("occupied"), sq)))
            .collect();
        net.update(&mut acc[view.index()], net.bias(), &rows, &[]);
    }
    acc
}

/// What a move changed on the board (nothing for a null move).
#[derive(Clone, Copy, Debug)]
enum Change {
    None,
    Move { piece: Piece, from: Square, to: Square, captured: Option<Piece> },
}

/// One ply of the stack.
#[derive(Clone, Copy)]
struct Entry {
    acc: Accumulators,
    /// The change from the entry below.
    change: Change,
    /// `acc` holds this ply's accumulators.
    computed: bool,
}

/// See the module comment. Allocated once; nothing here allocates after.
pub struct AccumulatorStack {
    entries: Box<[Entry]>,
    top: usize,
}

impl AccumulatorStack {
    /// A stack for lines of up to `max_ply` moves from the root.
    pub fn new(max_ply: usize) -> AccumulatorStack {
        let empty = Entry { acc: [Row::ZERO; 2], change: Change::None, computed: false };
        AccumulatorStack { entries: vec![empty; max_ply + 1].into_boxed_slice(), top: 0 }
    }

    /// Starts from `pos` (the root): its accumulators from scratch.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        self.entries[0].acc = refresh(net, pos);
        self.entries[0].computed = true;
    }

    /// Records `m`, about to be played in `pos`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        let piece = pos.piece_on(m.from()).expect("a move has a mover");
        let captured = pos.piece_on(m.to());
        self.push(Change::Move { piece, from: m.from(), to: m.to(), captured });
    }

    /// Records a null move (the accumulators stay as they are).
    #[inline]
    pub fn push_null(&mut self) {
        self.push(Change::None);
    }

    #[inline(always)]
    fn push(&mut self, change: Change) {
        self.top += 1;
        let e = &mut self.entries[self.top];
        e.change = change;
        e.computed = false;
    }

    /// Forgets the last move or null move recorded.
    #[inline]
    pub fn pop(&mut self) {
        self.top -= 1;
    }

    /// The accumulators of the current position, computing those of the
    /// plies since the last computed one.
    #[inline]
    pub fn current(&mut self, net: &Network) -> &Accumulators {
        let mut last = self.top;
        while !self.entries[last].computed {
            last -= 1;
        }
        for ply in last + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(ply);
            let (prev, e) = (&below[ply - 1].acc, &mut above[0]);
            apply(net, &mut e.acc, prev, e.change);
            e.computed = true;
        }
        &self.entries[self.top].acc
    }
}

/// `out` = `prev` changed by `change`, for both perspectives.
#[inline(always)]
fn apply(net: &Network, out: &mut Accumulators, prev: &Accumulators, change: Change) {
    let Change::Move { piece, from, to, captured } = change else {
        *out = *prev;
        return;
    };
    for view in Color::ALL {
        let v = view.index();
        let add = net.weights(index(view, piece, to));
        let sub = net.weights(index(view, piece, from));
        match captured {
            None => net.update(&mut out[v], &prev[v], &[add], &[sub]),
            Some(c) => net.update(&mut out[v], &prev[v], &[add], &[sub, net.weights(index(view, c, to))]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::zobrist::SplitMix64;
    use crate::eval::nnue::format::NetworkData;
    use crate::types::MoveList;

    fn network(seed: u64) -> Network {
        Network::from_data(&NetworkData::random(seed, 500), "test".into()).unwrap()
    }

    /// Random walks of moves, captures, null moves and take-backs, with
    /// evaluations at random plies: every accumulator the stack gives is the
    /// one computed from scratch.
    #[test]
    fn lazy_updates_equal_a_refresh() {
        let net = network(3);
        let mut rng = SplitMix64(0xACC);
        let fens = [
            crate::board::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        ];
        let mut checked = 0;
        for fen in fens.iter().chain(crate::tools::bench::POSITIONS.iter()) {
            let mut pos = Position::from_fen(fen).unwrap();
            pos.reserve(64);
            let mut stack = AccumulatorStack::new(48);
            stack.reset(&net, &pos);
            let mut nulls = Vec::new();
            for _ in 0..300 {
                let mut list = MoveList::new();
                pos.generate(crate::board::GenType::Captures, &mut list);
                pos.generate(crate::board::GenType::Quiets, &mut list);
                let legal: Vec<Move> = list.iter().copied().filter(|&m| pos.is_legal(m)).collect();
                let depth = nulls.len();
                let roll = rng.below(10);
                if depth > 0 && (roll < 3 || legal.is_empty() || depth == 48) {
                    if nulls.pop().unwrap() {
                        pos.undo_null_move();
                    } else {
                        pos.undo_move();
                    }
                    stack.pop();
                } else if roll == 3 && !pos.in_check() && !legal.is_empty() {
                    stack.push_null();
                    pos.do_null_move();
                    nulls.push(true);
                } else if !legal.is_empty() {
                    // Captures first in the list: favour them.
                    let m = if rng.below(2) == 0 { legal[0] } else { legal[rng.below(legal.len())] };
                    stack.push_move(&pos, m);
                    pos.do_move(m);
                    nulls.push(false);
                }
                if rng.below(3) == 0 {
                    assert_eq!(*stack.current(&net), refresh(&net, &pos), "{}", pos.fen());
                    checked += 1;
                }
            }
        }
        assert!(checked > 3000, "{checked}");
    }

    #[test]
    fn a_refresh_is_the_bias_plus_the_pieces_weights() {
        let net = network(4);
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w").unwrap();
        let acc = refresh(&net, &pos);
        for view in Color::ALL {
            for i in [0, 77, HIDDEN_LAST] {
                let mut want = net.bias().0[i];
                for sq in pos.occupied() {
                    want = want.wrapping_add(net.weights(index(view, pos.piece_on(sq).unwrap(), sq)).0[i]);
                }
                assert_eq!(acc[view.index()].0[i], want);
            }
        }
    }

    const HIDDEN_LAST: usize = crate::eval::nnue::format::HIDDEN - 1;
}
