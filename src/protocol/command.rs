//! The command model shared by both dialects: every input line becomes one
//! [`Command`], whatever protocol it was written in.

use crate::notation::Notation;

/// Which protocol the GUI speaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// UCI as Pikafish speaks it for xiangqi (ranks 0–9); the `position`
    /// keyword may be omitted (the "UCI-cyclone" form).
    Uci,
    /// UCCI 3.0 (ElephantEye, XQWizard).
    Ucci,
}

/// A position as a command gives it: a FEN and the moves played from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionSpec {
    /// The FEN (the start FEN for `startpos`).
    pub fen: String,
    /// The moves after it, as given (lower-cased).
    pub moves: Vec<String>,
}

/// The raw numbers of a `go` command, before units and colours are applied.
/// Times are in milliseconds except the UCCI clock fields (`time`, `opptime`,
/// `increment`, `oppincrement`), whose unit depends on `usemillisec`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoParams {
    /// UCI `wtime`: Red's clock.
    pub wtime: Option<f64>,
    /// UCI `btime`: Black's clock.
    pub btime: Option<f64>,
    /// UCI `winc`: Red's increment.
    pub winc: Option<f64>,
    /// UCI `binc`: Black's increment.
    pub binc: Option<f64>,
    /// UCCI `time`: the side to move's clock.
    pub time: Option<f64>,
    /// UCCI `opptime` (Fairyground: `oppotime`): the opponent's clock.
    pub opptime: Option<f64>,
    /// UCCI `increment`.
    pub increment: Option<f64>,
    /// UCCI `oppincrement` (Fairyground: `oppoincrement`).
    pub oppincrement: Option<f64>,
    /// The command used Fairyground's spelling `oppotime`/`oppoincrement`.
    /// Fairyground never negotiates `usemillisec` and always sends
    /// milliseconds, so its UCCI clock fields are read as milliseconds.
    pub fairyground: bool,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Mate search limit (moves).
    pub mate: Option<u32>,
    /// Fixed time for this move (milliseconds, in both dialects).
    pub movetime: Option<f64>,
    /// Search until `stop` (also UCCI `depth infinite`).
    pub infinite: bool,
    /// Ponder: the clock does not run until `ponderhit`.
    pub ponder: bool,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw_offer: bool,
    /// Root moves to consider (`searchmoves`).
    pub searchmoves: Vec<String>,
    /// `go perft N`: count the legal move tree instead of searching.
    pub perft: Option<u32>,
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A blank line, or a command that needs no action (`ucicyclone`).
    Empty,
    /// `uci`: handshake, switches to UCI.
    Uci,
    /// `ucci`: handshake, switches to UCCI.
    Ucci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption` in either form.
    SetOption {
        /// Option name as given.
        name: String,
        /// Value, if any.
        value: Option<String>,
    },
    /// `ucinewgame` / `uccinewgame`.
    NewGame,
    /// `position` (or the bare UCI-cyclone form).
    Position(PositionSpec),
    /// UCCI `banmoves`.
    BanMoves(Vec<String>),
    /// `go`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit [draw]`.
    PonderHit {
        /// The opponent also offers a draw.
        draw: bool,
    },
    /// UCCI `probe`: the hash entry of a position (`None`: the current one).
    Probe(Option<PositionSpec>),
    /// `quit`.
    Quit,
    /// `d [zh|wxf|iccs|uci]`: board diagram, FEN, key, checkers; with a
    /// notation also the game's moves and the legal moves in it.
    Display(Option<Notation>),
    /// `eval`: evaluation breakdown.
    Eval,
    /// `bench [depth]`.
    Bench(Option<u32>),
}

impl Command {
    /// True for the commands a UCCI engine reads while thinking in batch
    /// mode (everything else waits until the search has answered).
    pub fn answered_while_batch_thinking(&self) -> bool {
        matches!(self, Command::IsReady | Command::Stop | Command::PonderHit { .. } | Command::Empty)
    }
}
