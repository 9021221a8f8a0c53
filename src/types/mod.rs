//! Basic value types shared by every part of the engine: squares, colours,
//! pieces, bitboards, moves and move lists.

mod bitboard;
mod color;
mod moves;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use color::Color;
pub use moves::{MAX_MOVES, Move, MoveList};
pub use piece::{Piece, PieceKind};
pub use square::{File, Rank, Square};
