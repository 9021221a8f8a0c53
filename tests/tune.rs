//! `chariot tune` on a small data set: `--epochs 0` writes `params.rs` back
//! byte for byte; tuning lowers the loss and writes the values it found in
//! the layout rustfmt keeps; mirrored square-table entries come out equal
//! unless `--no-mirror`; `--l2` holds the weights back; the gradient is the loss's derivative.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use chariot::eval::weights::{TUNED, at, mirrors, values};
use chariot::tools::tune::dataset::Dataset;
use chariot::tools::tune::model::{self, Target};
use chariot::tools::tune::writer::{RANGE, TEMPLATE, write_params};

fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("chariot-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn chariot(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot")).args(args).output().expect("run chariot");
    (out.status.code().expect("exit status"), String::from_utf8(out.stderr).expect("UTF-8"))
}

/// A few hundred positions of short self-play games.
fn small_data(name: &str) -> PathBuf {
    let path = temp(name);
    common::self_play_data(&path, 4, 9);
    path
}

/// The numbers of each tuned constant in a `params.rs` text, in order.
fn read_values(text: &str) -> Vec<i32> {
    let mut out = vec![0; at::COUNT];
    for item in TUNED {
        let start = text.find(&format!("pub const {}:", item.name)).expect("constant present");
        let body = &text[start..];
        let body = &body[body.find('=').unwrap() + 1..body.find(";\n").unwrap()];
        let numbers: Vec<i32> = body
            .split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(numbers.len(), item.len, "{}", item.name);
        out[item.start..item.start + item.len].copy_from_slice(&numbers);
    }
    out
}

/// Runs rustfmt --check on `path` with the project's settings; `None` if
/// rustfmt is not installed.
fn rustfmt_accepts(path: &Path) -> Option<bool> {
    let status = Command::new("rustfmt")
        .args(["--edition", "2024", "--check", "--config-path"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("rustfmt.toml"))
        .arg(path)
        .output()
        .ok()?
        .status;
    Some(status.success())
}

#[test]
fn zero_epochs_write_params_rs_back_unchanged() {
    let data = small_data("zero.bin");
    let out = temp("zero.rs");
    let (code, err) =
        chariot(&["tune", "--out", out.to_str().unwrap(), "--epochs", "0", data.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("0 of {} weights changed", at::COUNT)), "{err}");
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/params.rs")).unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), source);
    assert_eq!(TEMPLATE, source, "the template is the file this build was made from");
    assert_eq!(read_values(&source), values());
    let _ = std::fs::remove_file(data);
    let _ = std::fs::remove_file(out);
}

#[test]
fn tuning_lowers_the_loss_and_writes_what_it_found() {
    let data = small_data("tune.bin");
    let out = temp("tuned.rs");
    let (code, err) = chariot(&[
        "tune",
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "5",
        "--batch",
        "64",
        "--k",
        "400",
        "--threads",
        "2",
        data.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let loss = |prefix: &str| -> f64 {
        let line = err.lines().find(|l| l.contains(prefix)).unwrap_or_else(|| panic!("{prefix}: {err}"));
        let tail = &line[line.find(prefix).unwrap() + prefix.len()..];
        tail.split([',', ' ']).find(|t| !t.is_empty()).unwrap().parse().unwrap()
    };
    assert!(err.contains("K = 400.0"), "{err}");
    assert!(err.contains("epoch 5/5"), "{err}");
    assert!(loss("loss after: train ") < loss("loss before: train ") - 1e-4, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let tuned = read_values(&text);
    assert_ne!(tuned, values());
    assert_eq!(write_params(TEMPLATE, &tuned).unwrap().0, text);
    if rustfmt_accepts(&out) == Some(false) {
        panic!("rustfmt would change the tuned params.rs:\n{text}");
    }
    let _ = std::fs::remove_file(data);
    let _ = std::fs::remove_file(out);
}

#[test]
fn mirrored_entries_come_out_equal_unless_no_mirror() {
    let data = small_data("mirror.bin");
    let out = temp("mirror.rs");
    let m = mirrors();
    let tune = |extra: &[&str]| -> Vec<i32> {
        let mut args =
            vec!["tune", "--out", out.to_str().unwrap(), "--epochs", "3", "--batch", "64", "--k", "400"];
        args.extend(extra);
        args.push(data.to_str().unwrap());
        let (code, err) = chariot(&args);
        assert_eq!(code, 0, "{err}");
        read_values(&std::fs::read_to_string(&out).unwrap())
    };
    let start = values();
    assert!((0..at::COUNT).all(|i| start[i] == start[m[i]]), "params.rs is symmetric");
    let moved = |v: &[i32]| (0..at::COUNT).filter(|&i| m[i] != i && v[i] != start[i]).count();
    let tied = tune(&[]);
    assert!(moved(&tied) > 100, "square tables were fitted ({})", moved(&tied));
    for i in 0..at::COUNT {
        assert_eq!(tied[i], tied[m[i]], "weight {i} and its mirror {}", m[i]);
    }
    let free = tune(&["--no-mirror"]);
    let asymmetric = (0..at::COUNT).filter(|&i| free[i] != free[m[i]]).count();
    assert!(asymmetric > 50, "--no-mirror fits each entry on its own ({asymmetric})");
    let _ = std::fs::remove_file(data);
    let _ = std::fs::remove_file(out);
}

#[test]
fn a_strong_l2_pull_keeps_the_weights_near_params_rs() {
    let data = small_data("l2.bin");
    let out = temp("l2.rs");
    let largest_change = |extra: &[&str]| -> i32 {
        let mut args = vec!["tune", "--out", out.to_str().unwrap(), "--epochs", "5", "--batch", "64"];
        args.extend(extra);
        args.push(data.to_str().unwrap());
        let (code, err) = chariot(&args);
        assert_eq!(code, 0, "{err}");
        let tuned = read_values(&std::fs::read_to_string(&out).unwrap());
        tuned.iter().zip(values()).map(|(a, b)| (a - b).abs()).max().unwrap()
    };
    let free = largest_change(&[]);
    let pulled = largest_change(&["--l2", "1"]);
    assert!(free >= 10 && pulled <= 1, "largest change {free} without the pull, {pulled} with it");
    let _ = std::fs::remove_file(data);
    let _ = std::fs::remove_file(out);
}

#[test]
fn any_values_in_range_are_laid_out_as_rustfmt_does() {
    let path = temp("extreme.rs");
    let n = values().len();
    let cases: [Vec<i32>; 3] =
        [vec![RANGE.0; n], vec![0; n], (0..n).map(|i| [RANGE.1, -7, 42, RANGE.0][i % 4]).collect()];
    for v in cases {
        let (text, warnings) = write_params(TEMPLATE, &v).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(read_values(&text), v);
        std::fs::write(&path, &text).unwrap();
        if rustfmt_accepts(&path) == Some(false) {
            panic!("rustfmt would change:\n{text}");
        }
    }
    let _ = std::fs::remove_file(path);
}

#[test]
fn games_are_told_apart_by_their_plies() {
    let path = small_data("games.bin");
    let mut data = Dataset::default();
    data.load(std::fs::File::open(&path).unwrap(), u64::MAX, 2).unwrap();
    assert_eq!(data.game_count(), 4, "small_data plays 4 games");
    assert_eq!(data.games.len(), data.len());
    assert!(data.games.windows(2).all(|g| g[1] == g[0] || g[1] == g[0] + 1));
    assert_eq!((data.games[0], data.games[data.len() - 1]), (0, 3));
    // A second file (or the same again) starts new games.
    data.load(std::fs::File::open(&path).unwrap(), u64::MAX, 2).unwrap();
    assert_eq!(data.game_count(), 8);
    assert_eq!(data.games[data.len() - 1], 7);
    let _ = std::fs::remove_file(path);
}

#[test]
fn the_gradient_is_the_derivative_of_the_loss() {
    let path = small_data("gradient.bin");
    let mut data = Dataset::default();
    data.load(std::fs::File::open(&path).unwrap(), u64::MAX, 2).unwrap();
    assert!(data.len() > 50);
    let idx: Vec<u32> = (0..data.len() as u32).collect();
    let w: Vec<f64> = values().iter().map(|&v| v as f64).collect();
    let target = Target { k: 300.0, lambda: 0.3 };
    let (loss, grad) = model::gradient(&data, &idx, &w, target, 2);
    assert!((loss - model::loss(&data, &idx, &w, target, 1)).abs() < 1e-12);
    let mut checked = 0;
    for i in [at::MATERIAL, at::MATERIAL + 5, at::TEMPO, at::ROOK_MOBILITY + 1, at::PAWN_PST_MG + 40] {
        let h = 1e-3;
        let (mut up, mut down) = (w.clone(), w.clone());
        up[i] += h;
        down[i] -= h;
        let numeric = (model::loss(&data, &idx, &up, target, 2) - model::loss(&data, &idx, &down, target, 2))
            / (2.0 * h);
        assert!(
            (numeric - grad[i]).abs() <= 1e-6 + 1e-3 * grad[i].abs(),
            "weight {i}: {numeric} vs {}",
            grad[i]
        );
        checked += (grad[i] != 0.0) as usize;
    }
    assert!(checked >= 4, "most checked weights have a gradient");
    let _ = std::fs::remove_file(path);
}

#[test]
fn bad_arguments_are_errors_with_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["tune"], "--out <FILE>"),
        (&["tune", "--out", "/tmp/x.rs"], "<DATA>..."),
        (&["tune", "--out", "/tmp/x.rs", "--lambda", "2", "d.bin"], "invalid value '2' for '--lambda"),
        (&["tune", "--out", "/tmp/x.rs", "--epochs", "-3", "d.bin"], "unexpected argument '-3'"),
        (&["tune", "--out", "/tmp/x.rs", "--speed", "9", "d.bin"], "unexpected argument '--speed'"),
        (&["tune", "--out", "/tmp/x.rs", "--l2", "-1", "d.bin"], "unexpected argument '-1'"),
        (&["tune", "--out", "/tmp/x.rs", "/nonexistent.bin"], "cannot open /nonexistent.bin"),
    ];
    for (args, needle) in cases {
        let (code, err) = chariot(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(needle), "{args:?}: {err}");
    }
}
