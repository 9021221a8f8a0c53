//! Parsing one input line into a [`Command`]. Both dialects share this
//! parser: it accepts everything either one's GUIs send (UCCI `time` and UCI
//! `wtime`, `setoption` with or without `name`/`value`, a bare `fen`/`startpos`
//! line, Fairyground's `oppotime`, …). Tokens are separated by any run of
//! ASCII whitespace, so CRLF endings and tabs need no special care. Errors are
//! messages for the user and never quote more than a few dozen characters of
//! the input.

use super::command::{Command, GoParams, PositionSpec};
use super::format::shown;
use super::options;
use crate::board::START_FEN;
use crate::notation::Notation;

/// Longest depth (`go depth`, `go perft`) accepted before clamping.
const MAX_DEPTH: u64 = 255;

/// Most words in an option name (`Move Overhead` has two).
const MAX_NAME_WORDS: usize = 4;

/// Keywords that end a `searchmoves` list.
const GO_KEYWORDS: [&str; 24] = [
    "searchmoves",
    "ponder",
    "draw",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "time",
    "opptime",
    "oppotime",
    "increment",
    "oppincrement",
    "oppoincrement",
    "oppmovestogo",
    "inc",
    "oppinc",
    "byoyomi",
];

/// Parses one line. `Ok(Command::Empty)` for a blank line.
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else { return Ok(Command::Empty) };
    let word = first.to_ascii_lowercase();
    Ok(match word.as_str() {
        "uci" => Command::Uci,
        "ucci" => Command::Ucci,
        // Fairy-Stockfish's switch to UCI with ranks 0–9: that is our UCI already.
        "ucicyclone" => Command::Empty,
        "isready" => Command::IsReady,
        "debug" => Command::Debug(parse_debug(rest)?),
        "setoption" => parse_setoption(rest)?,
        "ucinewgame" | "uccinewgame" | "newgame" => Command::NewGame,
        "position" => Command::Position(parse_position(rest)?),
        // UCI-cyclone: the `position` keyword is omitted.
        "fen" | "startpos" => Command::Position(parse_position(&tokens)?),
        _ if first.contains('/') => Command::Position(parse_position(&tokens)?),
        "banmoves" => Command::BanMoves(rest.iter().map(|m| move_text(m)).collect()),
        "go" => Command::Go(parse_go(rest)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit { draw: parse_ponderhit(rest)? },
        "probe" => Command::Probe(if rest.is_empty() { None } else { Some(parse_position(rest)?) }),
        "quit" | "exit" => Command::Quit,
        "d" | "display" => Command::Display(parse_display(rest)?),
        "eval" => Command::Eval,
        "bench" => Command::Bench(parse_bench(rest)?),
        _ => return Err(format!("unknown command '{}'", shown(first))),
    })
}

fn parse_display(rest: &[&str]) -> Result<Option<Notation>, String> {
    match rest {
        [] => Ok(None),
        [n] => n
            .parse()
            .map(Some)
            .map_err(|_| format!("d: unknown notation '{}' (zh, wxf, iccs or uci)", shown(n))),
        [_, extra, ..] => Err(format!("d: unexpected '{}'", shown(extra))),
    }
}

fn parse_debug(rest: &[&str]) -> Result<bool, String> {
    match rest.first() {
        None => Ok(true),
        Some(v) => {
            options::parse_bool(v).ok_or_else(|| format!("debug: expected 'on' or 'off', got '{}'", shown(v)))
        }
    }
}

fn parse_ponderhit(rest: &[&str]) -> Result<bool, String> {
    match rest {
        [] => Ok(false),
        [d] if d.eq_ignore_ascii_case("draw") => Ok(true),
        [other, ..] => Err(format!("ponderhit: expected nothing or 'draw', got '{}'", shown(other))),
    }
}

fn parse_bench(rest: &[&str]) -> Result<Option<u32>, String> {
    let Some(d) = rest.first() else { return Ok(None) };
    match d.parse::<u64>() {
        Ok(d) if (1..=64).contains(&d) => Ok(Some(d as u32)),
        _ => Err(format!("bench: bad depth '{}' (expected 1 to 64)", shown(d))),
    }
}

/// `setoption name <name…> [value <value…>]` (UCI) or `setoption <name> [<value…>]`
/// (UCCI). In the UCCI form the name is the longest run of leading words that
/// names a known option (so `setoption Move Overhead 50` works too), else the
/// first word.
fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    let (name, value): (&[&str], Option<&[&str]>) = match rest.split_first() {
        None => return Err("setoption: missing option name".into()),
        Some((first, body)) if first.eq_ignore_ascii_case("name") => {
            match body.iter().position(|t| t.eq_ignore_ascii_case("value")) {
                Some(i) => (&body[..i], Some(&body[i + 1..])),
                None => (body, None),
            }
        }
        Some(_) => {
            let split = (1..=rest.len().min(MAX_NAME_WORDS))
                .rev()
                .find(|&k| options::lookup(&rest[..k].join(" ")).is_some())
                .unwrap_or(1);
            (&rest[..split], (split < rest.len()).then(|| &rest[split..]))
        }
    };
    if name.is_empty() {
        return Err("setoption: missing option name".into());
    }
    Ok(Command::SetOption { name: name.join(" "), value: value.map(|v| v.join(" ")) })
}

/// A move as given, lower-cased, with ICCS's dash removed (`H2-E2` → `h2e2`).
fn move_text(token: &str) -> String {
    let mut m = token.to_ascii_lowercase();
    if m.len() == 5 && m.as_bytes()[2] == b'-' {
        m.remove(2);
    }
    m
}

/// `[startpos | fen <fields…> | <fields…>] [moves m…]`.
pub fn parse_position(rest: &[&str]) -> Result<PositionSpec, String> {
    let (head, moves) = match rest.iter().position(|t| t.eq_ignore_ascii_case("moves")) {
        Some(i) => (&rest[..i], rest[i + 1..].iter().map(|m| move_text(m)).collect()),
        None => (rest, Vec::new()),
    };
    let fen = match head {
        [] => return Err("position: expected 'startpos' or 'fen <FEN>'".into()),
        [s] if s.eq_ignore_ascii_case("startpos") => START_FEN.to_string(),
        [s, extra, ..] if s.eq_ignore_ascii_case("startpos") => {
            return Err(format!("position: unexpected '{}' after 'startpos'", shown(extra)));
        }
        [f] if f.eq_ignore_ascii_case("fen") => return Err("position: missing FEN after 'fen'".into()),
        [f, fields @ ..] if f.eq_ignore_ascii_case("fen") => fields.join(" "),
        [first, ..] if first.contains('/') => head.join(" "),
        [other, ..] => {
            return Err(format!("position: expected 'startpos' or 'fen <FEN>', got '{}'", shown(other)));
        }
    };
    Ok(PositionSpec { fen, moves })
}

/// The token after a `go` keyword.
fn value<'a>(key: &str, v: Option<&&'a str>) -> Result<&'a str, String> {
    v.copied().ok_or_else(|| format!("go: missing value after '{key}'"))
}

/// A whole number that must not be negative.
fn whole(key: &str, v: Option<&&str>) -> Result<u64, String> {
    let v = value(key, v)?;
    v.parse::<u64>().map_err(|_| {
        let why = match v.parse::<i128>() {
            Ok(n) if n < 0 => "must not be negative",
            Ok(_) => "is too large",
            Err(_) => "is not a whole number",
        };
        format!("go: value '{}' for '{key}' {why}", shown(v))
    })
}

/// A time: any number (fractions allowed). Negative clocks, which GUIs send
/// when they are late, count as 0; huge values are capped.
fn time(key: &str, v: Option<&&str>) -> Result<f64, String> {
    let v = value(key, v)?;
    match v.parse::<f64>() {
        Ok(t) if !t.is_nan() => Ok(t.clamp(0.0, 1e12)),
        _ => Err(format!("go: value '{}' for '{key}' is not a number", shown(v))),
    }
}

fn parse_go(rest: &[&str]) -> Result<GoParams, String> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i].to_ascii_lowercase();
        let val = rest.get(i + 1);
        let mut used = 2;
        match key.as_str() {
            "wtime" => g.wtime = Some(time(&key, val)?),
            "btime" => g.btime = Some(time(&key, val)?),
            "winc" => g.winc = Some(time(&key, val)?),
            "binc" => g.binc = Some(time(&key, val)?),
            "time" => g.time = Some(time(&key, val)?),
            "opptime" => g.opptime = Some(time(&key, val)?),
            "oppotime" => {
                g.opptime = Some(time(&key, val)?);
                g.fairyground = true;
            }
            "increment" | "inc" => g.increment = Some(time(&key, val)?),
            "oppincrement" | "oppinc" => g.oppincrement = Some(time(&key, val)?),
            "oppoincrement" => {
                g.oppincrement = Some(time(&key, val)?);
                g.fairyground = true;
            }
            "movetime" => g.movetime = Some(time(&key, val)?),
            "byoyomi" => {
                time(&key, val)?;
            }
            "movestogo" => g.movestogo = Some(whole(&key, val)?.clamp(1, 1000) as u32),
            "oppmovestogo" => {
                whole(&key, val)?;
            }
            "nodes" => g.nodes = Some(whole(&key, val)?),
            "mate" => g.mate = Some(whole(&key, val)?.clamp(1, 100) as u32),
            "perft" => g.perft = Some(whole(&key, val)?.clamp(1, MAX_DEPTH) as u32),
            "depth" if val.is_some_and(|v| v.eq_ignore_ascii_case("infinite")) => g.infinite = true,
            "depth" => g.depth = Some(whole(&key, val)?.min(MAX_DEPTH) as u32),
            "infinite" => (g.infinite, used) = (true, 1),
            "ponder" => (g.ponder, used) = (true, 1),
            "draw" => (g.draw_offer, used) = (true, 1),
            "searchmoves" => {
                let n = rest[i + 1..].iter().take_while(|t| !is_go_keyword(t)).count();
                g.searchmoves.extend(rest[i + 1..i + 1 + n].iter().map(|m| move_text(m)));
                used = 1 + n;
            }
            _ => return Err(format!("go: unknown parameter '{}'", shown(rest[i]))),
        }
        i += used;
    }
    Ok(g)
}

fn is_go_keyword(token: &str) -> bool {
    GO_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(token))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(fen: &str, moves: &[&str]) -> Command {
        Command::Position(PositionSpec {
            fen: fen.into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        })
    }

    #[test]
    fn position_forms() {
        let p = |l: &str| parse(l).unwrap();
        assert_eq!(p("position startpos"), spec(START_FEN, &[]));
        assert_eq!(p("startpos moves h2e2 H9G7"), spec(START_FEN, &["h2e2", "h9g7"]));
        assert_eq!(p("position startpos moves H2-E2"), spec(START_FEN, &["h2e2"]));
        let fen = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(p(&format!("position fen {fen} moves d0d1")), spec(fen, &["d0d1"]));
        assert_eq!(p("fen 4k4/9/9/9/9/9/9/9/9/3K5 r"), spec("4k4/9/9/9/9/9/9/9/9/3K5 r", &[]));
        assert_eq!(p("4k4/9/9/9/9/9/9/9/9/3K5 b"), spec("4k4/9/9/9/9/9/9/9/9/3K5 b", &[]));
        assert_eq!(p("\u{feff}position\tstartpos  \r\n"), spec(START_FEN, &[]));
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position bogus").is_err());
        assert!(parse("position startpos extra").is_err());
    }

    #[test]
    fn go_forms() {
        let g = |l: &str| match parse(l).unwrap() {
            Command::Go(g) => g,
            other => panic!("{other:?}"),
        };
        let x = g("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
        assert_eq!(
            (x.wtime, x.btime, x.winc, x.binc, x.movestogo),
            (Some(1000.0), Some(2000.0), Some(10.0), Some(20.0), Some(5))
        );
        let x = g("go ponder time 300 increment 2 oppotime 200 oppoincrement 1");
        assert!(x.ponder && x.fairyground);
        assert_eq!(
            (x.time, x.increment, x.opptime, x.oppincrement),
            (Some(300.0), Some(2.0), Some(200.0), Some(1.0))
        );
        assert!(!g("go time 300 opptime 200 oppincrement 1").fairyground);
        assert!(g("go depth infinite").infinite);
        assert_eq!(g("go depth 100000").depth, Some(255));
        assert_eq!(g("go searchmoves h2e2 B2E2 depth 3").searchmoves, vec!["h2e2", "b2e2"]);
        assert_eq!(g("go wtime -50").wtime, Some(0.0));
        assert_eq!(g("go perft 3").perft, Some(3));
        assert!(g("go draw time 10").draw_offer);
        assert_eq!(g("go"), GoParams::default());
        for bad in
            ["go depth x", "go depth -1", "go nodes 99999999999999999999999", "go sideways 3", "go nodes"]
        {
            let e = parse(bad).unwrap_err();
            assert!(e.starts_with("go: "), "{bad}: {e}");
        }
        assert!(parse("go movetime NaN").is_err());
    }

    #[test]
    fn setoption_forms() {
        let so = |n: &str, v: Option<&str>| Command::SetOption { name: n.into(), value: v.map(Into::into) };
        assert_eq!(parse("setoption name Move Overhead value 50").unwrap(), so("Move Overhead", Some("50")));
        assert_eq!(parse("setoption name Clear Hash").unwrap(), so("Clear Hash", None));
        assert_eq!(parse("setoption hashsize 64").unwrap(), so("hashsize", Some("64")));
        assert_eq!(parse("setoption Move Overhead 50").unwrap(), so("Move Overhead", Some("50")));
        assert_eq!(parse("setoption newgame").unwrap(), so("newgame", None));
        assert_eq!(parse("setoption bookfiles a b.dat").unwrap(), so("bookfiles", Some("a b.dat")));
        assert_eq!(parse("setoption frob 1 2").unwrap(), so("frob", Some("1 2")));
        assert!(parse("setoption").is_err());
        assert!(parse("setoption name").is_err());
        assert!(parse("frobnicate").unwrap_err().contains("frobnicate"));
    }

    #[test]
    fn other_commands() {
        assert_eq!(parse("  \t\r\n").unwrap(), Command::Empty);
        assert_eq!(parse("UCI").unwrap(), Command::Uci);
        assert_eq!(parse("ponderhit draw").unwrap(), Command::PonderHit { draw: true });
        assert_eq!(parse("debug off").unwrap(), Command::Debug(false));
        assert!(parse("debug maybe").is_err());
        assert_eq!(parse("probe").unwrap(), Command::Probe(None));
        assert_eq!(
            parse("banmoves H6I4 h6-g4").unwrap(),
            Command::BanMoves(vec!["h6i4".into(), "h6g4".into()])
        );
        assert_eq!(parse("bench 3").unwrap(), Command::Bench(Some(3)));
        assert!(parse("bench 0").is_err());
    }

    #[test]
    fn errors_quote_little() {
        let long = "x".repeat(1 << 20);
        let e = parse(&long).unwrap_err();
        assert!(e.len() < 100, "{e}");
        assert_eq!(shown("a\u{1}\u{fffd}b"), "a\\u{1}\\u{fffd}b");
    }
}
