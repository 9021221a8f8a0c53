//! XQStudio's XQF files: a 1024-byte header (the tag `XQ`, the version, the
//! keys, the 32 pieces' points, the result, the names as GBK strings), then
//! the move records, depth first (a move, its continuation, then its
//! alternatives). Versions up to 10 are plain; from 11 on XQStudio
//! encrypts the pieces' points, the records and the comments with keys
//! from the header (from 12 on the pieces' order is rotated too). Only the
//! main line is read: the records from the first while each says another
//! move follows. The decryption follows XQStudio's XQFRW.pas as ElephantEye's
//! XQF2PGN and the `cchess` library implement it.

use super::text::decode_field;
use super::{Game, GameError, MoveAt};
use crate::board::Position;
use crate::types::{Color, Move, Piece, PieceKind, Square};

/// The header's size; the records start here.
const HEADER: usize = 0x400;

/// The kinds of the 16 pieces of one side, in the order of the header's points.
const KINDS: [PieceKind; 16] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Elephant,
    PieceKind::Advisor,
    PieceKind::King,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
];

/// The keys of an encrypted file (all zero for a plain one).
#[derive(Default)]
struct Keys {
    /// Subtracted from each piece's point.
    xy: u8,
    /// Subtracted from each record's from-point.
    from: u8,
    /// Subtracted from each record's to-point.
    to: u8,
    /// Subtracted from each comment's length.
    comment: i64,
    /// Subtracted from each byte after the header, cyclically.
    stream: [u8; 32],
}

/// `k * k * 54 + 221` times `m`, in bytes: XQStudio's key step.
fn square54(k: u8, m: u8) -> u8 {
    let k = k as u32;
    ((k * k * 54 + 221) * m as u32) as u8
}

impl Keys {
    fn new(h: &[u8]) -> Keys {
        let (mask, or, sum, kxy, kf, kt) = (h[3], &h[8..12], h[12], h[13], h[14], h[15]);
        let xy = square54(kxy, kxy);
        let from = square54(kf, xy);
        let to = square54(kt, from);
        let comment = ((sum as i64 * 256 + kxy as i64) % 32000) + 767;
        let bytes = [(sum & mask) | or[0], (kxy & mask) | or[1], (kf & mask) | or[2], (kt & mask) | or[3]];
        let mut stream = *b"[(C) Copyright Mr. Dong Shiwei.]";
        for (i, b) in stream.iter_mut().enumerate() {
            *b &= bytes[i % 4];
        }
        Keys { xy, from, to, comment, stream }
    }
}

/// The point of a header or record byte (`file * 10 + rank`), if on the board.
fn point(v: u8) -> Option<Square> {
    (v < 90).then(|| Square::from_coords(v / 10, v % 10))
}

/// A reader of the decrypted records.
struct Records<'a> {
    data: &'a [u8],
    at: usize,
}

impl Records<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let s = self.data.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    fn int(&mut self) -> Option<i64> {
        let b = self.take(4)?;
        Some(i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64)
    }
}

/// One record: from-byte, to-byte, whether a continuation follows.
struct Record {
    from: u8,
    to: u8,
    next: bool,
}

/// Reads one record and skips its comment; `Err` says what is wrong.
fn record(r: &mut Records, version: u8, keys: &Keys) -> Result<Record, String> {
    let b = r.take(4).ok_or("the file ends inside a move record")?;
    let (from, to, tag) = (b[0], b[1], b[2]);
    let (next, comment) = if version <= 10 {
        (tag & 0xF0 != 0, r.int().ok_or("the file ends inside a move record")?)
    } else {
        let has_comment = tag & 0x20 != 0;
        let len =
            if has_comment { r.int().ok_or("the file ends inside a move record")? - keys.comment } else { 0 };
        (tag & 0x80 != 0, len)
    };
    if comment < 0 || comment as usize > r.data.len() - r.at {
        return Err(format!("a comment of {comment} bytes does not fit in the file"));
    }
    r.at += comment as usize;
    Ok(Record {
        from: from.wrapping_sub(0x18).wrapping_sub(keys.from),
        to: to.wrapping_sub(0x20).wrapping_sub(keys.to),
        next,
    })
}

/// The game of an XQF file (`file` names it in errors): `Err` for the whole
/// file when its header cannot be read, else one game or the error naming
/// the move that failed.
pub fn read(bytes: &[u8], file: &str) -> Result<Result<Game, GameError>, GameError> {
    if !bytes.starts_with(b"XQ") {
        return Err(GameError::file(file, "not an XQF file (it does not start with 'XQ')"));
    }
    if bytes.len() < HEADER {
        return Err(GameError::file(
            file,
            format!("an XQF file is at least {HEADER} bytes; this one has {}", bytes.len()),
        ));
    }
    let h = &bytes[..HEADER];
    let version = h[2];
    let keys = if version <= 10 { Keys::default() } else { Keys::new(h) };
    let field = |at: usize, max: usize| decode_field(&h[at + 1..at + 1 + (h[at] as usize).min(max)]);
    let mut tags = Vec::new();
    for (name, at, max) in [
        ("Title", 0x50, 63),
        ("Event", 0xD0, 63),
        ("Date", 0x110, 15),
        ("Site", 0x120, 15),
        ("Red", 0x130, 15),
        ("Black", 0x140, 15),
    ] {
        let v = field(at, max);
        if !v.is_empty() {
            tags.push((name.to_string(), v));
        }
    }
    let result = match h[0x33] {
        1 => Some("1-0"),
        2 => Some("0-1"),
        3 | 4 => Some("1/2-1/2"),
        _ => None,
    }
    .map(str::to_string);
    tags.push(("Result".to_string(), result.clone().unwrap_or_else(|| "*".to_string())));

    // The pieces.
    let mut points = [0u8; 32];
    for (i, &v) in h[0x10..0x30].iter().enumerate() {
        let slot = if version >= 12 { (keys.xy as usize + i + 1) % 32 } else { i };
        points[slot] = v;
    }
    let mut board: [Option<Piece>; 90] = [None; 90];
    for (i, &v) in points.iter().enumerate() {
        let Some(sq) = point(v.wrapping_sub(keys.xy)) else { continue };
        let color = if i < 16 { Color::Red } else { Color::Black };
        if board[sq.index()].is_some() {
            return Err(GameError::file(file, format!("two pieces on {sq} in the XQF header")));
        }
        board[sq.index()] = Some(Piece::new(color, KINDS[i % 16]));
    }

    // The records, decrypted; the first is the game's own (its comment).
    let mut data = bytes[HEADER..].to_vec();
    if version > 10 {
        for (i, b) in data.iter_mut().enumerate() {
            *b = b.wrapping_sub(keys.stream[i % 32]);
        }
    }
    let mut r = Records { data: &data, at: 0 };
    let game_error = |tags: &[(String, String)],
                      at_move: Option<Box<MoveAt>>,
                      reason: String,
                      partial: Option<Box<Game>>| {
        GameError { at_move, partial, ..GameError::game(file, 1, tags, reason) }
    };
    let root = match record(&mut r, version, &keys) {
        Ok(root) => root,
        Err(e) => return Ok(Err(game_error(&tags, None, e, None))),
    };
    let mut records = Vec::new();
    let mut more = root.next;
    while more {
        match record(&mut r, version, &keys) {
            Ok(rec) => {
                more = rec.next;
                records.push(rec);
            }
            Err(e) => {
                let ply = records.len() + 1;
                let place = MoveAt {
                    ply,
                    number: ply.div_ceil(2) as u32,
                    side: Color::Red,
                    text: format!("record {ply}"),
                };
                return Ok(Err(game_error(&tags, Some(Box::new(place)), e, None)));
            }
        }
    }

    // The side to move: the colour of the first move's piece.
    let side = records
        .first()
        .and_then(|rec| point(rec.from))
        .and_then(|sq| board[sq.index()])
        .map_or(Color::Red, |p| p.color());
    let start = Position::from_board(&board, side, 0, 1)
        .map_err(|e| GameError::file(file, format!("the XQF header's position is impossible: {e}")))?;
    tags.push(("FEN".to_string(), start.fen()));
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(records.len());
    for (i, rec) in records.iter().enumerate() {
        let text = match (point(rec.from), point(rec.to)) {
            (Some(f), Some(t)) => format!("{f}{t}"),
            _ => format!("bytes {} {}", rec.from, rec.to),
        };
        let m = Move::parse(&text).filter(|&m| pos.is_pseudo_legal(m) && pos.is_legal(m));
        let Some(m) = m else {
            let partial = Game { tags: tags.clone(), start: start.clone(), moves, result: None };
            let why = crate::notation::parse(&pos, &text)
                .err()
                .map_or("not a move between two points".to_string(), |e| e.to_string());
            let mv = MoveAt { ply: i + 1, number: pos.fullmove(), side: pos.side_to_move(), text };
            return Ok(Err(game_error(&tags, Some(Box::new(mv)), why, Some(Box::new(partial)))));
        };
        moves.push(m);
        pos.do_move(m);
    }
    Ok(Ok(Game { tags, start, moves, result }))
}
