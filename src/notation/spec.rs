//! A move as the Chinese notation and WXF describe it (the piece, its file
//! counted from the mover's right, which of the pieces on that file, the
//! direction and a number), both ways: the description of a legal move that
//! the writers print, and the legal move a parsed description names.

use crate::board::{GenType, Position};
use crate::types::{Bitboard, Color, Move, MoveList, PieceKind, Square};

use super::NotationError;

/// Which way a piece goes, seen from its own side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Dir {
    /// Towards the opponent (进, `+`).
    Forward,
    /// Towards its own side (退, `-`).
    Back,
    /// Along its rank (平, `=` or `.`).
    Sideways,
}

/// Which of the pieces of one kind on one file a qualifier names, counted
/// from the front (the one nearest the opponent).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Sel {
    /// The front one (前, 一, WXF `++`).
    Front,
    /// The rear one (后, WXF `--`).
    Rear,
    /// The middle one of three or five (中; WXF's bare file digit).
    Middle,
    /// The `k`-th from the front, 0-based (二 = 1, 三 = 2, …), of three or more.
    Nth(u8),
    /// WXF `+`: the front one of two or three, the second of four or five.
    WxfPlus,
    /// WXF `-`: the rear one of two or three, the second from the rear of four or five.
    WxfMinus,
}

impl Sel {
    /// True if the piece at `idx` (from the front) of `n` on its file is the one named.
    fn names(self, idx: u8, n: u8) -> bool {
        match self {
            Sel::Front => n >= 2 && idx == 0,
            Sel::Rear => n >= 2 && idx == n - 1,
            Sel::Middle => n >= 3 && n % 2 == 1 && idx == n / 2,
            Sel::Nth(k) => n >= 3 && k < n && idx == k,
            Sel::WxfPlus => n >= 2 && idx == if n >= 4 { 1 } else { 0 },
            Sel::WxfMinus => n >= 2 && idx == if n >= 4 { n - 2 } else { n - 1 },
        }
    }
}

/// A parsed description: what a Chinese or WXF text says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Spec {
    /// The kind of piece (pawns when the text leaves the piece out).
    pub kind: PieceKind,
    /// The file it stands on, 1–9 from the mover's right, if given.
    pub file: Option<u8>,
    /// Which of the pieces on its file, if given.
    pub sel: Option<Sel>,
    /// The direction.
    pub dir: Dir,
    /// Ranks moved (rook, cannon, pawn, king going forward or back), or the
    /// file reached (sideways moves; horse, advisor, elephant), 1–9.
    pub num: u8,
}

/// How the canonical text of a move names its piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Form {
    /// By kind and file: 炮二, `C2`.
    Plain,
    /// By its place on a file that is the only one with several such pieces: 前炮, `+C`.
    Qualified,
    /// Pawns, when two files hold several: by place and file, 前七, `7+`.
    QualifiedFile,
}

/// The canonical description of a legal move, which the writers print.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Described {
    /// The moving piece's kind and colour.
    pub kind: PieceKind,
    /// Its colour.
    pub color: Color,
    /// Its file, 1–9 from its side's right.
    pub file: u8,
    /// Its place on the file from the front (0-based) and how many of its kind stand there.
    pub idx: u8,
    /// How many pieces of its kind and colour stand on its file.
    pub n: u8,
    /// How the text names the piece.
    pub form: Form,
    /// The direction.
    pub dir: Dir,
    /// Ranks moved or file reached (see [`Spec::num`]).
    pub num: u8,
}

/// The file of `sq` numbered 1–9 from `color`'s right.
pub(super) fn file_number(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// The piece on `sq` of kind `kind` and colour `color`: its place from the
/// front among those of its kind and colour on its file, and how many.
fn place_on_file(pos: &Position, color: Color, kind: PieceKind, sq: Square) -> (u8, u8) {
    let same = pos.pieces_of(color, kind) & Bitboard::file(sq.file());
    let ahead = same
        .filter(|s| match color {
            Color::Red => s.rank() > sq.rank(),
            Color::Black => s.rank() < sq.rank(),
        })
        .count();
    (ahead as u8, same.count() as u8)
}

/// How many files hold two or more of `color`'s pawns.
fn tandem_pawn_files(pos: &Position, color: Color) -> usize {
    let pawns = pos.pieces_of(color, PieceKind::Pawn);
    (0..9).filter(|&f| (pawns & Bitboard::file(f)).more_than_one()).count()
}

/// Direction and number of the move from `from` to `to` of a `kind` of `color`.
fn motion(kind: PieceKind, color: Color, from: Square, to: Square) -> (Dir, u8) {
    let forward = match color {
        Color::Red => to.rank() as i32 - from.rank() as i32,
        Color::Black => from.rank() as i32 - to.rank() as i32,
    };
    if forward == 0 {
        return (Dir::Sideways, file_number(color, to));
    }
    let dir = if forward > 0 { Dir::Forward } else { Dir::Back };
    let num = match kind {
        PieceKind::Horse | PieceKind::Advisor | PieceKind::Elephant => file_number(color, to),
        _ => forward.unsigned_abs() as u8,
    };
    (dir, num)
}

/// The canonical description of `m` in `pos`; `None` if its from-square is empty.
pub(super) fn describe(pos: &Position, m: Move) -> Option<Described> {
    let piece = pos.piece_on(m.from())?;
    let (color, kind) = (piece.color(), piece.kind());
    let (idx, n) = place_on_file(pos, color, kind, m.from());
    let form = match kind {
        PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => Form::Plain,
        _ if n < 2 => Form::Plain,
        PieceKind::Pawn if tandem_pawn_files(pos, color) >= 2 => Form::QualifiedFile,
        _ => Form::Qualified,
    };
    let (dir, num) = motion(kind, color, m.from(), m.to());
    Some(Described { kind, color, file: file_number(color, m.from()), idx, n, form, dir, num })
}

/// Does the move `m` (of a piece of the side to move) fit `spec`?
fn fits(pos: &Position, spec: &Spec, m: Move) -> bool {
    let Some(piece) = pos.piece_on(m.from()) else { return false };
    let color = piece.color();
    if piece.kind() != spec.kind || spec.file.is_some_and(|f| f != file_number(color, m.from())) {
        return false;
    }
    if let Some(sel) = spec.sel {
        let (idx, n) = place_on_file(pos, color, spec.kind, m.from());
        if !sel.names(idx, n) {
            return false;
        }
    }
    motion(spec.kind, color, m.from(), m.to()) == (spec.dir, spec.num)
}

/// The legal move that `spec` (read from `text`) names. With
/// `bare_file_is_middle` (WXF), a piece named by its file alone on a file
/// with three or five of its kind is the middle one.
pub(super) fn resolve(
    pos: &Position,
    spec: &Spec,
    text: &str,
    bare_file_is_middle: bool,
) -> Result<Move, NotationError> {
    let mut found: Vec<Move> = pos.legal_moves().into_iter().filter(|&m| fits(pos, spec, m)).collect();
    if found.len() > 1 && bare_file_is_middle && spec.sel.is_none() && spec.file.is_some() {
        found.retain(|m| {
            let (idx, n) = place_on_file(pos, pos.side_to_move(), spec.kind, m.from());
            Sel::Middle.names(idx, n)
        });
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(why_none(pos, spec, text)),
        _ => Err(NotationError::Ambiguous {
            text: text.to_string(),
            moves: found.iter().map(|m| format!("{m} ({} on {})", spec.kind.name(), m.from())).collect(),
        }),
    }
}

/// Why no legal move fits `spec`: no such piece, or it cannot move so.
fn why_none(pos: &Position, spec: &Spec, text: &str) -> NotationError {
    let us = pos.side_to_move();
    let mut what = format!("{} {}", us.name(), spec.kind.name());
    if let Some(f) = spec.file {
        what += &format!(" on file {f}");
    }
    let pieces: Vec<Square> = pos
        .pieces_of(us, spec.kind)
        .filter(|&s| spec.file.is_none_or(|f| f == file_number(us, s)))
        .filter(|&s| {
            spec.sel.is_none_or(|sel| {
                let (idx, n) = place_on_file(pos, us, spec.kind, s);
                sel.names(idx, n)
            })
        })
        .collect();
    if pieces.is_empty() {
        if spec.sel.is_some() {
            what += " that the text's front/middle/rear word names";
        }
        return NotationError::NoSuchPiece { text: text.to_string(), what };
    }
    let mut pseudo = MoveList::new();
    pos.generate(GenType::All, &mut pseudo);
    let squares: Vec<String> = pieces.iter().map(|s| s.to_string()).collect();
    let why = match pseudo.iter().find(|&&m| pieces.contains(&m.from()) && fits(pos, spec, m)) {
        Some(m) => format!("{m} would leave the {} king in check or facing the other king", us.name()),
        None => format!("the {what} (on {}) cannot move so", squares.join(", ")),
    };
    NotationError::Illegal { text: text.to_string(), why }
}

/// `m` if it is legal in `pos`, else why not (for the square-to-square notations).
pub(super) fn check_legal(pos: &Position, m: Move, text: &str) -> Result<Move, NotationError> {
    if pos.is_pseudo_legal(m) && pos.is_legal(m) {
        return Ok(m);
    }
    let us = pos.side_to_move();
    let why = match pos.piece_on(m.from()) {
        None => {
            return Err(NotationError::NoSuchPiece {
                text: text.to_string(),
                what: format!("piece on {}", m.from()),
            });
        }
        Some(p) if p.color() != us => format!(
            "the {} on {} is {}'s, and {} is to move",
            p.kind().name(),
            m.from(),
            p.color().name(),
            us.name()
        ),
        Some(p) if pos.is_pseudo_legal(m) => {
            format!(
                "the {} move {m} would leave the {} king in check or facing the other king",
                p.kind().name(),
                us.name()
            )
        }
        Some(p) => format!("the {} on {} cannot go to {}", p.kind().name(), m.from(), m.to()),
    };
    Err(NotationError::Illegal { text: text.to_string(), why })
}
