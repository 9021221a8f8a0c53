//! The board drawn as one SVG element, text in, text out: no fonts, images or
//! scripts from elsewhere, so the picture can stand alone as a file or sit
//! inside an HTML report.

use std::fmt::Write;

use super::{ArrowKind, Diagram, escape_xml, piece_glyph};
use crate::board::Position;
use crate::types::{Color, Square};

const BOARD_FILL: &str = "#f0d9a8";
const LINE: &str = "#5a3a1a";
const DISC_FILL: &str = "#fbf0d9";
const RED: &str = "#b71c1c";
const BLACK: &str = "#1a1a1a";
const LAST_MOVE: &str = "#5b9bd5";
const FONTS: &str = "'KaiTi','STKaiti','Noto Serif CJK SC','Noto Sans CJK SC','Source Han Serif SC',\
'Droid Sans Fallback','Microsoft YaHei',serif";

/// The margin under the grid, in squares: room for two rows of labels.
const BOTTOM_MARGIN: f64 = 1.4;

/// The margin above the grid, in squares: room for a row of labels clear
/// of the pieces on the top rank.
const TOP_MARGIN: f64 = 1.2;

/// Red's file numbers, file `a` first (Red counts files from its right: 一 is
/// file `i`).
const RED_FILES: [char; 9] = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];

/// The points where a cannon or a pawn starts, marked on real boards.
const START_POINTS: [(u8, u8); 14] = [
    (1, 2),
    (7, 2),
    (1, 7),
    (7, 7),
    (0, 3),
    (2, 3),
    (4, 3),
    (6, 3),
    (8, 3),
    (0, 6),
    (2, 6),
    (4, 6),
    (6, 6),
    (8, 6),
];

/// Pixel geometry of one drawing.
struct Geometry {
    /// The size of a square.
    s: f64,
    /// The margin left and right of the grid (room for the rank labels).
    m: f64,
    /// The margin above the grid (see [`TOP_MARGIN`]).
    top: f64,
    bottom: Color,
}

impl Geometry {
    /// The pixel centre of the point at `file`, `rank`.
    fn point(&self, file: u8, rank: u8) -> (f64, f64) {
        let (col, row) = match self.bottom {
            Color::Red => (file, 9 - rank),
            Color::Black => (8 - file, rank),
        };
        (self.m + f64::from(col) * self.s, self.top + f64::from(row) * self.s)
    }

    fn at(&self, sq: Square) -> (f64, f64) {
        self.point(sq.file(), sq.rank())
    }
}

/// The diagram of `pos` as an SVG document, drawn as `how` says.
pub fn svg(pos: &Position, how: &Diagram) -> String {
    let s = f64::from(how.square.clamp(10, 400));
    let g = Geometry { s, m: s, top: TOP_MARGIN * s, bottom: how.bottom };
    let width = 8.0 * s + 2.0 * g.m;
    let caption_room = if how.caption.is_some() { 0.7 * s } else { 0.0 };
    let height = 9.0 * s + g.top + BOTTOM_MARGIN * s + caption_room;
    let mut out = String::with_capacity(16 * 1024);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="{FONTS}">"#
    );
    out.push('\n');
    arrow_markers(&mut out);
    let _ = writeln!(out, r#"<rect width="{width}" height="{height}" fill="{BOARD_FILL}"/>"#);
    grid(&mut out, &g);
    labels(&mut out, &g);
    if let Some(m) = how.last_move.filter(|m| m.is_some()) {
        for (sq, dash) in [(m.from(), r#" stroke-dasharray="4 3""#), (m.to(), "")] {
            let (x, y) = g.at(sq);
            let h = 0.48 * s;
            let _ = writeln!(
                out,
                r#"<rect class="last-move" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{LAST_MOVE}" fill-opacity="0.35" stroke="{LAST_MOVE}" stroke-width="2"{dash}/>"#,
                x - h,
                y - h,
                2.0 * h,
                2.0 * h
            );
        }
    }
    for sq in Square::all() {
        if let Some(p) = pos.piece_on(sq) {
            piece(&mut out, &g, sq, p.color(), piece_glyph(p.color(), p.kind()));
        }
    }
    for (i, a) in how.arrows.iter().enumerate().filter(|(_, a)| a.mv.is_some()) {
        arrow(&mut out, &g, a.mv.from(), a.mv.to(), a.kind, i);
    }
    if let Some(c) = &how.caption {
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="{:.1}" text-anchor="middle" fill="{LINE}">{}</text>"#,
            width / 2.0,
            height - 0.3 * s,
            0.32 * s,
            escape_xml(c)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The arrowheads, one per [`ArrowKind`].
fn arrow_markers(out: &mut String) {
    out.push_str("<defs>");
    for kind in [ArrowKind::Best, ArrowKind::Played] {
        let _ = write!(
            out,
            r#"<marker id="head-{}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker>"#,
            kind_name(kind),
            kind_colour(kind)
        );
    }
    out.push_str("</defs>\n");
}

fn kind_name(kind: ArrowKind) -> &'static str {
    match kind {
        ArrowKind::Best => "best",
        ArrowKind::Played => "played",
    }
}

fn kind_colour(kind: ArrowKind) -> &'static str {
    match kind {
        ArrowKind::Best => "#1e8449",
        ArrowKind::Played => "#c0392b",
    }
}

/// The lines of the board: ranks, files broken by the river, the palaces'
/// diagonals, the frame and the marks of the starting points.
fn grid(out: &mut String, g: &Geometry) {
    let s = g.s;
    let line = |out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), w: f64| {
        let _ = writeln!(
            out,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{LINE}" stroke-width="{w:.1}"/>"#
        );
    };
    let thin = (s / 30.0).max(1.0);
    let pad = 0.15 * s;
    let _ = writeln!(
        out,
        r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="{LINE}" stroke-width="{:.1}"/>"#,
        g.m - pad,
        g.top - pad,
        8.0 * s + 2.0 * pad,
        9.0 * s + 2.0 * pad,
        2.5 * thin
    );
    for rank in 0..10 {
        line(out, g.point(0, rank), g.point(8, rank), thin);
    }
    for file in 0..9 {
        if file == 0 || file == 8 {
            line(out, g.point(file, 0), g.point(file, 9), thin);
        } else {
            line(out, g.point(file, 0), g.point(file, 4), thin);
            line(out, g.point(file, 5), g.point(file, 9), thin);
        }
    }
    for (low, high) in [(0, 2), (7, 9)] {
        line(out, g.point(3, low), g.point(5, high), thin);
        line(out, g.point(5, low), g.point(3, high), thin);
    }
    for (file, rank) in START_POINTS {
        start_mark(out, g, file, rank, thin);
    }
    // The river's words, each half facing its own side's reader.
    let (_, y4) = g.point(0, 4);
    let (_, y5) = g.point(0, 5);
    let y = (y4 + y5) / 2.0;
    for (text, col) in [("楚 河", 2.0), ("漢 界", 6.0)] {
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{y:.1}" font-size="{:.1}" text-anchor="middle" dominant-baseline="central" fill="{LINE}">{text}</text>"#,
            g.m + col * s,
            0.42 * s
        );
    }
}

/// The small corner marks around a cannon's or pawn's starting point (only
/// on the sides that lie inside the board).
fn start_mark(out: &mut String, g: &Geometry, file: u8, rank: u8, w: f64) {
    let (x, y) = g.point(file, rank);
    let (gap, len) = (0.08 * g.s, 0.16 * g.s);
    let (left, right) = match g.bottom {
        Color::Red => (file > 0, file < 8),
        Color::Black => (file < 8, file > 0),
    };
    for (dx, inside) in [(-1.0, left), (1.0, right)] {
        if !inside {
            continue;
        }
        for dy in [-1.0, 1.0] {
            let (cx, cy) = (x + dx * gap, y + dy * gap);
            let _ = writeln!(
                out,
                r#"<polyline points="{:.1},{:.1} {cx:.1},{cy:.1} {cx:.1},{:.1}" fill="none" stroke="{LINE}" stroke-width="{w:.1}"/>"#,
                cx + dx * len,
                cy,
                cy + dy * len
            );
        }
    }
}

/// File numbers as each side counts them (the top side's above the board,
/// the bottom side's below, over the engine's letters), ranks on the left.
fn labels(out: &mut String, g: &Geometry) {
    let s = g.s;
    let text = |out: &mut String, x: f64, y: f64, size: f64, t: &str| {
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="middle" dominant-baseline="central" fill="{LINE}">{t}</text>"#
        );
    };
    let number = |file: u8, color: Color| match color {
        Color::Red => RED_FILES[usize::from(file)].to_string(),
        Color::Black => (file + 1).to_string(),
    };
    let top_y = g.top - 0.72 * s;
    let bottom_y = g.top + 9.0 * s + 0.72 * s;
    for file in 0..9u8 {
        let (x, _) = g.point(file, 0);
        text(out, x, top_y, 0.3 * s, &number(file, !g.bottom));
        text(out, x, bottom_y, 0.3 * s, &number(file, g.bottom));
        text(out, x, bottom_y + 0.38 * s, 0.22 * s, &char::from(b'a' + file).to_string());
    }
    for rank in 0..10u8 {
        let (_, y) = g.point(0, rank);
        text(out, g.m - 0.62 * s, y, 0.22 * s, &rank.to_string());
    }
}

/// One piece: a disc with a ring in its colour and its character.
fn piece(out: &mut String, g: &Geometry, sq: Square, color: Color, glyph: char) {
    let (x, y) = g.at(sq);
    let s = g.s;
    let ink = if color == Color::Red { RED } else { BLACK };
    let _ = writeln!(
        out,
        r#"<g class="piece" data-square="{sq}"><circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{DISC_FILL}" stroke="{ink}" stroke-width="{:.1}"/><circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="{ink}" stroke-width="{:.1}"/><text x="{x:.1}" y="{y:.1}" font-size="{:.1}" text-anchor="middle" dominant-baseline="central" fill="{ink}">{glyph}</text></g>"#,
        0.44 * s,
        0.05 * s,
        0.37 * s,
        0.02 * s,
        0.5 * s
    );
}

/// An arrow for a move; the first of a line is drawn boldest.
fn arrow(out: &mut String, g: &Geometry, from: Square, to: Square, kind: ArrowKind, index: usize) {
    let (x1, y1) = g.at(from);
    let (x2, y2) = g.at(to);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    // Stop short of the destination's centre so the head sits on the disc's edge.
    let back = (0.3 * g.s).min(len / 2.0);
    let (ex, ey) = (x2 - dx / len * back, y2 - dy / len * back);
    let width = if index == 0 { 0.14 } else { 0.09 } * g.s;
    let opacity = if index == 0 { 0.85 } else { 0.6 };
    let _ = writeln!(
        out,
        r#"<line class="arrow {name}" x1="{x1:.1}" y1="{y1:.1}" x2="{ex:.1}" y2="{ey:.1}" stroke="{colour}" stroke-width="{width:.1}" stroke-opacity="{opacity}" stroke-linecap="round" marker-end="url(#head-{name})"/>"#,
        name = kind_name(kind),
        colour = kind_colour(kind),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::Arrow;
    use crate::types::Move;

    fn count(haystack: &str, needle: &str) -> usize {
        haystack.matches(needle).count()
    }

    #[test]
    fn the_starting_position_has_32_discs_and_both_sides_glyphs() {
        let text = svg(&Position::startpos(), &Diagram::default());
        assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(text.ends_with("</svg>\n"));
        assert_eq!(count(&text, "class=\"piece\""), 32);
        assert_eq!(count(&text, ">俥</text>"), 2);
        assert_eq!(count(&text, ">卒</text>"), 5);
        assert_eq!(count(&text, ">帥</text>") + count(&text, ">將</text>"), 2);
        assert_eq!(count(&text, "class=\"last-move\""), 0);
        assert_eq!(count(&text, "class=\"arrow"), 0);
    }

    #[test]
    fn red_sits_at_the_bottom_unless_black_is_asked_for() {
        let pos = Position::startpos();
        // Red's king on e0: the middle column, the bottom row (y = top + 9 s,
        // the top margin 1.2 squares of 50 pixels).
        let red = svg(&pos, &Diagram::default());
        assert!(red.contains(r#"data-square="e0"><circle cx="250.0" cy="510.0""#), "{red}");
        let black = svg(&pos, &Diagram { bottom: Color::Black, ..Diagram::default() });
        assert!(black.contains(r#"data-square="e0"><circle cx="250.0" cy="60.0""#));
        // Red's rook on a0 is bottom left for Red, top right for Black.
        assert!(red.contains(r#"data-square="a0"><circle cx="50.0" cy="510.0""#));
        assert!(black.contains(r#"data-square="a0"><circle cx="450.0" cy="60.0""#));
    }

    #[test]
    fn the_file_numbers_above_the_board_clear_the_top_discs() {
        // Square 50: the discs of the top rank reach up to y = 60 - 22 - 1.25;
        // the numbers above them (font 15, centred) must end before that.
        let text = svg(&Position::startpos(), &Diagram::default());
        let attr = |tag: &str, name: &str| -> f64 {
            let at = tag.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
            tag[at..tag[at..].find('"').unwrap() + at].parse().unwrap()
        };
        let disc_top = text
            .split("<circle")
            .skip(1)
            .map(|c| attr(c, "cy") - attr(c, "r") - attr(c, "stroke-width") / 2.0)
            .fold(f64::INFINITY, f64::min);
        // Black's file 1 above the board (Red at the bottom; the rank
        // label 1 on the left is smaller).
        let label = text
            .split("<text")
            .find(|t| t.contains(">1</text>") && t.contains(r#"font-size="15.0""#))
            .expect("file 1");
        let label_bottom = attr(label, "y") + attr(label, "font-size") / 2.0;
        assert!(label_bottom < disc_top, "label to {label_bottom}, disc from {disc_top}");
    }

    #[test]
    fn last_move_and_arrows_are_drawn_where_asked() {
        let mut pos = Position::startpos();
        let h2e2 = Move::parse("h2e2").unwrap();
        pos.do_move(h2e2);
        let how = Diagram {
            last_move: Some(h2e2),
            arrows: vec![
                Arrow { mv: Move::parse("h9g7").unwrap(), kind: ArrowKind::Best },
                Arrow { mv: Move::parse("b9c7").unwrap(), kind: ArrowKind::Played },
            ],
            caption: Some("after 1. h2e2 <test> & more".into()),
            ..Diagram::default()
        };
        let text = svg(&pos, &how);
        assert_eq!(count(&text, "class=\"last-move\""), 2);
        assert_eq!(count(&text, "class=\"arrow best\""), 1);
        assert_eq!(count(&text, "class=\"arrow played\""), 1);
        // The arrow from h9 (x 400, y 60) towards g7 (x 350, y 160), stopped short.
        assert!(text.contains(r#"x1="400.0" y1="60.0" x2="356.7" y2="146.6""#), "{text}");
        assert!(text.contains("after 1. h2e2 &lt;test&gt; &amp; more"));
        assert_eq!(count(&text, "class=\"piece\""), 32);
    }

    #[test]
    fn the_document_is_well_formed() {
        let how = Diagram { caption: Some("x".into()), ..Diagram::default() };
        let text = svg(&Position::startpos(), &how);
        // Every element opened is closed, in order.
        let mut open: Vec<String> = Vec::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find('<') {
            let j = rest[i..].find('>').expect("a tag ends") + i;
            let tag = &rest[i + 1..j];
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(open.pop().as_deref(), Some(name), "closing {name}");
            } else if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().unwrap().to_string());
            }
            rest = &rest[j + 1..];
        }
        assert!(open.is_empty(), "{open:?}");
    }
}
