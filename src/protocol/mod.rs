//! The protocol loop. A reader thread turns stdin lines into [`Command`]s
//! and sends them over a channel; the loop applies them to the [`Engine`]
//! and prints the search's events, so one thread writes every output line.
//! The dialect (UCI or UCCI) is chosen by the handshake; input that is
//! wrong in any way gets an error line and the loop keeps serving.

pub mod command;
mod format;
pub mod options;
pub mod parse;

use std::io::{BufRead, Write};

use crossbeam_channel::{Receiver, select, unbounded};

use crate::board::Position;
use crate::engine::Engine;
use crate::eval;
use crate::search::{SearchEvent, SearchLimits};
use crate::tools::{bench, perft};
use crate::types::{Color, Move};
use command::{Command, Dialect, GoParams};
use options::{Kind, OptionId};
use parse::shown;

/// Longest input line read in full; the rest of a longer line is dropped.
const MAX_LINE: usize = 4 << 20;

/// Reads commands from `input` until `quit` or end of input, writing replies to `output`.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W) {
    let (tx, rx) = unbounded();
    std::thread::Builder::new()
        .name("stdin-reader".into())
        .spawn(move || {
            let mut input = input;
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match read_line(&mut input, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        if tx.send(parse::parse(&line)).is_err() {
                            break;
                        }
                    }
                }
            }
        })
        .expect("cannot start the input thread");
    let (event_tx, event_rx) = unbounded();
    let mut session = Session {
        out: output,
        dialect: Dialect::Uci,
        engine: Engine::new(event_tx),
        events: event_rx,
        debug: false,
        millis: false,
        batch: false,
        ban_moves: Vec::new(),
        draw_offered: false,
    };
    loop {
        select! {
            recv(rx) -> msg => match msg {
                Ok(cmd) => {
                    if !session.handle(cmd) {
                        break;
                    }
                }
                Err(_) => {
                    session.end_of_input();
                    break;
                }
            },
            recv(session.events) -> ev => {
                if let Ok(ev) = ev {
                    session.on_event(ev);
                }
            }
        }
    }
}

/// Reads one line (up to [`MAX_LINE`] bytes kept) into `buf`; returns bytes consumed.
fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut consumed = 0;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(consumed);
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        input.consume(take);
        consumed += take;
        if done {
            return Ok(consumed);
        }
    }
}

struct Session<W: Write> {
    out: W,
    dialect: Dialect,
    engine: Engine,
    events: Receiver<SearchEvent>,
    debug: bool,
    millis: bool,
    batch: bool,
    ban_moves: Vec<Move>,
    draw_offered: bool,
}

impl<W: Write> Session<W> {
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// An error or notice the GUI shows to its user.
    fn message(&mut self, text: &str) {
        let line = format::message(self.dialect, text);
        self.say(&line);
    }

    fn on_event(&mut self, ev: SearchEvent) {
        let lines = format::event(self.dialect, &ev, self.draw_offered, self.engine.position());
        for line in lines {
            self.say(&line);
        }
        if matches!(ev, SearchEvent::BestMove { .. }) {
            self.draw_offered = false;
        }
    }

    /// Prints every pending event (after waiting for a search).
    fn drain_events(&mut self) {
        while let Ok(ev) = self.events.try_recv() {
            self.on_event(ev);
        }
    }

    /// Stops a running search and prints its result.
    fn stop_and_wait(&mut self) {
        if self.engine.is_searching() {
            self.engine.stop();
            self.engine.wait();
            self.drain_events();
        }
    }

    fn end_of_input(&mut self) {
        // A script piping commands wants the answer to its last `go`, unless
        // that search would never end by itself.
        self.engine.wait_unless_endless();
        self.drain_events();
    }

    /// Applies one command; returns false on `quit`.
    fn handle(&mut self, cmd: Result<Command, String>) -> bool {
        let cmd = match cmd {
            Ok(c) => c,
            Err(e) => {
                self.message(&format!("error: {e}"));
                return true;
            }
        };
        match cmd {
            Command::Empty => {}
            Command::Uci => {
                self.dialect = Dialect::Uci;
                self.handshake();
            }
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                self.handshake();
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.say("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                self.stop_and_wait();
                self.engine.new_game();
            }
            Command::Position { fen, moves } => {
                self.ban_moves.clear();
                if let Err(e) = self.engine.set_position(&fen, &moves) {
                    self.message(&format!("error: {e}"));
                }
            }
            Command::BanMoves(moves) => self.ban(&moves),
            Command::Go(params) => self.go(params),
            Command::Stop => {
                if self.engine.is_searching() {
                    self.engine.stop();
                } else if self.dialect == Dialect::Ucci {
                    self.say("nobestmove");
                }
            }
            Command::PonderHit { draw } => {
                self.draw_offered |= draw;
                self.engine.ponderhit();
            }
            Command::Probe { fen, moves } => self.probe(&fen, &moves),
            Command::Quit => {
                self.stop_and_wait();
                if self.dialect == Dialect::Ucci {
                    self.say("bye");
                }
                return false;
            }
            Command::Display => {
                let text = self.engine.position().to_string();
                for line in text.lines() {
                    self.say(line);
                }
            }
            Command::Eval => {
                let text = eval::trace(self.engine.position());
                for line in text.lines() {
                    self.say(line);
                }
            }
            Command::Bench(depth) => {
                self.stop_and_wait();
                let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
                let n = bench::POSITIONS.len();
                let mut lines = Vec::new();
                let result = bench::run(depth, |i, fen, nodes| {
                    lines.push(format!("position {}/{n}: {nodes} nodes  {fen}", i + 1))
                });
                for l in lines {
                    self.say(&l);
                }
                self.say(&format!("{} nodes {} nps", result.nodes, result.nps));
            }
        }
        true
    }

    fn handshake(&mut self) {
        let version = env!("CARGO_PKG_VERSION");
        match self.dialect {
            Dialect::Uci => {
                self.say(&format!("id name Chariot {version}"));
                self.say("id author the Chariot developers");
            }
            Dialect::Ucci => {
                self.say(&format!("id name Chariot {version}"));
                self.say(&format!("id version {version}"));
                self.say("id copyright the Chariot developers");
                self.say("id author the Chariot developers");
                self.say("id user unknown");
            }
        }
        for line in options::advertise(self.dialect) {
            self.say(&line);
        }
        self.say(if self.dialect == Dialect::Uci { "uciok" } else { "ucciok" });
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some((id, kind)) = options::lookup(name) else {
            self.message(&format!("error: unknown option '{}' (ignored)", shown(name)));
            return;
        };
        let needs_idle =
            matches!(id, OptionId::Hash | OptionId::Threads | OptionId::ClearHash | OptionId::NewGame);
        if needs_idle {
            self.stop_and_wait();
        }
        let number = match kind {
            Kind::Spin { min, max, .. } => {
                let parsed = value.and_then(|v| v.trim().parse::<f64>().ok()).filter(|v| v.is_finite());
                let Some(v) = parsed else {
                    self.message(&format!(
                        "error: option '{}' needs a number, got '{}'",
                        shown(name),
                        shown(value.unwrap_or(""))
                    ));
                    return;
                };
                let clamped = (v.round() as i64).clamp(min, max);
                if clamped as f64 != v.round() {
                    self.message(&format!("option '{}' clamped to {clamped}", shown(name)));
                }
                clamped
            }
            Kind::Check(_) => match value.map(options::parse_bool) {
                Some(Some(b)) => b as i64,
                None => 1,
                Some(None) => {
                    self.message(&format!("error: option '{}' needs true or false", shown(name)));
                    return;
                }
            },
            Kind::Button => 0,
        };
        match id {
            OptionId::Hash => self.engine.set_hash_mb(number as usize),
            OptionId::Threads => self.engine.set_threads(number as usize),
            OptionId::MultiPv => self.engine.config_mut().multipv = number as usize,
            OptionId::MoveOverhead => self.engine.config_mut().move_overhead_ms = number as u64,
            OptionId::Rule60 => self.engine.config_mut().move_limit = number as u16,
            OptionId::ClearHash => self.engine.clear_hash(),
            OptionId::NewGame => self.engine.new_game(),
            OptionId::UseMillisec => self.millis = number != 0,
            OptionId::Batch => self.batch = number != 0,
            OptionId::Debug => self.debug = number != 0,
            OptionId::Ponder | OptionId::Ignored => {}
        }
    }

    fn ban(&mut self, moves: &[String]) {
        self.ban_moves.clear();
        for text in moves {
            match self.engine.position().parse_legal_move(text) {
                Some(m) => self.ban_moves.push(m),
                None => self.message(&format!("error: banmoves: '{}' is not a legal move here", shown(text))),
            }
        }
    }

    fn go(&mut self, p: GoParams) {
        if let Some(depth) = p.perft {
            self.stop_and_wait();
            let mut pos = self.engine.position().clone();
            let mut total = 0;
            for (m, n) in perft::divide(&mut pos, depth) {
                self.say(&format!("{m}: {n}"));
                total += n;
            }
            self.say("");
            self.say(&format!("Nodes searched: {total}"));
            return;
        }
        let side = self.engine.position().side_to_move();
        let limits = self.limits(&p, side);
        self.draw_offered = p.draw_offer;
        self.engine.go(limits);
        if self.batch {
            self.engine.wait();
            self.drain_events();
        }
    }

    /// Converts a `go` command's numbers into search limits for `side` to move.
    fn limits(&mut self, p: &GoParams, side: Color) -> SearchLimits {
        let ms = |v: Option<f64>| v.map(|v| v.min(1e12) as u64);
        let unit = if self.millis { 1.0 } else { 1000.0 };
        let clock = |v: Option<f64>| v.map(|v| (v * unit).min(1e12) as u64);
        let mut l = SearchLimits {
            movestogo: p.movestogo,
            movetime: ms(p.movetime),
            depth: p.depth,
            nodes: p.nodes,
            mate: p.mate,
            infinite: p.infinite,
            ponder: p.ponder,
            ban_moves: self.ban_moves.clone(),
            ..Default::default()
        };
        let (us, them) = (side.index(), (!side).index());
        if p.wtime.is_some() || p.btime.is_some() {
            l.time = [ms(p.wtime), ms(p.btime)];
            l.inc = [ms(p.winc).unwrap_or(0), ms(p.binc).unwrap_or(0)];
        } else if p.time.is_some() {
            l.time[us] = clock(p.time);
            l.time[them] = clock(p.opptime);
            l.inc[us] = clock(p.increment).unwrap_or(0);
            l.inc[them] = clock(p.oppincrement).unwrap_or(0);
        }
        for text in &p.searchmoves {
            match self.engine.position().parse_legal_move(text) {
                Some(m) => l.search_moves.push(m),
                None => {
                    self.message(&format!("error: searchmoves: '{}' is not a legal move here", shown(text)))
                }
            }
        }
        l
    }

    fn probe(&mut self, fen: &str, moves: &[String]) {
        let pos = if fen.is_empty() {
            Ok(self.engine.position().clone())
        } else {
            Position::from_fen(fen).map_err(|e| e.to_string()).and_then(|mut pos| {
                for m in moves {
                    let mv = pos.parse_legal_move(m).ok_or_else(|| format!("illegal move '{}'", shown(m)))?;
                    pos.do_move(mv);
                }
                Ok(pos)
            })
        };
        match pos {
            Ok(pos) => {
                let line = format::pophash(self.engine.probe(&pos));
                self.say(&line);
            }
            Err(e) => self.message(&format!("error: probe: {e}")),
        }
    }
}
