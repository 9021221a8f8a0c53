//! Writes `params.rs` back with new values: the file this build was made
//! from is the template (its comments, order and untuned constants are kept
//! as they are), and each tuned constant is laid out as rustfmt lays it out
//! (`rustfmt.toml`: 110 columns): on one line if it fits, else its list on
//! the next line if that fits, else one element per line.

use crate::eval::weights::{Shape, TUNED};

/// `params.rs` as this build was made from it.
pub const TEMPLATE: &str = include_str!("../../eval/params.rs");
/// The line width of `rustfmt.toml`.
const MAX_WIDTH: usize = 110;
/// The range the tuner keeps every weight in: four characters, so that a
/// row of 16 numbers still fits a line.
pub const RANGE: (i32, i32) = (-999, 9999);

/// `template` with the tuned constants set to `values` (indexed as
/// [`values`](crate::eval::weights::values)). Also returns warnings for
/// lines that rustfmt would lay out otherwise.
pub fn write_params(template: &str, values: &[i32]) -> Result<(String, Vec<String>), String> {
    let mut out = String::with_capacity(template.len() + 1024);
    let mut warnings = Vec::new();
    let mut lines = template.lines();
    let mut written = 0;
    while let Some(line) = lines.next() {
        let item = line
            .strip_prefix("pub const ")
            .and_then(|rest| rest.split_once(':'))
            .and_then(|(name, _)| TUNED.iter().find(|item| item.name == name));
        let Some(item) = item else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let (decl, _) =
            line.split_once(" =").ok_or_else(|| format!("no '=' on the line of {}", item.name))?;
        let mut last = line;
        while !last.trim_end().ends_with(';') {
            last = lines.next().ok_or_else(|| format!("{} does not end", item.name))?;
        }
        let text = layout(decl, item.shape, &values[item.start..item.start + item.len]);
        for l in text.lines().filter(|l| l.len() > MAX_WIDTH) {
            warnings.push(format!("{}: a line of {} columns (run cargo fmt): {l}", item.name, l.len()));
        }
        if matches!(item.shape, Shape::Row(_)) && text.lines().count() > 2 {
            // rustfmt fills lines with short numbers rather than one per line.
            warnings.push(format!("{}: a list of numbers longer than a line (run cargo fmt)", item.name));
        }
        out.push_str(&text);
        written += 1;
    }
    if written != TUNED.len() {
        return Err(format!("the template has {written} of the {} tuned constants", TUNED.len()));
    }
    Ok((out, warnings))
}

/// `decl = value;` for a constant of `shape` with values `v`.
fn layout(decl: &str, shape: Shape, v: &[i32]) -> String {
    let join = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
    match shape {
        Shape::Int => format!("{decl} = {};\n", v[0]),
        Shape::Pair => format!("{decl} = S({}, {});\n", v[0], v[1]),
        Shape::Row(_) => list(decl, v.iter().map(i32::to_string).collect()),
        Shape::Pairs(_) => list(decl, v.chunks(2).map(|p| format!("S({}, {})", p[0], p[1])).collect()),
        Shape::Table { cols, .. } => list(decl, v.chunks(cols).map(|r| format!("[{}]", join(r))).collect()),
    }
}

/// `decl = [elements];` on one line, or the list on the next line, or one
/// element per line: the first that fits.
fn list(decl: &str, elements: Vec<String>) -> String {
    let flat = format!("[{}]", elements.join(", "));
    let one = format!("{decl} = {flat};");
    if one.len() <= MAX_WIDTH {
        return one + "\n";
    }
    let next = format!("    {flat};");
    if next.len() <= MAX_WIDTH {
        return format!("{decl} =\n{next}\n");
    }
    let mut out = format!("{decl} = [\n");
    for e in elements {
        out.push_str(&format!("    {e},\n"));
    }
    out + "];\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::values;

    #[test]
    fn the_current_values_give_the_file_back() {
        let (text, warnings) = write_params(TEMPLATE, &values()).unwrap();
        assert_eq!(text, TEMPLATE);
        assert!(warnings.is_empty());
    }

    #[test]
    fn every_layout() {
        assert_eq!(layout("pub const A: S", Shape::Pair, &[3, -4]), "pub const A: S = S(3, -4);\n");
        assert_eq!(layout("pub const B: i32", Shape::Int, &[7]), "pub const B: i32 = 7;\n");
        let short = layout("pub const C: [[i32; 2]; 2]", Shape::Table { rows: 2, cols: 2 }, &[1, 2, 3, 4]);
        assert_eq!(short, "pub const C: [[i32; 2]; 2] = [[1, 2], [3, 4]];\n");
        let wide: Vec<i32> = (0..32).map(|i| 1000 + i).collect();
        let rows = layout("pub const D: [[i32; 16]; 2]", Shape::Table { rows: 2, cols: 16 }, &wide);
        assert_eq!(rows.lines().count(), 4);
        assert!(rows.starts_with("pub const D: [[i32; 16]; 2] = [\n    [1000, 1001,"));
    }
}
