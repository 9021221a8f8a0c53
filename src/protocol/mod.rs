//! The protocol layer: UCI (as Pikafish speaks it for xiangqi, with the
//! UCI-cyclone form where `position` may be left out) and UCCI 3.0 in one
//! loop, and CECP (the XBoard/WinBoard protocol, version 2) in [`xboard`].
//!
//! * `reader`: an input thread turns each line into a [`Command`] (the one
//!   command model of both dialects, built by [`parse`]) and sends it over a
//!   channel.
//! * `session`: the loop applies commands to the engine, whose search
//!   runs on its own threads and reports on another channel; the session is
//!   the only writer of output and flushes every line. So `stop`, `isready`,
//!   `ponderhit` and `quit` are answered while the engine thinks.
//! * [`options`] is the table of settings all dialects share; [`format`]
//!   writes search results in each dialect's form; `jobs` runs `go perft`
//!   and `bench` in the background; `lazy_engine` builds the engine while
//!   the handshake goes on.
//!
//! The first command chooses the protocol: `xboard` starts a CECP session
//! ([`xboard`]: its own parser and state machine over the same engine);
//! anything else a UCI/UCCI session, where the handshake chooses the
//! dialect: `uci` → UCI, `ucci` → UCCI, the last one wins (VinXiangQi sends
//! both). Before any handshake the engine
//! speaks UCI, which also covers a session that starts with a bare
//! `position`, `fen` or `startpos` line. Input that is wrong in any way gets
//! an error line (`info string` in UCI, `info message` in UCCI) and the loop
//! keeps serving.

pub mod command;
mod format;
mod jobs;
mod lazy_engine;
pub mod options;
pub mod parse;
mod quit_grace;
mod reader;
mod session;
pub mod xboard;

use std::io::{BufRead, Write};

use crossbeam_channel::unbounded;

pub use command::{Command, Dialect};
use lazy_engine::LazyEngine;
use session::Session;

/// Reads commands from `input` until `quit` or the end of the input, writing
/// replies to `output`. The engine starts building at once; the first line
/// that is not blank chooses the protocol.
pub fn run<R: BufRead + Send + 'static, W: Write>(mut input: R, output: W) {
    let (event_tx, events) = unbounded();
    let engine = LazyEngine::spawn(event_tx);
    let Some(first) = reader::first_line(&mut input) else { return };
    let started = if xboard::is_handshake(first.bytes()) {
        reader::spawn(input, xboard::parse, None)
            .map(|commands| xboard::Session::new(output, engine, events).serve(&commands))
    } else {
        reader::spawn(input, parse::parse, Some(first))
            .map(|commands| Session::new(output, engine, events).serve(&commands))
    };
    if let Err(e) = started {
        eprintln!("chariot: cannot start the input thread: {e}");
    }
}
