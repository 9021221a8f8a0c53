//! The command line: `chariot perft <depth> [--divide] [FEN]` and friends.
//! Output is plain lines for scripts; errors go to stderr with exit status 2.

use std::process::ExitCode;
use std::time::Instant;

use crate::board::{Position, START_FEN};
use crate::tools::{bench, perft};

const USAGE: &str = "usage: chariot [perft <depth> [--divide] [FEN | startpos] | bench [depth]]";

/// Runs the command given by `args` (without the program name).
pub fn run(args: &[String]) -> ExitCode {
    let result = match args.first().map(String::as_str) {
        Some("perft") => cmd_perft(&args[1..]),
        Some("bench") => cmd_bench(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n{USAGE}")),
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

fn cmd_bench(args: &[String]) -> Result<(), String> {
    let depth = match args.first() {
        None => bench::DEFAULT_DEPTH,
        Some(d) => d
            .parse()
            .ok()
            .filter(|d| (1..=64).contains(d))
            .ok_or_else(|| format!("bad depth '{d}' (expected 1..=64)"))?,
    };
    let n = bench::POSITIONS.len();
    let result = bench::run(depth, |i, fen, nodes| println!("position {}/{n}: {nodes} nodes  {fen}", i + 1));
    println!("{} nodes {} nps", result.nodes, result.nps);
    Ok(())
}
