//! What the tools' command lines share: value parsers for `clap` that keep a
//! number within its range and say the range when it is not.

use std::ops::RangeInclusive;

/// A parser for a real number within `range` (`--lr 0.001`).
pub fn real(
    range: RangeInclusive<f64>,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        text.parse::<f64>()
            .ok()
            .filter(|x| range.contains(x))
            .ok_or_else(|| format!("expected a number from {} to {}", range.start(), range.end()))
    }
}

/// A parser for a whole number within `range` (`--threads 2`), for the
/// types clap's own ranged parser does not take (`usize`, `u32`).
pub fn whole<T>(
    range: RangeInclusive<u64>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64>,
{
    move |text: &str| {
        text.parse::<u64>()
            .ok()
            .filter(|n| range.contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| format!("expected a whole number from {} to {}", range.start(), range.end()))
    }
}

/// The number of cores, the default thread count of the learning tools.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_checked_against_their_range() {
        assert_eq!(real(0.0..=1.0)("0.5"), Ok(0.5));
        assert_eq!(real(0.0..=1.0)("1.5").unwrap_err(), "expected a number from 0 to 1");
        assert!(real(0.0..=1.0)("x").is_err());
        assert_eq!(whole::<usize>(1..=20)("12"), Ok(12));
        assert_eq!(whole::<u32>(1..=20)("0").unwrap_err(), "expected a whole number from 1 to 20");
        assert!(whole::<u8>(0..=1000)("300").is_err(), "300 does not fit a u8");
        assert!(whole::<u32>(0..=10)("-1").is_err());
    }
}
