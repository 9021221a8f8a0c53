use std::num::NonZeroU8;

use super::{Color, Square};

/// The seven kinds of xiangqi pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum PieceKind {
    /// 車 — moves any distance along a rank or file.
    Rook = 0,
    /// 士 — one step diagonally inside the palace.
    Advisor = 1,
    /// 炮 — moves like a rook, captures by jumping exactly one screen.
    Cannon = 2,
    /// 兵/卒 — one step forward; also sideways after crossing the river.
    Pawn = 3,
    /// 馬 — one step orthogonally then one diagonally; blocked at the leg.
    Horse = 4,
    /// 相/象 — two steps diagonally on its own half; blocked at the eye.
    Elephant = 5,
    /// 帥/將 — one step orthogonally inside the palace.
    King = 6,
}

impl PieceKind {
    /// Number of piece kinds.
    pub const COUNT: usize = 7;

    /// All kinds, in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Advisor,
        PieceKind::Cannon,
        PieceKind::Pawn,
        PieceKind::Horse,
        PieceKind::Elephant,
        PieceKind::King,
    ];

    /// All kinds, the cheapest first: the order in which exchanges try
    /// their capturers (static exchange evaluation, the Chinese rules'
    /// exchange test).
    pub const CHEAPEST_FIRST: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Rook,
        PieceKind::King,
    ];

    /// Index 0..7 into per-kind arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case FEN letter (Red's form): `R A C P N B K`.
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::Rook => 'R',
            PieceKind::Advisor => 'A',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
            PieceKind::Horse => 'N',
            PieceKind::Elephant => 'B',
            PieceKind::King => 'K',
        }
    }

    /// Kind from a FEN letter of either case; accepts `E` (elephant) and `H`
    /// (horse) as aliases of `B` and `N`.
    pub fn from_fen_char(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'R' => PieceKind::Rook,
            'A' => PieceKind::Advisor,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            'N' | 'H' => PieceKind::Horse,
            'B' | 'E' => PieceKind::Elephant,
            'K' => PieceKind::King,
            _ => return None,
        })
    }

    /// English name, lower case ("rook", "horse", …).
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Rook => "rook",
            PieceKind::Advisor => "advisor",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
            PieceKind::Horse => "horse",
            PieceKind::Elephant => "elephant",
            PieceKind::King => "king",
        }
    }
}

/// A coloured piece, packed in one non-zero byte (`1 + kind + 8 * color`) so
/// that `Option<Piece>` is also one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// Size of arrays indexed by [`Piece::index`].
    pub const INDEX_COUNT: usize = 16;

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        match NonZeroU8::new(1 + kind as u8 + 8 * color as u8) {
            Some(v) => Piece(v),
            None => unreachable!(),
        }
    }

    /// The piece's colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0.get() >= 8 { Color::Black } else { Color::Red }
    }

    /// The piece's kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[((self.0.get() - 1) & 7) as usize]
    }

    /// A dense index below [`Piece::INDEX_COUNT`] (used by Zobrist keys and histories).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0.get() as usize
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind().fen_char();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// True if this piece can ever stand on `sq`: kings in their palace,
    /// advisors on its five points, elephants on their seven points of
    /// their own half, pawns on their starting files or across the river,
    /// the others anywhere. A position with a piece elsewhere is refused.
    pub const fn can_stand_on(self, sq: Square) -> bool {
        // Work from Red's point of view.
        let s = match self.color() {
            Color::Red => sq,
            Color::Black => sq.flip_rank(),
        };
        let (f, r) = (s.file(), s.rank());
        match self.kind() {
            PieceKind::King => s.in_palace(Color::Red),
            PieceKind::Advisor => matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
            PieceKind::Elephant => {
                matches!((f, r), (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4))
            }
            PieceKind::Pawn => r >= 5 || (r >= 3 && f % 2 == 0),
            _ => true,
        }
    }

    /// Parses a FEN letter (aliases `E`/`H` accepted).
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_fen_char(c)?;
        let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
        Some(Piece::new(color, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_round_trips_colour_and_kind() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!((p.color(), p.kind()), (color, kind));
                assert!(p.index() < Piece::INDEX_COUNT);
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            }
        }
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }
}
