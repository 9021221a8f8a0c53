//! Basic value types shared by every part of the engine: squares, colours,
//! pieces, bitboards, moves and move lists, search scores (mate bands), and
//! the hash of the file formats.

mod bitboard;
mod color;
mod fnv;
mod moves;
mod piece;
pub mod score;
mod square;

pub use bitboard::Bitboard;
pub use color::Color;
pub use fnv::fnv1a;
pub use moves::{MAX_MOVES, Move, MoveList};
pub use piece::{Piece, PieceKind};
pub use square::{File, Rank, Square};
