//! The network's inputs: which ones a position turns on, for each of the
//! two feature sets a network file can use ([`FeatureSet`]).
//!
//! A perspective (a *view*) sees its own pieces as planes 0–6 and the other
//! side's as planes 7–13 (each in `PieceKind` order: rook, advisor, cannon,
//! pawn, horse, elephant, king), on squares numbered from its own side:
//! Red's view is the board as it is (`a0` = 0, `i0` = 8, `a1` = 9, …, `i9` =
//! 89), Black's view has the ranks flipped (rank r read as 9 − r, files
//! unchanged). A position and its colour-flipped twin therefore give the
//! same inputs to the side to move.
//!
//! - [`FeatureSet::Plain`]: one input per (plane, square), 14 × 90 = 1,260.
//! - [`FeatureSet::KingBuckets`]: the view's own king square chooses one of
//!   nine *buckets* (its palace point). Within a bucket there is one input
//!   per (plane, square the piece can stand on): rooks, horses and cannons 90
//!   points, pawns 55, advisors 5, elephants 7, kings 9 — 346 per side,
//!   [`BUCKET_INPUTS`] = 692 a bucket, 6,228 in all. A move of a view's own
//!   king changes its bucket: that view's inputs all change, see
//!   [`super::accumulator`].
//!
//! Why nine buckets and not six with the f-file mirrored onto the d-file
//! (as Pikafish does): a network is started from the plain one before it
//! (each bucket a copy of it, [`crate::tools::train`]), and that start is
//! exact only without a mirror. A plain network's output is roughly
//! symmetric left to right, but its hidden units are not each symmetric:
//! reading one view mirrored and the other not gave the round-6 network's
//! copy evaluations 87 cp away from it on average in 27 % of self-play
//! positions (training loss 0.00975 against 0.00889). Left and right still
//! share what they can through the trainer's factor and the mirrored
//! training positions (`--mirror`).
//!
//! The trainer and the engine both index through this module.

use crate::types::{Color, Piece, PieceKind, Square};

/// Inputs of the plain feature set: 14 planes × 90 squares.
pub const PLAIN_INPUTS: usize = 14 * Square::COUNT;

/// King buckets of [`FeatureSet::KingBuckets`]: one per palace point.
pub const BUCKETS: usize = 9;

/// Inputs per bucket of [`FeatureSet::KingBuckets`]: the (plane, square)
/// pairs a piece can stand on.
pub const BUCKET_INPUTS: usize = compact_count();

/// Marks a (plane, square) pair no piece can stand on in [`COMPACT`].
const NONE: u16 = u16::MAX;

/// The compact index of each (plane, view square) pair within a bucket, or
/// [`NONE`]: own pieces stand where Red's can, the other side's where
/// Black's can (the view's board has its own side at the bottom).
static COMPACT: [u16; PLAIN_INPUTS] = compact_table();

/// The number of (plane, square) pairs some piece can stand on.
const fn compact_count() -> usize {
    let table = compact_table();
    let mut n = 0;
    let mut i = 0;
    while i < PLAIN_INPUTS {
        if table[i] != NONE {
            n += 1;
        }
        i += 1;
    }
    n
}

/// See [`COMPACT`].
const fn compact_table() -> [u16; PLAIN_INPUTS] {
    let mut table = [NONE; PLAIN_INPUTS];
    let mut next = 0u16;
    let mut plane = 0;
    while plane < 14 {
        let color = if plane < 7 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, PieceKind::ALL[plane % 7]);
        let mut sq = 0;
        while sq < Square::COUNT {
            if piece.can_stand_on(Square::new(sq as u8)) {
                table[plane * Square::COUNT + sq] = next;
                next += 1;
            }
            sq += 1;
        }
        plane += 1;
    }
    table
}

/// Which inputs a network reads (stored in its file, [`super::format`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FeatureSet {
    /// 14 planes × 90 squares, no king context.
    Plain,
    /// Nine king buckets × 692 points a piece can stand on.
    KingBuckets,
}

/// How one view reads the board: given by the feature set and the view's
/// own king square, the same for every piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Frame {
    /// Black's view (ranks flipped).
    black: bool,
    /// The first input of the bucket (0 for the plain set).
    offset: u16,
    /// The set.
    set: FeatureSet,
}

impl FeatureSet {
    /// Every feature set, by file id.
    pub const ALL: [FeatureSet; 2] = [FeatureSet::Plain, FeatureSet::KingBuckets];

    /// The number stored in a network file's header.
    pub const fn id(self) -> u16 {
        match self {
            FeatureSet::Plain => 0,
            FeatureSet::KingBuckets => 1,
        }
    }

    /// The feature set of a file id.
    pub fn from_id(id: u16) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Inputs per view.
    pub const fn inputs(self) -> usize {
        match self {
            FeatureSet::Plain => PLAIN_INPUTS,
            FeatureSet::KingBuckets => BUCKETS * BUCKET_INPUTS,
        }
    }

    /// Inputs of one bucket (all of them for the plain set): an input's
    /// index modulo this is the same (plane, square) in every bucket.
    pub const fn bucket_inputs(self) -> usize {
        match self {
            FeatureSet::Plain => PLAIN_INPUTS,
            FeatureSet::KingBuckets => BUCKET_INPUTS,
        }
    }

    /// The frame of `view` whose king stands on `king` (a square index).
    #[inline(always)]
    pub fn frame_raw(self, view_black: bool, king: usize) -> Frame {
        match self {
            FeatureSet::Plain => Frame { black: view_black, offset: 0, set: self },
            FeatureSet::KingBuckets => {
                let rank = if view_black { 9 - king / 9 } else { king / 9 };
                // A king stands on files d–f and ranks 0–2 of its own side;
                // `min` and `clamp` keep the index in range for any square.
                let bucket = (rank.min(2) * 3 + (king % 9).clamp(3, 5) - 3) as u16;
                Frame { black: view_black, offset: bucket * BUCKET_INPUTS as u16, set: self }
            }
        }
    }

    /// The frame of `view` in `pos`-like terms: its own king on `king`.
    #[inline(always)]
    pub fn frame(self, view: Color, king: Square) -> Frame {
        self.frame_raw(view == Color::Black, king.index())
    }
}

impl Frame {
    /// The input of a piece of colour `piece_black` and kind `kind` (a
    /// `PieceKind` index) on square `sq` (0..90). The piece must be able to
    /// stand there ([`Piece::can_stand_on`]; every position does so).
    #[inline(always)]
    pub fn index_raw(self, piece_black: bool, kind: usize, sq: usize) -> usize {
        let plane = if piece_black == self.black { kind } else { 7 + kind };
        let rank = if self.black { 9 - sq / 9 } else { sq / 9 };
        let plain = plane * Square::COUNT + rank * 9 + sq % 9;
        match self.set {
            FeatureSet::Plain => plain,
            FeatureSet::KingBuckets => {
                let c = COMPACT[plain];
                debug_assert!(c != NONE, "no piece stands on plane {plane} square {sq}");
                self.offset as usize + c as usize
            }
        }
    }

    /// The input of `piece` on `sq`.
    #[inline(always)]
    pub fn index(self, piece: Piece, sq: Square) -> usize {
        self.index_raw(piece.color() == Color::Black, piece.kind().index(), sq.index())
    }

    /// The king bucket (below [`BUCKETS`]; 0 for the plain set).
    #[inline(always)]
    pub fn bucket(self) -> usize {
        self.offset as usize / BUCKET_INPUTS
    }
}

/// The plain (plane, square) input of compact input `c` of a bucket (the
/// inverse of the compact table), for starting a bucketed network from a
/// plain one.
pub fn plain_of_compact(c: usize) -> usize {
    COMPACT.iter().position(|&x| x as usize == c).expect("a compact index below BUCKET_INPUTS")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn the_bucket_counts_are_the_points_pieces_reach() {
        // Rooks, cannons, horses 90; pawns 55; advisors 5; elephants 7; king 9.
        assert_eq!(BUCKET_INPUTS, 2 * (3 * 90 + 55 + 5 + 7 + 9));
        assert_eq!(FeatureSet::KingBuckets.inputs(), 6228);
        assert_eq!(FeatureSet::Plain.inputs(), 1260);
    }

    #[test]
    fn every_plain_input_is_hit_once_per_view() {
        for view in Color::ALL {
            let frame = FeatureSet::Plain.frame(view, Square::parse("e0").unwrap());
            let mut seen = vec![false; PLAIN_INPUTS];
            for color in Color::ALL {
                for kind in PieceKind::ALL {
                    for sq in Square::all() {
                        let i = frame.index(Piece::new(color, kind), sq);
                        assert!(!seen[i], "input {i} twice");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    /// Every point a piece can stand on, for each king square of the
    /// view's side: the inputs of one king square fill one bucket exactly,
    /// and the nine buckets are told apart.
    #[test]
    fn each_king_square_fills_its_bucket() {
        for view in Color::ALL {
            let mut buckets = std::collections::BTreeMap::new();
            for king in Square::all().filter(|&k| Piece::new(view, PieceKind::King).can_stand_on(k)) {
                let frame = FeatureSet::KingBuckets.frame(view, king);
                let mut seen = vec![false; FeatureSet::KingBuckets.inputs()];
                for color in Color::ALL {
                    for kind in PieceKind::ALL {
                        let p = Piece::new(color, kind);
                        for sq in Square::all().filter(|&sq| p.can_stand_on(sq)) {
                            let i = frame.index(p, sq);
                            assert!(!seen[i], "input {i} twice");
                            seen[i] = true;
                        }
                    }
                }
                let hit: Vec<usize> = (0..seen.len()).filter(|&i| seen[i]).collect();
                assert_eq!(hit.len(), BUCKET_INPUTS);
                let bucket = hit[0] / BUCKET_INPUTS;
                assert_eq!(hit.last().unwrap() / BUCKET_INPUTS, bucket);
                assert!(buckets.insert(bucket, king).is_none(), "{king} shares bucket {bucket}");
            }
            assert_eq!(buckets.len(), BUCKETS);
        }
    }

    #[test]
    fn colour_flip_gives_the_same_input() {
        let set = FeatureSet::KingBuckets;
        let red = set.frame(Color::Red, Square::parse("d0").unwrap());
        let black = set.frame(Color::Black, Square::parse("d9").unwrap());
        let horse = |c| Piece::new(c, PieceKind::Horse);
        let c3 = Square::parse("c3").unwrap();
        assert_eq!(red.index(horse(Color::Red), c3), black.index(horse(Color::Black), c3.flip_rank()));
        // The king on f0 has a bucket of its own.
        let f0 = set.frame(Color::Red, Square::parse("f0").unwrap());
        assert_eq!(f0.index(horse(Color::Red), c3), red.index(horse(Color::Red), c3) + 2 * BUCKET_INPUTS);
        let plain = FeatureSet::Plain.frame(Color::Red, Square::parse("e0").unwrap());
        assert_eq!(plain.index_raw(true, 0, 81), 7 * 90 + 81);
    }

    #[test]
    fn compact_indices_invert() {
        for c in [0, 1, 100, BUCKET_INPUTS - 1] {
            assert_eq!(COMPACT[plain_of_compact(c)] as usize, c);
        }
        let pos = Position::startpos();
        let frame = FeatureSet::KingBuckets.frame(Color::Red, pos.king_square(Color::Red));
        // The e0 king is bucket 1 (rank 0, file e).
        assert_eq!(frame.offset as usize, BUCKET_INPUTS);
    }
}
