//! The tuner's positions, kept as their features only: per position a few
//! bytes of taper and target, the number of its game, and a list of 6-byte
//! entries (two weight indices and a count), so that millions of positions
//! fit in memory.
//!
//! Games are told apart as [`crate::tools::learn`] says.

use std::io::Read;

use crate::eval::Taper;
use crate::eval::features::Features;
use crate::eval::weights::at;
use crate::tools::datagen::format::{Reader, Record};
use crate::tools::learn::Games;
use crate::types::score::MATE_BOUND;

const _: () = assert!(at::COUNT <= u16::MAX as usize, "weight indices fit 16 bits");

/// One feature, packed.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Index of the middlegame value.
    pub mg: u16,
    /// Index of the endgame value.
    pub eg: u16,
    /// Red's count minus Black's.
    pub count: i16,
}

/// What a position contributes to the loss, besides its features.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The game phase (0..=48).
    pub phase: u8,
    /// Bit 0: Red can mate; bit 1: Black can mate; bit 2: Red to move.
    pub flags: u8,
    /// The search score, side to move's view.
    pub score: i16,
    /// The game result, side to move's view (1, 0.5 or 0).
    pub result: f32,
}

impl Sample {
    /// The taper this sample was made with.
    pub fn taper(&self) -> Taper {
        Taper {
            phase: self.phase as i32,
            red_can_mate: self.flags & 1 != 0,
            black_can_mate: self.flags & 2 != 0,
            red_to_move: self.flags & 4 != 0,
        }
    }
}

/// Positions and their features.
#[derive(Default)]
pub struct Dataset {
    /// Every position's sample.
    pub samples: Vec<Sample>,
    /// Every position's game, numbered from 0 in the order read.
    pub games: Vec<u32>,
    /// The games seen so far.
    games_seen: Games,
    /// Where each position's entries start (one more than positions).
    pub starts: Vec<usize>,
    /// All entries, position after position.
    pub entries: Vec<Entry>,
    /// Records read, including those left out.
    pub read: u64,
    /// Records left out: mate scores, dead draws.
    pub skipped: u64,
}

/// The usable records of a batch, decoded: their samples, entries and games.
type Decoded = Vec<(Sample, Vec<Entry>, u32)>;

/// Records decoded per batch of the parallel loader.
const CHUNK: usize = 1 << 16;

impl Dataset {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// True if there is no position.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Games seen (including those whose positions were all left out).
    pub fn game_count(&self) -> u32 {
        self.games_seen.count()
    }

    /// The entries of position `i`.
    #[inline]
    pub fn features(&self, i: usize) -> &[Entry] {
        &self.entries[self.starts[i]..self.starts[i + 1]]
    }

    /// Adds the records of one data file (or several concatenated), until
    /// `limit` records have been read in all, decoding on `threads` threads. Records with
    /// a mate score or a dead-draw position are left out; a record that does
    /// not decode is an error.
    pub fn load(&mut self, input: impl Read, limit: u64, threads: usize) -> Result<(), String> {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let mut reader = Reader::new(input);
        self.games_seen.new_file();
        loop {
            let mut chunk = Vec::with_capacity(CHUNK);
            while chunk.len() < CHUNK && self.read + (chunk.len() as u64) < limit {
                match reader.next_record().map_err(|e| e.to_string())? {
                    Some(r) => {
                        let game = self.games_seen.of(&r);
                        chunk.push((r, game));
                    }
                    None => break,
                }
            }
            if chunk.is_empty() {
                break;
            }
            self.read += chunk.len() as u64;
            let parts: Vec<Result<Decoded, String>> = std::thread::scope(|s| {
                let handles: Vec<_> = chunk
                    .chunks(chunk.len().div_ceil(threads.max(1)))
                    .map(|part| s.spawn(|| decode(part)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|_| Err("a loader thread failed".into())))
                    .collect()
            });
            for part in parts {
                for (sample, entries, game) in part? {
                    self.samples.push(sample);
                    self.games.push(game);
                    self.entries.extend(entries);
                    self.starts.push(self.entries.len());
                }
            }
            self.skipped = self.read - self.len() as u64;
            if chunk.len() < CHUNK {
                break;
            }
        }
        if reader.partial_tail() > 0 {
            eprintln!("tune: an incomplete last record ({} bytes) ignored", reader.partial_tail());
        }
        Ok(())
    }
}

/// The samples, entries and games of the usable records among `records`.
fn decode(records: &[(Record, u32)]) -> Result<Decoded, String> {
    let mut out = Vec::with_capacity(records.len());
    for &(ref r, game) in records {
        if r.score.unsigned_abs() as i32 >= MATE_BOUND {
            continue;
        }
        let pos = r.position().map_err(|e| format!("a record with an impossible position: {e}"))?;
        let Some((features, taper)) = Features::of(&pos) else { continue };
        let entries = features
            .list
            .iter()
            .map(|f| {
                let count =
                    i16::try_from(f.count).map_err(|_| "a feature count beyond 16 bits".to_string())?;
                Ok(Entry { mg: f.mg as u16, eg: f.eg as u16, count })
            })
            .collect::<Result<Vec<Entry>, String>>()?;
        let flags =
            taper.red_can_mate as u8 | (taper.black_can_mate as u8) << 1 | (taper.red_to_move as u8) << 2;
        let sample = Sample {
            phase: taper.phase as u8,
            flags,
            score: r.score,
            result: r.result_for_side_to_move() as f32,
        };
        out.push((sample, entries, game));
    }
    Ok(out)
}
