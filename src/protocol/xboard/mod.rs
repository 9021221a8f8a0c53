//! CECP, the protocol of XBoard and WinBoard (version 2), for xiangqi.
//!
//! Chosen when the first command is `xboard`. It drives the same engine as
//! the other dialects ([`crate::engine::Engine`]: the time manager, the
//! search, the rule arbiter), through its own parser (`command`) and
//! state machine ([`Session`]), because CECP is stateful where UCI is not:
//! the engine keeps the game, knows which side it plays, moves by itself
//! and claims results.
//!
//! * Moves are in coordinate form with ranks 0–9 (`h2e2`, `a0a1`), as
//!   XBoard writes them on a ten-rank board and as Fairy-Stockfish's CECP
//!   mode does; FENs may use XBoard's letters (`H` horse, `E` elephant).
//! * Thinking lines are `ply score time nodes pv`, with the score in
//!   centipawns from the engine's side, time in centiseconds, mates as
//!   ±(100000 + moves).
//! * Results the arbiter rules are claimed as `1-0 {…}`, `0-1 {…}` or
//!   `1/2-1/2 {…}` with the rule in words, but for wins by a repetition
//!   rule, which XBoard rules itself and would refuse as claims; a proven
//!   loss resigns, and a draw offer is accepted (`offer draw`) unless the
//!   engine is ahead.
//! * Bad input gets `Error (…): …` or `Illegal move: …`, and a refused move
//!   or FEN never changes the position.

mod command;
mod format;
mod move_limit;
mod session;

pub use command::{Command, Control, MoveSet, is_handshake, parse};
pub use session::Session;
