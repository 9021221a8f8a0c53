//! The search's tunable constants: the margins, reductions and bonuses that
//! are set by playing games (SPSA, `tools/spsa.py`) rather than derived.
//!
//! In a normal build each is a constant the compiler folds in. Built with
//! `--features tune`, each is also a UCI option `tune_<name>` (a spin over
//! the range given here) that the search reads from an atomic, so that a
//! tuner can give every game its own values.

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable constant, as the `tune` build advertises it.
#[cfg(feature = "tune")]
#[derive(Clone, Copy, Debug)]
pub struct Tunable {
    /// The option name, `tune_<name>`.
    pub name: &'static str,
    /// The value of a normal build.
    pub default: i32,
    /// The smallest value a tuner may try.
    pub min: i32,
    /// The largest value a tuner may try.
    pub max: i32,
}

macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $name:ident = $default:literal in $min:literal..=$max:literal;)*) => {
        #[cfg(feature = "tune")]
        #[allow(non_camel_case_types)]
        enum Id {
            $($name),*
        }

        /// Every tunable constant, in declaration order.
        #[cfg(feature = "tune")]
        pub const TUNABLES: &[Tunable] = &[
            $(Tunable { name: concat!("tune_", stringify!($name)), default: $default, min: $min, max: $max }),*
        ];

        #[cfg(feature = "tune")]
        static VALUES: [AtomicI32; TUNABLES.len()] = [$(AtomicI32::new($default)),*];

        $(
            $(#[doc = $doc])*
            #[inline(always)]
            pub fn $name() -> i32 {
                #[cfg(feature = "tune")]
                {
                    VALUES[Id::$name as usize].load(Ordering::Relaxed)
                }
                #[cfg(not(feature = "tune"))]
                {
                    $default
                }
            }
        )*
    };
}

tunables! {
    /// History bonus per ply of depth.
    hist_bonus_mult = 160 in 60..=360;
    /// Subtracted from the history bonus.
    hist_bonus_base = 100 in 0..=400;
    /// The largest history bonus.
    hist_bonus_max = 1800 in 600..=4000;
    /// Deepest node where reverse futility pruning applies.
    rfp_depth = 8 in 4..=14;
    /// Reverse futility margin per ply.
    rfp_margin = 85 in 30..=170;
    /// Taken off the reverse futility margin when the evaluation improves.
    rfp_improving = 70 in 0..=160;
    /// Null move: how far the static evaluation may lie below beta, per ply.
    nmp_eval_depth = 15 in 0..=40;
    /// Null move: the static evaluation's allowance, less the above.
    nmp_eval_base = 120 in 0..=300;
    /// Null move: one more ply of reduction per this much evaluation above beta.
    nmp_eval_div = 200 in 60..=460;
    /// Late-move pruning: quiet moves allowed at depth d are (base + d²), halved when not improving.
    lmp_base = 3 in 0..=20;
    /// Futility pruning of quiet moves: the margin at reduced depth 0.
    fut_base = 110 in 20..=260;
    /// Futility pruning: the margin per ply of reduced depth.
    fut_mult = 95 in 30..=190;
    /// Quiet moves with history below minus this per ply are pruned.
    hist_prune = 3000 in 1000..=7000;
    /// Quiet moves losing more than this times the reduced depth squared (SEE) are pruned.
    see_quiet = 22 in 5..=60;
    /// Captures losing more than this per ply (SEE) are pruned.
    see_capture = 95 in 30..=230;
    /// A quiet move is reduced one ply less per this much history.
    lmr_hist_div = 6000 in 2000..=14000;
    /// Quiescence futility margin over the captured piece's value.
    qs_futility = 150 in 40..=320;
    /// Half-width of the first aspiration window.
    asp_delta = 14 in 4..=44;
}

/// Sets tunable `index` (of [`TUNABLES`]), clamped to its range.
#[cfg(feature = "tune")]
pub fn set(index: usize, value: i64) {
    if let (Some(t), Some(v)) = (TUNABLES.get(index), VALUES.get(index)) {
        v.store(value.clamp(i64::from(t.min), i64::from(t.max)) as i32, Ordering::Relaxed);
    }
}

#[cfg(all(test, feature = "tune"))]
mod tests {
    use super::*;

    #[test]
    fn options_set_the_values_the_search_reads() {
        assert_eq!(TUNABLES.len(), VALUES.len());
        let i = TUNABLES.iter().position(|t| t.name == "tune_rfp_margin").expect("listed");
        assert_eq!(rfp_margin(), TUNABLES[i].default);
        set(i, 97);
        assert_eq!(rfp_margin(), 97);
        set(i, 100_000);
        assert_eq!(rfp_margin(), TUNABLES[i].max);
        set(i, i64::from(TUNABLES[i].default));
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
        }
    }
}
