//! Command-line tools: perft.

pub mod perft;
