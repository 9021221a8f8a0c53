//! The command model shared by both dialects: every input line becomes one
//! [`Command`], whatever protocol it was written in.

/// Which protocol the GUI speaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// UCI as Pikafish speaks it for xiangqi (ranks 0–9); the `position`
    /// keyword may be omitted (the "UCI-cyclone" form).
    Uci,
    /// UCCI 3.0 (ElephantEye, XQWizard).
    Ucci,
}

/// The raw numbers of a `go` command, before units and colours are applied.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoParams {
    /// UCI `wtime` / `btime` (milliseconds).
    pub wtime: Option<f64>,
    /// See [`GoParams::wtime`].
    pub btime: Option<f64>,
    /// UCI `winc` / `binc` (milliseconds).
    pub winc: Option<f64>,
    /// See [`GoParams::winc`].
    pub binc: Option<f64>,
    /// UCCI `time`: the side to move's clock (seconds unless `usemillisec`).
    pub time: Option<f64>,
    /// UCCI `opptime`: the opponent's clock.
    pub opptime: Option<f64>,
    /// UCCI `increment`.
    pub increment: Option<f64>,
    /// UCCI `oppincrement`.
    pub oppincrement: Option<f64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Depth limit (`None` with `infinite` for UCCI `depth infinite`).
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Mate search limit (moves).
    pub mate: Option<u32>,
    /// Fixed time per move (milliseconds).
    pub movetime: Option<f64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder.
    pub ponder: bool,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw_offer: bool,
    /// Root moves to consider.
    pub searchmoves: Vec<String>,
    /// `go perft N`.
    pub perft: Option<u32>,
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A blank line (ignored).
    Empty,
    /// `uci`.
    Uci,
    /// `ucci`.
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
    Position {
        /// The FEN (the start FEN for `startpos`).
        fen: String,
        /// The moves after it.
        moves: Vec<String>,
    },
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
    /// UCCI `probe`: the hash entry of a position.
    Probe {
        /// The FEN.
        fen: String,
        /// The moves after it.
        moves: Vec<String>,
    },
    /// `quit`.
    Quit,
    /// `d`: board diagram.
    Display,
    /// `eval`: evaluation breakdown.
    Eval,
    /// `bench [depth]`.
    Bench(Option<u32>),
}
