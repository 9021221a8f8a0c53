//! The protocol loop's state and what each command does to it.
//!
//! The session owns the only writer to the GUI. It waits on three channels
//! at once: commands from the input thread, events from the search, and the
//! output of a background job (`go perft`, `bench`). Before it acts on a
//! command it prints everything the search has already reported, so a reply
//! never overtakes a `bestmove` that was decided before the command arrived.
//!
//! A search is "thinking" from its `go` until its `bestmove` line is printed
//! (the UCCI state model); a `stop` while idle is answered with `nobestmove`
//! in UCCI and ignored in UCI.
//!
//! UCCI batch mode (`setoption batch true`) is for scripts: while the engine
//! thinks, commands wait in a queue and run in order once the search has
//! answered, so a `go` is never cut short by the next line. Only `isready`,
//! `stop` and `ponderhit` are answered at once, so the engine never stops
//! responding. A `quit` waits for the queue, so a script runs to its end.
//!
//! At the end of the input the queued commands still run, searches and jobs
//! finish (a search that would wait for the GUI forever is stopped), and then
//! the loop ends: `printf 'position startpos\ngo depth 8\n' | chariot` prints
//! the move.
//!
//! Both waits are for scripts. Input that had malformed lines is no script
//! to honour in full (it is a GUI gone wrong, or a fuzzer): then the engine
//! gives the remaining work a grace period and ends (see [`QuitGrace`]).

use std::collections::VecDeque;
use std::io::Write;

use crossbeam_channel::{Receiver, TryRecvError, never, select};

use super::command::{Command, Dialect, GoParams, PositionSpec};
use super::format::shown;
use super::format::{self, DrawFlags};
use super::jobs::{Job, JobOutput};
use super::lazy_engine::LazyEngine;
use super::options::{self, OptionId, Setting};
use super::quit_grace::QuitGrace;
use super::reader::Input;
use crate::board::Position;
use crate::engine::{PositionError, play_moves};
use crate::eval;
use crate::rules::Outcome;
use crate::search::{SearchEvent, SearchLimits};
use crate::tools::bench;
use crate::types::{Color, Move};

/// At most this many rejected moves are quoted in one message.
const QUOTED_MOVES: usize = 5;

/// See the module comment.
pub struct Session<W: Write> {
    out: W,
    dialect: Dialect,
    engine: LazyEngine,
    events: Receiver<SearchEvent>,
    /// One entry per search started and not yet answered, oldest first
    /// (more than one only when a `go` interrupts a search).
    searches: VecDeque<DrawFlags>,
    job: Option<Job>,
    debug: bool,
    /// UCI `UCI_ShowWDL`: win/draw/loss chances in `info` lines.
    show_wdl: bool,
    /// UCCI `usemillisec`: clock values are milliseconds, not seconds.
    millis: bool,
    /// UCCI `batch`: commands wait until the search has answered.
    batch: bool,
    ban_moves: Vec<Move>,
    /// Commands held back in batch mode, in order.
    deferred: VecDeque<Input>,
    /// The input has had a line that could not be parsed.
    /// When the engine stops waiting for the work to end after malformed input.
    grace: QuitGrace,
}

impl<W: Write> Session<W> {
    /// A session writing to `out`, driving `engine`, whose search events
    /// come on `events`.
    pub fn new(out: W, engine: LazyEngine, events: Receiver<SearchEvent>) -> Session<W> {
        Session {
            out,
            dialect: Dialect::Uci,
            engine,
            events,
            searches: VecDeque::new(),
            job: None,
            debug: false,
            show_wdl: false,
            millis: false,
            batch: false,
            ban_moves: Vec::new(),
            deferred: VecDeque::new(),
            grace: QuitGrace::default(),
        }
    }

    /// Serves `commands` until `quit` or the end of the input.
    pub fn serve(&mut self, commands: &Receiver<Input>) {
        let mut input_open = true;
        loop {
            self.flush();
            if !self.holding()
                && let Some(input) = self.deferred.pop_front()
            {
                if !self.execute(input) {
                    return;
                }
                continue;
            }
            if !input_open && !self.busy() {
                return;
            }
            if !input_open && self.engine.is_endless() {
                self.engine.stop();
            }
            let commands = if input_open { commands.clone() } else { never() };
            let events = self.events.clone();
            let job_output = self.job.as_ref().map_or_else(never, |j| j.output().clone());
            let quit_deadline = self.grace.timer();
            let search_deadline = self.engine.search_deadline();
            select! {
                recv(commands) -> input => match input {
                    Ok(input) => {
                        if !self.accept(input) {
                            return;
                        }
                    }
                    Err(_) => {
                        input_open = false;
                        self.grace.start();
                    }
                },
                recv(events) -> ev => {
                    if let Ok(ev) = ev {
                        self.on_event(ev);
                    }
                }
                recv(job_output) -> out => match out {
                    Ok(out) => self.print_job_output(out),
                    Err(_) => self.job = None,
                },
                recv(quit_deadline) -> _ => return self.abandon_queue(),
                recv(search_deadline) -> _ => self.engine.stop(),
            }
        }
    }

    /// Writes one line and flushes it.
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// A notice the GUI shows to its user.
    fn message(&mut self, text: &str) {
        let line = format::message(self.dialect, text);
        self.say(&line);
    }

    fn error(&mut self, text: &str) {
        self.message(&format!("error: {text}"));
    }

    fn busy(&self) -> bool {
        !self.searches.is_empty() || self.job.is_some()
    }

    /// True while batch mode holds commands back.
    fn holding(&self) -> bool {
        self.batch && self.busy()
    }

    /// Prints whatever the search and the job have reported so far.
    fn flush(&mut self) {
        while let Ok(ev) = self.events.try_recv() {
            self.on_event(ev);
        }
        while let Some(job) = &self.job {
            match job.output().try_recv() {
                Ok(out) => self.print_job_output(out),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => self.job = None,
            }
        }
    }

    fn on_event(&mut self, ev: SearchEvent) {
        let draw = self.searches.front().copied().unwrap_or_default();
        for line in format::event(self.dialect, &ev, draw, self.show_wdl) {
            self.say(&line);
        }
        if matches!(ev, SearchEvent::BestMove { .. }) {
            self.searches.pop_front();
        }
    }

    fn print_job_output(&mut self, out: JobOutput) {
        match out {
            JobOutput::Line(line) => self.say(&line),
            JobOutput::Note(text) => self.message(&text),
        }
    }

    /// Takes a command from the input: runs it, or holds it back in batch
    /// mode while thinking. Returns false on `quit`.
    fn accept(&mut self, input: Input) -> bool {
        self.grace.saw(input.is_err());
        let answered_now = match &input {
            Ok(Command::Quit) => self.engine.is_endless(),
            Ok(cmd) => cmd.answered_while_batch_thinking(),
            Err(_) => false,
        };
        if !answered_now && (self.holding() || !self.deferred.is_empty()) {
            let quit = matches!(input, Ok(Command::Quit));
            self.deferred.push_back(input);
            if quit {
                self.grace.start();
            }
            return true;
        }
        self.execute(input)
    }

    /// Runs one command; returns false on `quit`.
    fn execute(&mut self, input: Input) -> bool {
        self.flush();
        match input {
            Ok(cmd) => return self.handle(cmd),
            Err(e) => self.error(&e),
        }
        true
    }

    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Empty => {}
            Command::Uci => self.handshake(Dialect::Uci),
            Command::Ucci => self.handshake(Dialect::Ucci),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.say("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => self.new_game(),
            Command::Position(spec) => self.set_position(&spec),
            Command::BanMoves(moves) => self.ban(&moves),
            Command::Go(params) => self.go(&params),
            Command::Stop => self.stop(),
            Command::PonderHit { draw } => {
                if let Some(flags) = self.searches.back_mut() {
                    flags.offered |= draw;
                }
                self.engine.ponderhit(None);
            }
            Command::Probe(spec) => self.probe(spec.as_ref()),
            Command::Quit => {
                self.quit();
                return false;
            }
            Command::Display(notation) => {
                let pos = self.engine.position();
                let mut text = pos.to_string();
                if let Some(n) = notation {
                    text += &format!(
                        "\nMoves: {}\nLegal: {}",
                        format::game_moves(pos, n),
                        format::legal_moves(pos, n)
                    );
                }
                self.say_lines(&text)
            }
            Command::Eval => {
                let pos = self.engine.position();
                let net = eval::network_trace(self.engine.network(), pos, self.engine.uses_nnue());
                self.say_lines(&format!("{}\n{net}", eval::trace(pos)));
            }
            Command::Bench(depth) => {
                self.stop_all();
                let network = self.engine.search_network();
                let rules = self.engine.config().rules;
                self.start_job(Job::bench(depth.unwrap_or(bench::DEFAULT_DEPTH), rules, network));
            }
        }
        true
    }

    fn say_lines(&mut self, text: &str) {
        for line in text.lines() {
            self.say(line);
        }
    }

    fn handshake(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        let version = env!("CARGO_PKG_VERSION");
        self.say(&format!("id name Chariot {version}"));
        if dialect == Dialect::Ucci {
            self.say(&format!("id version {version}"));
            self.say("id copyright the Chariot developers");
        }
        self.say("id author the Chariot developers");
        for line in options::advertise(dialect) {
            self.say(&line);
        }
        self.say(if dialect == Dialect::Uci { "uciok" } else { "ucciok" });
    }

    /// Stops the search (if any) and prints its last lines, `bestmove` included.
    fn stop_search(&mut self) {
        self.engine.stop();
        self.engine.wait();
        // The search sends its move before it reports that it is done.
        self.flush();
        self.searches.clear();
    }

    /// Stops the search and the job (if any) and prints their last lines.
    fn stop_all(&mut self) {
        self.stop_search();
        if let Some(job) = self.job.take() {
            job.stop();
            for out in job.output().iter() {
                self.print_job_output(out);
            }
        }
    }

    fn stop(&mut self) {
        if let Some(job) = &self.job {
            job.stop();
        } else if !self.searches.is_empty() {
            self.engine.stop();
        } else if self.dialect == Dialect::Ucci {
            self.say("nobestmove");
        }
    }

    fn quit(&mut self) {
        self.stop_all();
        if self.dialect == Dialect::Ucci {
            self.say("bye");
        }
    }

    /// The grace is over: drops the queue, stops, and ends (with `bye` if a
    /// `quit` was queued).
    fn abandon_queue(&mut self) {
        let quit_queued = self.deferred.iter().any(|i| matches!(i, Ok(Command::Quit)));
        self.deferred.clear();
        if quit_queued {
            self.quit();
        } else {
            self.stop_all();
        }
    }

    fn start_job(&mut self, job: std::io::Result<Job>) {
        match job {
            Ok(job) => self.job = Some(job),
            Err(e) => self.error(&format!("cannot start a thread: {e}")),
        }
    }

    fn new_game(&mut self) {
        self.stop_search();
        if let Err(e) = self.engine.new_game() {
            self.error(&e);
        }
        self.ban_moves.clear();
    }

    fn set_position(&mut self, spec: &PositionSpec) {
        self.ban_moves.clear();
        match self.engine.set_position(&spec.fen, &spec.moves) {
            Ok(()) => {}
            Err(e @ PositionError::BadFen(_)) => self.error(&format!("position: {e}; position unchanged")),
            Err(e @ PositionError::IllegalMove { .. }) => self.error(&format!("position: {e}")),
        }
    }

    fn ban(&mut self, moves: &[String]) {
        let pos = self.engine.position();
        let (legal, rejected) = legal_moves(pos, moves);
        let all_banned = !legal.is_empty() && legal.len() == pos.legal_move_count();
        self.ban_moves = legal;
        if !rejected.is_empty() {
            self.error(&rejected_moves("banmoves", &rejected));
        }
        if all_banned {
            self.message("banmoves: every legal move is banned; the search will choose among them all");
        }
    }

    fn go(&mut self, p: &GoParams) {
        let ruled_draw = self.engine.ruling().outcome == Some(Outcome::Draw);
        let pos = self.engine.position();
        if let Some(depth) = p.perft {
            let pos = pos.clone();
            self.stop_all();
            self.start_job(Job::perft(pos, depth));
            return;
        }
        if self.dialect == Dialect::Ucci && p.depth == Some(0) {
            // UCCI: `go depth 0` asks for the static evaluation only.
            let score = format::ucci_score(self.engine.static_eval());
            self.stop_all();
            self.say(&format!("info depth 0 score {score}"));
            self.say("nobestmove");
            return;
        }
        let unit_ms = if self.millis || p.fairyground { 1.0 } else { 1000.0 };
        let (limits, rejected) = search_limits(p, pos, unit_ms, &self.ban_moves);
        let draw = DrawFlags { offered: p.draw_offer, game_drawn: ruled_draw || eval::is_dead_draw(pos) };
        if !rejected.is_empty() {
            self.error(&rejected_moves("searchmoves", &rejected));
        }
        self.stop_all();
        if self.debug {
            self.message(&format::limits(&limits));
        }
        self.searches.push_back(draw);
        self.engine.go(limits);
    }

    fn probe(&mut self, spec: Option<&PositionSpec>) {
        let pos = match spec {
            None => Ok(self.engine.position().clone()),
            Some(spec) => {
                Position::from_fen(&spec.fen).map_err(|e| PositionError::BadFen(e).to_string()).and_then(
                    |mut pos| play_moves(&mut pos, &spec.moves).map(|()| pos).map_err(|e| e.to_string()),
                )
            }
        };
        match pos {
            Ok(pos) => {
                let line = format::pophash(self.engine.probe(&pos));
                self.say(&line);
            }
            Err(e) => self.error(&format!("probe: {e}")),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match options::resolve(name, value) {
            Ok((setting, notice)) => {
                if let Some(notice) = notice {
                    self.message(&notice);
                }
                self.apply(setting);
            }
            Err(e) => self.error(&format!("setoption: {e}")),
        }
    }

    fn apply(&mut self, s: Setting) {
        let on = s.value != 0;
        match s.id {
            OptionId::NewGame => self.new_game(),
            OptionId::UseMillisec => self.millis = on,
            OptionId::Batch => self.batch = on,
            OptionId::Debug => self.debug = on,
            OptionId::ShowWdl => self.show_wdl = on,
            _ => {
                if s.needs_idle_engine() {
                    self.stop_search();
                }
                if let Err(e) = s.apply_to(&mut self.engine) {
                    self.error(&format!("setoption: {e}"));
                }
            }
        }
    }
}

/// The moves of `texts` that are legal in `pos` (each once), and the texts
/// that are not.
fn legal_moves<'a>(pos: &Position, texts: &'a [String]) -> (Vec<Move>, Vec<&'a str>) {
    let mut legal = Vec::new();
    let mut rejected = Vec::new();
    for text in texts {
        match pos.parse_legal_move(text) {
            Some(m) if legal.contains(&m) => {}
            Some(m) => legal.push(m),
            None => rejected.push(text.as_str()),
        }
    }
    (legal, rejected)
}

/// "`what`: ignored 2 moves that are not legal here: 'a', 'b'".
fn rejected_moves(what: &str, rejected: &[&str]) -> String {
    let mut quoted: Vec<String> =
        rejected.iter().take(QUOTED_MOVES).map(|m| format!("'{}'", shown(m))).collect();
    if rejected.len() > QUOTED_MOVES {
        quoted.push("…".into());
    }
    let n = rejected.len();
    let moves = if n == 1 { "move that is" } else { "moves that are" };
    format!("{what}: ignored {n} {moves} not legal here: {}", quoted.join(", "))
}

/// The search limits a `go` asks for in `pos`. UCCI clock values are
/// multiplied by `unit_ms` (1000 when they are seconds); everything else is
/// already in milliseconds. Also returns the `searchmoves` that are not legal.
fn search_limits<'a>(
    p: &'a GoParams,
    pos: &Position,
    unit_ms: f64,
    ban_moves: &[Move],
) -> (SearchLimits, Vec<&'a str>) {
    let ms = |v: Option<f64>| v.map(|v| v.round() as u64);
    let clock = |v: Option<f64>| v.map(|v| (v * unit_ms).min(1e12).round() as u64);
    let (search_moves, rejected) = legal_moves(pos, &p.searchmoves);
    let mut l = SearchLimits {
        movestogo: p.movestogo,
        movetime: ms(p.movetime),
        depth: p.depth,
        nodes: p.nodes,
        mate: p.mate,
        infinite: p.infinite,
        ponder: p.ponder,
        search_moves,
        ban_moves: ban_moves.to_vec(),
        ..Default::default()
    };
    let (red, black) = (Color::Red.index(), Color::Black.index());
    if p.wtime.is_some() || p.btime.is_some() {
        l.time = [ms(p.wtime), ms(p.btime)];
        l.inc[red] = ms(p.winc).unwrap_or(0);
        l.inc[black] = ms(p.binc).unwrap_or(0);
    } else if p.time.is_some() {
        let (us, them) = (pos.side_to_move().index(), (!pos.side_to_move()).index());
        l.time[us] = clock(p.time);
        l.time[them] = clock(p.opptime);
        l.inc[us] = clock(p.increment).unwrap_or(0);
        l.inc[them] = clock(p.oppincrement).unwrap_or(0);
    }
    (l, rejected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse::parse;

    fn go(line: &str) -> GoParams {
        match parse(line).unwrap() {
            Command::Go(p) => p,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn clocks_and_units() {
        let red = Position::startpos();
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b").unwrap();
        let (l, _) = search_limits(&go("go time 300 increment 2 opptime 200"), &red, 1000.0, &[]);
        assert_eq!((l.time, l.inc), ([Some(300_000), Some(200_000)], [2000, 0]));
        let (l, _) = search_limits(&go("go time 300 increment 2 opptime 200"), &black, 1.0, &[]);
        assert_eq!((l.time, l.inc), ([Some(200), Some(300)], [0, 2]));
        let (l, _) =
            search_limits(&go("go wtime 1000 btime 900 winc 5 binc 6 movestogo 3"), &black, 1000.0, &[]);
        assert_eq!((l.time, l.inc, l.movestogo), ([Some(1000), Some(900)], [5, 6], Some(3)));
        let (l, _) = search_limits(&go("go movetime 300"), &red, 1000.0, &[]);
        assert_eq!(l.movetime, Some(300));
    }

    #[test]
    fn searchmoves_and_bans() {
        let pos = Position::startpos();
        let ban = [Move::parse("h2e2").unwrap()];
        let params = go("go depth 3 searchmoves b2e2 h2h8 b2e2 zz");
        let (l, rejected) = search_limits(&params, &pos, 1.0, &ban);
        assert_eq!(l.search_moves, vec![Move::parse("b2e2").unwrap()]);
        assert_eq!(l.ban_moves, ban.to_vec());
        assert_eq!(rejected, vec!["h2h8", "zz"]);
        let msg = rejected_moves("searchmoves", &rejected);
        assert_eq!(msg, "searchmoves: ignored 2 moves that are not legal here: 'h2h8', 'zz'");
        let many: Vec<&str> = vec!["x"; 100_000];
        assert!(rejected_moves("banmoves", &many).len() < 120);
    }
}
