//! The crate's imports all point down. Two checks over the source text:
//!
//! * between the top-level modules, every `crate::X` path in non-test code
//!   names a module that comes earlier in [`LAYERS`] (data flows one way:
//!   types → board → … → protocol → cli);
//! * between the files of one directory, the imports (`super::X` or the
//!   directory's full path, `crate::protocol::X`) form no circle (file A
//!   importing from B while B imports from A).
//!
//! Test modules (`#[cfg(test)]` to the end of a file) may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The top-level modules from the bottom up: each may use only those before it.
const LAYERS: &[&str] = &[
    "types", "board", "notation", "gamefile", "diagram", "tt", "rules", "book", "eval", "search", "threads",
    "engine", "tools", "protocol", "cli",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's code before its test module, with `//` comments removed (doc
/// comments mention modules without importing them).
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    body.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The identifiers that follow `prefix` in `text` (`crate::board::X` gives `board`).
fn names_after<'a>(text: &'a str, prefix: &str) -> BTreeSet<&'a str> {
    text.match_indices(prefix)
        .filter(|(i, _)| !text[..*i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(i, _)| {
            let rest = &text[i + prefix.len()..];
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|name| !name.is_empty())
        .collect()
}

/// The crate's source directory.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The files of the crate, each with the top-level module it belongs to.
fn crate_files() -> Vec<(PathBuf, String)> {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(&src).unwrap();
            let first = rel.components().next()?.as_os_str().to_str()?.trim_end_matches(".rs").to_string();
            (first != "lib" && first != "main").then_some((path, first))
        })
        .collect()
}

/// The path by which code names a directory's module: `src/eval/nnue` gives `crate::eval::nnue::`.
fn module_path(dir: &Path) -> String {
    let rel = dir.strip_prefix(src()).unwrap();
    let parts: Vec<&str> = rel.components().map(|c| c.as_os_str().to_str().unwrap()).collect();
    format!("crate::{}::", parts.join("::"))
}

#[test]
fn every_top_level_module_has_a_layer() {
    let distinct: BTreeSet<&str> = LAYERS.iter().copied().collect();
    assert_eq!(distinct.len(), LAYERS.len(), "LAYERS names a module twice");
    let modules: BTreeSet<String> = crate_files().into_iter().map(|(_, m)| m).collect();
    for m in &modules {
        assert!(LAYERS.contains(&m.as_str()), "src/{m} is not in LAYERS: place it in the order");
    }
    for layer in LAYERS {
        assert!(modules.contains(*layer), "LAYERS names '{layer}', which is not a module");
    }
}

#[test]
fn crate_imports_point_down() {
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut upward = Vec::new();
    let mut checked = 0;
    for (path, module) in crate_files() {
        let own = rank(&module).unwrap();
        for used in names_after(&code(&path), "crate::") {
            checked += 1;
            match rank(used) {
                Some(r) if r > own => upward.push(format!("{} uses crate::{used}", path.display())),
                _ => {}
            }
        }
    }
    assert!(checked > 100, "only {checked} crate:: paths found: the scan is broken");
    assert!(upward.is_empty(), "imports that run upward:\n{}", upward.join("\n"));
}

#[test]
fn sibling_files_import_no_circle() {
    // Files of one directory, keyed by directory, then by file stem (mod.rs is the directory's own).
    let mut dirs: BTreeMap<PathBuf, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (path, _) in crate_files() {
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        if stem == "mod" {
            continue;
        }
        let dir = path.parent().unwrap().to_path_buf();
        let text = code(&path);
        let used = names_after(&text, "super::")
            .into_iter()
            .chain(names_after(&text, &module_path(&dir)))
            .map(str::to_string)
            .collect();
        dirs.entry(dir).or_default().insert(stem, used);
    }
    let mut circles = BTreeSet::new();
    for (dir, files) in &dirs {
        for (a, uses) in files {
            for b in uses.iter().filter(|b| files.contains_key(*b)) {
                // A path from b back to a closes a circle.
                let mut seen = BTreeSet::new();
                let mut stack = vec![b.clone()];
                while let Some(f) = stack.pop() {
                    if f == *a {
                        let (x, y) = if a < b { (a, b) } else { (b, a) };
                        circles.insert(format!("{}: {x} ↔ {y}", dir.display()));
                        break;
                    }
                    if seen.insert(f.clone()) {
                        stack.extend(files[&f].iter().filter(|n| files.contains_key(*n)).cloned());
                    }
                }
            }
        }
    }
    let circles: Vec<String> = circles.into_iter().collect();
    assert!(circles.is_empty(), "files that import each other:\n{}", circles.join("\n"));
}

#[test]
fn the_scan_sees_a_circle_and_an_upward_import() {
    let text = "use crate::search::x; use super::window::y; let z = my_crate::tools;";
    assert_eq!(names_after(text, "crate::").into_iter().collect::<Vec<_>>(), ["search"]);
    assert_eq!(names_after(text, "super::").into_iter().collect::<Vec<_>>(), ["window"]);
    let prefix = module_path(&src().join("rules"));
    assert_eq!(prefix, "crate::rules::");
    let sibling = "use crate::rules::verdict::Ruling; use crate::rulesx::y;";
    assert_eq!(names_after(sibling, &prefix).into_iter().collect::<Vec<_>>(), ["verdict"]);
    assert_eq!(module_path(&src().join("eval").join("nnue")), "crate::eval::nnue::");
}
