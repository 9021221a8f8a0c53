//! The evaluation as a sum of weight × feature count. The evaluation code is
//! written once, generic over an [`Accumulator`]: with [`S`] it adds the
//! values (what the search uses); with [`Features`] it records, for every
//! weight it touches, how often (Red's count minus Black's) and whether in
//! the middlegame or the endgame sum. [`Features::evaluate`] turns such a
//! record back into the evaluation for any weight vector, exactly; it is also
//! the gradient a tuner needs.

use std::ops::{Add, Sub};

use super::weights::{Weight, at};
use super::{S, Taper};
use crate::board::Position;

/// What the evaluation adds its weights to.
pub trait Accumulator: Default + Add<Output = Self> + Sub<Output = Self> {
    /// Adds `n` times the weight `w`.
    fn term(&mut self, w: Weight, n: i32);
}

impl Accumulator for S {
    #[inline(always)]
    fn term(&mut self, w: Weight, n: i32) {
        *self += w.value * n;
    }
}

/// Marks an endgame entry in a [`Feature`]'s index.
pub const ENDGAME: u32 = 1 << 31;

/// One feature of a position: the index of a weight in the parameter vector
/// (with [`ENDGAME`] set for the endgame sum) and its count, Red's minus
/// Black's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Feature {
    /// Weight index, with [`ENDGAME`] set for the endgame sum.
    pub index: u32,
    /// How often the weight counts.
    pub count: i32,
}

impl Feature {
    /// The weight's index in the parameter vector.
    pub fn weight(self) -> usize {
        (self.index & !ENDGAME) as usize
    }

    /// True if the weight counts in the endgame sum.
    pub fn is_endgame(self) -> bool {
        self.index & ENDGAME != 0
    }
}

/// The features of one position, Red's counts minus Black's (once complete,
/// sorted by index, each index once, no zero counts).
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct Features {
    /// The features.
    pub list: Vec<Feature>,
}

impl Add for Features {
    type Output = Features;
    fn add(mut self, o: Features) -> Features {
        self.list.extend(o.list);
        self
    }
}

impl Sub for Features {
    type Output = Features;
    fn sub(mut self, o: Features) -> Features {
        self.list.extend(o.list.into_iter().map(|f| Feature { index: f.index, count: -f.count }));
        self
    }
}

impl Accumulator for Features {
    fn term(&mut self, w: Weight, n: i32) {
        if n != 0 {
            self.list.push(Feature { index: w.mg as u32, count: n });
            self.list.push(Feature { index: w.eg as u32 | ENDGAME, count: n });
        }
    }
}

impl Features {
    /// The features of `pos` and how its sums are tapered; `None` for a dead
    /// draw (evaluated as 0 whatever the weights).
    pub fn of(pos: &Position) -> Option<(Features, Taper)> {
        let taper = Taper::of(pos)?;
        let mut f: Features = super::sum(pos);
        f.list.sort_unstable_by_key(|f| f.index);
        let mut merged: Vec<Feature> = Vec::with_capacity(f.list.len());
        for x in f.list {
            match merged.last_mut() {
                Some(last) if last.index == x.index => last.count += x.count,
                _ => merged.push(x),
            }
        }
        merged.retain(|f| f.count != 0);
        Some((Features { list: merged }, taper))
    }

    /// The (middlegame, endgame) sums for the weights `w` (indexed as
    /// [`values`](super::weights::values)).
    pub fn sums(&self, w: &[i32]) -> S {
        let mut s = S(0, 0);
        for f in &self.list {
            let v = w[f.weight()] * f.count;
            if f.is_endgame() {
                s.1 += v;
            } else {
                s.0 += v;
            }
        }
        s
    }

    /// The evaluation (side to move's view) with the weights `w`: equal to
    /// [`evaluate`](super::evaluate) when `w` holds the weights of `params.rs`.
    pub fn evaluate(&self, taper: Taper, w: &[i32]) -> i32 {
        debug_assert_eq!(w.len(), at::COUNT);
        taper.apply(self.sums(w))
    }
}
