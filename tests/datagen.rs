//! `chariot datagen` on a few short games: the games end by the rules, every
//! record is a legal position of its game with a legal quiet best move and
//! the game's result, the file reads back, is the same for the same seed
//! (whatever the thread count), appends, survives a cut, and bad arguments
//! get exit status 2.

use std::path::PathBuf;
use std::process::Command;

use chariot::board::Position;
use chariot::eval::is_dead_draw;
use chariot::rules::{self, Outcome, Rules};
use chariot::search::SearchLimits;
use chariot::tools::datagen::format::{End, RECORD_SIZE, Reader, Record, header};
use chariot::tools::datagen::game::{Player, Settings, WIN_SCORE};
use chariot::tools::datagen::{self, Options, game_rng};

/// A fresh path in the temporary directory.
fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("chariot-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `chariot ARGS…`; returns (exit status, stdout, stderr).
fn chariot(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot")).args(args).output().expect("run chariot");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
    (out.status.code().expect("exit status"), text(out.stdout), text(out.stderr))
}

fn options(out: &std::path::Path, games: u64, threads: usize, seed: u64) -> Options {
    Options {
        out: out.to_path_buf(),
        games,
        nodes: Some(300),
        depth: None,
        threads,
        seed,
        first_game: 0,
        book: None,
        random_plies: None,
        games_out: None,
        net: None,
    }
}

fn read_all(path: &std::path::Path) -> (Vec<Record>, usize) {
    let mut reader = Reader::new(std::fs::File::open(path).unwrap());
    let mut out = Vec::new();
    while let Some(r) = reader.next_record().unwrap() {
        out.push(r);
    }
    (out, reader.partial_tail())
}

/// The position is legal, not in check, and the best move is legal and quiet.
fn check_record(r: &Record) -> Position {
    let pos = r.position().unwrap_or_else(|e| panic!("impossible position in {r:?}: {e}"));
    assert!(!pos.in_check(), "{}", pos.fen());
    assert!(pos.is_pseudo_legal(r.best) && pos.is_legal(r.best), "{} {}", pos.fen(), r.best);
    assert!(pos.piece_on(r.best.to()).is_none(), "capture kept: {} {}", pos.fen(), r.best);
    assert!(r.score.unsigned_abs() <= 32000);
    pos
}

/// The result a game ended by `end` can have.
fn result_fits_end(result: Outcome, end: End) -> bool {
    match end {
        End::Checkmate | End::Stalemate | End::PerpetualCheck | End::PerpetualChase | End::Adjudicated => {
            result != Outcome::Draw
        }
        End::MutualPerpetual | End::Repetition | End::MoveLimit | End::DeadDraw => result == Outcome::Draw,
    }
}

#[test]
fn games_end_by_the_rules_and_keep_their_own_quiet_positions() {
    let mut player = Player::new(None).unwrap();
    let settings =
        Settings { limits: SearchLimits { nodes: Some(400), ..Default::default() }, random_plies: 8 };
    let mut records = 0;
    for g in 0..4 {
        let game = player.play(&Position::startpos(), &settings, &mut game_rng(11, g));
        let mut last = game.final_position.clone();
        assert!(game.searched > 0);
        assert!(result_fits_end(game.result, game.end), "{:?} by {:?}", game.result, game.end);
        let ruling = rules::adjudicate(&mut last, Rules::DEFAULT);
        match game.end {
            End::DeadDraw => assert!(is_dead_draw(&last)),
            End::Adjudicated => {
                assert_eq!(ruling.outcome, None, "a game over by the rules is not adjudicated")
            }
            end => {
                assert_eq!(ruling.outcome, Some(game.result), "{}", ruling.summary());
                assert_eq!(End::of_rule(&ruling.rule), Some(end));
            }
        }
        // Every record is a position of this game, in order, after the
        // 8 random plies, with the game's result (the last position counts:
        // an adjudicated game ends on a searched position without a move).
        let keys: Vec<u64> = last.history().iter().map(|s| s.key).chain([last.key()]).collect();
        let mut ply = 7;
        for r in &game.records {
            let pos = check_record(r);
            assert_eq!((r.result, r.end), (game.result, game.end));
            assert!(r.ply as usize > ply && (r.ply as usize) < keys.len(), "ply {} of {}", r.ply, keys.len());
            assert_eq!(keys[r.ply as usize], pos.key(), "record of ply {} is that position", r.ply);
            ply = r.ply as usize;
        }
        if game.end == End::Adjudicated {
            // The scores of the last plies agreed on the winner.
            let sign = if game.result == Outcome::RedWins { 1 } else { -1 };
            if let Some(r) = game.records.iter().rev().find(|r| r.ply as usize + 4 >= keys.len()) {
                let red = if r.ply % 2 == 0 { r.score as i32 } else { -(r.score as i32) };
                assert!(sign * red >= WIN_SCORE, "{r:?}");
            }
        }
        records += game.records.len();
    }
    assert!(records > 40, "{records} records from 4 games");
}

#[test]
fn the_file_reads_back_and_is_the_same_for_the_same_seed() {
    let (a, b, c) = (temp("seed-a.bin"), temp("seed-b.bin"), temp("seed-c.bin"));
    datagen::run(datagen::Command::Generate(options(&a, 3, 1, 5))).unwrap();
    datagen::run(datagen::Command::Generate(options(&b, 3, 2, 5))).unwrap();
    datagen::run(datagen::Command::Generate(options(&c, 3, 1, 6))).unwrap();
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(&bytes[..RECORD_SIZE], &header());
    assert_eq!(bytes, std::fs::read(&b).unwrap(), "same seed, one thread or two: same file");
    assert_ne!(bytes, std::fs::read(&c).unwrap(), "another seed, other games");
    let (records, tail) = read_all(&a);
    assert_eq!(tail, 0);
    assert_eq!(records.len(), bytes.len() / RECORD_SIZE - 1);
    assert!(records.len() > 30);
    for r in &records {
        check_record(r);
        assert!(result_fits_end(r.result, r.end), "{r:?}");
    }
    // The same games searched with the built-in network: other moves, valid records.
    let d = temp("seed-d.bin");
    let with_net = Options { net: Some("default".into()), ..options(&d, 3, 1, 5) };
    datagen::run(datagen::Command::Generate(with_net)).unwrap();
    assert_ne!(bytes, std::fs::read(&d).unwrap(), "the network plays other moves");
    let (records, tail) = read_all(&d);
    assert_eq!(tail, 0);
    for r in &records {
        check_record(r);
    }
    for p in [a, b, c, d] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn games_out_writes_each_game_as_a_line_of_legal_moves_and_its_result() {
    let (data, games) = (temp("games-out.bin"), temp("games-out.txt"));
    let mut o = options(&data, 3, 2, 8);
    o.random_plies = Some(0);
    o.games_out = Some(games.clone());
    datagen::run(datagen::Command::Generate(o)).unwrap();
    let text = std::fs::read_to_string(&games).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for line in lines {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(&words[..2], ["startpos", "moves"], "{line}");
        let result = Outcome::from_pgn(words[words.len() - 1]).unwrap_or_else(|| panic!("{line}"));
        let mut pos = Position::startpos();
        for m in &words[2..words.len() - 1] {
            let m = pos.parse_legal_move(m).unwrap_or_else(|| panic!("illegal {m} in {line}"));
            pos.do_move(m);
        }
        assert!(pos.game_ply() > 10, "{line}");
        // A game that ended by the rules ends as the arbiter says.
        if let Some(outcome) = rules::adjudicate(&mut pos, Rules::DEFAULT).outcome {
            assert_eq!(outcome, result, "{line}");
        }
    }
    let _ = std::fs::remove_file(data);
    let _ = std::fs::remove_file(games);
}

#[test]
fn appends_cuts_a_partial_record_and_dumps() {
    let path = temp("append.bin");
    let file = path.to_str().unwrap();
    let (code, _, err) =
        chariot(&["datagen", "--out", file, "--games", "1", "--nodes", "300", "--seed", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("1/1 games") && err.contains("pos/s"), "{err}");
    let one = std::fs::read(&path).unwrap();
    datagen::run(datagen::Command::Generate(options(&path, 1, 1, 2))).unwrap();
    let two = std::fs::read(&path).unwrap();
    assert!(two.len() > one.len() && two.starts_with(&one), "appended after the first run");
    assert_eq!(two.windows(16).filter(|w| w == &&header()[..16]).count(), 1, "one header");
    let (records, _) = read_all(&path);

    // A run killed mid-write leaves part of a record: readers skip it…
    std::fs::write(&path, &two[..two.len() - 7]).unwrap();
    let (cut, tail) = read_all(&path);
    assert_eq!((cut.len(), tail), (records.len() - 1, RECORD_SIZE - 7));
    let (code, out, err) = chariot(&["datagen", "--dump", file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), records.len() - 1);
    assert!(err.contains("incomplete last record (33 bytes) ignored"), "{err}");
    // …and the next run cuts it off before appending.
    datagen::run(datagen::Command::Generate(options(&path, 1, 1, 3))).unwrap();
    let (after, tail) = read_all(&path);
    assert_eq!(tail, 0);
    assert_eq!(&after[..records.len() - 1], &records[..records.len() - 1]);

    // The text form: FEN | score | result | best move.
    let (code, out, _) = chariot(&["datagen", "--dump", file, "--limit", "3"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 3);
    for (line, r) in out.lines().zip(&records) {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert_eq!(fields[0], r.position().unwrap().fen());
        assert_eq!(fields[1], r.score.to_string());
        assert_eq!(fields[2], r.result.as_str());
        assert_eq!(fields[3], r.best.to_string());
    }
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_stopped_run_resumes_where_it_stopped_and_writes_the_same_file() {
    let (whole, resumed) = (temp("resume-whole.bin"), temp("resume-part.bin"));
    let (whole_games, resumed_games) = (temp("resume-whole.txt"), temp("resume-part.txt"));
    let run = |out: &PathBuf, games_out: &PathBuf, games: u64, threads: usize| {
        let o = Options { games_out: Some(games_out.clone()), ..options(out, games, threads, 11) };
        datagen::run(datagen::Command::Generate(o))
    };
    let progress =
        |out: &PathBuf| datagen::progress::Progress::read(&datagen::progress::path_for(out)).unwrap();
    run(&whole, &whole_games, 4, 1).unwrap();
    assert_eq!(progress(&whole).unwrap().games, 4);

    // Two games, then the same command for four: games 2 and 3 follow.
    run(&resumed, &resumed_games, 2, 2).unwrap();
    let after_two = progress(&resumed).unwrap();
    assert_eq!((after_two.games, after_two.bytes), (2, std::fs::metadata(&resumed).unwrap().len()));
    run(&resumed, &resumed_games, 4, 2).unwrap();
    assert_eq!(std::fs::read(&resumed).unwrap(), std::fs::read(&whole).unwrap());
    assert_eq!(std::fs::read(&resumed_games).unwrap(), std::fs::read(&whole_games).unwrap());

    // Killed after writing game 2 but before counting it: the game is cut off and played again.
    let (three, three_games) = (temp("resume-three.bin"), temp("resume-three.txt"));
    run(&three, &three_games, 3, 1).unwrap();
    std::fs::copy(&three, &resumed).unwrap();
    std::fs::copy(&three_games, &resumed_games).unwrap();
    after_two.write(&datagen::progress::path_for(&resumed)).unwrap();
    run(&resumed, &resumed_games, 4, 1).unwrap();
    assert_eq!(std::fs::read(&resumed).unwrap(), std::fs::read(&whole).unwrap());
    assert_eq!(std::fs::read(&resumed_games).unwrap(), std::fs::read(&whole_games).unwrap());

    // Nothing left to do: the file stays as it is.
    run(&resumed, &resumed_games, 3, 1).unwrap();
    assert_eq!(std::fs::read(&resumed).unwrap(), std::fs::read(&whole).unwrap());

    // Another seed appends its own games from game 0.
    datagen::run(datagen::Command::Generate(options(&resumed, 1, 1, 12))).unwrap();
    let longer = std::fs::read(&resumed).unwrap();
    assert!(longer.len() > std::fs::read(&whole).unwrap().len());
    assert_eq!(progress(&resumed).unwrap().games, 1);

    // A file shorter than its progress file says, or with another file
    // appended after the counted games, is not resumed: an error, nothing lost.
    after_two.write(&datagen::progress::path_for(&whole)).unwrap();
    let mut appended = std::fs::read(&whole).unwrap();
    appended.extend_from_slice(&std::fs::read(&resumed).unwrap());
    std::fs::write(&resumed, &appended).unwrap();
    let progress_file = datagen::progress::path_for(&resumed);
    std::fs::copy(datagen::progress::path_for(&whole), &progress_file).unwrap();
    let o = options(&resumed, 4, 1, 11);
    let err = datagen::run(datagen::Command::Generate(o.clone())).unwrap_err();
    assert!(err.contains("more after this run's last game"), "{err}");
    assert_eq!(std::fs::read(&resumed).unwrap(), appended, "nothing cut");
    std::fs::write(&resumed, &appended[..RECORD_SIZE * 3]).unwrap();
    let err = datagen::run(datagen::Command::Generate(o)).unwrap_err();
    assert!(err.contains("is shorter") && err.contains("progress file"), "{err}");
    std::fs::write(&progress_file, "games many\n").unwrap();
    let (code, _, err) = chariot(&["datagen", "--out", resumed.to_str().unwrap(), "--games", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a datagen progress file"), "{err}");
    for p in [&whole, &resumed, &whole_games, &resumed_games, &three, &three_games] {
        let _ = std::fs::remove_file(datagen::progress::path_for(p));
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn bad_arguments_and_files_are_errors_with_status_2() {
    let not_data = temp("not-data.bin");
    std::fs::write(&not_data, b"this is not a datagen file, it is text........").unwrap();
    let bad_book = temp("bad-book.txt");
    std::fs::write(&bad_book, "startpos\nstartpos moves h2e2 h2e2\n").unwrap();
    let out = temp("never-written.bin");
    let (nd, bb, o) = (not_data.to_str().unwrap(), bad_book.to_str().unwrap(), out.to_str().unwrap());
    let cases: &[(&[&str], &str)] = &[
        (&["datagen"], "<--out <FILE>|--dump <FILE>>"),
        (&["datagen", "--out"], "a value is required for '--out <FILE>'"),
        (
            &["datagen", "--out", o, "--games", "0"],
            "invalid value '0' for '--games <GAMES>': expected a whole number from 1",
        ),
        (&["datagen", "--out", o, "--nodes", "many"], "invalid value 'many' for '--nodes"),
        (&["datagen", "--out", o, "--threads", "-1"], "unexpected argument '-1'"),
        (&["datagen", "--out", o, "--colour", "red"], "unexpected argument '--colour'"),
        (&["datagen", "--out", o, "--dump", nd], "cannot be used with"),
        (&["datagen", "--out", "/nonexistent-dir/x.bin"], "cannot open /nonexistent-dir/x.bin"),
        (&["datagen", "--out", nd], "not a chariot datagen file"),
        (&["datagen", "--out", o, "--book", "/nonexistent-book"], "cannot read the book"),
        (
            &["datagen", "--out", o, "--net", "/nonexistent-net"],
            "--net /nonexistent-net: cannot read network file",
        ),
        (&["datagen", "--out", o, "--net", bb], "--net "),
        (&["datagen", "--out", o, "--book", bb], "line 2: illegal move 'h2e2' (move 2"),
        (&["datagen", "--dump", nd], "not a chariot datagen file"),
        (&["datagen", "--dump", "/nonexistent-file"], "cannot open /nonexistent-file"),
    ];
    for (args, needle) in cases {
        let (code, _, err) = chariot(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(needle), "{args:?}: {err}");
    }
    assert!(!out.exists(), "no run got as far as creating the output");
    let (code, out, _) = chariot(&["--help"]);
    assert_eq!(code, 0);
    for command in ["bench", "perft", "judge", "datagen", "tune", "train", "book", "show"] {
        assert!(out.contains(&format!("\n  {command} ")), "{command} missing from --help:\n{out}");
    }
    let (code, out, _) = chariot(&["datagen", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Usage: chariot datagen") && out.contains("--dump <FILE>"), "{out}");
    let _ = std::fs::remove_file(not_data);
    let _ = std::fs::remove_file(bad_book);
}
