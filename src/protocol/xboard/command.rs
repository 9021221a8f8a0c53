//! CECP commands: every line XBoard or WinBoard sends becomes one
//! [`Command`] ([`parse`]). Moves come as `usermove h2e2` or, if the GUI
//! refused `usermove=1`, as a bare `h2e2` (ranks 0–9). A line that is not a
//! command, or a command with unusable arguments, is refused with the
//! reply the GUI expects (`Error (…): …`). Parsing never looks at the
//! position; legality is the session's business.

use crate::protocol::format;

/// Most characters of a refused line quoted in the reply.
const SHOWN_CHARS: usize = 80;

/// Longest `sd` depth accepted before clamping.
const MAX_DEPTH: u32 = 255;

/// Root moves named by `exclude` / `include`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSet {
    /// `all`.
    All,
    /// One move, as given (lower-cased).
    One(String),
}

/// A time control (`level`, `st`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// `level MPS BASE INC`: `moves` per period (0 = the whole game),
    /// `base_ms` per period, `inc_ms` added after every move.
    Level {
        /// Moves per period; 0 for one period (incremental or sudden death).
        moves: u32,
        /// Time per period in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        inc_ms: u64,
    },
    /// `st T`: at most this many milliseconds for every move.
    PerMove(u64),
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line.
    Empty,
    /// `xboard` (sent again), or a command that needs no action: `accepted
    /// …`, `random`, `computer`, `name …`, `rating …`, `ics …`.
    Ignored,
    /// `protover N`: the engine answers with its features.
    Protover,
    /// `rejected FEATURE`: the GUI does not support a feature we asked for.
    Rejected(String),
    /// `new`: a new game from the start position, the engine plays Black.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `force`: the engine plays neither side.
    Force,
    /// `go`: the engine plays the side to move and starts thinking.
    Go,
    /// `playother`: the engine plays the side not to move.
    PlayOther,
    /// `usermove M` or a bare move: the move as given (lower-cased).
    Move(String),
    /// `setboard FEN`.
    SetBoard(String),
    /// `level …` or `st …`.
    TimeControl(Control),
    /// `sd D`: depth limit in plies.
    Depth(u32),
    /// `time N`: the engine's clock, in milliseconds (sent in centiseconds).
    Time(u64),
    /// `otim N`: the opponent's clock, in milliseconds.
    OppTime(u64),
    /// `?`: move now.
    MoveNow,
    /// `ping N`.
    Ping(i64),
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `result …`: the game is over.
    Result,
    /// `undo`: take back one move.
    Undo,
    /// `remove`: take back two moves.
    Remove,
    /// `hard` (true) / `easy` (false): pondering on or off.
    Ponder(bool),
    /// `post` (true) / `nopost` (false): thinking output on or off.
    Post(bool),
    /// `analyze`: analyse until `exit`.
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// `.`: a status line during analysis.
    Status,
    /// `bk`: book moves.
    Book,
    /// `hint`: the move the engine expects from its opponent.
    Hint,
    /// `memory N`: megabytes for the hash table.
    Memory(u64),
    /// `cores N`: search threads.
    Cores(u64),
    /// `option NAME[=VALUE]`.
    SetOption {
        /// The option name as given.
        name: String,
        /// The value, if any.
        value: Option<String>,
    },
    /// `exclude …`: root moves not to search.
    Exclude(MoveSet),
    /// `include …`: root moves to search again.
    Include(MoveSet),
    /// `quit`.
    Quit,
}

/// True if `line` is the CECP handshake `xboard`.
pub fn is_handshake(line: &[u8]) -> bool {
    line.trim_ascii().eq_ignore_ascii_case(b"xboard")
}

/// `text` shortened and escaped for a reply (see [`format::clip`]).
pub fn shown(text: &str) -> String {
    format::clip(text, SHOWN_CHARS)
}

/// The reply to a refused line: `Error (why): line`.
fn refused(why: &str, line: &str) -> String {
    format!("Error ({why}): {}", shown(line.trim()))
}

/// True for a token in coordinate form (`h2e2`, any case): a bare move.
fn looks_like_move(token: &str) -> bool {
    let b = token.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'i').contains(&f.to_ascii_lowercase()) && r.is_ascii_digit();
    b.len() == 4 && square(b[0], b[1]) && square(b[2], b[3])
}

/// Parses one line. `Ok(Command::Empty)` for a blank line; a refused line
/// gives the whole reply (`Error (unknown command): …`).
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else { return Ok(Command::Empty) };
    let bad = |why: &str| refused(why, line);
    let arg = |i: usize| rest.get(i).copied().ok_or_else(|| bad("missing argument"));
    Ok(match first.to_ascii_lowercase().as_str() {
        "xboard" | "accepted" | "random" | "computer" | "name" | "rating" | "ics" => Command::Ignored,
        "protover" => Command::Protover,
        "rejected" => Command::Rejected(rest.first().unwrap_or(&"").to_string()),
        "new" => Command::New,
        "variant" => Command::Variant(arg(0)?.to_string()),
        "force" => Command::Force,
        "go" => Command::Go,
        "playother" => Command::PlayOther,
        "usermove" => Command::Move(arg(0)?.to_ascii_lowercase()),
        _ if looks_like_move(first) => Command::Move(first.to_ascii_lowercase()),
        "setboard" if rest.is_empty() => return Err(bad("missing argument")),
        "setboard" => Command::SetBoard(rest.join(" ")),
        "level" => Command::TimeControl(parse_level(rest).ok_or_else(|| bad("bad time control"))?),
        "st" => {
            let secs = seconds(arg(0)?).filter(|&s| s > 0.0).ok_or_else(|| bad("bad time"))?;
            Command::TimeControl(Control::PerMove(millis(secs)))
        }
        "sd" => match arg(0)?.parse::<u64>() {
            Ok(d) if d > 0 => Command::Depth(d.min(MAX_DEPTH as u64) as u32),
            _ => return Err(bad("bad depth")),
        },
        "time" => Command::Time(clock(arg(0)?).ok_or_else(|| bad("bad clock"))?),
        "otim" => Command::OppTime(clock(arg(0)?).ok_or_else(|| bad("bad clock"))?),
        "?" => Command::MoveNow,
        "ping" => Command::Ping(arg(0)?.parse().map_err(|_| bad("bad number"))?),
        "draw" => Command::Draw,
        "result" => Command::Result,
        "undo" => Command::Undo,
        "remove" => Command::Remove,
        "hard" => Command::Ponder(true),
        "easy" => Command::Ponder(false),
        "post" => Command::Post(true),
        "nopost" => Command::Post(false),
        "analyze" => Command::Analyze,
        "exit" => Command::Exit,
        "." => Command::Status,
        "bk" => Command::Book,
        "hint" => Command::Hint,
        "memory" => Command::Memory(arg(0)?.parse().map_err(|_| bad("bad size"))?),
        "cores" => Command::Cores(arg(0)?.parse().map_err(|_| bad("bad number"))?),
        "option" => parse_option(line).ok_or_else(|| bad("missing option name"))?,
        "exclude" => Command::Exclude(move_set(arg(0)?)),
        "include" => Command::Include(move_set(arg(0)?)),
        "quit" => Command::Quit,
        _ => return Err(bad("unknown command")),
    })
}

fn move_set(token: &str) -> MoveSet {
    if token.eq_ignore_ascii_case("all") { MoveSet::All } else { MoveSet::One(token.to_ascii_lowercase()) }
}

/// A number of seconds (fractions allowed), finite and not negative.
fn seconds(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0)
}

/// Seconds to milliseconds, capped at about 30 years.
fn millis(secs: f64) -> u64 {
    (secs * 1000.0).min(1e12).round() as u64
}

/// A `time`/`otim` value in centiseconds, as milliseconds; a clock that has
/// run below zero counts as 0.
fn clock(text: &str) -> Option<u64> {
    let cs = text.parse::<f64>().ok().filter(|c| !c.is_nan())?;
    Some((cs.max(0.0) * 10.0).min(1e12).round() as u64)
}

/// `MPS BASE INC`: BASE is minutes or `minutes:seconds`, and anything after
/// it is ignored (the spec reserves such a suffix: `25+5`); INC is seconds.
fn parse_level(rest: &[&str]) -> Option<Control> {
    let [moves, base, inc, ..] = rest else { return None };
    let moves = moves.parse::<u32>().ok()?;
    let (minutes, secs) = match base.split_once(':') {
        Some((m, s)) => (m, leading_number(s)?),
        None => (*base, 0.0),
    };
    let minutes = leading_number(minutes)?;
    Some(Control::Level { moves, base_ms: millis(minutes * 60.0 + secs), inc_ms: millis(seconds(inc)?) })
}

/// The number at the start of `text` (digits and one decimal point).
fn leading_number(text: &str) -> Option<f64> {
    let end = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    seconds(&text[..end])
}

/// `option NAME[=VALUE]`: the name may hold spaces (`Move Overhead=50`).
fn parse_option(line: &str) -> Option<Command> {
    let body = line.trim().get("option".len()..)?.trim();
    let (name, value) = match body.split_once('=') {
        Some((n, v)) => (n.trim(), Some(v.trim().to_string())),
        None => (body, None),
    };
    (!name.is_empty()).then(|| Command::SetOption { name: name.to_string(), value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn moves_in_both_forms() {
        assert_eq!(ok("usermove h2e2"), Command::Move("h2e2".into()));
        assert_eq!(ok("H2E2"), Command::Move("h2e2".into()));
        assert_eq!(ok("a0a1\r\n"), Command::Move("a0a1".into()));
        assert_eq!(ok("usermove zz"), Command::Move("zz".into()));
        assert_eq!(parse("usermove").unwrap_err(), "Error (missing argument): usermove");
        assert_eq!(parse("j2e2").unwrap_err(), "Error (unknown command): j2e2");
    }

    #[test]
    fn time_controls() {
        let level = |l: &str| match ok(l) {
            Command::TimeControl(c) => c,
            other => panic!("{other:?}"),
        };
        assert_eq!(level("level 40 5 0"), Control::Level { moves: 40, base_ms: 300_000, inc_ms: 0 });
        assert_eq!(level("level 0 2 12"), Control::Level { moves: 0, base_ms: 120_000, inc_ms: 12_000 });
        assert_eq!(level("level 40 0:30 0"), Control::Level { moves: 40, base_ms: 30_000, inc_ms: 0 });
        assert_eq!(level("level 0 0:10 0.5"), Control::Level { moves: 0, base_ms: 10_000, inc_ms: 500 });
        assert_eq!(level("level 40 25+5 0"), Control::Level { moves: 40, base_ms: 1_500_000, inc_ms: 0 });
        assert_eq!(level("st 30"), Control::PerMove(30_000));
        for bad in ["level 40 5", "level x 5 0", "level 0 -1 0", "level 0 5 NaN", "st 0", "st -3", "sd 0"] {
            assert!(parse(bad).unwrap_err().starts_with("Error (bad "), "{bad}");
        }
        assert_eq!(ok("sd 99999"), Command::Depth(255));
        assert_eq!(ok("time 1234"), Command::Time(12_340));
        assert_eq!(ok("otim -50"), Command::OppTime(0));
        assert_eq!(ok("time 1e99"), Command::Time(1_000_000_000_000));
    }

    #[test]
    fn other_commands() {
        assert_eq!(ok(""), Command::Empty);
        assert_eq!(ok("xboard"), Command::Ignored);
        assert_eq!(ok("accepted usermove"), Command::Ignored);
        assert_eq!(ok("rejected debug"), Command::Rejected("debug".into()));
        assert_eq!(ok("protover 2"), Command::Protover);
        assert_eq!(ok("ping 17"), Command::Ping(17));
        assert!(parse("ping x").is_err());
        assert_eq!(
            ok("setboard 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"),
            Command::SetBoard("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1".into())
        );
        assert_eq!(
            ok("option Move Overhead=50"),
            Command::SetOption { name: "Move Overhead".into(), value: Some("50".into()) }
        );
        assert_eq!(ok("option Clear Hash"), Command::SetOption { name: "Clear Hash".into(), value: None });
        assert!(parse("option =3").is_err());
        assert_eq!(ok("exclude all"), Command::Exclude(MoveSet::All));
        assert_eq!(ok("include H2E2"), Command::Include(MoveSet::One("h2e2".into())));
        assert_eq!(ok("memory 64"), Command::Memory(64));
        assert_eq!(ok("variant xiangqi"), Command::Variant("xiangqi".into()));
        assert_eq!(ok("?"), Command::MoveNow);
        assert_eq!(ok("."), Command::Status);
        assert!(is_handshake(b"xboard\r\n") && !is_handshake(b"uci\n"));
        let e = parse(&"x".repeat(1 << 20)).unwrap_err();
        assert!(e.starts_with("Error (unknown command): xxx") && e.len() < 120, "{e}");
    }
}
