//! The Chinese four-character notation: 炮二平五, 马８进７, 前车进一,
//! 前七平六. Printed in simplified characters, Red's numbers in Chinese
//! numerals and Black's in full-width digits; read in traditional or
//! simplified characters, the common variants, and any kind of digits.

use crate::board::Position;
use crate::types::{Color, Move, PieceKind};

use super::NotationError;
use super::coordinate;
use super::spec::{self, Described, Dir, Form, Sel, Spec};

/// Red's numbers 1–9.
const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
/// Black's numbers 1–9 (full-width).
const BLACK_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The character printed for a piece (simplified, each side's own names).
fn piece_char(kind: PieceKind, color: Color) -> char {
    match (kind, color) {
        (PieceKind::Rook, _) => '车',
        (PieceKind::Horse, _) => '马',
        (PieceKind::Cannon, _) => '炮',
        (PieceKind::Elephant, Color::Red) => '相',
        (PieceKind::Elephant, Color::Black) => '象',
        (PieceKind::Advisor, Color::Red) => '仕',
        (PieceKind::Advisor, Color::Black) => '士',
        (PieceKind::King, Color::Red) => '帅',
        (PieceKind::King, Color::Black) => '将',
        (PieceKind::Pawn, Color::Red) => '兵',
        (PieceKind::Pawn, Color::Black) => '卒',
    }
}

/// The number `v` (1–9) as `color` writes it.
fn number(v: u8, color: Color) -> char {
    let i = (v.clamp(1, 9) - 1) as usize;
    match color {
        Color::Red => RED_NUMERALS[i],
        Color::Black => BLACK_DIGITS[i],
    }
}

/// The word naming the piece at `idx` from the front of `n` on its file.
fn place_word(idx: u8, n: u8) -> char {
    match (idx, n) {
        (0, _) => '前',
        (i, n) if i + 1 == n => '后',
        (1, 3) => '中',
        (i, _) => RED_NUMERALS[i as usize],
    }
}

/// The move `m` of `pos` in the Chinese notation.
pub(super) fn write(pos: &Position, m: Move) -> String {
    let Some(d) = spec::describe(pos, m) else { return coordinate::write(m) };
    let Described { kind, color, file, idx, n, form, dir, num } = d;
    let mut s = String::with_capacity(16);
    match form {
        Form::Plain => {
            s.push(piece_char(kind, color));
            s.push(number(file, color));
        }
        Form::Qualified => {
            s.push(place_word(idx, n));
            s.push(piece_char(kind, color));
        }
        Form::QualifiedFile => {
            s.push(place_word(idx, n));
            s.push(number(file, color));
        }
    }
    s.push(match dir {
        Dir::Forward => '进',
        Dir::Back => '退',
        Dir::Sideways => '平',
    });
    s.push(number(num, color));
    s
}

/// One character of a Chinese move, classified.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tok {
    Piece(PieceKind),
    Num(u8),
    Dir(Dir),
    Place(Sel),
    Other(char),
}

fn classify(c: char) -> Tok {
    let kind = match c {
        '车' | '車' | '俥' | '伡' => Some(PieceKind::Rook),
        '马' | '馬' | '傌' | '㐷' => Some(PieceKind::Horse),
        '炮' | '砲' | '包' => Some(PieceKind::Cannon),
        '相' | '象' => Some(PieceKind::Elephant),
        '仕' | '士' => Some(PieceKind::Advisor),
        '帅' | '帥' | '将' | '將' => Some(PieceKind::King),
        '兵' | '卒' => Some(PieceKind::Pawn),
        _ => None,
    };
    if let Some(k) = kind {
        return Tok::Piece(k);
    }
    if let Some(i) = RED_NUMERALS.iter().position(|&x| x == c) {
        return Tok::Num(i as u8 + 1);
    }
    if let Some(i) = BLACK_DIGITS.iter().position(|&x| x == c) {
        return Tok::Num(i as u8 + 1);
    }
    if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
        return Tok::Num(d as u8);
    }
    match c {
        '进' | '進' | '上' => Tok::Dir(Dir::Forward),
        '退' | '下' => Tok::Dir(Dir::Back),
        '平' => Tok::Dir(Dir::Sideways),
        '前' => Tok::Place(Sel::Front),
        '后' | '後' => Tok::Place(Sel::Rear),
        '中' => Tok::Place(Sel::Middle),
        c => Tok::Other(c),
    }
}

/// A place word, or a numeral used as one (一 front, 二 second, …, 五 fifth).
fn place(t: Tok) -> Option<Sel> {
    match t {
        Tok::Place(s) => Some(s),
        Tok::Num(1) => Some(Sel::Front),
        Tok::Num(k @ 2..=5) => Some(Sel::Nth(k - 1)),
        _ => None,
    }
}

/// Reads a Chinese move (see the module comment) as a [`Spec`].
fn read(text: &str) -> Result<Spec, NotationError> {
    let malformed = |why: &str| NotationError::Malformed { text: text.to_string(), why: why.to_string() };
    // Spaces inside, and check or annotation marks after, are not part of the move.
    let toks: Vec<Tok> = text
        .trim_end_matches(['+', '#', '!', '?', '＋', '！', '？'])
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(classify)
        .collect();
    if let Some(Tok::Other(c)) = toks.iter().find(|t| matches!(t, Tok::Other(_))) {
        let at = toks.iter().position(|t| matches!(t, Tok::Other(_))).unwrap_or(0);
        return Err(if at <= 1 {
            NotationError::UnknownPiece { text: text.to_string(), piece: *c }
        } else {
            malformed(&format!("'{c}' is not a piece, number, direction or front/rear word"))
        });
    }
    let (dir, num) = match toks.as_slice() {
        [.., Tok::Dir(d), Tok::Num(v)] => (*d, *v),
        _ => return Err(malformed("it does not end in a direction (进, 退, 平) and a number")),
    };
    let head = &toks[..toks.len() - 2];
    let (kind, file, sel) = match *head {
        [Tok::Piece(k), Tok::Num(f)] => (k, Some(f), None),
        [Tok::Piece(k), Tok::Place(s)] => (k, None, Some(s)),
        [p, Tok::Piece(k)] if place(p).is_some() => (k, None, place(p)),
        [p, Tok::Num(f)] if place(p).is_some() => (PieceKind::Pawn, Some(f), place(p)),
        [p, Tok::Piece(k), Tok::Num(f)] if place(p).is_some() => (k, Some(f), place(p)),
        [Tok::Num(_), ..] | [Tok::Place(_), ..] | [Tok::Piece(_), ..] => {
            return Err(malformed("expected a piece and its file, or a front/rear word and a piece"));
        }
        _ => return Err(malformed("expected four characters: piece, file, direction, number")),
    };
    Ok(Spec { kind, file, sel, dir, num })
}

/// The legal move of `pos` that the Chinese `text` names.
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let spec = read(text)?;
    spec::resolve(pos, &spec, text, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for m in moves {
            pos.do_move(Move::parse(m).unwrap());
        }
        pos
    }

    #[test]
    fn opening_moves_both_sides() {
        let pos = Position::startpos();
        let cases = [
            ("h2e2", "炮二平五"),
            ("h0g2", "马二进三"),
            ("i0i1", "车一进一"),
            ("g3g4", "兵三进一"),
            ("c0e2", "相七进五"),
            ("f0e1", "仕四进五"),
            ("e0e1", "帅五进一"),
        ];
        for (m, zh) in cases {
            let m = Move::parse(m).unwrap();
            assert_eq!(write(&pos, m), zh);
            assert_eq!(parse(&pos, zh), Ok(m));
        }
        let pos = after(&["h2e2"]);
        let cases = [
            ("h9g7", "马８进７"),
            ("b9c7", "马２进３"),
            ("b7e7", "炮２平５"),
            ("c9e7", "象３进５"),
            ("a9a8", "车１进１"),
        ];
        for (m, zh) in cases {
            let m = Move::parse(m).unwrap();
            assert_eq!(write(&pos, m), zh);
            assert_eq!(parse(&pos, zh), Ok(m));
        }
        // Half-width, Chinese numerals and traditional characters for Black too.
        assert_eq!(parse(&pos, "馬8進7"), Ok(Move::parse("h9g7").unwrap()));
        assert_eq!(parse(&pos, "马八进七"), Ok(Move::parse("h9g7").unwrap()));
        assert_eq!(parse(&pos, "砲８平５"), Ok(Move::parse("h7e7").unwrap()));
    }

    #[test]
    fn front_and_rear() {
        // Red cannons on e2 and e5 after 炮二平五, 炮五进四 … then 炮八平五.
        let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1C1p1p/9/9/P1P1P1P1P/4C4/9/RNBAKABNR w - - 0 1")
            .unwrap();
        let front = Move::parse("e6e4").unwrap();
        let rear = Move::parse("e2e1").unwrap();
        assert_eq!(write(&pos, front), "前炮退二");
        assert_eq!(write(&pos, rear), "后炮退一");
        assert_eq!(parse(&pos, "前炮退二"), Ok(front));
        assert_eq!(parse(&pos, "後砲退一"), Ok(rear));
        assert_eq!(parse(&pos, "炮前退二"), Ok(front));
        assert!(matches!(parse(&pos, "炮五平四"), Err(NotationError::Ambiguous { .. })));
        assert_eq!(parse(&pos, "炮五进一"), Ok(Move::parse("e6e7").unwrap()));
    }

    #[test]
    fn pawns_on_one_and_two_files() {
        // Red pawns: three on file c (c5, c6, c7), two on file g (g5, g6).
        let pos = Position::from_fen("3k5/2P6/2P6/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1").unwrap();
        let m = |s| Move::parse(s).unwrap();
        assert_eq!(write(&pos, m("c8b8")), "前七平八");
        assert_eq!(write(&pos, m("c7b7")), "中七平八");
        assert_eq!(write(&pos, m("c6b6")), "后七平八");
        assert_eq!(write(&pos, m("g6f6")), "前三平四");
        assert_eq!(write(&pos, m("g5h5")), "后三平二");
        for s in ["c8b8", "c7b7", "c6b6", "g6f6", "g5h5"] {
            assert_eq!(parse(&pos, &write(&pos, m(s))), Ok(m(s)), "{s}");
        }
        assert_eq!(parse(&pos, "前兵七平八"), Ok(m("c8b8")));
        // Only one front pawn can go to file 8: read, though not the printed form.
        assert_eq!(parse(&pos, "前兵平八"), Ok(m("c8b8")));
        assert!(matches!(parse(&pos, "前兵进一"), Err(NotationError::Ambiguous { .. })));
        // Four on one file: 前, 二, 三, 后.
        let pos = Position::from_fen("3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(write(&pos, m("c8b8")), "前兵平八");
        assert_eq!(write(&pos, m("c7b7")), "二兵平八");
        assert_eq!(write(&pos, m("c6b6")), "三兵平八");
        assert_eq!(write(&pos, m("c5b5")), "后兵平八");
        assert_eq!(parse(&pos, "二兵平八"), Ok(m("c7b7")));
    }

    #[test]
    fn errors_say_why() {
        let pos = Position::startpos();
        assert!(matches!(parse(&pos, "王五进一"), Err(NotationError::UnknownPiece { piece: '王', .. })));
        assert!(matches!(parse(&pos, "炮三平五"), Err(NotationError::NoSuchPiece { .. })));
        assert!(matches!(parse(&pos, "炮二平"), Err(NotationError::Malformed { .. })));
        assert!(matches!(parse(&pos, "马二平三"), Err(NotationError::Illegal { .. })));
        assert!(matches!(parse(&pos, "前炮进一"), Err(NotationError::NoSuchPiece { .. })));
        let e = parse(&pos, "车一进九").unwrap_err().to_string();
        assert!(e.contains("cannot move so"), "{e}");
    }
}
