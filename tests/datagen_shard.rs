//! `chariot datagen` sharded by game range: two worker processes run at
//! once for games 0..3 and 3..6 of one seed (the second stopped after one
//! game and resumed), `--merge` joins their data files, and the result is
//! byte for byte the file of one run of games 0..6 (with its progress
//! file's run, games and length), as are the shards' games files
//! concatenated in order; overlaps, gaps, other runs and unfinished shards
//! are refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A fresh directory in the temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-shard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `chariot datagen` with the settings every run here shares.
fn datagen(dir: &Path, out: &str, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_chariot"));
    c.current_dir(dir).args(["datagen", "--out", out, "--nodes", "200", "--seed", "17"]).args(args);
    c
}

fn ok(output: Output) -> String {
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{err}");
    err
}

fn failed(output: Output) -> String {
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{err}");
    err
}

fn merge(dir: &Path, out: &str, shards: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .current_dir(dir)
        .args(["datagen", "--merge", "--out", out])
        .args(shards)
        .output()
        .unwrap()
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn two_workers_merge_into_the_file_of_one_run() {
    let dir = temp_dir("two");
    // Two workers at once, each a process of its own.
    let first = datagen(&dir, "a.bin", &["--games", "3", "--games-out", "a.games"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The second stops after one game of its range and is resumed.
    ok(datagen(&dir, "b.bin", &["--games", "1", "--first-game", "3", "--games-out", "b.games"])
        .output()
        .unwrap());
    let resumed =
        ok(datagen(&dir, "b.bin", &["--games", "3", "--first-game", "3", "--games-out", "b.games"])
            .output()
            .unwrap());
    assert!(resumed.contains("resuming: b.bin holds games 3..4 of this run"), "{resumed}");
    let said = ok(first.wait_with_output().unwrap());
    assert!(said.contains("datagen: 3/3 games"), "{said}");
    // One run of the whole range, on two threads.
    ok(datagen(&dir, "whole.bin", &["--games", "6", "--threads", "2", "--games-out", "whole.games"])
        .output()
        .unwrap());

    let said = ok(merge(&dir, "merged.bin", &["b.bin", "a.bin"]));
    assert!(said.contains("merged 2 shard(s) into merged.bin: games 0..6"), "{said}");
    let whole = read(&dir, "whole.bin");
    assert!(whole.len() > 40 * 60, "six games make more than 60 records: {} bytes", whole.len());
    assert_eq!(read(&dir, "merged.bin"), whole);
    assert_eq!([read(&dir, "a.games"), read(&dir, "b.games")].concat(), read(&dir, "whole.games"));
    // The merged progress file is the one-run file's, less the games file.
    let progress = String::from_utf8(read(&dir, "merged.bin.progress")).unwrap();
    let expected = String::from_utf8(read(&dir, "whole.bin.progress")).unwrap();
    let expected: String =
        expected.lines().filter(|l| !l.starts_with("games-out-bytes")).map(|l| format!("{l}\n")).collect();
    assert_eq!(progress, expected);
    assert!(
        progress.starts_with(
            "run seed 17, 200 nodes ±25%, start position, 8 random plies, classical evaluation\ngames 6\n"
        ),
        "{progress}"
    );
    let shard = String::from_utf8(read(&dir, "b.bin.progress")).unwrap();
    assert!(shard.starts_with("run seed 17, 200 nodes ±25%, start position, 8 random plies, classical evaluation, first game 3\ngames 6\n"), "{shard}");
    // A run of the same settings goes on from the merged file's last game.
    let more = ok(datagen(&dir, "merged.bin", &["--games", "6"]).output().unwrap());
    assert!(more.contains("nothing to do: merged.bin holds all 6 games"), "{more}");

    // Refusals: an existing output, an overlap, a gap, another run, an
    // unfinished shard, a file with no progress file.
    assert!(failed(merge(&dir, "merged.bin", &["a.bin", "b.bin"])).contains("exists"));
    let err = failed(merge(&dir, "x.bin", &["a.bin", "whole.bin"]));
    assert!(err.contains("(games 0..6)") && err.contains("overlap"), "{err}");
    ok(datagen(&dir, "c.bin", &["--games", "1", "--first-game", "4"]).output().unwrap());
    let err = failed(merge(&dir, "x.bin", &["a.bin", "c.bin"]));
    assert!(err.contains("games 3..4 are missing between a.bin and c.bin"), "{err}");
    ok(datagen(&dir, "d.bin", &["--games", "1", "--first-game", "3", "--random-plies", "6"])
        .output()
        .unwrap());
    let err = failed(merge(&dir, "x.bin", &["a.bin", "d.bin"]));
    assert!(err.contains("shards of different runs"), "{err}");
    let mut unfinished = read(&dir, "c.bin");
    unfinished.extend_from_slice(&[0u8; 40]);
    std::fs::write(dir.join("c.bin"), unfinished).unwrap();
    let err = failed(merge(&dir, "x.bin", &["c.bin"]));
    assert!(err.contains("unfinished or changed shard"), "{err}");
    let err = failed(merge(&dir, "x.bin", &["a.games"]));
    assert!(err.contains("has no progress file"), "{err}");
    assert!(!dir.join("x.bin").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
