//! The command line of the `chariot` binary, parsed by `clap`: with no
//! arguments the engine on stdin/stdout; otherwise one subcommand (`perft`,
//! `bench`, `judge`, `datagen`, `tune`, `train`, `book`, `version`), each with
//! its own `--help`. Output is plain lines for scripts; errors go to stderr
//! with exit status 2 (an unknown flag is named).

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use crate::eval::nnue::Network;
use crate::notation::{self, Notation};
use crate::rules::{self, DEFAULT_KILL_DEPTH, MAX_KILL_DEPTH, Rules};
use crate::tools::args::{self, Eval, RuleArgs, whole};
use crate::tools::{analyse, bench, book, datagen, perft, show, train, tune};

/// `chariot [COMMAND]`.
#[derive(Parser, Debug)]
#[command(
    name = "chariot",
    about = "Chariot, a xiangqi (Chinese chess) engine",
    long_about = "Chariot, a xiangqi (Chinese chess) engine.\n\nWith no command it is the engine on \
                  stdin/stdout, speaking UCI, UCCI or XBoard/CECP (chosen by the first command).",
    disable_version_flag = true
)]
struct Cli {
    /// Print the version and the built-in network's name.
    #[arg(short = 'V', long)]
    version: bool,
    /// The command (none: the engine on stdin/stdout).
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Search the bench positions to a fixed depth; the last line's node
    /// count is the engine's signature.
    Bench(BenchArgs),
    /// Count the leaf nodes of the legal move tree (`--divide`: per root move).
    Perft(PerftArgs),
    /// Play moves from a position and print the rule arbiter's verdict.
    Judge(JudgeArgs),
    /// Play self-play games and append their positions to a data file, merge
    /// shards of a run, or print a data file.
    Datagen(datagen::Args),
    /// Fit the classical evaluation's weights (src/eval/params.rs) to data.
    Tune(tune::Options),
    /// Train an NNUE network on data files.
    Train(train::Options),
    /// Make an opening book from games, or print one.
    #[command(subcommand, arg_required_else_help = false)]
    Book(book::Command),
    /// Review games from files: scores, the engine's moves, marks, turning
    /// points; as annotated PGN, JSON lines or an HTML page.
    Analyse(analyse::Args),
    /// Draw a position as SVG (or print it as text), optionally with the
    /// engine's best line.
    Show(show::Args),
    /// Print the version and the built-in network's name.
    Version,
}

/// `chariot bench`.
#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// The depth of each search.
    #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = whole::<u32>(1..=64))]
    depth: u32,
    #[command(flatten)]
    rules: RuleArgs,
    /// The evaluation.
    #[arg(long, value_enum, default_value_t = Eval::Nnue)]
    eval: Eval,
    /// The network file to evaluate with (`default`: the built-in one).
    #[arg(long, value_name = "FILE", default_value = "default", conflicts_with = "eval")]
    net: String,
}

/// `chariot perft`.
#[derive(clap::Args, Debug)]
struct PerftArgs {
    /// The depth, in plies.
    #[arg(value_parser = whole::<u32>(0..=64))]
    depth: u32,
    /// Print the count below each legal move of the position.
    #[arg(long)]
    divide: bool,
    /// The position: a FEN (one argument or several) or `startpos` (the default).
    #[arg(value_name = "FEN")]
    fen: Vec<String>,
}

/// `chariot judge`.
#[derive(clap::Args, Debug)]
struct JudgeArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Chinese rules: the most consecutive checks the kill (mate threat) test reads.
    #[arg(long, default_value_t = DEFAULT_KILL_DEPTH,
          value_parser = whole::<u8>(1..=MAX_KILL_DEPTH as u64))]
    kill_depth: u8,
    /// The notation of the moves printed: uci (h2e2), iccs (h2-e2), wxf (C2=5), zh (炮二平五).
    #[arg(long, default_value = "uci", value_parser = args::notation)]
    notation: Notation,
    /// A FEN (one argument or several) or `startpos`, then the moves (in any
    /// notation: `h2e2`, `h2-e2`, `C2=5`, `炮二平五`; optionally after the
    /// word `moves`).
    #[arg(value_name = "FEN|startpos [MOVE]", required = true)]
    position: Vec<String>,
}

/// Runs the command given by `args` (without the program name); the exit
/// status is 0, or 2 after an error (printed on stderr).
pub fn run(args: &[String]) -> ExitCode {
    if args.is_empty() {
        crate::protocol::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout().lock());
        return ExitCode::SUCCESS;
    }
    let cli = match Cli::try_parse_from(std::iter::once("chariot").chain(args.iter().map(String::as_str))) {
        Ok(cli) => cli,
        Err(e) => {
            // Help goes to stdout with status 0; a usage error to stderr with 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let command = if cli.version { Some(Command::Version) } else { cli.command };
    let result = match command {
        Some(Command::Version) => {
            println!("{}", version());
            Ok(())
        }
        Some(Command::Perft(a)) => cmd_perft(a),
        Some(Command::Judge(a)) => cmd_judge(a),
        Some(Command::Bench(a)) => cmd_bench(a),
        Some(Command::Datagen(a)) => datagen::run(a.command()),
        Some(Command::Tune(o)) => tune::run(&o),
        Some(Command::Train(o)) => train::run(&o),
        Some(Command::Book(c)) => book::run(c),
        Some(Command::Show(a)) => show::run(a),
        Some(Command::Analyse(a)) => analyse::run(a),
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

fn cmd_perft(a: PerftArgs) -> Result<(), String> {
    let mut pos = args::fen(&a.fen)?;
    let start = Instant::now();
    let nodes = if a.divide {
        let mut total = 0;
        for (m, n) in perft::divide(&mut pos, a.depth) {
            println!("{m}: {n}");
            total += n;
        }
        println!();
        total
    } else {
        perft::perft(&mut pos, a.depth)
    };
    let elapsed = start.elapsed();
    println!("Nodes searched: {nodes}");
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    println!("Time: {} ms, {} nps", elapsed.as_millis(), nps);
    Ok(())
}

/// `judge [--rules asian|chinese] [--kill-depth N] <FEN | startpos> [moves]
/// [MOVE …]`: plays the moves, then prints `verdict <red_wins | black_wins |
/// draw | none>` and the reason under the rule set (default asian). The FEN
/// may be one argument or spread over several: after its first argument,
/// side/counter fields (`w`, `b`, `r`, `-`, numbers) still belong to it, and
/// the first argument of any other form starts the moves.
fn cmd_judge(a: JudgeArgs) -> Result<(), String> {
    let rules = Rules { set: a.rules.rules, kill_depth: a.kill_depth, ..Rules::DEFAULT };
    let mut pos = args::position(&a.position)?;
    let ruling = rules::adjudicate(&mut pos, rules);
    let text = |ply: usize, m| {
        let mut before = pos.clone();
        while before.game_ply() > ply {
            before.undo_move();
        }
        notation::write(&before, m, a.notation)
    };
    println!("{}", ruling.report_with(text));
    Ok(())
}

/// `bench [depth] [--rules asian|chinese] [--eval classical|nnue] [--net
/// FILE]`: the bench, by default with the Asian rules and the built-in
/// network, the engine's defaults (its node count is the signature);
/// `--eval classical` evaluates classically, `--net FILE` with another
/// network (to compare networks' speed).
fn cmd_bench(a: BenchArgs) -> Result<(), String> {
    let rules = Rules { set: a.rules.rules, ..Rules::DEFAULT };
    let n = bench::POSITIONS.len();
    let never = std::sync::atomic::AtomicBool::new(false);
    let network = match a.eval {
        Eval::Nnue => Some(Network::named(&a.net)?),
        Eval::Classical => None,
    };
    let result = bench::run(a.depth, rules, network, &never, |i, fen, nodes| {
        println!("position {}/{n}: {nodes} nodes  {fen}", i + 1)
    })
    .expect("an unstoppable bench runs to the end");
    println!("{} nodes {} nps", result.nodes, result.nps);
    Ok(())
}
