//! Parsing one input line into a [`Command`]. Both dialects share this
//! parser: it accepts everything either one's GUIs send (UCCI `time` and UCI
//! `wtime`, `setoption` with or without `name`/`value`, a bare `fen`/`startpos`
//! line, Fairyground's `oppotime`, …). Errors are messages for the user.

use super::command::{Command, GoParams};
use crate::board::START_FEN;

/// Keywords that end a `searchmoves` list.
const GO_KEYWORDS: [&str; 25] = [
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
    "wait",
];

/// Shortens and escapes user input for an error message.
pub fn shown(s: &str) -> String {
    let mut out: String = s.chars().take(40).flat_map(char::escape_debug).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// Parses one line. `Ok(Command::Empty)` for a blank line.
pub fn parse(line: &str) -> Result<Command, String> {
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else { return Ok(Command::Empty) };
    let cmd = first.to_ascii_lowercase();
    Ok(match cmd.as_str() {
        "uci" => Command::Uci,
        "ucci" => Command::Ucci,
        "isready" => Command::IsReady,
        "debug" => Command::Debug(!matches!(
            rest.first().map(|s| s.to_ascii_lowercase()).as_deref(),
            Some("off" | "false")
        )),
        "setoption" => parse_setoption(rest)?,
        "ucinewgame" | "uccinewgame" | "newgame" => Command::NewGame,
        "position" => {
            let (fen, moves) = parse_position(rest)?;
            Command::Position { fen, moves }
        }
        "fen" | "startpos" => {
            let (fen, moves) = parse_position(&tokens)?;
            Command::Position { fen, moves }
        }
        "banmoves" => Command::BanMoves(rest.iter().map(|s| s.to_string()).collect()),
        "go" => Command::Go(parse_go(rest)?),
        "stop" => Command::Stop,
        "ponderhit" => {
            Command::PonderHit { draw: rest.first().is_some_and(|t| t.eq_ignore_ascii_case("draw")) }
        }
        "probe" => {
            let (fen, moves) =
                if rest.is_empty() { (String::new(), Vec::new()) } else { parse_position(rest)? };
            Command::Probe { fen, moves }
        }
        "quit" | "exit" => Command::Quit,
        "d" | "display" => Command::Display,
        "eval" => Command::Eval,
        "bench" => Command::Bench(match rest.first() {
            None => None,
            Some(d) => Some(
                d.parse()
                    .ok()
                    .filter(|d| (1..=64).contains(d))
                    .ok_or_else(|| format!("bench: bad depth '{}' (expected 1..64)", shown(d)))?,
            ),
        }),
        _ => return Err(format!("unknown command '{}'", shown(first))),
    })
}

/// `setoption name <name…> [value <value…>]` or `setoption <name> [<value…>]`.
fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    if rest.is_empty() {
        return Err("setoption: missing option name".into());
    }
    if rest[0].eq_ignore_ascii_case("name") {
        let body = &rest[1..];
        let vpos = body.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let (name, value) = match vpos {
            Some(i) => (&body[..i], Some(body[i + 1..].join(" "))),
            None => (body, None),
        };
        if name.is_empty() {
            return Err("setoption: missing option name".into());
        }
        Ok(Command::SetOption { name: name.join(" "), value })
    } else {
        let value = (rest.len() > 1).then(|| rest[1..].join(" "));
        Ok(Command::SetOption { name: rest[0].to_string(), value })
    }
}

/// `[startpos | fen <fields…> | <fields…>] [moves m…]` → (FEN, moves).
pub fn parse_position(rest: &[&str]) -> Result<(String, Vec<String>), String> {
    let mpos = rest.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let (head, moves) = match mpos {
        Some(i) => (&rest[..i], rest[i + 1..].iter().map(|s| s.to_string()).collect()),
        None => (rest, Vec::new()),
    };
    let fen = match head.first().map(|t| t.to_ascii_lowercase()).as_deref() {
        Some("startpos") if head.len() == 1 => START_FEN.to_string(),
        Some("startpos") => return Err(format!("position: unexpected '{}' after startpos", shown(head[1]))),
        Some("fen") if head.len() > 1 => head[1..].join(" "),
        Some("fen") => return Err("position: missing FEN after 'fen'".into()),
        Some(_) if head[0].contains('/') => head.join(" "),
        Some(other) => return Err(format!("position: expected 'startpos' or 'fen', got '{}'", shown(other))),
        None => return Err("position: expected 'startpos' or 'fen'".into()),
    };
    Ok((fen, moves))
}

fn number<T: std::str::FromStr>(key: &str, value: Option<&&str>) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("go: missing value after '{key}'"))?;
    v.parse().map_err(|_| format!("go: bad value '{}' for '{key}'", shown(v)))
}

/// A time value: a number (fractions allowed), negative values count as 0.
fn time_value(key: &str, value: Option<&&str>) -> Result<f64, String> {
    let v: f64 = number(key, value)?;
    if !v.is_finite() {
        return Err(format!("go: bad value for '{key}'"));
    }
    Ok(v.clamp(0.0, 1e12))
}

fn parse_go(rest: &[&str]) -> Result<GoParams, String> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i].to_ascii_lowercase();
        let val = rest.get(i + 1);
        let mut used = 2;
        match key.as_str() {
            "wtime" => g.wtime = Some(time_value(&key, val)?),
            "btime" => g.btime = Some(time_value(&key, val)?),
            "winc" => g.winc = Some(time_value(&key, val)?),
            "binc" => g.binc = Some(time_value(&key, val)?),
            "time" => g.time = Some(time_value(&key, val)?),
            "opptime" | "oppotime" => g.opptime = Some(time_value(&key, val)?),
            "increment" | "inc" => g.increment = Some(time_value(&key, val)?),
            "oppincrement" | "oppoincrement" | "oppinc" => g.oppincrement = Some(time_value(&key, val)?),
            "movestogo" => g.movestogo = Some(number::<u64>(&key, val)?.clamp(1, 1000) as u32),
            "oppmovestogo" => {
                number::<u64>(&key, val)?;
            }
            "movetime" => g.movetime = Some(time_value(&key, val)?),
            "nodes" => g.nodes = Some(number(&key, val)?),
            "mate" => g.mate = Some(number::<u64>(&key, val)?.clamp(1, 100) as u32),
            "perft" => g.perft = Some(number::<u64>(&key, val)?.min(64) as u32),
            "depth" => {
                if val.is_some_and(|v| v.eq_ignore_ascii_case("infinite")) {
                    g.infinite = true;
                } else {
                    g.depth = Some(number::<u64>(&key, val)?.min(255) as u32);
                }
            }
            "infinite" => {
                g.infinite = true;
                used = 1;
            }
            "ponder" => {
                g.ponder = true;
                used = 1;
            }
            "draw" => {
                g.draw_offer = true;
                used = 1;
            }
            "searchmoves" => {
                let n = rest[i + 1..]
                    .iter()
                    .take_while(|t| !GO_KEYWORDS.contains(&t.to_ascii_lowercase().as_str()))
                    .count();
                g.searchmoves.extend(rest[i + 1..i + 1 + n].iter().map(|s| s.to_string()));
                used = 1 + n;
            }
            "byoyomi" | "wait" => {}
            _ => return Err(format!("go: unknown parameter '{}'", shown(rest[i]))),
        }
        i += used;
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_forms() {
        let p = |l: &str| parse(l).unwrap();
        assert_eq!(p("position startpos"), Command::Position { fen: START_FEN.into(), moves: vec![] });
        assert_eq!(
            p("startpos moves h2e2 h9g7"),
            Command::Position { fen: START_FEN.into(), moves: vec!["h2e2".into(), "h9g7".into()] }
        );
        assert_eq!(
            p("position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 moves d0d1"),
            Command::Position { fen: "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1".into(), moves: vec!["d0d1".into()] }
        );
        assert_eq!(
            p("fen 4k4/9/9/9/9/9/9/9/9/3K5 r"),
            Command::Position { fen: "4k4/9/9/9/9/9/9/9/9/3K5 r".into(), moves: vec![] }
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position bogus").is_err());
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
        assert!(x.ponder);
        assert_eq!(
            (x.time, x.increment, x.opptime, x.oppincrement),
            (Some(300.0), Some(2.0), Some(200.0), Some(1.0))
        );
        assert!(g("go depth infinite").infinite);
        assert_eq!(g("go searchmoves h2e2 b2e2 depth 3").searchmoves, vec!["h2e2", "b2e2"]);
        assert_eq!(g("go wtime -50").wtime, Some(0.0));
        assert!(g("go draw time 10").draw_offer);
        assert!(parse("go depth x").is_err());
        assert!(parse("go sideways 3").is_err());
        assert!(parse("go nodes").is_err());
    }

    #[test]
    fn setoption_forms() {
        assert_eq!(
            parse("setoption name Move Overhead value 50").unwrap(),
            Command::SetOption { name: "Move Overhead".into(), value: Some("50".into()) }
        );
        assert_eq!(
            parse("setoption hashsize 64").unwrap(),
            Command::SetOption { name: "hashsize".into(), value: Some("64".into()) }
        );
        assert_eq!(
            parse("setoption newgame").unwrap(),
            Command::SetOption { name: "newgame".into(), value: None }
        );
        assert!(parse("setoption").is_err());
        assert!(parse("frobnicate").unwrap_err().contains("frobnicate"));
    }
}
