//! The documentation's links: every relative link in `README.md` and
//! `docs/*.md` points to a file that exists (and, for `page.md#anchor`, to a
//! heading of that page), and every page of `docs/` can be reached from the
//! README by following links. Links inside code (fenced blocks, `inline`
//! spans) and links to other sites are not links here.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// A page's text with code blocks and code spans blanked out (so that
/// `[x](y)` or `# comment` inside code is neither a link nor a heading).
fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced {
            out.push('\n');
            continue;
        }
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                out.push(' ');
            } else {
                out.push(if in_code { ' ' } else { c });
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the Markdown links (`[text](target)`, `![alt](target)`) in
/// prose, in order.
fn links(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = prose;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        match after.find(')') {
            Some(j) => {
                let target = after[..j].split_whitespace().next().unwrap_or("");
                out.push(target.to_string());
                rest = &after[j + 1..];
            }
            None => break,
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, every character but letters,
/// digits, `_`, `-` and spaces dropped, spaces turned into `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '_' || *c == '-' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (a repeated heading gets `-1`, `-2`, …).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for line in prose(text).lines() {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = slug(&line[hashes..]);
            let n = seen.entry(base.clone()).or_insert(0);
            out.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
            *n += 1;
        }
    }
    out
}

/// `dir/target` with `.` and `..` resolved, without touching the disk.
fn join(dir: &Path, target: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for part in dir.join(target).components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The pages a link check reads: their paths relative to the repository and
/// their text.
type Pages = BTreeMap<PathBuf, String>;

/// Checks every relative link of every page; `exists` says whether a path
/// (relative to the repository) is a file or directory there. Returns the
/// problems found, one line each, and the pages each page links to.
fn check(pages: &Pages, exists: &dyn Fn(&Path) -> bool) -> (Vec<String>, BTreeMap<PathBuf, Vec<PathBuf>>) {
    let mut problems = Vec::new();
    let mut graph = BTreeMap::new();
    for (page, text) in pages {
        let dir = page.parent().unwrap_or(Path::new(""));
        let mut out = Vec::new();
        for target in links(&prose(text)) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() { page.clone() } else { join(dir, file) };
            if !file.is_empty() && !exists(&path) {
                problems.push(format!(
                    "{}: dead link {target} ({} does not exist)",
                    page.display(),
                    path.display()
                ));
                continue;
            }
            if let Some(anchor) = anchor {
                match pages.get(&path) {
                    Some(linked) if !anchors(linked).contains(anchor) => problems.push(format!(
                        "{}: link {target}: no heading #{anchor} in {}",
                        page.display(),
                        path.display()
                    )),
                    Some(_) => {}
                    None if path.extension().is_some_and(|e| e == "md") => problems
                        .push(format!("{}: link {target}: anchor into a page not checked", page.display())),
                    None => {}
                }
            }
            out.push(path);
        }
        graph.insert(page.clone(), out);
    }
    (problems, graph)
}

/// The pages reachable from `start` through the links in `graph`.
fn reachable(start: &Path, graph: &BTreeMap<PathBuf, Vec<PathBuf>>) -> BTreeSet<PathBuf> {
    let mut seen = BTreeSet::from([start.to_path_buf()]);
    let mut todo = vec![start.to_path_buf()];
    while let Some(page) = todo.pop() {
        for next in graph.get(&page).into_iter().flatten() {
            if graph.contains_key(next) && seen.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    seen
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every `docs/*.md`.
fn read_pages() -> Pages {
    let mut pages = Pages::new();
    pages.insert(PathBuf::from("README.md"), fs::read_to_string(root().join("README.md")).unwrap());
    for entry in fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            let name = PathBuf::from("docs").join(path.file_name().unwrap());
            pages.insert(name, fs::read_to_string(&path).unwrap());
        }
    }
    pages
}

#[test]
fn every_relative_link_resolves() {
    let pages = read_pages();
    assert!(pages.len() >= 12, "README.md and the docs/ pages: {:?}", pages.keys());
    let (problems, graph) = check(&pages, &|p| root().join(p).exists());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let links: usize = graph.values().map(Vec::len).sum();
    assert!(links > 100, "only {links} relative links found: is the link parser broken?");
}

#[test]
fn every_docs_page_is_reachable_from_the_readme() {
    let pages = read_pages();
    let (_, graph) = check(&pages, &|p| root().join(p).exists());
    let seen = reachable(Path::new("README.md"), &graph);
    let lost: Vec<_> = pages.keys().filter(|p| !seen.contains(*p)).map(|p| p.display().to_string()).collect();
    assert!(lost.is_empty(), "not reachable from README.md by links: {lost:?}");
}

#[test]
fn the_checker_catches_dead_links_and_anchors() {
    let pages = Pages::from([
        (
            PathBuf::from("README.md"),
            "# Top\n[a](docs/a.md#part-one) [gone](docs/gone.md) [bad](docs/a.md#nope) `[code](x.md)`\n"
                .to_string(),
        ),
        (
            PathBuf::from("docs/a.md"),
            "# A\n## Part one\n[up](../README.md#top) [self](#a)\n```\n[x](y.md)\n```\n".into(),
        ),
        (PathBuf::from("docs/b.md"), "# B, linked from nowhere\n".into()),
    ]);
    let files = ["README.md", "docs/a.md", "docs/b.md"];
    let (problems, graph) = check(&pages, &|p| files.iter().any(|f| Path::new(f) == p));
    assert_eq!(
        problems,
        [
            "README.md: dead link docs/gone.md (docs/gone.md does not exist)",
            "README.md: link docs/a.md#nope: no heading #nope in docs/a.md",
        ]
    );
    let seen = reachable(Path::new("README.md"), &graph);
    assert!(seen.contains(Path::new("docs/a.md")) && !seen.contains(Path::new("docs/b.md")));
}

#[test]
fn anchors_follow_githubs_rules() {
    assert_eq!(slug(" Win/draw/loss"), "windrawloss");
    assert_eq!(slug("Tuning the search's constants (SPSA)"), "tuning-the-searchs-constants-spsa");
    assert_eq!(slug("Self-play data: chariot datagen"), "self-play-data-chariot-datagen");
    let a = anchors("# T\n## Same\n## Same\n```sh\n# not a heading\n```\n#not either\n");
    assert_eq!(a, BTreeSet::from(["t".to_string(), "same".into(), "same-1".into()]));
}
