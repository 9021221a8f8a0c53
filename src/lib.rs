//! Chariot, a xiangqi (Chinese chess) engine: the library behind the
//! `chariot` binary (the engine on stdin/stdout and its command-line tools).
//!
//! # The modules, bottom up
//!
//! Data flows one way: each module uses only those above it in this list
//! (`tests/layers.rs` checks it).
//!
//! | module | what it holds |
//! |---|---|
//! | [`types`] | squares, colours, pieces, bitboards, moves, search scores |
//! | [`board`] | the [`Position`](board::Position): placement, Zobrist key, undo stack, FEN, attack tables, move generation, SEE |
//! | [`notation`] | moves as text, both ways: the Chinese notation (炮二平五), WXF, ICCS, coordinates |
//! | [`gamefile`] | game files in: PGN, XQStudio's XQF, move lists; UTF-8 or GBK text |
//! | [`diagram`] | pictures of positions: the board as SVG, with the last move and arrows |
//! | [`tt`] | the lock-free transposition table shared by the search threads |
//! | [`rules`] | the rule arbiter: mate, stalemate, repetition (Asian and Chinese rules), the 60-round limit; in play and in search |
//! | [`book`] | the opening book: its file format, building one from games, probing |
//! | [`eval`] | the evaluations: classical (hand-set and tuned terms), NNUE ([`eval::nnue`]), the WDL model |
//! | [`search`] | iterative deepening PVS with its move ordering, pruning, time management and strength levels |
//! | [`threads`] | the persistent pool of search threads (Lazy SMP) |
//! | [`engine`] | the facade the protocols drive: position, options, table, threads, book |
//! | [`tools`] | perft, bench, self-play data generation, the tuner, the network trainer, the book builder |
//! | [`protocol`] | the stdin/stdout loop: UCI and UCCI, and CECP in [`protocol::xboard`] |
//! | [`cli`] | the command line of the `chariot` binary |
//!
//! A new protocol dialect goes into [`protocol`] behind its `Command` model; a
//! new evaluation into [`eval`] behind the [`Evaluator`](eval::Evaluator); a
//! new command-line tool into [`tools`] with its one line in [`cli`].

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod board;
pub mod book;
pub mod cli;
pub mod diagram;
pub mod engine;
pub mod eval;
pub mod gamefile;
pub mod notation;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod threads;
pub mod tools;
pub mod tt;
pub mod types;
