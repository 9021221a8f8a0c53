//! Chariot, a xiangqi (Chinese chess) engine.
//!
//! The crate is split the way the engine works: [`types`] (squares, pieces,
//! bitboards, moves), [`board`] (the position, attack tables, move
//! generation), [`rules`] (the rule arbiter: mate, repetition, the no-capture
//! limit), [`book`] (the opening book) and [`tools`] (perft and other
//! command-line tools).

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod board;
pub mod book;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod threads;
pub mod tools;
pub mod tt;
pub mod types;
