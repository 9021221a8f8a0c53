//! Prints what the game-file readers make of files, for scripts
//! (tools/cchess_check.py): one tab-separated line per game, `game`, its
//! number, `ok` or `error`, the start FEN, the number of moves and the
//! error, then one line per move, `move`, the game, the ply, the move in
//! coordinates, in the Chinese notation and in WXF.
//!
//! `cargo run --release --example read_game -- FILE…`

use std::path::Path;

use chariot::gamefile::{self, Game};
use chariot::notation::Notation;

fn print_moves(index: usize, game: &Game) {
    let zh = game.move_texts(Notation::Chinese);
    let wxf = game.move_texts(Notation::Wxf);
    for (i, m) in game.moves.iter().enumerate() {
        println!("move\t{index}\t{}\t{m}\t{}\t{}", i + 1, zh[i], wxf[i]);
    }
}

fn main() {
    let mut status = 0;
    for arg in std::env::args().skip(1) {
        println!("file\t{arg}");
        match gamefile::read_file(Path::new(&arg)) {
            Err(e) => {
                println!("error\t{e}");
                status = 1;
            }
            Ok(games) => {
                for (i, g) in games.iter().enumerate() {
                    let index = i + 1;
                    match g {
                        Ok(game) => {
                            println!("game\t{index}\tok\t{}\t{}\t", game.start.fen(), game.moves.len());
                            print_moves(index, game);
                        }
                        Err(e) => {
                            let partial = e.partial.as_deref();
                            let fen = partial.map_or(String::new(), |p| p.start.fen());
                            let n = partial.map_or(0, |p| p.moves.len());
                            println!("game\t{index}\terror\t{fen}\t{n}\t{e}");
                            if let Some(p) = partial {
                                print_moves(index, p);
                            }
                        }
                    }
                }
            }
        }
    }
    std::process::exit(status);
}
