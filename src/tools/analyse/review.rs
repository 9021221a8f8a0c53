//! One game reviewed: every position searched once (with the game's history,
//! so repetitions and the arbiter count as in play), every move given its
//! scores before and after, the engine's move and line where it differs,
//! its loss and mark, and the rulings it walked into; then a summary per
//! side and the turning points.

use super::marks::{self, Mark};
use crate::board::Position;
use crate::gamefile::Game;
use crate::notation::{self, Notation};
use crate::rules::{self, Outcome, Rules, Ruling};
use crate::search::SearchLimits;
use crate::tools::analyst::{Analyst, Verdict};
use crate::types::score::Reported;
use crate::types::{Color, Move};

/// How the games are reviewed.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The limits of each position's search.
    pub limits: SearchLimits,
    /// The rules the arbiter judges by.
    pub rules: Rules,
    /// The notation of the moves in the review's texts.
    pub notation: Notation,
    /// The first ply reviewed (0: from the first move).
    pub from_ply: usize,
    /// Only this side's moves are marked, if given.
    pub side: Option<Color>,
}

/// What is known of one position of the game.
#[derive(Clone, Debug)]
struct Assessment {
    /// The side to move's expected score (1 won, ½ drawn, 0 lost).
    expected: f64,
    /// The search, when the game is not over here.
    verdict: Option<Verdict>,
    /// The arbiter's ruling when the game is over here.
    ruling: Option<Ruling>,
}

/// One move of a reviewed game.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// The ply, 1-based from the game's start position.
    pub ply: usize,
    /// The move number as the FEN counts it.
    pub number: u32,
    /// The side that made the move.
    pub side: Color,
    /// The move.
    pub mv: Move,
    /// The move in the review's notation.
    pub text: String,
    /// Whether this move was reviewed (`--from`, `--side` may leave it out).
    pub reviewed: bool,
    /// The search score of the position before the move, from Red's side
    /// (a mate distance is positive when Red mates).
    pub score_before: Option<Reported>,
    /// The search score after the move, from Red's side; `None` where the
    /// game is over after it (see `ruling`) or the move was not reviewed.
    pub score_after: Option<Reported>,
    /// Win/draw/loss chances in ‰ after the move, from Red's side.
    pub wdl_after: Option<[u16; 3]>,
    /// The mover's expected score with the engine's best move.
    pub expected_before: f64,
    /// The mover's expected score after the move played.
    pub expected_after: f64,
    /// The engine's move in the position before (coordinates); `NONE` if
    /// not reviewed.
    pub best: Move,
    /// The engine's line from the position before, in the review's
    /// notation (starting with its best move).
    pub line: Vec<String>,
    /// The engine's line as moves.
    pub line_moves: Vec<Move>,
    /// The depth of the search before the move.
    pub depth: u32,
    /// The expected score the move gave away (0 if the engine agrees).
    pub loss: f64,
    /// The mark the loss earns.
    pub mark: Option<Mark>,
    /// The arbiter's ruling after the move, in words, if the game ends there.
    pub ruling: Option<String>,
}

/// A side's figures over its reviewed moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves reviewed.
    pub moves: usize,
    /// The mean loss in expected score (0 to 1).
    pub average_loss: f64,
    /// How many moves earned `?!`, `?` and `??`.
    pub marks: [usize; 3],
    /// The mean accuracy, 0 to 100 (see [`marks::accuracy`]).
    pub accuracy: f64,
}

/// A reviewed game.
#[derive(Clone, Debug)]
pub struct GameReview {
    /// The game's place in its file(s), 1-based.
    pub index: usize,
    /// The game's tags.
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start: Position,
    /// Its moves, reviewed.
    pub moves: Vec<MoveReview>,
    /// The result the file gives, if any.
    pub result: Option<String>,
    /// Red's and Black's figures.
    pub summary: [SideSummary; 2],
    /// Indices into `moves` of the turning points (the costliest marked
    /// moves, at most [`TURNING_POINTS`], in game order).
    pub turning_points: Vec<usize>,
}

/// The most turning points a game's review names.
pub const TURNING_POINTS: usize = 3;

impl GameReview {
    /// The value of the first tag called `name` (any case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// "Red – Black (Event)", or "Game N" without names.
    pub fn title(&self) -> String {
        let name = |k| self.tag(k).filter(|v| !v.trim().is_empty());
        match (name("Red"), name("Black")) {
            (Some(r), Some(b)) => match name("Event") {
                Some(e) => format!("{r} – {b} ({e})"),
                None => format!("{r} – {b}"),
            },
            _ => name("Event").map_or_else(|| format!("Game {}", self.index), String::from),
        }
    }

    /// The position before move `i` (an index into `moves`), with its history.
    pub fn position_before(&self, i: usize) -> Position {
        let mut pos = self.start.clone();
        for m in &self.moves[..i] {
            pos.do_move(m.mv);
        }
        pos
    }
}

/// The number of searches [`review`] makes for `game`.
pub fn searches(game: &Game, settings: &Settings) -> usize {
    (game.moves.len() + 1).saturating_sub(settings.from_ply)
}

/// Reviews `game` (the `index`-th of the input) with `analyst`; `searched`
/// is called after each search.
pub fn review(
    analyst: &mut Analyst,
    index: usize,
    game: &Game,
    settings: &Settings,
    mut searched: impl FnMut(),
) -> GameReview {
    let mut pos = game.start.clone();
    pos.reserve(game.moves.len() + 8);
    let n = game.moves.len();
    let mut assessments: Vec<Option<Assessment>> = Vec::with_capacity(n + 1);
    let mut texts = Vec::with_capacity(n);
    let mut positions_before = Vec::with_capacity(n);
    for ply in 0..=n {
        assessments.push((ply >= settings.from_ply).then(|| {
            let a = assess(analyst, &mut pos, settings);
            searched();
            a
        }));
        if ply < n {
            let m = game.moves[ply];
            texts.push(notation::write(&pos, m, settings.notation));
            positions_before.push(pos.clone());
            pos.do_move(m);
        }
    }
    let mut moves = Vec::with_capacity(n);
    for (i, &mv) in game.moves.iter().enumerate() {
        let before_pos = &positions_before[i];
        let side = before_pos.side_to_move();
        let mut r = MoveReview {
            ply: i + 1,
            number: before_pos.fullmove(),
            side,
            mv,
            text: texts[i].clone(),
            reviewed: false,
            score_before: None,
            score_after: None,
            wdl_after: None,
            expected_before: 0.5,
            expected_after: 0.5,
            best: Move::NONE,
            line: Vec::new(),
            line_moves: Vec::new(),
            depth: 0,
            loss: 0.0,
            mark: None,
            ruling: None,
        };
        if let (Some(before), Some(after)) = (&assessments[i], &assessments[i + 1]) {
            r.reviewed = settings.side.is_none_or(|s| s == side);
            r.expected_before = before.expected;
            r.expected_after = 1.0 - after.expected;
            if let Some(v) = &before.verdict {
                r.score_before = Some(red_view(v.score, side));
                r.best = v.best;
                r.depth = v.depth;
                r.line_moves = v.pv.clone();
                r.line = notation::write_line(before_pos, &v.pv, settings.notation);
            }
            if let Some(v) = &after.verdict {
                r.score_after = Some(red_view(v.score, !side));
                let w = v.wdl;
                r.wdl_after =
                    Some(if side == Color::Red { [w.loss, w.draw, w.win] } else { [w.win, w.draw, w.loss] });
            }
            r.ruling = after.ruling.as_ref().map(ruling_words);
            if r.reviewed && mv != r.best {
                r.loss = (r.expected_before - r.expected_after).max(0.0);
                r.mark = Mark::of_loss(r.loss);
            }
        }
        moves.push(r);
    }
    let summary = [Color::Red, Color::Black].map(|c| summarise(&moves, c));
    let turning_points = turning_points(&moves);
    GameReview {
        index,
        tags: game.tags.clone(),
        start: game.start.clone(),
        moves,
        result: game.result.clone(),
        summary,
        turning_points,
    }
}

/// Judges `pos` by the rules, and searches it if the game goes on.
fn assess(analyst: &mut Analyst, pos: &mut Position, settings: &Settings) -> Assessment {
    let ruling = rules::adjudicate(pos, settings.rules);
    match ruling.outcome {
        Some(outcome) => {
            let stm = pos.side_to_move();
            let expected = match outcome {
                Outcome::Draw => 0.5,
                o if o == Outcome::win_for(stm) => 1.0,
                _ => 0.0,
            };
            Assessment { expected, verdict: None, ruling: Some(ruling) }
        }
        None => {
            let v = analyst.search(pos, &settings.limits);
            Assessment { expected: v.expected(), verdict: Some(v), ruling: None }
        }
    }
}

/// A search score of `stm`, the side to move, as Red sees it.
fn red_view(score: i32, stm: Color) -> Reported {
    match (Reported::from_score(score), stm) {
        (r, Color::Red) => r,
        (Reported::Cp(cp), Color::Black) => Reported::Cp(-cp),
        (Reported::Mate(n), Color::Black) => Reported::Mate(-n),
    }
}

/// "perpetual chase of the black cannon on b6 by red: black wins".
fn ruling_words(r: &Ruling) -> String {
    let result = match r.outcome {
        Some(Outcome::Draw) => "a draw".to_string(),
        Some(o) if o == Outcome::win_for(Color::Red) => "red wins".to_string(),
        Some(_) => "black wins".to_string(),
        None => "the game goes on".to_string(),
    };
    format!("{}: {result}", r.rule)
}

fn summarise(moves: &[MoveReview], side: Color) -> SideSummary {
    let mine: Vec<&MoveReview> = moves.iter().filter(|m| m.reviewed && m.side == side).collect();
    let mut s = SideSummary { moves: mine.len(), ..SideSummary::default() };
    if mine.is_empty() {
        return s;
    }
    for m in &mine {
        s.average_loss += m.loss;
        s.accuracy +=
            if m.loss == 0.0 { 100.0 } else { marks::accuracy(m.expected_before, m.expected_after) };
        if let Some(mark) = m.mark {
            s.marks[mark as usize] += 1;
        }
    }
    s.average_loss /= mine.len() as f64;
    s.accuracy /= mine.len() as f64;
    s
}

/// The costliest marked moves, at most [`TURNING_POINTS`], in game order.
fn turning_points(moves: &[MoveReview]) -> Vec<usize> {
    let mut marked: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].mark.is_some()).collect();
    marked.sort_by(|&a, &b| moves[b].loss.total_cmp(&moves[a].loss).then(a.cmp(&b)));
    marked.truncate(TURNING_POINTS);
    marked.sort_unstable();
    marked
}
