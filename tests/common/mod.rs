//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod json;

use std::path::{Path, PathBuf};

pub mod engine;

/// Writes to `path` the positions of `games` short self-play games (300
/// nodes a move, seed `seed`): a few hundred positions for `games` = 4.
pub fn self_play_data(path: &Path, games: u64, seed: u64) {
    let o = chariot::tools::datagen::Options {
        out: path.to_path_buf(),
        games,
        nodes: Some(300),
        depth: None,
        threads: 2,
        seed,
        first_game: 0,
        book: None,
        random_plies: None,
        games_out: None,
        net: None,
    };
    chariot::tools::datagen::run(chariot::tools::datagen::Command::Generate(o)).unwrap();
}

/// One line of a perft file: a FEN and its (depth, count) pairs.
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Directory of the perft data files.
pub fn perft_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("perft-data")
}

/// Reads every `perft-data/*.epd` file (`FEN;D1 n;D2 n;...`).
pub fn perft_cases() -> Vec<PerftCase> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(perft_dir())
        .expect("perft-data/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "epd"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .epd files in perft-data/");
    let mut cases = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap().trim().to_string();
            let counts = fields
                .map(|f| {
                    let (d, n) = f.trim().split_once(' ').expect("'Dn count' field");
                    (d.trim_start_matches('D').parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            cases.push(PerftCase { fen, counts });
        }
    }
    cases
}

/// xorshift-style generator for reproducible random tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
