//! The protocol layer: UCI (as Pikafish speaks it for xiangqi, with the
//! UCI-cyclone form where `position` may be left out) and UCCI 3.0 in one
//! loop.
//!
//! * [`reader`]: an input thread turns each line into a [`Command`] (the one
//!   command model of both dialects, built by [`parse`]) and sends it over a
//!   channel.
//! * [`session`]: the loop applies commands to the engine, whose search
//!   runs on its own threads and reports on another channel; the session is
//!   the only writer of output and flushes every line. So `stop`, `isready`,
//!   `ponderhit` and `quit` are answered while the engine thinks.
//! * [`options`] is the table of settings both dialects share; [`format`]
//!   writes search results in each dialect's form; [`jobs`] runs `go perft`
//!   and `bench` in the background.
//!
//! The dialect is chosen by the handshake: `uci` → UCI, `ucci` → UCCI, the
//! last one wins (VinXiangQi sends both). Before any handshake the engine
//! speaks UCI, which also covers a session that starts with a bare
//! `position`, `fen` or `startpos` line. Input that is wrong in any way gets
//! an error line (`info string` in UCI, `info message` in UCCI) and the loop
//! keeps serving.

pub mod command;
mod format;
mod jobs;
pub mod options;
pub mod parse;
mod reader;
mod session;

use std::io::{BufRead, Write};

pub use command::{Command, Dialect};
use session::Session;

/// Reads commands from `input` until `quit` or the end of the input, writing
/// replies to `output`.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W) {
    let mut session = Session::new(output);
    match reader::spawn(input) {
        Ok(commands) => session.serve(&commands),
        Err(e) => eprintln!("chariot: cannot start the input thread: {e}"),
    }
}
