//! The training-data file: a 40-byte header, then one 40-byte record per
//! position, every number little-endian.
//!
//! Header (40 bytes):
//!
//! | bytes  | content |
//! |--------|---------|
//! | 0..16  | the magic `chariot datagen` followed by a zero byte |
//! | 16..18 | format version, u16 (1) |
//! | 18..20 | record size, u16 (40) |
//! | 20..40 | zero |
//!
//! Record (40 bytes):
//!
//! | bytes  | content |
//! |--------|---------|
//! | 0..12  | occupancy: bit `i` set if square `i` holds a piece (squares numbered `a0` = 0, `i0` = 8, `a1` = 9, …, `i9` = 89; bits 90–95 zero) |
//! | 12..28 | the pieces of the occupied squares in increasing square order, one 4-bit code each, low nibble first: kind (0 rook, 1 advisor, 2 cannon, 3 pawn, 4 horse, 5 elephant, 6 king) plus 8 for Black; unused nibbles zero |
//! | 28..30 | search score, i16, centipawns from the side to move's view (mates: ±(32000 − plies to mate)) |
//! | 30..32 | best move, u16: `from * 128 + to` (square numbers as above) |
//! | 32..34 | ply of the position in its game, u16: `2 * (full-move number − 1)`, plus 1 with Black to move |
//! | 34     | side to move: 0 Red, 1 Black |
//! | 35     | plies since the last capture (the 60-round counter) |
//! | 36     | game result for Red: 0 loss, 1 draw, 2 win |
//! | 37     | how the game ended ([`End`]) |
//! | 38..40 | zero |
//!
//! Byte 11 of a record is at most 3 (bits 88–95 of the occupancy), while byte
//! 11 of the header is `a`: a reader tells them apart, so that files
//! concatenated whole (`cat a b > c`) form one valid file. A file cut short
//! (a generator killed mid-write) loses only its incomplete last record.

use std::fmt;
use std::io::{self, Read};

use crate::board::{FenError, Position};
use crate::rules::{Outcome, Rule};
use crate::types::{Color, Move, Piece, PieceKind, Square};

/// Size of the header and of every record, in bytes.
pub const RECORD_SIZE: usize = 40;
/// Format version written in the header.
pub const VERSION: u16 = 1;
/// The first 16 bytes of the header.
pub const MAGIC: [u8; 16] = *b"chariot datagen\0";

const NOT_DATAGEN: &str = "not a chariot datagen file (no header)";

/// The file header.
pub fn header() -> [u8; RECORD_SIZE] {
    let mut h = [0u8; RECORD_SIZE];
    h[..16].copy_from_slice(&MAGIC);
    h[16..18].copy_from_slice(&VERSION.to_le_bytes());
    h[18..20].copy_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
    h
}

/// Checks a header; the error says what is wrong.
pub fn check_header(h: &[u8; RECORD_SIZE]) -> Result<(), String> {
    if h[..16] != MAGIC {
        return Err(NOT_DATAGEN.into());
    }
    let version = u16::from_le_bytes([h[16], h[17]]);
    let size = u16::from_le_bytes([h[18], h[19]]);
    if version != VERSION || size as usize != RECORD_SIZE {
        return Err(format!(
            "datagen format version {version} with {size}-byte records; this build reads version {VERSION} with {RECORD_SIZE}-byte records"
        ));
    }
    Ok(())
}

/// How a game ended (byte 37 of a record).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum End {
    /// The side to move was mated.
    Checkmate = 0,
    /// The side to move had no legal move, not in check (a loss in xiangqi).
    Stalemate = 1,
    /// A repetition in which one side checked on every move: it lost.
    PerpetualCheck = 2,
    /// A repetition in which one side chased on every move (under the
    /// Chinese rules: played any forbidden pattern): it lost.
    PerpetualChase = 3,
    /// A repetition in which both sides checked, or both chased (both
    /// played forbidden patterns): draw.
    MutualPerpetual = 4,
    /// A repetition without a perpetual check or chase: draw.
    Repetition = 5,
    /// The 60-round (120-ply) no-capture limit: draw.
    MoveLimit = 6,
    /// Neither side has a piece that can mate: draw.
    DeadDraw = 7,
    /// The search scores agreed for several plies that one side wins.
    Adjudicated = 8,
}

impl End {
    /// Every kind of end, in code order.
    pub const ALL: [End; 9] = [
        End::Checkmate,
        End::Stalemate,
        End::PerpetualCheck,
        End::PerpetualChase,
        End::MutualPerpetual,
        End::Repetition,
        End::MoveLimit,
        End::DeadDraw,
        End::Adjudicated,
    ];

    /// The end a rule arbiter's ruling describes (`None` while the game goes on).
    pub fn of_rule(rule: &Rule) -> Option<End> {
        Some(match rule {
            Rule::Checkmate { .. } => End::Checkmate,
            Rule::Stalemate { .. } => End::Stalemate,
            Rule::PerpetualCheck { .. } => End::PerpetualCheck,
            Rule::PerpetualChase { .. } | Rule::Forbidden { .. } => End::PerpetualChase,
            Rule::MutualPerpetualCheck | Rule::MutualPerpetualChase | Rule::MutualForbidden => {
                End::MutualPerpetual
            }
            Rule::Repetition | Rule::BothAllowed => End::Repetition,
            Rule::MoveLimit { .. } => End::MoveLimit,
            Rule::Ongoing { .. } => return None,
        })
    }

    /// A short name for progress lines.
    pub const fn name(self) -> &'static str {
        match self {
            End::Checkmate => "mate",
            End::Stalemate => "stalemate",
            End::PerpetualCheck => "perpetual-check",
            End::PerpetualChase => "perpetual-chase",
            End::MutualPerpetual => "mutual-perpetual",
            End::Repetition => "repetition",
            End::MoveLimit => "60-round",
            End::DeadDraw => "dead-draw",
            End::Adjudicated => "adjudicated",
        }
    }
}

/// One training position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Record {
    /// The pieces, indexed by square.
    pub board: [Option<Piece>; 90],
    /// The side to move.
    pub side: Color,
    /// Plies since the last capture.
    pub rule60: u8,
    /// Ply of the position in its game.
    pub ply: u16,
    /// Search score from the side to move's view.
    pub score: i16,
    /// The search's best move.
    pub best: Move,
    /// How the game ended for Red.
    pub result: Outcome,
    /// Which rule ended the game.
    pub end: End,
}

/// Why bytes are not a valid record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Occupancy bits beyond the 90 squares, or more than 32 pieces.
    BadOccupancy,
    /// A piece code with no piece (kind 7).
    BadPiece,
    /// A byte field out of its range (side, result or end).
    BadField(&'static str),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BadOccupancy => write!(f, "bad occupancy bits"),
            RecordError::BadPiece => write!(f, "bad piece code"),
            RecordError::BadField(name) => write!(f, "bad {name} byte"),
        }
    }
}

impl Record {
    /// A record of `pos` (before its move is played) with the search's
    /// `score` and `best` move; the game's `result` and `end` are filled in
    /// when the game is over.
    pub fn new(pos: &Position, score: i32, best: Move, result: Outcome, end: End) -> Record {
        let mut board = [None; 90];
        for sq in pos.occupied() {
            board[sq.index()] = pos.piece_on(sq);
        }
        let side = pos.side_to_move();
        let ply = pos.move_number_ply();
        Record {
            board,
            side,
            rule60: pos.rule60().min(u8::MAX as u16) as u8,
            ply: ply.min(u16::MAX as u32) as u16,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            best,
            result,
            end,
        }
    }

    /// The position (with the same checks as a FEN: a corrupt record is
    /// refused, never trusted).
    pub fn position(&self) -> Result<Position, FenError> {
        Position::from_board(&self.board, self.side, self.rule60 as u16, self.ply as u32 / 2 + 1)
    }

    /// The game result from the side to move's view: 1 win, 0.5 draw, 0 loss.
    pub fn result_for_side_to_move(&self) -> f64 {
        match self.result.winner() {
            None => 0.5,
            Some(c) if c == self.side => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The 40 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        let mut occupancy = 0u128;
        let mut codes = 0u128;
        let mut n = 0;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                occupancy |= 1 << sq.index();
                let code = p.kind().index() as u128 + 8 * (p.color() == Color::Black) as u128;
                codes |= code << (4 * n);
                n += 1;
            }
        }
        b[..12].copy_from_slice(&occupancy.to_le_bytes()[..12]);
        b[12..28].copy_from_slice(&codes.to_le_bytes());
        b[28..30].copy_from_slice(&self.score.to_le_bytes());
        b[30..32].copy_from_slice(&self.best.raw().to_le_bytes());
        b[32..34].copy_from_slice(&self.ply.to_le_bytes());
        b[34] = (self.side == Color::Black) as u8;
        b[35] = self.rule60;
        b[36] = match self.result {
            Outcome::BlackWins => 0,
            Outcome::Draw => 1,
            Outcome::RedWins => 2,
        };
        b[37] = self.end as u8;
        b
    }

    /// Decodes 40 bytes.
    pub fn from_bytes(b: &[u8; RECORD_SIZE]) -> Result<Record, RecordError> {
        let mut occ_bytes = [0u8; 16];
        occ_bytes[..12].copy_from_slice(&b[..12]);
        let occupancy = u128::from_le_bytes(occ_bytes);
        if occupancy >> 90 != 0 || occupancy.count_ones() > 32 {
            return Err(RecordError::BadOccupancy);
        }
        let codes = u128::from_le_bytes(b[12..28].try_into().expect("16 bytes"));
        let mut board = [None; 90];
        let mut n = 0;
        for (i, slot) in board.iter_mut().enumerate() {
            if occupancy >> i & 1 != 0 {
                let code = (codes >> (4 * n)) as usize & 15;
                let kind = *PieceKind::ALL.get(code & 7).ok_or(RecordError::BadPiece)?;
                let color = if code >= 8 { Color::Black } else { Color::Red };
                *slot = Some(Piece::new(color, kind));
                n += 1;
            }
        }
        let best = Move::from_raw(u16::from_le_bytes([b[30], b[31]])).ok_or(RecordError::BadField("move"))?;
        Ok(Record {
            board,
            side: match b[34] {
                0 => Color::Red,
                1 => Color::Black,
                _ => return Err(RecordError::BadField("side")),
            },
            rule60: b[35],
            ply: u16::from_le_bytes([b[32], b[33]]),
            score: i16::from_le_bytes([b[28], b[29]]),
            best,
            result: match b[36] {
                0 => Outcome::BlackWins,
                1 => Outcome::Draw,
                2 => Outcome::RedWins,
                _ => return Err(RecordError::BadField("result")),
            },
            end: *End::ALL.get(b[37] as usize).ok_or(RecordError::BadField("end"))?,
        })
    }
}

/// Reads records from a data file (or several concatenated), one at a time:
/// it holds one record's bytes, whatever the file's size.
pub struct Reader<R: Read> {
    input: R,
    /// Records read so far.
    records: u64,
    /// Bytes of an incomplete last record, once the end is reached.
    tail: usize,
    started: bool,
}

impl<R: Read> Reader<R> {
    /// A reader of `input`, which must start with a header.
    pub fn new(input: R) -> Reader<R> {
        Reader { input, records: 0, tail: 0, started: false }
    }

    /// Bytes of an incomplete record at the end, ignored (known once
    /// [`Reader::next_record`] has returned `Ok(None)`).
    pub fn partial_tail(&self) -> usize {
        self.tail
    }

    /// Records returned so far.
    pub fn records_read(&self) -> u64 {
        self.records
    }

    /// The next record; `Ok(None)` at the end (an incomplete last record is
    /// skipped and counted in [`Reader::partial_tail`]). A missing or foreign
    /// header, or a record that does not decode, is an error.
    pub fn next_record(&mut self) -> io::Result<Option<Record>> {
        loop {
            let mut buf = [0u8; RECORD_SIZE];
            let n = read_full(&mut self.input, &mut buf)?;
            if n < RECORD_SIZE {
                self.tail = n;
                if !self.started && n > 0 {
                    return Err(invalid("file too short for a datagen header".into()));
                }
                return Ok(None);
            }
            if buf[..16] == MAGIC {
                check_header(&buf).map_err(invalid)?;
                self.started = true;
                continue;
            }
            if !self.started {
                return Err(invalid(NOT_DATAGEN.into()));
            }
            let record = Record::from_bytes(&buf).map_err(|e| {
                invalid(format!("record {} (after {} read): {e}", self.records + 1, self.records))
            })?;
            self.records += 1;
            return Ok(Some(record));
        }
    }
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips_through_its_bytes() {
        let mut pos = Position::startpos();
        for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
            pos.do_move(pos.parse_legal_move(m).unwrap());
        }
        let best = pos.parse_legal_move("i0h0").unwrap();
        let r = Record::new(&pos, -37, best, Outcome::RedWins, End::PerpetualChase);
        assert_eq!(r.ply, 4);
        let bytes = r.to_bytes();
        assert_eq!(Record::from_bytes(&bytes), Ok(r));
        assert_eq!(bytes[11] & !3, 0);
        assert_eq!(&bytes[28..30], &(-37i16).to_le_bytes());
        assert_eq!(bytes[36], 2);
        assert_eq!(bytes[37], 3);
        assert_eq!(r.position().unwrap().fen(), pos.fen());
        assert_eq!(r.result_for_side_to_move(), 1.0);
    }

    #[test]
    fn headers_are_told_from_records_and_checked() {
        let h = header();
        assert!(h[11] > 3);
        assert!(check_header(&h).is_ok());
        let mut other = h;
        other[16] = 9;
        assert!(check_header(&other).unwrap_err().contains("version 9"));
        assert!(Record::from_bytes(&h).is_err());
    }

    #[test]
    fn the_reader_skips_inner_headers_and_a_partial_tail() {
        let pos = Position::startpos();
        let r = Record::new(&pos, 12, pos.parse_legal_move("h2e2").unwrap(), Outcome::Draw, End::MoveLimit);
        let mut file = header().to_vec();
        file.extend(r.to_bytes());
        file.extend(header());
        file.extend(r.to_bytes());
        file.extend(&r.to_bytes()[..17]);
        let mut reader = Reader::new(&file[..]);
        assert_eq!(reader.next_record().unwrap(), Some(r));
        assert_eq!(reader.next_record().unwrap(), Some(r));
        assert_eq!(reader.next_record().unwrap(), None);
        assert_eq!(reader.partial_tail(), 17);
        assert_eq!(reader.records_read(), 2);
        let mut foreign = Reader::new(&[7u8; 80][..]);
        assert!(foreign.next_record().is_err());
        let mut bad = header().to_vec();
        bad.extend([0xFFu8; RECORD_SIZE]);
        assert!(Reader::new(&bad[..]).next_record().is_err());
    }
}
