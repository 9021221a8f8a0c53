//! Command-line tools: perft, bench, self-play data generation, the
//! evaluation tuner and the opening book's builder.

pub mod bench;
pub mod book;
pub mod datagen;
pub mod perft;
pub mod tune;
