//! What the evaluation tuner and the network trainer share: telling the
//! games of a data file apart, choosing the games held out, and reading
//! their command lines.
//!
//! Records carry no game number, but a game's records are consecutive and
//! their ply increases: a record starts a new game when it is the first of
//! a file, when its ply is not above the previous record's, or when its
//! result or its kind of end differs from the previous record's (both are
//! the same for every record of a game). Two games can only be taken for
//! one when a game's first recorded ply exceeds the previous game's last and
//! both ended alike.

use std::path::PathBuf;

use crate::board::zobrist::SplitMix64;
use crate::rules::Outcome;
use crate::tools::datagen::format::{End, Record};

/// Numbers the games of a sequence of records, from 0 in the order read.
#[derive(Clone, Debug, Default)]
pub struct Games {
    /// Ply, result and end of the last record, while in a file.
    last: Option<(u16, Outcome, End)>,
    /// Games seen so far.
    count: u32,
}

impl Games {
    /// The next record starts a new game (a new file begins).
    pub fn new_file(&mut self) {
        self.last = None;
    }

    /// The game of `r`, the record read after the previous one.
    pub fn of(&mut self, r: &Record) -> u32 {
        let same = match self.last {
            Some((ply, result, end)) => r.ply > ply && r.result == result && r.end == end,
            None => false,
        };
        if !same {
            self.count += 1;
        }
        self.last = Some((r.ply, r.result, r.end));
        self.count - 1
    }

    /// Games seen so far (including those whose positions were all left out).
    pub fn count(&self) -> u32 {
        self.count
    }
}

/// True if the positions of game `game` (numbered in the order read) are
/// held out: a `fraction` of the games, chosen by a hash of the number,
/// whatever the seed of the run. Whole games, because the positions of one
/// game are much alike.
pub fn is_holdout(game: u32, fraction: f64) -> bool {
    let h = SplitMix64(game as u64 ^ 0x401D).next_u64();
    ((h >> 11) as f64) < fraction * (1u64 << 53) as f64
}

/// A command line split into its parts: data files (the words not starting
/// with `--`), switches (options without a value) and options with their value.
#[derive(Debug, Default)]
pub struct CommandLine<'a> {
    /// The data files, in order.
    pub data: Vec<PathBuf>,
    /// The switches given.
    pub switches: Vec<&'a str>,
    /// Every other option and the word after it, in order.
    pub options: Vec<(&'a str, &'a str)>,
}

impl<'a> CommandLine<'a> {
    /// Splits `args`: `switches` take no value, every other option takes the
    /// next word (an error naming the option and `usage` if there is none).
    pub fn split(args: &'a [String], switches: &[&str], usage: &str) -> Result<CommandLine<'a>, String> {
        let mut line = CommandLine::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let flag = arg.as_str();
            if !flag.starts_with("--") {
                line.data.push(PathBuf::from(flag));
            } else if switches.contains(&flag) {
                line.switches.push(flag);
            } else {
                let value = it.next().ok_or_else(|| format!("{flag} needs a value\nusage: {usage}"))?;
                line.options.push((flag, value));
            }
        }
        Ok(line)
    }

    /// The output path (`out`, from `--out`) and the data files of command
    /// `command`; an error if either is missing (`what` names the output).
    pub fn out_and_data(
        self,
        command: &str,
        out: Option<PathBuf>,
        what: &str,
        usage: &str,
    ) -> Result<(PathBuf, Vec<PathBuf>), String> {
        let out = out.ok_or_else(|| format!("{command} needs --out {what}\nusage: {usage}"))?;
        if self.data.is_empty() {
            return Err(format!("{command} needs at least one data file\nusage: {usage}"));
        }
        Ok((out, self.data))
    }
}

/// Parses the integer `text` given to option `flag`, within `min..=max`.
pub fn int(flag: &str, text: &str, min: u64, max: u64) -> Result<u64, String> {
    text.parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| format!("bad value '{text}' for {flag} (expected {min}..={max})"))
}

/// Parses the number `text` given to option `flag`, within `min..=max`.
pub fn real(flag: &str, text: &str, min: f64, max: f64) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|x| (min..=max).contains(x))
        .ok_or_else(|| format!("bad value '{text}' for {flag} (expected a number in {min}..={max})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fraction_of_games_held_out_is_the_one_asked() {
        for (fraction, lo, hi) in [(0.1, 9_500, 10_500), (0.05, 4_600, 5_400), (0.0, 0, 0)] {
            let held = (0..100_000).filter(|&g| is_holdout(g, fraction)).count();
            assert!((lo..=hi).contains(&held), "{fraction}: {held}");
        }
        let runs = (0..100_000).filter(|&g| is_holdout(g, 0.1) && is_holdout(g + 1, 0.1)).count();
        assert!((700..=1_300).contains(&runs), "neighbours are independent ({runs})");
        assert!((0..1000).all(|g| is_holdout(g, 1.0)));
    }

    #[test]
    fn a_command_line_splits_into_data_switches_and_options() {
        let args: Vec<String> =
            ["a.bin", "--out", "x", "--mirror", "b.bin", "--lr", "0.1"].map(String::from).into();
        let line = CommandLine::split(&args, &["--mirror"], "u").unwrap();
        assert_eq!(line.data, [PathBuf::from("a.bin"), PathBuf::from("b.bin")]);
        assert_eq!(
            (line.switches.as_slice(), line.options.as_slice()),
            (&["--mirror"][..], &[("--out", "x"), ("--lr", "0.1")][..])
        );
        let (out, data) = line.out_and_data("t", Some(PathBuf::from("x")), "F", "u").unwrap();
        assert_eq!((out, data.len()), (PathBuf::from("x"), 2));
        let short: Vec<String> = ["--lr"].map(String::from).into();
        assert_eq!(CommandLine::split(&short, &[], "u").unwrap_err(), "--lr needs a value\nusage: u");
        let none = CommandLine::split(&[], &[], "u").unwrap();
        assert!(none.out_and_data("t", None, "F", "u").unwrap_err().starts_with("t needs --out F"));
    }

    #[test]
    fn options_are_checked_against_their_range() {
        assert_eq!(int("--n", "12", 1, 20), Ok(12));
        assert!(int("--n", "0", 1, 20).unwrap_err().contains("1..=20"));
        assert!(int("--n", "x", 1, 20).is_err());
        assert_eq!(real("--x", "0.5", 0.0, 1.0), Ok(0.5));
        assert!(real("--x", "1.5", 0.0, 1.0).is_err());
    }
}
