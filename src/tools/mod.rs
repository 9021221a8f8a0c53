//! Command-line tools: perft, bench, self-play data generation, the
//! evaluation tuner, the network trainer and the opening book's builder.

pub mod analyse;
pub mod analyst;
pub mod args;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod learn;
pub mod perft;
pub mod show;
pub mod train;
pub mod tune;
