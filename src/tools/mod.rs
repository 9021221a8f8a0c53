//! Command-line tools: perft, bench, self-play data generation and the
//! evaluation tuner.

pub mod bench;
pub mod datagen;
pub mod perft;
pub mod tune;
