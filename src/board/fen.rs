//! FEN parsing and printing, with the checks that keep impossible positions out.

use std::fmt;

use super::{Position, StateInfo};
use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was refused. The `Display` form is a message for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing was given.
    Empty,
    /// The placement does not have ten rows.
    RowCount(usize),
    /// A row (numbered from the top, 1..10) does not describe nine points.
    RowLength {
        /// Row number from the top (1 = rank 9).
        row: usize,
        /// Points it describes.
        points: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    UnknownLetter(char),
    /// The side-to-move field is not `w`, `r` or `b`.
    BadSide(String),
    /// A counter field is not a number in range, or an unexpected field follows.
    BadField(String),
    /// A side has no king or more than one.
    KingCount(Color, usize),
    /// More pieces of one kind than a side ever has.
    TooMany(Piece, usize),
    /// A piece stands on a point it can never reach.
    BadSquare(Piece, Square),
    /// The two kings face each other on an open file.
    KingsFacing,
    /// The side that just moved has its king in check.
    SideNotToMoveInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RowCount(n) => write!(f, "the placement has {n} rows, expected 10"),
            FenError::RowLength { row, points } => {
                write!(f, "row {row} (rank {}) describes {points} points, expected 9", 10 - row)
            }
            FenError::UnknownLetter(c) => write!(f, "unknown letter '{}' in the placement", c.escape_debug()),
            FenError::BadSide(s) => write!(f, "side to move must be w, r or b, not '{}'", s.escape_debug()),
            FenError::BadField(s) => {
                write!(f, "unexpected field '{}' after the side to move", s.escape_debug())
            }
            FenError::KingCount(c, n) => write!(f, "{} has {n} kings, expected 1", c.name()),
            FenError::TooMany(p, n) => write!(
                f,
                "{} has {n} {}s, at most {} allowed",
                p.color().name(),
                p.kind().name(),
                max_count(p.kind())
            ),
            FenError::BadSquare(p, sq) => {
                write!(f, "a {} {} can never stand on {sq}", p.color().name(), p.kind().name())
            }
            FenError::KingsFacing => write!(f, "the kings face each other on an open file"),
            FenError::SideNotToMoveInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

fn max_count(kind: PieceKind) -> usize {
    match kind {
        PieceKind::King => 1,
        PieceKind::Pawn => 5,
        _ => 2,
    }
}

impl Position {
    /// Parses a FEN. Accepts side letters `w`, `r` (Red) and `b`, piece letters
    /// `KABNRCP` plus `E` (elephant) and `H` (horse); the castling, en-passant,
    /// half-move and move-number fields are optional. Never panics.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != 10 {
            return Err(FenError::RowCount(rows.len()));
        }
        let mut pos = Position::empty();
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else {
                    let p = Piece::from_fen_char(c).ok_or(FenError::UnknownLetter(c))?;
                    if file < 9 {
                        pos.put(p, Square::from_coords(file as u8, rank));
                    }
                    file += 1;
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                return Err(FenError::RowLength { row: i + 1, points: file });
            }
        }
        pos.side = match fields.next() {
            None => Color::Red,
            Some(s) => match s.to_ascii_lowercase().as_str() {
                "w" | "r" => Color::Red,
                "b" => Color::Black,
                _ => return Err(FenError::BadSide(s.to_string())),
            },
        };
        pos.start_side = pos.side;
        let mut numbers = fields.skip_while(|&f| f == "-");
        if let Some(h) = numbers.next() {
            pos.st.rule60 = h.parse().map_err(|_| FenError::BadField(h.to_string()))?;
        }
        if let Some(m) = numbers.next() {
            let n: u32 = m.parse().map_err(|_| FenError::BadField(m.to_string()))?;
            pos.start_fullmove = n.clamp(1, 1 << 20);
        }
        if let Some(extra) = numbers.next() {
            return Err(FenError::BadField(extra.to_string()));
        }
        pos.finish_setup()
    }

    /// The position with `board` (indexed by square), `side` to move,
    /// `rule60` plies since the last capture and full-move number
    /// `fullmove`, refused for the same reasons as an impossible FEN.
    pub fn from_board(
        board: &[Option<Piece>; 90],
        side: Color,
        rule60: u16,
        fullmove: u32,
    ) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        for sq in Square::all() {
            if let Some(p) = board[sq.index()] {
                pos.put(p, sq);
            }
        }
        pos.side = side;
        pos.start_side = side;
        pos.st.rule60 = rule60;
        pos.start_fullmove = fullmove.clamp(1, 1 << 20);
        pos.finish_setup()
    }

    /// An empty board, Red to move, no history.
    fn empty() -> Position {
        Position {
            board: [None; 90],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            king_sq: [Square::new(0); 2],
            side: Color::Red,
            st: StateInfo {
                key: 0,
                checkers: Bitboard::EMPTY,
                blockers: Bitboard::EMPTY,
                drop_danger: Bitboard::EMPTY,
                captured: None,
                last_move: Move::NONE,
                rule60: 0,
                plies_from_null: 0,
            },
            history: Vec::new(),
            start_fullmove: 1,
            start_side: Color::Red,
            repetition_filter: [0; super::REPETITION_SLOTS],
        }
    }

    /// Checks the placement, then computes the key and the check information.
    fn finish_setup(mut self) -> Result<Position, FenError> {
        self.check_setup()?;
        self.st.key = self.compute_key();
        self.filter_add();
        self.compute_check_info();
        Ok(self)
    }

    fn put(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = Some(p);
        self.by_color[p.color().index()] |= sq;
        self.by_kind[p.kind().index()] |= sq;
    }

    fn check_setup(&mut self) -> Result<(), FenError> {
        for c in Color::ALL {
            let kings = self.pieces_of(c, PieceKind::King);
            if kings.count() != 1 {
                return Err(FenError::KingCount(c, kings.count() as usize));
            }
            self.king_sq[c.index()] = kings.lsb();
            for kind in PieceKind::ALL {
                let p = Piece::new(c, kind);
                let bb = self.pieces_of(c, kind);
                if bb.count() as usize > max_count(kind) {
                    return Err(FenError::TooMany(p, bb.count() as usize));
                }
                if let Some(sq) = bb.into_iter().find(|&sq| !p.can_stand_on(sq)) {
                    return Err(FenError::BadSquare(p, sq));
                }
            }
        }
        let (rk, bk) = (self.king_sq[0], self.king_sq[1]);
        if rk.file() == bk.file() && (super::attacks::between(rk, bk) & self.occupied()).is_empty() {
            return Err(FenError::KingsFacing);
        }
        let them = !self.side;
        if self.attacked(them, self.king_square(them), self.occupied(), self.pieces(self.side)) {
            return Err(FenError::SideNotToMoveInCheck);
        }
        Ok(())
    }

    /// The FEN of the position: placement, side, `- -`, the no-capture ply
    /// count and the full-move number.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(96);
        for r in (0..10u8).rev() {
            let mut empty = 0;
            for f in 0..9u8 {
                match self.piece_on(Square::from_coords(f, r)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.fen_char());
        s.push_str(&format!(" - - {} {}", self.st.rule60, self.fullmove()));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.fen(), START_FEN);
        assert_eq!(pos.occupied().count(), 32);
        assert!(!pos.in_check());
    }

    #[test]
    fn lenient_forms_are_accepted() {
        let short = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        for fen in [
            format!("{short} w"),
            format!("{short} r"),
            format!("{short} w 0 1"),
            format!("{short}   w  -  -  0  1"),
            short.to_string(),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w".to_string(),
        ] {
            assert_eq!(Position::from_fen(&fen).unwrap().fen(), START_FEN, "{fen}");
        }
        let black = Position::from_fen(&format!("{short} b - - 7 12")).unwrap();
        assert_eq!(black.side_to_move(), Color::Black);
        assert_eq!(black.rule60(), 7);
        assert!(black.fen().ends_with(" b - - 7 12"));
    }

    #[test]
    fn bad_fens_are_refused_with_a_reason() {
        let cases: &[(&str, &str)] = &[
            ("", "empty"),
            ("rnbakabnr/9/1c5c1 w", "rows"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "row 10"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", "row 10"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unknown letter"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "unexpected"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", "kings"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "kings"),
            ("3k5/9/9/9/9/9/9/9/9/K8 w", "never stand"),
            ("4k4/9/9/9/9/9/9/9/3A5/3K5 w", "never stand"),
            ("4k4/9/9/9/9/4B4/9/9/9/3K5 w", "never stand"),
            ("4k4/9/9/9/9/9/9/9/P8/3K5 w", "never stand"),
            ("4k4/9/9/9/9/9/1P7/9/9/3K5 w", "never stand"),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", "face"),
            ("4k4/9/9/9/9/9/9/9/4R4/3K5 w", "not to move is in check"),
            ("4k4/9/9/9/9/9/PPPPPP3/9/9/3K5 w", "6 pawns"),
            ("4k4/9/9/9/9/RRR6/9/9/9/3K5 w", "3 rooks"),
        ];
        for (fen, needle) in cases {
            let err = Position::from_fen(fen).err().unwrap_or_else(|| panic!("accepted {fen}"));
            assert!(err.to_string().contains(needle), "{fen}: {err}");
        }
    }
}
