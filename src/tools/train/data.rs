//! The trainer's positions, kept as the network's active inputs: per piece
//! its input seen by the side to move and by the other side (4 bytes), per
//! position where its inputs start, its score, its result and its game
//! (11 bytes): 75 bytes a position on average in self-play data (16
//! pieces), so that millions fit in memory. No [`crate::board::Position`]
//! is built.

use std::io::Read;

use crate::eval::nnue::features::FeatureSet;
use crate::tools::datagen::format::{Reader, Record};
use crate::tools::learn::Games;
use crate::types::score::MATE_BOUND;
use crate::types::{Color, Piece, PieceKind, Square};

/// Bytes a position takes besides its inputs.
pub const BYTES_PER_POSITION: usize = 4 + 2 + 1 + 4;
/// Bytes an active piece takes.
pub const BYTES_PER_PIECE: usize = 4;

/// Positions as the network sees them.
pub struct Dataset {
    /// The inputs the positions are read as.
    pub features: FeatureSet,
    /// Where each position's inputs start in `inputs` (one more than positions).
    starts: Vec<u32>,
    /// Per piece, its input seen by the side to move, then by the other side.
    inputs: Vec<[u16; 2]>,
    /// Every position's search score, side to move's view.
    pub scores: Vec<i16>,
    /// Every position's game result, side to move's view, in halves (2 win, 1 draw, 0 loss).
    pub results: Vec<u8>,
    /// Every position's game, numbered from 0 in the order read.
    pub games: Vec<u32>,
    /// The games seen so far.
    games_seen: Games,
    /// Records read, including those left out.
    pub read: u64,
    /// Records left out: mate scores.
    pub skipped: u64,
    /// Records left out: boards no game reaches (a piece where it can never
    /// stand, not one king a side), which only a damaged file holds.
    pub impossible: u64,
    /// Each record also becomes its left-right mirror (a second position of the same game).
    pub mirror: bool,
}

impl Dataset {
    /// An empty dataset whose positions will be read as `features`.
    pub fn new(features: FeatureSet) -> Dataset {
        Dataset {
            features,
            starts: Vec::new(),
            inputs: Vec::new(),
            scores: Vec::new(),
            results: Vec::new(),
            games: Vec::new(),
            games_seen: Games::default(),
            read: 0,
            skipped: 0,
            impossible: 0,
            mirror: false,
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// True if there is no position.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Games seen (including those whose positions were all left out).
    pub fn game_count(&self) -> u32 {
        self.games_seen.count()
    }

    /// The active inputs of position `i`: per piece, its input seen by the
    /// side to move and by the other side.
    #[inline]
    pub fn inputs(&self, i: usize) -> &[[u16; 2]] {
        &self.inputs[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Bytes the positions take in memory.
    pub fn bytes(&self) -> usize {
        self.len() * BYTES_PER_POSITION + self.inputs.len() * BYTES_PER_PIECE
    }

    /// Adds the records of one data file (or several concatenated) until
    /// `limit` records have been read in all. Records with a mate score are
    /// left out; a record that does not decode is an error.
    pub fn load(&mut self, input: impl Read, limit: u64) -> Result<(), String> {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let mut reader = Reader::new(input);
        self.games_seen.new_file();
        while self.read < limit {
            let Some(r) = reader.next_record().map_err(|e| e.to_string())? else { break };
            self.read += 1;
            let game = self.games_seen.of(&r);
            if r.score.unsigned_abs() as i32 >= MATE_BOUND {
                self.skipped += 1;
                continue;
            }
            if !possible(&r) {
                self.impossible += 1;
                continue;
            }
            self.push(&r, game);
        }
        if reader.partial_tail() > 0 {
            eprintln!("train: an incomplete last record ({} bytes) ignored", reader.partial_tail());
        }
        Ok(())
    }

    /// Adds the position of `r`, from game `game`.
    fn push(&mut self, r: &Record, game: u32) {
        for mirrored in [false, true].into_iter().take(1 + self.mirror as usize) {
            let black = r.side == Color::Black;
            let flip = |sq: usize| if mirrored { sq - sq % 9 + 8 - sq % 9 } else { sq };
            let king = |black: bool| {
                let king = Piece::new(if black { Color::Black } else { Color::Red }, PieceKind::King);
                r.board.iter().position(|&p| p == Some(king)).map_or(0, flip)
            };
            let us = self.features.frame_raw(black, king(black));
            let them = self.features.frame_raw(!black, king(!black));
            for (sq, piece) in r.board.iter().enumerate() {
                if let Some(p) = piece {
                    let (piece_black, kind) = (p.color() == Color::Black, p.kind().index());
                    let sq = flip(sq);
                    let pair = [us, them].map(|f| f.index_raw(piece_black, kind, sq) as u16);
                    self.inputs.push(pair);
                }
            }
            self.starts.push(self.inputs.len() as u32);
            self.scores.push(r.score);
            self.results.push((2.0 * r.result_for_side_to_move()) as u8);
            self.games.push(game);
        }
    }
}

/// True if every piece of `r` stands where it can and each side has one king.
fn possible(r: &Record) -> bool {
    let on_board = r.board.iter().enumerate().filter_map(|(sq, p)| p.map(|p| (sq, p)));
    let mut kings = [0; 2];
    for (sq, p) in on_board {
        if !p.can_stand_on(Square::new(sq as u8)) {
            return false;
        }
        if p.kind() == PieceKind::King {
            kings[p.color().index()] += 1;
        }
    }
    kings == [1, 1]
}

/// Both views' inputs of `pos` (side to move first), a pair per piece in
/// the order of the occupied squares: what a record of `pos` becomes.
#[cfg(test)]
pub(super) fn position_inputs(features: FeatureSet, pos: &crate::board::Position) -> Vec<[u16; 2]> {
    let frames = [pos.side_to_move(), !pos.side_to_move()].map(|v| features.frame(v, pos.king_square(v)));
    pos.occupied().map(|sq| frames.map(|f| f.index(pos.piece_on(sq).expect("occupied"), sq) as u16)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::rules::Outcome;
    use crate::tools::datagen::format::{End, header};

    #[test]
    fn records_become_the_inputs_of_both_views() {
        let mut pos = Position::startpos();
        pos.do_move(pos.parse_legal_move("h2e2").unwrap());
        let best = pos.parse_legal_move("h9g7").unwrap();
        let mut file = header().to_vec();
        file.extend(Record::new(&pos, -25, best, Outcome::RedWins, End::Checkmate).to_bytes());
        file.extend(Record::new(&pos, -MATE_BOUND, best, Outcome::RedWins, End::Checkmate).to_bytes());
        // A damaged record: a Red advisor on a0, where none can stand.
        let mut bad = Record::new(&pos, 10, best, Outcome::RedWins, End::Checkmate);
        bad.board[0] = Some(Piece::new(Color::Red, PieceKind::Advisor));
        file.extend(bad.to_bytes());
        for features in FeatureSet::ALL {
            let mut data = Dataset::new(features);
            data.load(&file[..], u64::MAX).unwrap();
            assert_eq!((data.len(), data.read, data.skipped, data.impossible), (1, 3, 1, 1));
            assert_eq!((data.scores[0], data.results[0], data.games[0]), (-25, 0, 0));
            let mut got = data.inputs(0).to_vec();
            got.sort();
            assert_eq!(got, inputs_of(features, &pos));
            assert_eq!(data.bytes(), 11 + 32 * 4);
        }
    }

    /// Both views' inputs of `pos`, side to move first, sorted.
    fn inputs_of(features: FeatureSet, pos: &Position) -> Vec<[u16; 2]> {
        let mut v = position_inputs(features, pos);
        v.sort();
        v
    }

    #[test]
    fn mirror_adds_the_left_right_mirrored_position() {
        // Black's king on f9, mirrored to d9: another bucket.
        let fen = "2ba1k3/4a4/4b1n2/p1p3p1p/4c4/6P2/P1P1r3P/2N1C1N2/4A4/2BAK1B2 w";
        let pos = Position::from_fen(fen).unwrap();
        let placement: Vec<String> =
            fen.split(' ').next().unwrap().split('/').map(|row| row.chars().rev().collect()).collect();
        let mirrored = Position::from_fen(&format!("{} w", placement.join("/"))).unwrap();
        let best = pos.parse_legal_move("g2f4").unwrap();
        let mut file = header().to_vec();
        file.extend(Record::new(&pos, 40, best, Outcome::Draw, End::Repetition).to_bytes());
        for features in FeatureSet::ALL {
            let mut data = Dataset { mirror: true, ..Dataset::new(features) };
            data.load(&file[..], u64::MAX).unwrap();
            assert_eq!((data.len(), data.read), (2, 1));
            assert_eq!(data.games, [0, 0]);
            assert_eq!((data.scores[1], data.results[1]), (40, 1));
            let sorted = |i: usize| {
                let mut v = data.inputs(i).to_vec();
                v.sort();
                v
            };
            assert_eq!(sorted(0), inputs_of(features, &pos));
            assert_eq!(sorted(1), inputs_of(features, &mirrored));
            assert_ne!(sorted(0), sorted(1));
        }
    }
}
