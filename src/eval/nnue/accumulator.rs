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

use std::ops::Range;

use arrayvec::ArrayVec;

use super::features::{BUCKETS, FeatureSet, Frame};
use super::network::Network;
use super::simd::Chunk;
use crate::board::Position;
use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// Both perspectives' accumulators, indexed by colour (Red, Black), each
/// [`Network::chunks`] long.
pub type Accumulators<'a> = [&'a [Chunk]; 2];

/// The frame `view` reads `pos` in.
#[inline(always)]
fn frame(net: &Network, pos: &Position, view: Color) -> Frame {
    net.features().frame(view, pos.king_square(view))
}

/// The accumulators of `pos` computed from scratch, in new vectors (for
/// one-off evaluations; a search keeps them in an [`AccumulatorStack`]).
pub fn refresh(net: &Network, pos: &Position) -> [Vec<Chunk>; 2] {
    Color::ALL.map(|view| {
        let mut acc = vec![Chunk::ZERO; net.chunks()];
        refresh_view(net, pos, view, &mut acc);
        acc
    })
}

/// `view`'s accumulator of `pos` from scratch, into `out`.
fn refresh_view(net: &Network, pos: &Position, view: Color, out: &mut [Chunk]) {
    let frame = frame(net, pos, view);
    let rows: ArrayVec<&[Chunk], 32> = pos
        .occupied()
        .into_iter()
        .map(|sq| net.weights(frame.index(pos.piece_on(sq).expect("occupied"), sq)))
        .collect();
    net.update(out, Some(net.bias()), &rows, &[]);
}

/// What a move changed on the board (nothing for a null move).
#[derive(Clone, Copy, Debug)]
enum Change {
    None,
    Move { piece: Piece, from: Square, to: Square, captured: Option<Piece> },
}

/// One ply of the stack (its accumulators are in [`AccumulatorStack::accs`]).
#[derive(Clone, Copy)]
struct Entry {
    /// The change from the entry below.
    change: Change,
    /// Per perspective: the ply's accumulator is computed.
    computed: [bool; 2],
    /// Per perspective: the change moved its king to another frame.
    reframed: [bool; 2],
}

/// See the module comment. Allocated for a network's width; nothing here
/// allocates after, unless reset with a network of another width.
pub struct AccumulatorStack {
    entries: Box<[Entry]>,
    /// The accumulators of every ply, each perspective's `chunks` long:
    /// ply `p`'s of view `v` start at chunk `(2p + v) · chunks`.
    accs: Box<[Chunk]>,
    /// Chunks of an accumulator (the network's [`Network::chunks`]).
    chunks: usize,
    top: usize,
    /// The feature set of the network the stack was last reset with.
    features: FeatureSet,
    /// Per perspective and king bucket (one per palace point), see the
    /// module comment: the pieces the cached accumulator counts, by colour
    /// and kind.
    cached_pieces: Box<[[[[Bitboard; PieceKind::COUNT]; 2]; BUCKETS]; 2]>,
    /// The cached accumulators: view `v`'s of bucket `b` start at chunk
    /// `(v · BUCKETS + b) · chunks`.
    cached_accs: Box<[Chunk]>,
}

impl AccumulatorStack {
    /// A stack for lines of up to `max_ply` moves from the root, with
    /// accumulators as wide as `net`'s.
    pub fn new(max_ply: usize, net: &Network) -> AccumulatorStack {
        let empty = Entry { change: Change::None, computed: [false; 2], reframed: [false; 2] };
        let chunks = net.chunks();
        AccumulatorStack {
            entries: vec![empty; max_ply + 1].into_boxed_slice(),
            accs: vec![Chunk::ZERO; 2 * (max_ply + 1) * chunks].into_boxed_slice(),
            chunks,
            top: 0,
            features: FeatureSet::Plain,
            cached_pieces: Box::new([[[[Bitboard::EMPTY; PieceKind::COUNT]; 2]; BUCKETS]; 2]),
            cached_accs: vec![Chunk::ZERO; 2 * BUCKETS * chunks].into_boxed_slice(),
        }
    }

    /// True if the stack's accumulators are as wide as `net`'s (then
    /// [`AccumulatorStack::reset`] with it does not allocate).
    pub fn fits(&self, net: &Network) -> bool {
        self.chunks == net.chunks()
    }

    /// Where ply `ply`'s accumulator of view `v` is in `accs`.
    #[inline(always)]
    fn at(&self, ply: usize, v: usize) -> Range<usize> {
        let start = (2 * ply + v) * self.chunks;
        start..start + self.chunks
    }

    /// Starts from `pos` (the root) with `net`: its accumulators from
    /// scratch, the cache emptied (it may hold another network's sums). A
    /// network of another width than the stack's gets a new stack.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        if !self.fits(net) {
            *self = AccumulatorStack::new(self.entries.len() - 1, net);
        }
        self.top = 0;
        self.features = net.features();
        for view in Color::ALL {
            let range = self.at(0, view.index());
            refresh_view(net, pos, view, &mut self.accs[range]);
        }
        self.entries[0].computed = [true; 2];
        for acc in self.cached_accs.chunks_exact_mut(self.chunks) {
            acc.copy_from_slice(net.bias());
        }
        for pieces in self.cached_pieces.iter_mut().flatten() {
            *pieces = [[Bitboard::EMPTY; PieceKind::COUNT]; 2];
        }
    }

    /// Records `m`, about to be played in `pos`.
    #[inline(always)]
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
    /// king changed frame since. `net` is the network of the last reset.
    #[inline]
    pub fn current(&mut self, net: &Network, pos: &Position) -> Accumulators<'_> {
        // Every network so far is 4 chunks (128 units) wide: with the count
        // a constant, the places, copies and rows of its accumulators are
        // computed as when the width was the build's. The plain set (every
        // network built in so far) never changes frame: its perspectives
        // are computed at the same plies and need no look at king moves.
        match (self.chunks, self.features) {
            (4, FeatureSet::Plain) => self.current_in::<4, true>(net, pos),
            (4, _) => self.current_in::<4, false>(net, pos),
            _ => self.current_in::<0, false>(net, pos),
        }
    }

    /// [`AccumulatorStack::current`] with accumulators of `C` chunks (0:
    /// `self.chunks`, whatever it is), `PLAIN` when the feature set is.
    #[inline(always)]
    fn current_in<const C: usize, const PLAIN: bool>(
        &mut self,
        net: &Network,
        pos: &Position,
    ) -> Accumulators<'_> {
        let n = if C > 0 { C } else { self.chunks };
        let at = |ply: usize, v: usize| (2 * ply + v) * n..(2 * ply + v + 1) * n;
        let last = if PLAIN {
            // Both perspectives are computed at the same plies.
            [self.last_computed::<true>(net, pos, Color::Red); 2]
        } else {
            Color::ALL.map(|view| self.last_computed::<false>(net, pos, view))
        };
        let frames = Color::ALL.map(|view| {
            if PLAIN { FeatureSet::Plain.frame_raw(view == Color::Black, 0) } else { frame(net, pos, view) }
        });
        // Each ply's change read once for both perspectives.
        for ply in last[0].min(last[1]) + 1..=self.top {
            let change = self.entries[ply].change;
            let (below, above) = self.accs.split_at_mut(2 * ply * n);
            let prev = &below[2 * (ply - 1) * n..];
            for v in 0..2 {
                if PLAIN || ply > last[v] {
                    apply(net, frames[v], &mut above[v * n..(v + 1) * n], &prev[v * n..(v + 1) * n], change);
                    self.entries[ply].computed[v] = true;
                }
            }
        }
        [&self.accs[at(self.top, 0)], &self.accs[at(self.top, 1)]]
    }

    /// The last ply at which `view`'s accumulator is computed; the top when
    /// its king changed frame above that ply (never with the plain set,
    /// `PLAIN`), which is then set from the cache.
    #[inline(always)]
    fn last_computed<const PLAIN: bool>(&mut self, net: &Network, pos: &Position, view: Color) -> usize {
        let v = view.index();
        let mut ply = self.top;
        while !self.entries[ply].computed[v] {
            if !PLAIN && self.entries[ply].reframed[v] {
                self.refresh_from_cache(net, pos, view);
                self.entries[self.top].computed[v] = true;
                return self.top;
            }
            ply -= 1;
        }
        ply
    }

    /// Sets `view`'s accumulator of `pos` at the top of the stack from the
    /// cache entry of its king square, which is brought up to date.
    fn refresh_from_cache(&mut self, net: &Network, pos: &Position, view: Color) {
        let frame = frame(net, pos, view);
        let slot = view.index() * BUCKETS + frame.bucket();
        let pieces = &mut self.cached_pieces[view.index()][frame.bucket()];
        let mut add: ArrayVec<&[Chunk], 32> = ArrayVec::new();
        let mut sub: ArrayVec<&[Chunk], 32> = ArrayVec::new();
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                let (now, was) = (pos.pieces_of(color, kind), pieces[color.index()][kind.index()]);
                add.extend((now & !was).into_iter().map(|sq| net.weights(frame.index(piece, sq))));
                sub.extend((was & !now).into_iter().map(|sq| net.weights(frame.index(piece, sq))));
                pieces[color.index()][kind.index()] = now;
            }
        }
        let top = self.at(self.top, view.index());
        let cached = &mut self.cached_accs[slot * self.chunks..(slot + 1) * self.chunks];
        net.update(cached, None, &add, &sub);
        copy(&mut self.accs[top], cached);
    }
}

/// `dst = src` (as long): a copy of 128 units is a fixed-size one the
/// compiler writes inline, not a call to `memcpy`.
#[inline(always)]
fn copy(dst: &mut [Chunk], src: &[Chunk]) {
    match (<&mut [Chunk; 4]>::try_from(&mut *dst), <&[Chunk; 4]>::try_from(src)) {
        (Ok(d), Ok(s)) => *d = *s,
        _ => dst.copy_from_slice(src),
    }
}

/// `out` = `prev` changed by `change`, for the perspective reading the
/// board in `frame` (the same before and after the change).
#[inline(always)]
fn apply(net: &Network, frame: Frame, out: &mut [Chunk], prev: &[Chunk], change: Change) {
    let Change::Move { piece, from, to, captured } = change else {
        copy(out, prev);
        return;
    };
    let n = out.len();
    let add = net.row(frame.index(piece, to), n);
    let sub = net.row(frame.index(piece, from), n);
    match captured {
        None => net.update(out, Some(prev), &[add], &[sub]),
        Some(c) => net.update(out, Some(prev), &[add], &[sub, net.row(frame.index(c, to), n)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::zobrist::SplitMix64;
    use crate::eval::nnue::format::NetworkData;
    use crate::types::MoveList;

    fn network(features: FeatureSet, hidden: usize, seed: u64) -> Network {
        Network::from_data(&NetworkData::random(features, hidden, seed, 500), "test".into()).unwrap()
    }

    /// Random walks of moves, captures, null moves and take-backs, with
    /// evaluations at random plies: every accumulator the stack gives is the
    /// one computed from scratch.
    #[test]
    fn lazy_updates_equal_a_refresh() {
        assert_eq!(walks_equal_a_refresh(&network(FeatureSet::Plain, 128, 3)), 0);
        // King moves to another frame, each computed from the cache.
        let reframed = walks_equal_a_refresh(&network(FeatureSet::KingBuckets, 128, 3));
        assert!(reframed > 300, "{reframed}");
    }

    #[test]
    fn lazy_updates_equal_a_refresh_in_wider_and_narrower_networks() {
        // Two blocks of 128 lanes, and a width that is not whole blocks.
        for hidden in [256, 96] {
            assert_eq!(walks_equal_a_refresh(&network(FeatureSet::Plain, hidden, 5)), 0);
            let reframed = walks_equal_a_refresh(&network(FeatureSet::KingBuckets, hidden, 5));
            assert!(reframed > 300, "{reframed}");
        }
    }

    #[test]
    fn a_stack_follows_a_network_of_another_width() {
        let (narrow, wide) =
            (network(FeatureSet::KingBuckets, 128, 1), network(FeatureSet::KingBuckets, 256, 2));
        let mut pos = Position::from_fen("3k5/4a4/9/9/9/9/9/4B4/4R4/3AK4 w").unwrap();
        let mut stack = AccumulatorStack::new(8, &narrow);
        assert!(stack.fits(&narrow) && !stack.fits(&wide));
        for net in [&narrow, &wide, &narrow] {
            stack.reset(net, &pos);
            assert!(stack.fits(net));
            let m = Move::new(Square::parse("e0").unwrap(), Square::parse("f0").unwrap());
            stack.push_move(&pos, m);
            pos.do_move(m);
            let [red, black] = refresh(net, &pos);
            assert_eq!(stack.current(net, &pos), [&red[..], &black[..]]);
            assert_eq!(red.len() * 32, net.hidden());
            pos.undo_move();
            stack.pop();
        }
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
            let mut stack = AccumulatorStack::new(48, net);
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
                    let [red, black] = refresh(net, &pos);
                    assert_eq!(stack.current(net, &pos), [&red[..], &black[..]], "{}", pos.fen());
                    checked += 1;
                }
            }
        }
        assert!(checked > 3000, "{checked}");
        reframed
    }

    #[test]
    fn a_refresh_is_the_bias_plus_the_pieces_weights() {
        for hidden in [128, 256] {
            let net = network(FeatureSet::KingBuckets, hidden, 4);
            let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w").unwrap();
            let acc = refresh(&net, &pos);
            let lane = |row: &[Chunk], i: usize| row[i / 32].0[i % 32];
            for view in Color::ALL {
                let frame = frame(&net, &pos, view);
                for i in [0, 77, 200 % hidden, hidden - 1] {
                    let mut want = lane(net.bias(), i);
                    for sq in pos.occupied() {
                        want = want
                            .wrapping_add(lane(net.weights(frame.index(pos.piece_on(sq).unwrap(), sq)), i));
                    }
                    assert_eq!(lane(&acc[view.index()], i), want);
                }
            }
        }
    }
}
