//! The accumulators — each perspective's feature biases plus the weights of
//! its active inputs — and the per-thread stack that keeps them along the
//! search path. Making a move only records what changed; an entry is
//! computed when a node is evaluated, from the nearest computed entry below
//! it, each perspective on its own.
//!
//! With king buckets ([`FeatureSet::KingBuckets`]) a move of a side's own
//! king changes the frame its inputs are read in (another bucket): every
//! one of that perspective's inputs changes. Instead
//! of summing 32 rows again, the stack keeps a cache per perspective and king
//! square — the accumulator last computed with the king there and the pieces
//! it was computed for (a "Finny table") — and brings it up to date with the
//! pieces that differ, usually a handful.

use arrayvec::ArrayVec;

use super::features::{BUCKETS, FeatureSet, Frame};
use super::network::Network;
use super::simd::Row;
use crate::board::Position;
use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// Both perspectives' accumulators, indexed by colour (Red, Black).
pub type Accumulators = [Row; 2];

/// The frame `view` reads `pos` in.
#[inline(always)]
fn frame(net: &Network, pos: &Position, view: Color) -> Frame {
    net.features().frame(view, pos.king_square(view))
}

/// The accumulators of `pos` computed from scratch.
pub fn refresh(net: &Network, pos: &Position) -> Accumulators {
    let mut acc = [Row::ZERO; 2];
    for view in Color::ALL {
        let frame = frame(net, pos, view);
        let rows: ArrayVec<&Row, 32> = pos
            .occupied()
            .into_iter()
            .map(|sq| net.weights(frame.index(pos.piece_on(sq).expect("occupied"), sq)))
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
    /// Per perspective: `acc` holds this ply's accumulator.
    computed: [bool; 2],
    /// Per perspective: the change moved its king to another frame.
    reframed: [bool; 2],
}

/// One perspective's cached accumulator for one king square.
#[derive(Clone, Copy)]
struct Cached {
    acc: Row,
    /// The pieces `acc` counts, by colour and kind.
    pieces: [[Bitboard; PieceKind::COUNT]; 2],
}

/// See the module comment. Allocated once; nothing here allocates after.
pub struct AccumulatorStack {
    entries: Box<[Entry]>,
    top: usize,
    /// The feature set of the network the stack was last reset with.
    features: FeatureSet,
    /// Per perspective and king bucket (one per palace point), see the
    /// module comment.
    cache: Box<[[Cached; BUCKETS]; 2]>,
}

impl AccumulatorStack {
    /// A stack for lines of up to `max_ply` moves from the root.
    pub fn new(max_ply: usize) -> AccumulatorStack {
        let empty =
            Entry { acc: [Row::ZERO; 2], change: Change::None, computed: [false; 2], reframed: [false; 2] };
        let blank = Cached { acc: Row::ZERO, pieces: [[Bitboard::EMPTY; PieceKind::COUNT]; 2] };
        AccumulatorStack {
            entries: vec![empty; max_ply + 1].into_boxed_slice(),
            top: 0,
            features: FeatureSet::Plain,
            cache: Box::new([[blank; BUCKETS]; 2]),
        }
    }

    /// Starts from `pos` (the root) with `net`: its accumulators from
    /// scratch, the cache emptied (it may hold another network's sums).
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        self.features = net.features();
        self.entries[0].acc = refresh(net, pos);
        self.entries[0].computed = [true; 2];
        for c in self.cache.iter_mut().flatten() {
            c.acc = *net.bias();
            c.pieces = [[Bitboard::EMPTY; PieceKind::COUNT]; 2];
        }
    }

    /// Records `m`, about to be played in `pos`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        let piece = pos.piece_on(m.from()).expect("a move has a mover");
        let captured = pos.piece_on(m.to());
        let mut reframed = [false; 2];
        if piece.kind() == PieceKind::King && self.features != FeatureSet::Plain {
            let view = piece.color();
            reframed[view.index()] = self.features.frame(view, m.from()) != self.features.frame(view, m.to());
        }
        self.push(Change::Move { piece, from: m.from(), to: m.to(), captured }, reframed);
    }

    /// Records a null move (the accumulators stay as they are).
    #[inline]
    pub fn push_null(&mut self) {
        self.push(Change::None, [false; 2]);
    }

    #[inline(always)]
    fn push(&mut self, change: Change, reframed: [bool; 2]) {
        self.top += 1;
        let e = &mut self.entries[self.top];
        e.change = change;
        e.computed = [false; 2];
        e.reframed = reframed;
    }

    /// Forgets the last move or null move recorded.
    #[inline]
    pub fn pop(&mut self) {
        self.top -= 1;
    }

    /// The accumulators of `pos`, the current position, computing each
    /// perspective's from its last computed entry, or from the cache if its
    /// king changed frame since.
    #[inline]
    pub fn current(&mut self, net: &Network, pos: &Position) -> &Accumulators {
        for view in Color::ALL {
            let v = view.index();
            let mut last = self.top;
            let mut reframed = false;
            while !self.entries[last].computed[v] {
                if self.entries[last].reframed[v] {
                    reframed = true;
                    break;
                }
                last -= 1;
            }
            if reframed {
                let acc = self.refreshed_from_cache(net, pos, view);
                let top = &mut self.entries[self.top];
                top.acc[v] = acc;
                top.computed[v] = true;
                continue;
            }
            let frame = frame(net, pos, view);
            for ply in last + 1..=self.top {
                let (below, above) = self.entries.split_at_mut(ply);
                let (prev, e) = (&below[ply - 1].acc[v], &mut above[0]);
                apply(net, frame, &mut e.acc[v], prev, e.change);
                e.computed[v] = true;
            }
        }
        &self.entries[self.top].acc
    }

    /// `view`'s accumulator of `pos` from the cache entry of its king
    /// square, which is brought up to date.
    fn refreshed_from_cache(&mut self, net: &Network, pos: &Position, view: Color) -> Row {
        let frame = frame(net, pos, view);
        let cached = &mut self.cache[view.index()][frame.bucket()];
        let mut add: ArrayVec<&Row, 32> = ArrayVec::new();
        let mut sub: ArrayVec<&Row, 32> = ArrayVec::new();
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                let (now, was) = (pos.pieces_of(color, kind), cached.pieces[color.index()][kind.index()]);
                add.extend((now & !was).into_iter().map(|sq| net.weights(frame.index(piece, sq))));
                sub.extend((was & !now).into_iter().map(|sq| net.weights(frame.index(piece, sq))));
                cached.pieces[color.index()][kind.index()] = now;
            }
        }
        let old = cached.acc;
        net.update(&mut cached.acc, &old, &add, &sub);
        cached.acc
    }
}

/// `out` = `prev` changed by `change`, for the perspective reading the
/// board in `frame` (the same before and after the change).
#[inline(always)]
fn apply(net: &Network, frame: Frame, out: &mut Row, prev: &Row, change: Change) {
    let Change::Move { piece, from, to, captured } = change else {
        *out = *prev;
        return;
    };
    let add = net.weights(frame.index(piece, to));
    let sub = net.weights(frame.index(piece, from));
    match captured {
        None => net.update(out, prev, &[add], &[sub]),
        Some(c) => net.update(out, prev, &[add], &[sub, net.weights(frame.index(c, to))]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::zobrist::SplitMix64;
    use crate::eval::nnue::format::NetworkData;
    use crate::types::MoveList;

    fn network(features: FeatureSet, seed: u64) -> Network {
        Network::from_data(&NetworkData::random(features, seed, 500), "test".into()).unwrap()
    }

    /// Random walks of moves, captures, null moves and take-backs, with
    /// evaluations at random plies: every accumulator the stack gives is the
    /// one computed from scratch.
    #[test]
    fn lazy_updates_equal_a_refresh() {
        assert_eq!(walks_equal_a_refresh(&network(FeatureSet::Plain, 3)), 0);
        // King moves to another frame, each computed from the cache.
        let reframed = walks_equal_a_refresh(&network(FeatureSet::KingBuckets, 3));
        assert!(reframed > 300, "{reframed}");
    }

    /// Random walks checked against refreshes; returns the moves that took
    /// a king to another frame.
    fn walks_equal_a_refresh(net: &Network) -> usize {
        let mut reframed = 0;
        let mut rng = SplitMix64(0xACC);
        let fens = [
            crate::board::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            // Bare-ish boards where the kings walk their palaces.
            "3k5/4a4/9/9/9/9/9/4B4/4R4/3AK4 w",
            "5k3/9/3a5/9/2R6/6r2/9/9/4K4/9 b",
        ];
        let mut checked = 0;
        for fen in fens.iter().chain(crate::tools::bench::POSITIONS.iter()) {
            let mut pos = Position::from_fen(fen).unwrap();
            pos.reserve(64);
            let mut stack = AccumulatorStack::new(48);
            stack.reset(net, &pos);
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
                    reframed += stack.entries[stack.top].reframed.iter().filter(|&&r| r).count();
                    pos.do_move(m);
                    nulls.push(false);
                }
                if rng.below(3) == 0 {
                    assert_eq!(*stack.current(net, &pos), refresh(net, &pos), "{}", pos.fen());
                    checked += 1;
                }
            }
        }
        assert!(checked > 3000, "{checked}");
        reframed
    }

    #[test]
    fn a_refresh_is_the_bias_plus_the_pieces_weights() {
        let net = network(FeatureSet::KingBuckets, 4);
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w").unwrap();
        let acc = refresh(&net, &pos);
        for view in Color::ALL {
            let frame = frame(&net, &pos, view);
            for i in [0, 77, HIDDEN_LAST] {
                let mut want = net.bias().0[i];
                for sq in pos.occupied() {
                    want = want.wrapping_add(net.weights(frame.index(pos.piece_on(sq).unwrap(), sq)).0[i]);
                }
                assert_eq!(acc[view.index()].0[i], want);
            }
        }
    }

    const HIDDEN_LAST: usize = crate::eval::nnue::format::HIDDEN - 1;
}
