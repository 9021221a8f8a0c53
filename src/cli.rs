//! The command line: `chariot perft <depth> [--divide] [FEN]`,
//! `chariot judge [--rules R] <FEN | startpos> [MOVE …]`, `chariot datagen …`
//! and friends, `chariot --version`. Output is plain lines for scripts; errors go to stderr with
//! exit status 2.

use std::process::ExitCode;
use std::time::Instant;

use crate::board::{Position, START_FEN};
use crate::eval::nnue::Network;
use crate::rules::{self, MAX_KILL_DEPTH, RuleSet, Rules};
use crate::tools::{bench, book, datagen, perft, train, tune};
use crate::types::Move;

/// Every command, one per line.
fn usage() -> String {
    format!(
        "usage: chariot                  (the engine on stdin/stdout: UCI, UCCI or XBoard/CECP)
       chariot bench [depth] [--rules asian|chinese] [--eval classical|nnue]
       chariot perft <depth> [--divide] [FEN | startpos]
       chariot judge [--rules asian|chinese] [--kill-depth N] <FEN | startpos> [MOVE ...]
       {}
       {}
       {}
       {}
       chariot help [COMMAND] | COMMAND --help
       chariot version | --version",
        datagen::USAGE,
        tune::USAGE,
        train::USAGE,
        book::USAGE
    )
}

/// The usage lines of one command (`chariot help perft`, `chariot perft --help`),
/// or `None` for a name that is not a command.
fn command_usage(command: &str) -> Option<String> {
    let prefix = format!("chariot {command} ");
    let all = usage();
    let lines: Vec<&str> = all
        .lines()
        .map(|l| l.trim_start_matches("usage:").trim())
        .filter(|l| l.starts_with(&prefix))
        .collect();
    (!lines.is_empty()).then(|| format!("usage: {}", lines.join("\n       ")))
}

/// Runs the command given by `args` (without the program name).
pub fn run(args: &[String]) -> ExitCode {
    let wants_help = |a: &String| a == "--help" || a == "-h";
    if let (Some(command), true) = (args.first(), args.iter().skip(1).any(wants_help))
        && let Some(text) = command_usage(command)
    {
        println!("{text}");
        return ExitCode::SUCCESS;
    }
    let result = match args.first().map(String::as_str) {
        Some("perft") => cmd_perft(&args[1..]),
        Some("judge") => cmd_judge(&args[1..]),
        Some("bench") => cmd_bench(&args[1..]),
        Some("datagen") => datagen::parse(&args[1..]).and_then(datagen::run),
        Some("tune") => tune::parse(&args[1..]).and_then(|o| tune::run(&o)),
        Some("train") => train::parse(&args[1..]).and_then(|o| train::run(&o)),
        Some("book") => book::parse(&args[1..]).and_then(book::run),
        Some("help" | "--help" | "-h") => {
            let text = match args.get(1) {
                None => Some(usage()),
                Some(command) => command_usage(command),
            };
            text.map(|t| println!("{t}")).ok_or_else(|| format!("unknown command '{}'\n{}", args[1], usage()))
        }
        Some("version" | "--version" | "-V") => {
            println!("{}", version());
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n{}", usage())),
        None => {
            crate::protocol::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout().lock());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// The version line: the program's version and the built-in network's name.
fn version() -> String {
    format!("chariot {} (network {})", env!("CARGO_PKG_VERSION"), Network::embedded().name())
}

/// Parses the FEN given as one argument or as the remaining arguments
/// (`startpos` or nothing means the start position).
pub fn parse_fen_args(args: &[String]) -> Result<Position, String> {
    let joined = args.join(" ");
    let fen = match joined.trim() {
        "" | "startpos" => START_FEN,
        f => f,
    };
    Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))
}

fn cmd_perft(args: &[String]) -> Result<(), String> {
    let divide = args.iter().any(|a| a == "--divide");
    let rest: Vec<String> = args.iter().filter(|a| *a != "--divide").cloned().collect();
    let depth_arg = rest.first().ok_or("perft needs a depth")?;
    let depth: u32 = depth_arg
        .parse()
        .ok()
        .filter(|d| *d <= 64)
        .ok_or_else(|| format!("bad depth '{depth_arg}' (expected 0..=64)"))?;
    let mut pos = parse_fen_args(&rest[1..])?;
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in perft::divide(&mut pos, depth) {
            println!("{m}: {n}");
            total += n;
        }
        println!();
        total
    } else {
        perft::perft(&mut pos, depth)
    };
    let elapsed = start.elapsed();
    println!("Nodes searched: {nodes}");
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    println!("Time: {} ms, {} nps", elapsed.as_millis(), nps);
    Ok(())
}

/// Takes the `--rules R` (or `--rules=R`) and, with `kill_depth`,
/// `--kill-depth N` options out of `args` (anywhere among them); returns the
/// game rules they give (the defaults otherwise) and the other arguments.
fn rule_options(args: &[String], kill_depth: bool) -> Result<(Rules, Vec<String>), String> {
    let mut rules = Rules::DEFAULT;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value =
            || inline.clone().or_else(|| it.next().cloned()).ok_or(format!("{flag} needs a value"));
        match flag {
            "--rules" => rules.set = value()?.parse::<RuleSet>()?,
            "--kill-depth" if kill_depth => {
                let v = value()?;
                rules.kill_depth = v
                    .parse()
                    .ok()
                    .filter(|d| (1..=MAX_KILL_DEPTH).contains(d))
                    .ok_or_else(|| format!("bad kill depth '{v}' (expected 1..={MAX_KILL_DEPTH})"))?;
            }
            _ if flag.starts_with("--") => return Err(format!("unknown option '{flag}'")),
            _ => rest.push(arg.clone()),
        }
    }
    Ok((rules, rest))
}

/// Takes the `--eval classical|nnue` (or `--eval=…`) option out of `args`:
/// true for `nnue` (the default), false for `classical`; and the other arguments.
fn take_eval_option(args: &[String]) -> Result<(bool, Vec<String>), String> {
    let mut nnue = true;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let value = match arg.strip_prefix("--eval") {
            Some("") => it.next().ok_or("--eval needs a value")?.as_str(),
            Some(v) if v.starts_with('=') => &v[1..],
            _ => {
                rest.push(arg.clone());
                continue;
            }
        };
        nnue = match value {
            "nnue" => true,
            "classical" => false,
            v => return Err(format!("bad evaluation '{v}' (expected classical or nnue)")),
        };
    }
    Ok((nnue, rest))
}

/// `judge [--rules asian|chinese] [--kill-depth N] <FEN | startpos> [moves]
/// [MOVE …]`: plays the moves, then prints `verdict <red_wins | black_wins |
/// draw | none>` and the reason under the rule set (default asian). The FEN
/// may be one argument or spread over several: after its first argument,
/// side/counter fields (`w`, `b`, `r`, `-`, numbers) still belong to it, and
/// the first argument of any other form starts the moves.
fn cmd_judge(args: &[String]) -> Result<(), String> {
    let (rules, args) = rule_options(args, true)?;
    if args.is_empty() {
        return Err("judge needs a FEN or startpos".into());
    }
    let is_fen_field = |a: &&String| {
        matches!(a.as_str(), "w" | "r" | "b" | "-")
            || (!a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()))
    };
    let fen_len = 1 + args[1..].iter().take_while(is_fen_field).count();
    let mut pos = parse_fen_args(&args[..fen_len])?;
    let moves = &args[fen_len..];
    let moves = if moves.first().is_some_and(|m| m == "moves") { &moves[1..] } else { moves };
    for (i, text) in moves.iter().enumerate() {
        let m = Move::parse(text)
            .ok_or_else(|| format!("malformed move '{text}' (move {}; moves look like h2e2)", i + 1))?;
        if !(pos.is_pseudo_legal(m) && pos.is_legal(m)) {
            return Err(format!("illegal move '{text}' (move {}) in {}", i + 1, pos.fen()));
        }
        pos.do_move(m);
    }
    let ruling = rules::adjudicate(&mut pos, rules);
    println!("verdict {}", ruling.verdict());
    println!("{ruling}");
    Ok(())
}

/// `bench [depth] [--rules asian|chinese] [--eval classical|nnue]`: the
/// bench, by default with the Asian rules and the built-in network, the
/// engine's defaults (its node count is the signature); `--eval classical`
/// evaluates classically.
fn cmd_bench(args: &[String]) -> Result<(), String> {
    let (eval, args) = take_eval_option(args)?;
    let (rules, args) = rule_options(&args, false)?;
    let depth = match args.first() {
        None => bench::DEFAULT_DEPTH,
        Some(d) => d
            .parse()
            .ok()
            .filter(|d| (1..=64).contains(d))
            .ok_or_else(|| format!("bad depth '{d}' (expected 1..=64)"))?,
    };
    let n = bench::POSITIONS.len();
    let never = std::sync::atomic::AtomicBool::new(false);
    let network = eval.then(Network::embedded);
    let result = bench::run(depth, rules, network, &never, |i, fen, nodes| {
        println!("position {}/{n}: {nodes} nodes  {fen}", i + 1)
    })
    .expect("an unstoppable bench runs to the end");
    println!("{} nodes {} nps", result.nodes, result.nps);
    Ok(())
}
