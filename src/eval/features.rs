//! The evaluation as a sum of weight × feature count. The evaluation code is
//! written once, generic over an [`Accumulator`]: with [`S`] it adds the
//! values (what the search uses); with [`Features`] it records, for every
//! weight it touches, how often (Red's count minus Black's). [`Features::evaluate`] turns such a
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

/// One feature of a position: a weight (the indices of its middlegame and endgame values
/// in the parameter vector) and how often it counts, Red's count
/// minus Black's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Feature {
    /// Index of the weight's middlegame value.
    pub mg: usize,
    /// Index of the weight's endgame value.
    pub eg: usize,
    /// How often the weight counts.
    pub count: i32,
}

/// The features of one position, Red's counts minus Black's (once complete,
/// sorted, each weight once, no zero counts).
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
        self.list.extend(o.list.into_iter().map(|f| Feature { count: -f.count, ..f }));
        self
    }
}

impl Accumulator for Features {
    fn term(&mut self, w: Weight, n: i32) {
        if n != 0 {
            self.list.push(Feature { mg: w.mg, eg: w.eg, count: n });
        }
    }
}

impl Features {
    /// The features of `pos` and how its sums are tapered; `None` for a dead
    /// draw (evaluated as 0 whatever the weights).
    pub fn of(pos: &Position) -> Option<(Features, Taper)> {
        let taper = Taper::of(pos)?;
        let mut f: Features = super::sum(pos);
        f.list.sort_unstable_by_key(|f| (f.mg, f.eg));
        let mut merged: Vec<Feature> = Vec::with_capacity(f.list.len());
        for x in f.list {
            match merged.last_mut() {
                Some(last) if (last.mg, last.eg) == (x.mg, x.eg) => last.count += x.count,
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
            s += S(w[f.mg], w[f.eg]) * f.count;
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
