//! Pictures of positions: a board diagram drawn as SVG (the river, the
//! palaces, Chinese piece characters on discs, the last move and arrows for
//! moves or lines), used by `chariot show` and the analysis reports.

mod svg;

pub use svg::svg;

use crate::types::{Color, Move, PieceKind};

/// What an arrow on a diagram stands for; it decides the arrow's colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ArrowKind {
    /// A move of the engine's line (green).
    Best,
    /// The move that was played (red, for a move the analysis marks).
    Played,
}

/// An arrow from a move's origin to its destination.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Arrow {
    /// The move the arrow draws.
    pub mv: Move,
    /// What the arrow stands for.
    pub kind: ArrowKind,
}

/// How to draw a diagram: which side is at the bottom, what to mark.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagram {
    /// The side whose pieces are drawn at the bottom (Red by default).
    pub bottom: Color,
    /// The move that led to the position, marked on its two squares.
    pub last_move: Option<Move>,
    /// Arrows drawn over the pieces, in order (the first one boldest).
    pub arrows: Vec<Arrow>,
    /// The size of one square in pixels (the board is 9 × 10 points).
    pub square: u32,
    /// A caption under the board, if any.
    pub caption: Option<String>,
}

impl Default for Diagram {
    fn default() -> Self {
        Diagram { bottom: Color::Red, last_move: None, arrows: Vec::new(), square: 50, caption: None }
    }
}

/// The character a piece wears on its disc: the traditional forms, which
/// tell Red's pieces (帥 仕 相 傌 炮 俥 兵) from Black's (將 士 象 馬 砲 車 卒)
/// even where the colours are not seen.
pub fn piece_glyph(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::King) => '帥',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Red, PieceKind::Horse) => '傌',
        (Color::Red, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Rook) => '俥',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::King) => '將',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Black, PieceKind::Elephant) => '象',
        (Color::Black, PieceKind::Horse) => '馬',
        (Color::Black, PieceKind::Cannon) => '砲',
        (Color::Black, PieceKind::Rook) => '車',
        (Color::Black, PieceKind::Pawn) => '卒',
    }
}

/// `text` with the five characters XML reserves escaped.
pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
