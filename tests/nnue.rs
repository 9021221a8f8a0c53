//! The network evaluation: every instruction set gives the same output, the
//! built-in network's output on fixed positions, the options in each
//! dialect (a bad network file is refused and the engine plays on), the
//! `eval` command, and the bench with and without the network.

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use chariot::board::Position;
use chariot::board::zobrist::SplitMix64;
use chariot::eval::evaluate_with;
use chariot::eval::nnue::features::FeatureSet;
use chariot::eval::nnue::format::{HEADER_SIZE, NetworkData};
use chariot::eval::nnue::simd::Simd;
use chariot::eval::nnue::{Network, format};
use chariot::rules::Rules;
use chariot::tools::bench;
use common::engine::{EngineProcess, bestmove, shared_cpu};

/// Positions for the regression test: the start, a middlegame, an endgame
/// with Black to move, a side without mating material.
const FIXED: [&str; 4] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "9/4k4/3a1n2b/2p6/p5p2/2p5P/2P6/4B4/4A2N1/3AK4 b - - 1 27",
    "3ak4/4a4/9/9/9/9/9/9/4A4/3AKR3 b - - 0 1",
];

/// The built-in network's name and its evaluations of [`FIXED`] (side to
/// move's view). When `nets/default.nnue` is replaced these change: update
/// them to the values the failing test prints.
const EXPECTED: (&str, [i32; 4]) = ("nn-32667536ba6c", [112, -212, 191, -1022]);

#[test]
fn the_built_in_network_on_fixed_positions() {
    let net = Network::embedded();
    let got: Vec<i32> = FIXED.iter().map(|f| evaluate_with(&net, &Position::from_fen(f).unwrap())).collect();
    assert_eq!(
        (net.name(), got.as_slice()),
        (EXPECTED.0, EXPECTED.1.as_slice()),
        "nets/default.nnue changed: if that is meant, set EXPECTED in tests/nnue.rs to (\"{}\", {:?})",
        net.name(),
        got
    );
}

/// Positions along random games from the bench positions.
fn random_positions(rng: &mut SplitMix64, n: usize) -> Vec<Position> {
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::from_fen(bench::POSITIONS[rng.below(bench::POSITIONS.len())]).unwrap();
        for _ in 0..rng.below(40) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.do_move(legal[rng.below(legal.len())]);
        }
        out.push(pos);
    }
    out
}

#[test]
fn every_instruction_set_gives_the_scalar_output() {
    let mut rng = SplitMix64(0x51D);
    let positions = random_positions(&mut rng, 300);
    let paths = Simd::available();
    assert!(paths.len() >= 2, "{paths:?}");
    // The portable build finds AVX-512 or else AVX2 at run time where the
    // processor has it.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512bw") {
        assert_eq!(Simd::detect(), Simd::Avx512);
    } else if std::arch::is_x86_feature_detected!("avx2") {
        assert_eq!(Simd::detect(), Simd::Avx2);
    }
    for (seed, ft_range, features, hidden, buckets) in [
        (1, 30, FeatureSet::Plain, 128, 1),
        (2, 505, FeatureSet::Plain, 128, 1),
        (3, 2000, FeatureSet::Plain, 128, 1),
        (4, 505, FeatureSet::KingBuckets, 128, 1),
        (5, 505, FeatureSet::Plain, 256, 1),
        (6, 505, FeatureSet::KingBuckets, 256, 1),
        (7, 300, FeatureSet::KingBuckets, 512, 1),
        (8, 505, FeatureSet::Plain, 128, 8),
    ] {
        let mut data = NetworkData::random(features, hidden, seed, ft_range);
        if buckets > 1 {
            // Each bucket's output its own: the weights turned by the bucket.
            let head = data.out_weights.clone();
            data.buckets = buckets;
            data.out_weights = (0..buckets)
                .flat_map(|b| head.iter().cycle().skip(b * 37).take(2 * hidden))
                .copied()
                .collect();
            data.out_bias = (0..buckets as i32).map(|b| data.out_bias[0] - 3000 * b).collect();
        }
        let nets: Vec<Network> = paths
            .iter()
            .map(|&s| Network::from_data(&data, "r".into()).unwrap().with_simd(s).unwrap())
            .collect();
        let mut distinct = std::collections::HashSet::new();
        for pos in &positions {
            let scalar = evaluate_with(&nets[0], pos);
            distinct.insert(scalar);
            for net in &nets[1..] {
                assert_eq!(evaluate_with(net, pos), scalar, "{:?}, {}", net.simd(), pos.fen());
            }
        }
        assert!(distinct.len() > 50, "a network that says little: {}", distinct.len());
    }
}

/// Files that are no valid network, with a word of the error each gives.
fn bad_files(dir: &std::path::Path) -> Vec<(String, &'static str)> {
    let good = Network::embedded();
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue")).unwrap();
    assert_eq!(format::name(&bytes), good.name());
    std::fs::create_dir_all(dir).unwrap();
    let write = |name: &str, data: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, data).unwrap();
        path.to_str().unwrap().to_string()
    };
    let mut flipped = bytes.clone();
    flipped[HEADER_SIZE + 12_345] ^= 4;
    let mut version = bytes.clone();
    version[16] = 9;
    vec![
        (write("truncated.nnue", &bytes[..bytes.len() / 2]), "bytes"),
        (write("flipped.nnue", &flipped), "corrupt"),
        (write("version.nnue", &version), "version"),
        (write("text.nnue", b"hello\n"), "not a chariot network file"),
        ("/nonexistent/dir/x.nnue".to_string(), "cannot read"),
        (dir.to_str().unwrap().to_string(), "cannot read"),
    ]
}

#[test]
fn a_bad_network_file_is_refused_and_the_engine_plays_on() {
    let _g = shared_cpu();
    let dir = std::env::temp_dir().join(format!("chariot-nnue-{}", std::process::id()));
    let cases = bad_files(&dir);
    let name = Network::embedded().name().to_string();
    let keeping = format!("keeping the network {name}");
    for dialect in ["uci", "ucci"] {
        let mut e = EngineProcess::with_handshake(dialect).0;
        let (use_nnue, set, error) = if dialect == "uci" {
            ("setoption name Use NNUE value true", "setoption name EvalFile value ", "info string error: ")
        } else {
            ("setoption usennue true", "setoption evalfile ", "info message error: ")
        };
        e.send(use_nnue);
        assert!(e.sync().is_empty());
        for (file, why) in &cases {
            e.send(&format!("{set}{file}"));
            let lines = e.sync();
            assert_eq!(lines.len(), 1, "{lines:?}");
            assert!(lines[0].starts_with(error) && lines[0].contains(why), "{file}: {lines:?}");
            assert!(lines[0].ends_with(&keeping), "{lines:?}");
        }
        e.send("eval");
        let lines = e.sync();
        assert!(
            lines.iter().any(|l| l.contains(&format!("NNUE evaluation ({name}, ")) && l.ends_with("in use"))
        );
        e.send("position startpos moves h2e2");
        e.send("go depth 3");
        let m = bestmove(&e.read_search());
        let after =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b").unwrap();
        assert!(after.parse_legal_move(&m).is_some(), "{m}");
        let (status, _) = e.quit();
        assert!(status.success());
    }
    // CECP: the error as a note; the engine plays on.
    let (mut e, features) = EngineProcess::with_handshake("xboard");
    for want in ["Use NNUE -check 1", "EvalFile -file "] {
        assert!(features.iter().any(|l| *l == format!("feature option=\"{want}\"")), "{want}: {features:?}");
    }
    e.send("option Use NNUE=1");
    e.send(&format!("option EvalFile={}", cases[0].0));
    e.send("ping 1");
    let lines = e.read_until(|l| l == "pong 1");
    assert!(lines.iter().any(|l| l.starts_with("# network file '") && l.contains(&keeping)), "{lines:?}");
    e.send("new");
    e.send("sd 3");
    e.send("go");
    let lines = e.read_until(|l| l.starts_with("move "));
    let m = lines.last().unwrap().strip_prefix("move ").unwrap();
    assert!(Position::startpos().parse_legal_move(m).is_some(), "{m}");
    let (status, _) = e.quit();
    assert!(status.success());
    let _ = std::fs::remove_dir_all(dir);
}

/// The `N nodes M nps` line of a bench run through the protocol.
fn protocol_bench_nodes(e: &mut EngineProcess, depth: u32) -> u64 {
    e.send(&format!("bench {depth}"));
    let lines = e.read_until(|l| l.ends_with(" nps"));
    lines.last().unwrap().split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn use_nnue_switches_the_bench_between_network_and_classical() {
    let _g = shared_cpu();
    let never = AtomicBool::new(false);
    let classical = bench::run(4, Rules::DEFAULT, None, &never, |_, _, _| {}).unwrap().nodes;
    let net = Some(Arc::clone(&Network::embedded()));
    let with_net = bench::run(4, Rules::DEFAULT, net, &never, |_, _, _| {}).unwrap().nodes;
    let mut e = EngineProcess::with_handshake("uci").0;
    assert_eq!(protocol_bench_nodes(&mut e, 4), with_net, "the network by default");
    e.send("setoption name Use NNUE value false");
    assert_eq!(protocol_bench_nodes(&mut e, 4), classical);
    e.send("setoption name Use NNUE value true");
    assert_eq!(protocol_bench_nodes(&mut e, 4), with_net);
    let (status, _) = e.quit();
    assert!(status.success());
}

/// Runs `chariot ARGS…`; returns its exit status and stdout.
fn chariot(args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot")).args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).to_string())
}

#[test]
fn the_command_line_names_the_network() {
    let run = |args: &[&str]| {
        let (code, text) = chariot(args);
        (code == Some(0), text)
    };
    let (ok, text) = run(&["--version"]);
    assert!(ok);
    let want = format!("chariot {} (network {})\n", env!("CARGO_PKG_VERSION"), Network::embedded().name());
    assert_eq!(text, want);
    let (ok, help) = run(&["--help"]);
    assert!(ok);
    for command in
        ["bench", "perft", "judge", "datagen", "tune", "book", "analyse", "show", "help", "version"]
    {
        assert!(help.contains(&format!("\n  {command} ")), "{command}: {help}");
    }
    let (ok, bench_help) = run(&["bench", "--help"]);
    assert!(ok && bench_help.contains("--eval <EVAL>") && bench_help.contains("classical"), "{bench_help}");
    let (ok, _) = run(&["bench", "2", "--eval", "quantum"]);
    assert!(!ok);
    let (ok, classical) = run(&["bench", "3", "--eval=classical"]);
    assert!(ok);
    let (_, nnue) = run(&["bench", "3"]);
    let (_, nnue_named) = run(&["bench", "3", "--eval", "nnue"]);
    let nodes = |t: &str| t.lines().last().unwrap().split(' ').next().unwrap().to_string();
    assert_ne!(nodes(&nnue), nodes(&classical));
    assert_eq!(nodes(&nnue), nodes(&nnue_named), "the network is the bench's default");
}

#[test]
fn every_command_has_its_own_help() {
    let commands: [&[&str]; 12] = [
        &["perft"],
        &["bench"],
        &["judge"],
        &["datagen"],
        &["tune"],
        &["train"],
        &["book"],
        &["book", "build"],
        &["book", "dump"],
        &["analyse"],
        &["show"],
        &["version"],
    ];
    for command in commands {
        let name = command.join(" ");
        let asked: [Vec<&str>; 3] =
            [[command, &["--help"]].concat(), [command, &["-h"]].concat(), [&["help"], command].concat()];
        for args in asked {
            let (code, text) = chariot(&args);
            assert_eq!(code, Some(0), "{args:?}");
            let usage = format!("Usage: chariot {name}");
            assert!(
                text.lines().any(|l| l == usage || l.starts_with(&format!("{usage} "))),
                "{args:?}: {text}"
            );
            for other in
                ["perft", "bench", "judge", "datagen", "analyse", "version"].iter().filter(|&&o| o != name)
            {
                assert!(
                    !text.contains(&format!("Usage: chariot {other}")),
                    "{args:?}: only {name}'s usage: {text}"
                );
            }
        }
    }
    let (code, _) = chariot(&["help", "nonsense"]);
    assert_eq!(code, Some(2));
}

/// The nodes of `go depth D` and its best move, from the last `info … nodes N` line.
fn search_nodes(e: &mut EngineProcess, go: &str) -> (u64, String) {
    e.send(go);
    let lines = e.read_search();
    let nodes = lines
        .iter()
        .rev()
        .find_map(|l| l.split(" nodes ").nth(1))
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("an info line with nodes");
    (nodes, lines.last().unwrap().clone())
}

#[test]
fn a_search_after_the_evaluation_changes_is_not_steered_by_the_old_one() {
    let _g = shared_cpu();
    let go = "go depth 7";
    // A fresh engine's classical search, and the network's.
    let mut fresh = EngineProcess::with_handshake("uci").0;
    fresh.send("setoption name Use NNUE value false");
    fresh.send("position startpos moves h2e2 h9g7");
    let classical = search_nodes(&mut fresh, go);
    fresh.quit();
    let mut fresh = EngineProcess::with_handshake("uci").0;
    fresh.send("position startpos moves h2e2 h9g7");
    let network = search_nodes(&mut fresh, go);
    fresh.quit();
    assert_ne!(classical, network);
    // One engine, switched back and forth without a new game in between:
    // each search is the fresh engine's (the table and histories of the
    // other evaluation are cleared, not reused).
    let mut e = EngineProcess::with_handshake("uci").0;
    e.send("position startpos moves h2e2 h9g7");
    assert_eq!(search_nodes(&mut e, go), network);
    e.send("setoption name Use NNUE value false");
    assert_eq!(search_nodes(&mut e, go), classical);
    e.send("setoption name Use NNUE value true");
    assert_eq!(search_nodes(&mut e, go), network);
    // With the evaluation unchanged, the table is kept: the same search
    // again is shorter (what the assertions above would see without the clearing).
    assert!(search_nodes(&mut e, go).0 < network.0);
    let (status, _) = e.quit();
    assert!(status.success());
}
