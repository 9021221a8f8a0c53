//! The CECP state machine: who the engine plays, the game on its board, the
//! clocks, and what the running search is for.
//!
//! The loop waits on the commands and the search's events at once, and
//! prints what the search has reported before it acts on a command, so the
//! engine's move is on the board before the next command sees it. A search
//! is for one of three things ([`Running`]): the engine's move, pondering
//! on a guessed reply (the guess is on the board, and taken back on a
//! miss), or an analysis. A command that changes the game or the mode stops
//! the search first and drops its result ("settles").
//!
//! `ping` while the engine thinks about its move is answered after the
//! move, as CECP demands; the commands after it wait their turn. Only
//! `quit` and `?` act at once. `memory`, `cores` and `option` wait for the
//! move too (they would resize the table under the search).
//!
//! At the end of the input the engine finishes the move it is thinking
//! about and exits (an analysis or a ponder search is stopped), so
//! `printf 'xboard\nnew\ngo\n' | chariot` prints a move. After malformed
//! input the remaining work gets the same grace as in the UCI session.

use std::collections::VecDeque;
use std::io::Write;
use std::time::Instant;

use crossbeam_channel::{Receiver, never, select};

use super::command::{Command, Control, MoveSet, shown};
use super::format;
use super::move_limit;
use crate::board::{Position, START_FEN};
use crate::eval;
use crate::protocol::format::{DrawFlags, Verdict};
use crate::protocol::lazy_engine::LazyEngine;
use crate::protocol::options::{self, OptionId};
use crate::protocol::quit_grace::QuitGrace;
use crate::protocol::reader::Input;
use crate::rules::Rule;
use crate::search::{SearchEvent, SearchLimits};
use crate::types::{Color, Move};

/// The time control before the GUI sends one: XBoard's default, 40 moves
/// in 5 minutes.
const DEFAULT_CONTROL: Control = Control::Level { moves: 40, base_ms: 300_000, inc_ms: 0 };

/// Whom the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Neither side (`force`): moves are only checked and played.
    Force,
    /// This side: the engine thinks whenever it is on move.
    Play(Color),
    /// Neither side, analysing every position (`analyze`).
    Analyze,
}

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Running {
    /// The engine's move.
    Think,
    /// The engine's next move, assuming the opponent plays this guess
    /// (which is on the board).
    Ponder(Move),
    /// An analysis, until told otherwise.
    Analyze,
}

/// The time control and the clocks as the GUI last gave them.
#[derive(Clone, Copy, Debug)]
struct Clocks {
    control: Control,
    /// `sd`: depth limit.
    depth: Option<u32>,
    /// The engine's clock (`time`).
    own_ms: u64,
    /// The opponent's clock (`otim`).
    opp_ms: u64,
}

impl Clocks {
    fn new() -> Clocks {
        let mut c = Clocks { control: DEFAULT_CONTROL, depth: None, own_ms: 0, opp_ms: 0 };
        c.reset();
        c
    }

    /// Both clocks back to the start of a period.
    fn reset(&mut self) {
        if let Control::Level { base_ms, .. } = self.control {
            self.own_ms = base_ms;
            self.opp_ms = base_ms;
        }
    }

    /// The limits for the engine's search in `pos`, where it is on move.
    fn limits(&self, pos: &Position, excluded: &[Move]) -> SearchLimits {
        let mut l = SearchLimits { depth: self.depth, ban_moves: excluded.to_vec(), ..Default::default() };
        match self.control {
            Control::PerMove(ms) => l.movetime = Some(ms),
            Control::Level { moves, inc_ms, .. } => {
                let us = pos.side_to_move();
                l.time[us.index()] = Some(self.own_ms);
                l.time[(!us).index()] = Some(self.opp_ms);
                l.inc = [inc_ms; 2];
                if moves > 0 {
                    // Our moves so far in this game: every other ply.
                    let made = (pos.game_ply() / 2) as u32;
                    l.movestogo = Some(moves - made % moves);
                }
            }
        }
        l
    }

    /// The engine's clock after a move that took `used_ms`: an estimate,
    /// for pondering, until the GUI sends the real one.
    fn after_own_move(&mut self, used_ms: u64) {
        if let Control::Level { inc_ms, .. } = self.control {
            self.own_ms = self.own_ms.saturating_sub(used_ms) + inc_ms;
        }
    }
}

/// See the module comment.
pub struct Session<W: Write> {
    out: W,
    engine: LazyEngine,
    events: Receiver<SearchEvent>,
    mode: Mode,
    running: Option<Running>,
    /// When the running search started (or the ponder search was hit).
    started: Instant,
    /// Depth of the last thinking line of the running search.
    depth: u32,
    clocks: Clocks,
    post: bool,
    ponder: bool,
    /// The opponent has offered a draw since the engine's last move.
    draw_offered: bool,
    /// Root moves not to search (`exclude`), until the position changes.
    excluded: Vec<Move>,
    /// The reply the engine's last search expected (`hint`, pondering).
    expected: Option<Move>,
    /// `#` lines are welcome (`feature debug=1` was not rejected).
    notes: bool,
    /// Commands held back until the engine has moved (after a `ping`).
    deferred: VecDeque<Input<Command>>,
    /// The no-capture limit (`Rule60`) set aside while the Asian rules'
    /// move-limit draw is due but XBoard would refuse its claim (see
    /// [`move_limit`]): the engine plays on without it until XBoard's count
    /// allows the claim, a capture, or a change of position or option.
    limit_set_aside: Option<u16>,
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
            engine,
            events,
            mode: Mode::Force,
            running: None,
            started: Instant::now(),
            depth: 0,
            clocks: Clocks::new(),
            post: false,
            ponder: false,
            draw_offered: false,
            excluded: Vec::new(),
            expected: None,
            notes: true,
            deferred: VecDeque::new(),
            limit_set_aside: None,
            grace: QuitGrace::default(),
        }
    }

    /// Serves `commands` until `quit` or the end of the input.
    pub fn serve(&mut self, commands: &Receiver<Input<Command>>) {
        let mut input_open = true;
        loop {
            self.flush();
            if !self.thinking()
                && let Some(input) = self.deferred.pop_front()
            {
                if !self.execute(input) {
                    return;
                }
                continue;
            }
            if !input_open {
                if matches!(self.running, Some(Running::Ponder(_) | Running::Analyze)) {
                    self.settle();
                }
                if self.running.is_none() {
                    return;
                }
            }
            let commands = if input_open { commands.clone() } else { never() };
            let events = self.events.clone();
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
                recv(quit_deadline) -> _ => return self.settle(),
                recv(search_deadline) -> _ => self.engine.stop(),
            }
        }
    }

    /// True while the engine thinks about its own move.
    fn thinking(&self) -> bool {
        self.running == Some(Running::Think)
    }

    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    fn note(&mut self, text: &str) {
        if self.notes {
            let line = format::note(text);
            self.say(&line);
        }
    }

    /// Prints whatever the search has reported so far.
    fn flush(&mut self) {
        while let Ok(ev) = self.events.try_recv() {
            self.on_event(ev);
        }
    }

    /// Takes a command from the input: runs it, or holds it back until the
    /// engine has moved. Returns false on `quit`.
    fn accept(&mut self, input: Input<Command>) -> bool {
        self.grace.saw(input.is_err());
        let waits = match &input {
            Ok(Command::Quit | Command::MoveNow) => false,
            Ok(Command::Ping(_) | Command::Memory(_) | Command::Cores(_) | Command::SetOption { .. }) => {
                self.thinking() || !self.deferred.is_empty()
            }
            // Behind a held-back command, everything waits its turn.
            _ => !self.deferred.is_empty(),
        };
        if waits {
            self.deferred.push_back(input);
            return true;
        }
        self.execute(input)
    }

    /// Runs one command; returns false on `quit`.
    fn execute(&mut self, input: Input<Command>) -> bool {
        self.flush();
        match input {
            Ok(cmd) => return self.handle(cmd),
            // The parser's refusals are the whole reply; the reader's are sentences.
            Err(e) if e.starts_with("Error (") => self.say(&e),
            Err(e) => self.say(&format!("Error (refused input): {e}")),
        }
        true
    }

    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Empty | Command::Ignored => {}
            Command::Protover => {
                for line in format::features() {
                    self.say(&line);
                }
            }
            Command::Rejected(feature) => self.notes &= feature != "debug",
            Command::New => self.new_game(),
            Command::Variant(v) if v.eq_ignore_ascii_case("xiangqi") => {}
            Command::Variant(v) => {
                self.say(&format!("Error (only xiangqi is played): variant {}", shown(&v)))
            }
            Command::Force | Command::Result => {
                self.settle();
                self.mode = Mode::Force;
            }
            Command::Go => {
                self.settle();
                self.mode = Mode::Play(self.engine.position().side_to_move());
                self.think();
            }
            Command::PlayOther => {
                self.settle();
                self.mode = Mode::Play(!self.engine.position().side_to_move());
            }
            Command::Move(text) => self.user_move(&text),
            Command::SetBoard(fen) => self.set_board(&fen),
            Command::TimeControl(control) => {
                self.clocks.control = control;
                self.clocks.reset();
            }
            Command::Depth(d) => self.clocks.depth = Some(d),
            Command::Time(ms) => self.clocks.own_ms = ms,
            Command::OppTime(ms) => self.clocks.opp_ms = ms,
            Command::MoveNow => {
                if self.thinking() {
                    self.engine.stop();
                    self.flush();
                }
            }
            Command::Ping(n) => self.say(&format!("pong {n}")),
            Command::Draw => self.draw_offered = true,
            Command::Undo => self.take_back(1),
            Command::Remove => self.take_back(2),
            Command::Ponder(on) => {
                self.ponder = on;
                if !on && matches!(self.running, Some(Running::Ponder(_))) {
                    self.settle();
                }
            }
            Command::Post(on) => self.post = on,
            Command::Analyze => {
                self.settle();
                self.mode = Mode::Analyze;
                self.analyze();
            }
            Command::Exit => {
                if self.mode == Mode::Analyze {
                    self.settle();
                    self.mode = Mode::Force;
                }
            }
            Command::Status => self.status(),
            Command::Book => self.book(),
            Command::Hint => {
                if let Some(m) = self.expected.filter(|&m| is_legal(self.engine.position(), m)) {
                    self.say(&format!("Hint: {m}"));
                }
            }
            Command::Memory(mb) => self.set_option("Hash", Some(&mb.to_string())),
            Command::Cores(n) => self.set_option("Threads", Some(&n.to_string())),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Exclude(set) => self.exclude(set, true),
            Command::Include(set) => self.exclude(set, false),
            Command::Quit => {
                self.settle();
                return false;
            }
        }
        true
    }

    fn on_event(&mut self, ev: SearchEvent) {
        match ev {
            SearchEvent::Info(i) if self.running.is_some() => {
                self.depth = i.depth;
                if self.post {
                    self.say(&format::thinking(&i));
                }
            }
            SearchEvent::Info(_) => {}
            SearchEvent::Message(text) => self.note(&text),
            SearchEvent::BestMove { best, ponder, score } => match self.running.take() {
                Some(Running::Think) => self.own_move(best, ponder, score),
                Some(Running::Ponder(_)) => {
                    self.engine.take_back();
                }
                Some(Running::Analyze) | None => {}
            },
        }
    }

    /// Stops the running search (if any) and drops what it still reports; a
    /// ponder guess is taken back.
    fn settle(&mut self) {
        if let Some(running) = self.running.take() {
            self.engine.stop();
            self.engine.wait();
            self.flush();
            if let Running::Ponder(_) = running {
                self.engine.take_back();
            }
        }
    }

    /// The position changed: exclusions and the expected reply lapse.
    fn position_changed(&mut self) {
        self.restore_limit();
        self.excluded.clear();
        self.expected = None;
        if self.mode == Mode::Analyze {
            self.analyze();
        }
    }

    /// If the arbiter says the game is over, claims the result and stops
    /// playing; true if it did. A win by a repetition rule is not claimed
    /// (see [`format::is_claimed`]): the debug log says so, and play goes on.
    fn claim_if_over(&mut self) -> bool {
        if let Some(limit) = self.limit_set_aside {
            let pos = self.engine.position();
            if pos.rule60() < limit {
                // A capture since: the rule applies again.
                self.restore_limit();
            } else if move_limit::counted_plies(pos) >= move_limit::CLAIMABLE_PLIES {
                let result = format::move_limit_result(pos.rule60(), limit);
                self.say(&result);
                self.mode = Mode::Force;
                return true;
            }
        }
        let ruling = self.engine.ruling();
        let Some(result) = format::result(&ruling) else { return false };
        if !format::is_claimed(&ruling) {
            self.note(&format!("the rules give {result}; not claimed: XBoard rules repetitions itself"));
            return false;
        }
        if let Rule::MoveLimit { limit, .. } = ruling.rule {
            let counted = move_limit::counted_plies(self.engine.position());
            if counted < move_limit::CLAIMABLE_PLIES {
                self.note(&format!(
                    "the rules give {result}; not claimed: XBoard counts {counted} plies (it restarts at a pawn move and skips checks) and would refuse it; playing on without the limit until it would not"
                ));
                self.engine.config_mut().rules.move_limit = 0;
                self.limit_set_aside = Some(limit);
                return false;
            }
        }
        self.say(&result);
        self.mode = Mode::Force;
        true
    }

    /// Puts back the no-capture limit set aside for XBoard's count.
    fn restore_limit(&mut self) {
        if let Some(limit) = self.limit_set_aside.take() {
            self.engine.config_mut().rules.move_limit = limit;
        }
    }

    /// Starts thinking about the engine's move (or claims the result).
    fn think(&mut self) {
        if self.claim_if_over() {
            return;
        }
        let limits = self.clocks.limits(self.engine.position(), &self.excluded);
        self.start(Running::Think, limits);
    }

    fn start(&mut self, running: Running, limits: SearchLimits) {
        self.running = Some(running);
        self.started = Instant::now();
        self.depth = 0;
        self.engine.go(limits);
    }

    fn analyze(&mut self) {
        let pos = self.engine.position();
        let legal = pos.legal_moves();
        if !legal.is_empty() && legal.iter().all(|m| self.excluded.contains(m)) {
            // `exclude all`: nothing to analyse until a move is included again.
            return;
        }
        let limits = SearchLimits { infinite: true, ban_moves: self.excluded.clone(), ..Default::default() };
        self.start(Running::Analyze, limits);
    }

    /// The engine's search has chosen `best`: resign, or offer or accept a
    /// draw, then move; then claim the result if the move ended the game,
    /// or ponder.
    fn own_move(&mut self, best: Move, ponder: Option<Move>, score: i32) {
        let used_ms = self.started.elapsed().as_millis() as u64;
        if !best.is_some() {
            self.claim_if_over();
            return;
        }
        // For whoever reads XBoard's debug log: what the clock was planned on.
        self.note(&format!(
            "thought {used_ms} ms; GUI latency seen {} ms a move",
            self.engine.gui_latency_ms()
        ));
        let draw =
            DrawFlags { offered: self.draw_offered, game_drawn: eval::is_dead_draw(self.engine.position()) };
        match draw.verdict(score) {
            Some(Verdict::Resign) => {
                self.say("resign");
                self.mode = Mode::Force;
                return;
            }
            Some(Verdict::Draw) => self.say("offer draw"),
            None => {}
        }
        self.say(&format!("move {best}"));
        self.engine.play(best);
        self.draw_offered = false;
        self.excluded.clear();
        self.expected = ponder;
        self.clocks.after_own_move(used_ms);
        if !self.claim_if_over() {
            self.start_pondering();
        }
    }

    /// Ponders on the expected reply, if pondering is on and there is one.
    fn start_pondering(&mut self) {
        let Mode::Play(us) = self.mode else { return };
        let Some(guess) = self.expected.filter(|&m| is_legal(self.engine.position(), m)) else { return };
        if !self.ponder || self.engine.position().side_to_move() == us {
            return;
        }
        self.engine.play(guess);
        if self.engine.ruling().outcome.is_some() {
            // The guess would end the game: nothing to think about.
            self.engine.take_back();
            return;
        }
        self.say(&format!("Hint: {guess}"));
        let mut limits = self.clocks.limits(self.engine.position(), &[]);
        limits.ponder = true;
        limits.clock_estimated = true;
        self.start(Running::Ponder(guess), limits);
    }

    /// `usermove`: a ponder hit goes on thinking; any other legal move is
    /// played, and the engine thinks (or analyses) if it is its turn. A
    /// move that is not legal changes nothing (a search goes on).
    fn user_move(&mut self, text: &str) {
        if let Some(Running::Ponder(guess)) = self.running {
            if Move::parse(text) == Some(guess) {
                self.running = Some(Running::Think);
                self.started = Instant::now();
                self.expected = None;
                // The clocks `time` and `otim` just gave.
                let real = self.clocks.limits(self.engine.position(), &[]);
                self.engine.ponderhit(Some(&real));
                return;
            }
            // A ponder miss: the guess comes off the board.
            self.settle();
        }
        let Some(m) = self.engine.position().parse_legal_move(text) else {
            self.say(&format!("Illegal move: {}", shown(text)));
            return;
        };
        self.settle();
        self.engine.play(m);
        self.position_changed();
        if let Mode::Play(us) = self.mode
            && self.engine.position().side_to_move() == us
        {
            self.think();
        }
    }

    fn new_game(&mut self) {
        self.settle();
        if let Err(e) = self.engine.new_game() {
            self.note(&e);
        }
        // The start FEN is valid: this cannot fail.
        let _ = self.engine.set_position::<&str>(START_FEN, &[]);
        self.clocks.depth = None;
        self.clocks.reset();
        self.draw_offered = false;
        if self.mode != Mode::Analyze {
            self.mode = Mode::Play(Color::Black);
        }
        self.position_changed();
    }

    fn set_board(&mut self, fen: &str) {
        self.settle();
        match self.engine.set_position::<&str>(fen, &[]) {
            Ok(()) => self.position_changed(),
            // The position is unchanged (a FEN is refused before anything is set).
            Err(e) => {
                self.say(&format!("tellusererror Illegal position: {}", shown(&e.to_string())));
                self.say(&format!("Error (invalid position; kept the old one): setboard {}", shown(fen)));
                if self.mode == Mode::Analyze {
                    self.analyze();
                }
            }
        }
    }

    fn take_back(&mut self, plies: usize) {
        self.settle();
        if self.engine.position().game_ply() < plies {
            let what = if plies == 1 { "undo" } else { "remove" };
            self.say(&format!("Error (no move to take back): {what}"));
        } else {
            for _ in 0..plies {
                self.engine.take_back();
            }
        }
        self.position_changed();
    }

    /// `bk`: the book moves of the position and their chances.
    fn book(&mut self) {
        if !self.engine.book_mut().enabled() {
            self.say(" The opening book is off (option OwnBook).");
        } else {
            let mut moves = self.engine.book_moves();
            moves.sort_by(|a, b| b.chance.total_cmp(&a.chance));
            if moves.is_empty() {
                self.say(" No book move in this position.");
            }
            for c in moves {
                let e = c.entry;
                let line = format!(
                    " {} {:.0}% ({} games, scored {:.0}%)",
                    e.mv,
                    100.0 * c.chance,
                    e.count,
                    f64::from(e.score) / 10.0
                );
                self.say(&line);
            }
        }
        self.say("");
    }

    fn status(&mut self) {
        if self.running == Some(Running::Analyze) {
            let centis = self.started.elapsed().as_millis() as u64 / 10;
            let root = self.engine.position().legal_move_count().saturating_sub(self.excluded.len());
            let line = format::status(centis, self.engine.nodes_searched(), self.depth, root);
            self.say(&line);
        }
    }

    fn exclude(&mut self, set: MoveSet, out: bool) {
        match set {
            MoveSet::All if out => self.excluded = self.engine.position().legal_moves().to_vec(),
            MoveSet::All => self.excluded.clear(),
            MoveSet::One(text) => match self.engine.position().parse_legal_move(&text) {
                Some(m) if out && !self.excluded.contains(&m) => self.excluded.push(m),
                Some(m) if !out => self.excluded.retain(|&e| e != m),
                Some(_) => {}
                None => {
                    let what = if out { "exclude" } else { "include" };
                    return self.say(&format!("Error (no such move here): {what} {}", shown(&text)));
                }
            },
        }
        if self.mode == Mode::Analyze {
            self.settle();
            self.analyze();
        }
    }

    /// `option`, `memory`, `cores`: checked and clamped by the option table;
    /// a setting that needs an idle engine stops the search (an analysis
    /// starts again).
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let (setting, notice) = match options::resolve(name, value) {
            Ok(resolved) => resolved,
            Err(e) => {
                let shown = shown(name);
                return self.say(&format!("Error (bad option: {e}): option {shown}"));
            }
        };
        if let Some(notice) = notice {
            self.note(&notice);
        }
        // An option set now is the user's (`Rule60` among them).
        self.restore_limit();
        if setting.id == OptionId::Ponder {
            self.ponder = setting.value != 0;
        }
        if setting.needs_idle_engine() {
            self.settle();
        }
        if let Err(e) = setting.apply_to(&mut self.engine) {
            self.note(&e);
        }
        if self.mode == Mode::Analyze && self.running.is_none() {
            self.analyze();
        }
    }
}

/// True if `m` is a legal move in `pos`.
fn is_legal(pos: &Position, m: Move) -> bool {
    pos.is_pseudo_legal(m) && pos.is_legal(m)
}
