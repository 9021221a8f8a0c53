//! WXF notation: a piece letter (`K A E H R C P`), its file 1–9 from the
//! mover's right, a direction (`+` forward, `-` back, `=` or `.` sideways)
//! and a number: `C2=5`, `H8+7`. Two pieces of a kind on one file are
//! `+C`/`-C` (front/rear; `C+`/`C-` as the WXF's own table writes them are
//! read too); pawns follow the WXF's rules for three to five on a file and
//! for two files with several (`++`, `P3`, `--`, `7+`, `33`).

use crate::board::Position;
use crate::types::{Move, PieceKind};

use super::NotationError;
use super::coordinate;
use super::spec::{self, Described, Dir, Form, Sel, Spec};

/// The WXF letter of a piece kind.
fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

fn digit(v: u8) -> char {
    char::from(b'0' + v.clamp(1, 9))
}

/// The move `m` of `pos` in WXF.
pub(super) fn write(pos: &Position, m: Move) -> String {
    let Some(d) = spec::describe(pos, m) else { return coordinate::write(m) };
    let Described { kind, file, idx, n, form, dir, num, .. } = d;
    let l = letter(kind);
    let middle = n % 2 == 1 && n >= 3 && idx == n / 2;
    let head: [char; 2] = match form {
        Form::Plain => [l, digit(file)],
        Form::Qualified if middle => [l, digit(file)],
        Form::Qualified if n >= 4 && idx == 0 => ['+', '+'],
        Form::Qualified if n >= 4 && idx == n - 1 => ['-', '-'],
        Form::Qualified if idx == 0 || (n >= 4 && idx == 1) => ['+', l],
        Form::Qualified => ['-', l],
        Form::QualifiedFile if middle => [digit(file), digit(file)],
        Form::QualifiedFile if idx == 0 => [digit(file), '+'],
        Form::QualifiedFile => [digit(file), '-'],
    };
    let d = match dir {
        Dir::Forward => '+',
        Dir::Back => '-',
        Dir::Sideways => '=',
    };
    [head[0], head[1], d, digit(num)].iter().collect()
}

fn kind_of(c: u8) -> Option<PieceKind> {
    Some(match c {
        b'K' | b'G' => PieceKind::King,
        b'A' => PieceKind::Advisor,
        b'E' | b'B' => PieceKind::Elephant,
        b'H' | b'N' => PieceKind::Horse,
        b'R' => PieceKind::Rook,
        b'C' => PieceKind::Cannon,
        b'P' => PieceKind::Pawn,
        _ => return None,
    })
}

fn digit_of(c: u8) -> Option<u8> {
    (b'1'..=b'9').contains(&c).then(|| c - b'0')
}

fn sign(c: u8) -> Option<Sel> {
    match c {
        b'+' => Some(Sel::WxfPlus),
        b'-' => Some(Sel::WxfMinus),
        _ => None,
    }
}

/// Reads a WXF move as a [`Spec`].
fn read(text: &str) -> Result<Spec, NotationError> {
    let malformed = |why: &str| NotationError::Malformed { text: text.to_string(), why: why.to_string() };
    let mut b: Vec<u8> =
        text.bytes().filter(|c| !c.is_ascii_whitespace()).map(|c| c.to_ascii_uppercase()).collect();
    if b.len() > 4 && matches!(b.last(), Some(b'+' | b'#' | b'!' | b'?')) {
        // A check or annotation mark after the move.
        while b.len() > 4 && matches!(b.last(), Some(b'+' | b'#' | b'!' | b'?')) {
            b.pop();
        }
    }
    if b.len() != 4 || !text.is_ascii() {
        return Err(malformed("a WXF move has four characters: piece, file, direction, number (C2=5)"));
    }
    let dir = match b[2] {
        b'+' => Dir::Forward,
        b'-' => Dir::Back,
        b'=' | b'.' => Dir::Sideways,
        _ => return Err(malformed("the third character must be +, - or = (or .)")),
    };
    let num = digit_of(b[3]).ok_or_else(|| malformed("the fourth character must be a digit 1-9"))?;
    let (kind, file, sel) = match (b[0], b[1]) {
        (p, f) if kind_of(p).is_some() && digit_of(f).is_some() => (kind_of(p), digit_of(f), None),
        (p, s) if kind_of(p).is_some() && sign(s).is_some() => (kind_of(p), None, sign(s)),
        (b'+', b'+') => (Some(PieceKind::Pawn), None, Some(Sel::Front)),
        (b'-', b'-') => (Some(PieceKind::Pawn), None, Some(Sel::Rear)),
        (s, p) if sign(s).is_some() && kind_of(p).is_some() => (kind_of(p), None, sign(s)),
        (f, g) if digit_of(f).is_some() && f == g => (Some(PieceKind::Pawn), digit_of(f), Some(Sel::Middle)),
        (f, b'+') if digit_of(f).is_some() => (Some(PieceKind::Pawn), digit_of(f), Some(Sel::Front)),
        (f, b'-') if digit_of(f).is_some() => (Some(PieceKind::Pawn), digit_of(f), Some(Sel::Rear)),
        (p, _) if p.is_ascii_alphabetic() && kind_of(p).is_none() => {
            return Err(NotationError::UnknownPiece { text: text.to_string(), piece: char::from(p) });
        }
        _ => {
            return Err(malformed(
                "the first two characters must be a piece and its file, or +/- and a piece",
            ));
        }
    };
    let kind = kind.unwrap_or(PieceKind::Pawn);
    Ok(Spec { kind, file, sel, dir, num })
}

/// The legal move of `pos` that the WXF `text` names.
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let spec = read(text)?;
    spec::resolve(pos, &spec, text, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_tandem_pieces() {
        let pos = Position::startpos();
        let m = |s| Move::parse(s).unwrap();
        assert_eq!(write(&pos, m("h0g2")), "H2+3");
        assert_eq!(write(&pos, m("c0e2")), "E7+5");
        assert_eq!(parse(&pos, "N2+3"), Ok(m("h0g2")));
        assert_eq!(parse(&pos, "b7+5"), Ok(m("c0e2")));
        let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1C1p1p/9/9/P1P1P1P1P/4C4/9/RNBAKABNR w - - 0 1")
            .unwrap();
        assert_eq!(write(&pos, m("e6e4")), "+C-2");
        assert_eq!(write(&pos, m("e2f2")), "-C=4");
        assert_eq!(parse(&pos, "C+-2"), Ok(m("e6e4")));
        assert_eq!(parse(&pos, "C-.4"), Ok(m("e2f2")));
        // Five pawns on one file: ++, +P, P7, -P, --.
        let pos = Position::from_fen("3k5/2P6/2P6/2P6/2P6/2P6/9/9/9/4K4 w - - 0 1").unwrap();
        for (mv, text) in
            [("c8b8", "++=8"), ("c7b7", "+P=8"), ("c6b6", "P7=8"), ("c5b5", "-P=8"), ("c8c9", "+++1")]
        {
            assert_eq!(write(&pos, m(mv)), text);
            assert_eq!(parse(&pos, text), Ok(m(mv)));
        }
        assert_eq!(parse(&pos, "P+=8"), Ok(m("c7b7")));
    }

    #[test]
    fn pawns_on_two_files() {
        let pos = Position::from_fen("3k5/2P6/2P6/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1").unwrap();
        let m = |s| Move::parse(s).unwrap();
        let cases =
            [("c8b8", "7+=8"), ("c7b7", "77=8"), ("c6b6", "7-=8"), ("g6f6", "3+=4"), ("g5h5", "3-=2")];
        for (mv, text) in cases {
            assert_eq!(write(&pos, m(mv)), text);
            assert_eq!(parse(&pos, text), Ok(m(mv)));
        }
    }

    #[test]
    fn errors() {
        let pos = Position::startpos();
        assert!(matches!(parse(&pos, "X2=5"), Err(NotationError::UnknownPiece { piece: 'X', .. })));
        assert!(matches!(parse(&pos, "C2*5"), Err(NotationError::Malformed { .. })));
        assert!(matches!(parse(&pos, "C3=5"), Err(NotationError::NoSuchPiece { .. })));
        assert!(matches!(parse(&pos, "H2=3"), Err(NotationError::Illegal { .. })));
    }
}
