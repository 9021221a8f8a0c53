//! The tuned weights of [`params`](super::params) as one vector: where each
//! constant starts in it ([`at`]), its values in file order ([`values`]) and
//! the list of constants a tuner rewrites ([`TUNED`]). A [`Weight`] is one
//! value as the evaluation uses it, with its place in that vector, so that
//! the same evaluation code can sum values or count features.

use super::S;
use super::params::*;

/// A type made of `i32` values: a number, an [`S`] pair, or an array of them.
pub trait Scalars {
    /// Number of `i32` values.
    const LEN: usize;
    /// How the values are laid out (for writing them back as Rust).
    const SHAPE: Shape;
    /// Appends the values in the order they are written in the source.
    fn flatten(&self, out: &mut Vec<i32>);
}

/// The layout of a tuned constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One `i32`.
    Int,
    /// An [`S`] pair.
    Pair,
    /// An array of `n` numbers.
    Row(usize),
    /// An array of `n` [`S`] pairs.
    Pairs(usize),
    /// `rows` arrays of `cols` numbers.
    Table {
        /// Number of rows.
        rows: usize,
        /// Numbers per row.
        cols: usize,
    },
}

impl Scalars for i32 {
    const LEN: usize = 1;
    const SHAPE: Shape = Shape::Int;
    fn flatten(&self, out: &mut Vec<i32>) {
        out.push(*self);
    }
}

impl Scalars for S {
    const LEN: usize = 2;
    const SHAPE: Shape = Shape::Pair;
    fn flatten(&self, out: &mut Vec<i32>) {
        out.extend([self.0, self.1]);
    }
}

impl<T: Scalars, const N: usize> Scalars for [T; N] {
    const LEN: usize = N * T::LEN;
    const SHAPE: Shape = match T::SHAPE {
        Shape::Int => Shape::Row(N),
        Shape::Pair => Shape::Pairs(N),
        Shape::Row(cols) => Shape::Table { rows: N, cols },
        _ => panic!("no layout for arrays of arrays of pairs or of tables"),
    };
    fn flatten(&self, out: &mut Vec<i32>) {
        for x in self {
            x.flatten(out);
        }
    }
}

const fn len_of<T: Scalars>(_: &T) -> usize {
    T::LEN
}

const fn shape_of<T: Scalars>(_: &T) -> Shape {
    T::SHAPE
}

/// One tuned constant of `params.rs`.
#[derive(Clone, Copy, Debug)]
pub struct Item {
    /// Its name in `params.rs`.
    pub name: &'static str,
    /// Where its values start in the parameter vector.
    pub start: usize,
    /// How many values it has.
    pub len: usize,
    /// Their layout.
    pub shape: Shape,
}

impl Item {
    /// True for a square table: `[[i32; 9]; 10]`, one row per rank and one
    /// column per file, as the board is drawn (the evaluation's
    /// `SQUARE_TABLES`; a test checks that these are exactly the tables
    /// indexed by file).
    pub const fn is_square_table(&self) -> bool {
        matches!(self.shape, Shape::Table { rows: 10, cols: 9 })
    }
}

/// For every weight, the index of its left-right mirror: in a square table
/// the entry of the same rank and the mirrored file (a↔i, b↔h, c↔g, d↔f);
/// itself on the e file and for every weight not indexed by file. The board
/// is symmetric under this mirroring, so a weight and its mirror have the
/// same true value.
pub fn mirrors() -> Vec<usize> {
    let mut out: Vec<usize> = (0..at::COUNT).collect();
    for item in TUNED.iter().filter(|item| item.is_square_table()) {
        for i in 0..item.len {
            let (rank, file) = (i / 9, i % 9);
            out[item.start + i] = item.start + rank * 9 + (8 - file);
        }
    }
    out
}

macro_rules! offsets {
    ($start:expr;) => {
        /// Number of tuned values.
        pub const COUNT: usize = $start;
    };
    ($start:expr; $name:ident $(, $rest:ident)*) => {
        #[doc = concat!("Start of `", stringify!($name), "`.")]
        pub const $name: usize = $start;
        offsets!($start + super::len_of(&super::$name); $($rest),*);
    };
}

macro_rules! tuned {
    ($($name:ident),* $(,)?) => {
        /// Where each tuned constant starts in the parameter vector.
        pub mod at {
            offsets!(0; $($name),*);
        }

        /// Every tuned constant, in parameter-vector order.
        pub const TUNED: &[Item] = &[$(Item {
            name: stringify!($name),
            start: at::$name,
            len: len_of(&$name),
            shape: shape_of(&$name),
        }),*];

        /// The current value of every tuned weight, in parameter-vector order.
        pub fn values() -> Vec<i32> {
            let mut out = Vec::with_capacity(at::COUNT);
            $($name.flatten(&mut out);)*
            out
        }
    };
}

tuned!(
    MATERIAL,
    TEMPO,
    ROOK_PST_MG,
    ROOK_PST_EG,
    HORSE_PST_MG,
    HORSE_PST_EG,
    CANNON_PST_MG,
    CANNON_PST_EG,
    PAWN_PST_MG,
    PAWN_PST_EG,
    ADVISOR_PST_MG,
    ADVISOR_PST_EG,
    ELEPHANT_PST_MG,
    ELEPHANT_PST_EG,
    KING_PST_MG,
    KING_PST_EG,
    ROOK_MOBILITY,
    HORSE_MOBILITY,
    CANNON_MOBILITY,
    HORSE_TRAPPED,
    ROOK_OPEN_FILE,
    ROOK_HALF_OPEN_FILE,
    CANNON_AIMED,
    CANNON_EMPTY_HEAD,
    CANNON_BEHIND_TWO,
    KING_DANGER_MG,
    KING_DANGER_EG,
    DEFENDER_PAIR,
);

/// One weight as the evaluation adds it: its (middlegame, endgame) value
/// and where those two values sit in the parameter vector.
#[derive(Clone, Copy, Debug)]
pub struct Weight {
    /// The value.
    pub value: S,
    /// Index of the middlegame value.
    pub mg: usize,
    /// Index of the endgame value.
    pub eg: usize,
}

impl Weight {
    /// An [`S`] constant whose pair starts at index `at`.
    #[inline(always)]
    pub const fn pair(value: S, at: usize) -> Weight {
        Weight { value, mg: at, eg: at + 1 }
    }

    /// Entry `i` of a middlegame table at `mg_at` and of an endgame table at `eg_at`.
    #[inline(always)]
    pub const fn split(mg: i32, mg_at: usize, eg: i32, eg_at: usize, i: usize) -> Weight {
        Weight { value: S(mg, eg), mg: mg_at + i, eg: eg_at + i }
    }
}
