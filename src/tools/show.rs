//! `chariot show`: a position as a picture (SVG) or as text, optionally with
//! the engine's best line drawn as arrows.

use std::io::Write;

use crate::diagram::{self, Arrow, ArrowKind, Diagram};
use crate::rules::Rules;
use crate::search::SearchLimits;
use crate::tools::analyst::Analyst;
use crate::tools::args::{self, Eval, RuleArgs, whole};
use crate::types::Color;
use crate::types::score::Reported;

/// The command line of `chariot show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Write the picture as SVG to FILE (`-`: standard output); without it
    /// the board is printed as text.
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// Draw the board from Black's side.
    #[arg(long)]
    flip: bool,
    /// Search the position and show the engine's line (drawn as arrows).
    #[arg(long)]
    best: bool,
    /// With --best: the depth of the search.
    #[arg(long, default_value_t = 12, value_parser = whole::<u32>(1..=64))]
    depth: u32,
    /// With --best: how many moves of the line to draw.
    #[arg(long, default_value_t = 2, value_parser = whole::<usize>(1..=20))]
    arrows: usize,
    /// The size of a square of the picture, in pixels.
    #[arg(long, default_value_t = 50, value_parser = whole::<u32>(20..=200))]
    size: u32,
    /// A caption under the picture.
    #[arg(long)]
    caption: Option<String>,
    #[command(flatten)]
    rules: RuleArgs,
    /// With --best: the evaluation.
    #[arg(long, value_enum, default_value_t = Eval::Nnue)]
    eval: Eval,
    /// A FEN (one argument or several) or `startpos`, then the moves played
    /// from it (`h2e2`, optionally after the word `moves`).
    #[arg(value_name = "FEN|startpos [MOVE]", required = true)]
    position: Vec<String>,
}

/// Runs `chariot show`.
pub fn run(a: Args) -> Result<(), String> {
    let pos = args::position(&a.position)?;
    let last_move = (pos.game_ply() > 0).then(|| pos.last_move());
    let mut how = Diagram {
        bottom: if a.flip { Color::Black } else { Color::Red },
        last_move,
        square: a.size,
        caption: a.caption.clone(),
        ..Diagram::default()
    };
    let mut text = String::new();
    if a.best {
        let rules = Rules { set: a.rules.rules, ..Rules::DEFAULT };
        let mut analyst = Analyst::new(1, 64, rules, a.eval == Eval::Classical)?;
        let v = analyst.search(&pos, &SearchLimits { depth: Some(a.depth), ..SearchLimits::default() });
        let line: Vec<String> = v.pv.iter().map(ToString::to_string).collect();
        let score = match Reported::from_score(v.score) {
            Reported::Cp(cp) => format!("cp {cp}"),
            Reported::Mate(n) => format!("mate {n}"),
        };
        text = format!(
            "best {} score {score} wdl {} {} {} depth {} pv {}\n",
            if v.best.is_some() { v.best.to_string() } else { "(none)".into() },
            v.wdl.win,
            v.wdl.draw,
            v.wdl.loss,
            v.depth,
            line.join(" ")
        );
        how.arrows = v.pv.iter().take(a.arrows).map(|&mv| Arrow { mv, kind: ArrowKind::Best }).collect();
    }
    match a.svg.as_deref() {
        None => {
            println!("{pos}");
            if let Some(m) = last_move {
                println!("Last move: {m}");
            }
            print!("{text}");
        }
        Some(file) => {
            let picture = diagram::svg(&pos, &how);
            if file == "-" {
                let mut out = std::io::stdout().lock();
                out.write_all(picture.as_bytes()).map_err(|e| format!("cannot write the picture: {e}"))?;
            } else {
                std::fs::write(file, picture).map_err(|e| format!("cannot write {file}: {e}"))?;
                eprint!("{text}");
            }
        }
    }
    Ok(())
}
