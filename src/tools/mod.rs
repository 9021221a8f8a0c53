//! Command-line tools: perft and bench.

pub mod bench;
pub mod perft;
