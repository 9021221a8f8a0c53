//! The review as one self-contained HTML page for people: per game the
//! players' figures, a graph of the expected score over the game with the
//! marked moves on it, the turning points drawn as boards (the move played
//! as a red arrow, the engine's as a green one) and the moves with their
//! marks and scores. No script, no font, no image from elsewhere: the page
//! reads the same offline, years later.

use std::fmt::Write;

use super::marks::Mark;
use super::pgn::eval_text;
use super::review::{GameReview, MoveReview};
use crate::diagram::{self, Arrow, ArrowKind, Diagram, escape_xml as esc};
use crate::types::Color;

const STYLE: &str = "body{font-family:system-ui,'Noto Sans CJK SC','Microsoft YaHei',sans-serif;\
max-width:1000px;margin:2em auto;padding:0 1em;color:#222;background:#fcfaf5}\
h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:2px solid #b71c1c;padding-bottom:.2em;margin-top:2em}\
table{border-collapse:collapse}td,th{padding:.2em .6em;text-align:left}\
.sides td,.sides th{border-bottom:1px solid #ddd}.moves td{vertical-align:top}\
.num{color:#888;text-align:right}.ev{color:#777;font-size:.85em}\
.m1{color:#b8860b;font-weight:bold}.m2{color:#d35400;font-weight:bold}.m3{color:#c0392b;font-weight:bold}\
.turning{display:flex;flex-wrap:wrap;gap:1.5em}.turning figure{margin:0}\
.turning figcaption{max-width:400px;font-size:.95em}.rule{color:#6c3483}\
.graph{display:block;margin:1em 0}.note{color:#666;font-size:.9em}";

/// The page for `games`; `settings_text` says what engine and limits made it.
pub fn write(games: &[GameReview], settings_text: &str) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let title = match games {
        [g] => g.title(),
        _ => format!("{} games", games.len()),
    };
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} — Chariot analysis</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n<p class=\"note\">{}</p>\n",
        esc(&title),
        esc(&title),
        esc(settings_text)
    );
    for g in games {
        game(&mut out, g, games.len() > 1);
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn game(out: &mut String, g: &GameReview, heading: bool) {
    if heading {
        let _ = writeln!(out, "<h2>{}. {}</h2>", g.index, esc(&g.title()));
    }
    let names = [g.tag("Red").unwrap_or("Red"), g.tag("Black").unwrap_or("Black")];
    let _ = writeln!(
        out,
        "<table class=\"sides\"><tr><th></th><th>moves</th><th>accuracy</th><th>average loss</th><th>?!</th><th>?</th><th>??</th></tr>"
    );
    for (i, s) in g.summary.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td>{} ({})</td><td>{}</td><td>{:.1}</td><td>{:.1} %</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(names[i]),
            if i == 0 { "red" } else { "black" },
            s.moves,
            s.accuracy,
            100.0 * s.average_loss,
            s.marks[0],
            s.marks[1],
            s.marks[2]
        );
    }
    let result = g.result.as_deref().unwrap_or("*");
    let _ = writeln!(out, "</table>\n<p>Result: {}</p>", esc(result));
    graph(out, g);
    if !g.turning_points.is_empty() {
        out.push_str("<h3>Turning points</h3>\n<div class=\"turning\">\n");
        for &i in &g.turning_points {
            turning_point(out, g, i);
        }
        out.push_str("</div>\n");
    }
    out.push_str("<h3>Moves</h3>\n");
    moves_table(out, g);
}

/// Red's expected score over the plies, 1 at the top, with the marked moves
/// as dots in their mark's colour.
fn graph(out: &mut String, g: &GameReview) {
    let points: Vec<(usize, f64)> = std::iter::once(g.moves.iter().find(|m| m.score_before.is_some()))
        .flatten()
        .map(|m| (m.ply - 1, red_expected(m.side, m.expected_before)))
        .chain(
            g.moves
                .iter()
                .filter(|m| m.score_after.is_some() || m.ruling.is_some())
                .map(|m| (m.ply, red_expected(m.side, m.expected_after))),
        )
        .collect();
    if points.len() < 2 {
        return;
    }
    let (w, h, pad) = (900.0, 180.0, 24.0);
    let plies = g.moves.len().max(1) as f64;
    let x = |ply: usize| pad + (w - 2.0 * pad) * ply as f64 / plies;
    let y = |e: f64| pad / 2.0 + (h - pad) * (1.0 - e);
    let _ = writeln!(
        out,
        "<svg class=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"100%\" role=\"img\" aria-label=\"expected score for Red over the game\">"
    );
    let _ = writeln!(
        out,
        "<rect x=\"{pad}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#333\"/>",
        y(1.0),
        w - 2.0 * pad,
        h - pad
    );
    let mut area = format!("M{:.1},{:.1}", x(points[0].0), y(0.0));
    for &(p, e) in &points {
        let _ = write!(area, " L{:.1},{:.1}", x(p), y(e));
    }
    let _ = write!(area, " L{:.1},{:.1} Z", x(points[points.len() - 1].0), y(0.0));
    let _ = writeln!(out, "<path d=\"{area}\" fill=\"#f3e2d9\"/>");
    let _ = writeln!(
        out,
        "<line x1=\"{pad}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"#999\" stroke-dasharray=\"4 4\"/>",
        y(0.5),
        w - pad
    );
    let polyline: Vec<String> = points.iter().map(|&(p, e)| format!("{:.1},{:.1}", x(p), y(e))).collect();
    let _ = writeln!(
        out,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#b71c1c\" stroke-width=\"2\"/>",
        polyline.join(" ")
    );
    for m in g.moves.iter().filter(|m| m.mark.is_some()) {
        let colour = mark_colour(m.mark);
        let _ = writeln!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4.5\" fill=\"{colour}\" stroke=\"#fff\"><title>{}</title></circle>",
            x(m.ply),
            y(red_expected(m.side, m.expected_after)),
            esc(&move_label(m))
        );
    }
    let step = if plies > 120.0 { 40 } else { 20 };
    for ply in (0..=g.moves.len()).step_by(step) {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            x(ply),
            h - 1.0,
            ply / 2 + 1
        );
    }
    out.push_str("</svg>\n<p class=\"note\">Red's expected score (light: Red's share, dark: Black's), move by move.</p>\n");
}

fn turning_point(out: &mut String, g: &GameReview, i: usize) {
    let m = &g.moves[i];
    let pos = g.position_before(i);
    let mut arrows = vec![Arrow { mv: m.mv, kind: ArrowKind::Played }];
    if m.best.is_some() && m.best != m.mv {
        arrows.push(Arrow { mv: m.best, kind: ArrowKind::Best });
    }
    let how = Diagram {
        bottom: m.side,
        last_move: (i > 0).then(|| g.moves[i - 1].mv),
        arrows,
        square: 40,
        caption: None,
    };
    let mut caption = format!("{} (−{:.0} %)", move_label(m), 100.0 * m.loss);
    if let Some(best) = m.line.first() {
        let _ = write!(caption, "; best {best}");
        if m.line.len() > 1 {
            let _ = write!(caption, " ({})", m.line[1..].join(" "));
        }
    }
    let _ = writeln!(
        out,
        "<figure>\n{}<figcaption>{}{}</figcaption>\n</figure>",
        diagram::svg(&pos, &how),
        esc(&caption),
        m.ruling.as_deref().map_or(String::new(), |r| format!("<br><span class=\"rule\">{}</span>", esc(r)))
    );
}

fn moves_table(out: &mut String, g: &GameReview) {
    out.push_str("<table class=\"moves\">\n");
    let mut i = 0;
    while i < g.moves.len() {
        let m = &g.moves[i];
        let _ = write!(out, "<tr><td class=\"num\">{}.</td>", m.number);
        if m.side == Color::Black {
            out.push_str("<td>…</td>");
        }
        cell(out, m);
        i += 1;
        if m.side == Color::Red && i < g.moves.len() {
            cell(out, &g.moves[i]);
            i += 1;
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

fn cell(out: &mut String, m: &MoveReview) {
    let class = match m.mark {
        Some(Mark::Inaccuracy) => " class=\"m1\"",
        Some(Mark::Mistake) => " class=\"m2\"",
        Some(Mark::Blunder) => " class=\"m3\"",
        None => "",
    };
    let _ = write!(out, "<td><span{class}>{}{}</span>", esc(&m.text), m.mark.map_or("", Mark::symbol));
    if let Some(s) = m.score_after {
        let _ = write!(out, " <span class=\"ev\">{}</span>", eval_text(s));
    }
    if m.mark.is_some()
        && let Some(best) = m.line.first()
    {
        let _ = write!(out, " <span class=\"ev\">(best {})</span>", esc(best));
    }
    if let Some(r) = &m.ruling {
        let _ = write!(out, "<br><span class=\"rule\">{}</span>", esc(r));
    }
    out.push_str("</td>");
}

/// "12... 马２进３??".
fn move_label(m: &MoveReview) -> String {
    let dots = if m.side == Color::Red { "." } else { "..." };
    format!("{}{dots} {}{}", m.number, m.text, m.mark.map_or("", Mark::symbol))
}

fn red_expected(side: Color, e: f64) -> f64 {
    if side == Color::Red { e } else { 1.0 - e }
}

fn mark_colour(mark: Option<Mark>) -> &'static str {
    match mark {
        Some(Mark::Inaccuracy) => "#d4ac0d",
        Some(Mark::Mistake) => "#e67e22",
        Some(Mark::Blunder) => "#c0392b",
        None => "#888",
    }
}
