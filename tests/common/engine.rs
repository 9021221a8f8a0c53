//! Drives the built `chariot` binary over stdin/stdout, as a GUI does.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};

/// Default time to wait for an expected line. Generous: CI machines are slow
/// and busy, and a test that waits this long has failed anyway.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// Tests that measure time hold this exclusively, so that no other test of
/// the same binary loads the CPU meanwhile; the other tests share it.
static CPU: RwLock<()> = RwLock::new(());

/// For a test that does not measure time.
pub fn shared_cpu() -> RwLockReadGuard<'static, ()> {
    CPU.read().unwrap_or_else(|e| e.into_inner())
}

/// For a test that measures time.
pub fn exclusive_cpu() -> RwLockWriteGuard<'static, ()> {
    CPU.write().unwrap_or_else(|e| e.into_inner())
}

/// The median of some durations (the middle one; sorts them).
pub fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The protocol issue's timing figures in one dialect, each printed with its
/// samples and asserted on medians with CI tolerances (the targets are 20 ms
/// to the handshake reply, 5 ms from `stop` to the move, 0.3 s for a move
/// on a one-second clock, 300 ± 100 ms for `go movetime 300`).
/// `go_endless` searches until `stop`; `go_clock` gives one second.
pub fn check_timing(handshake: &str, go_endless: &str, go_clock: &str) {
    let _g = exclusive_cpu();
    let name = handshake.to_ascii_uppercase();
    let mut startup = startup_times(handshake, 5);
    println!("{name} start-up to {handshake}ok: median {:.1?} of {startup:.1?}", median(&mut startup));
    assert!(median(&mut startup) < Duration::from_millis(200));

    let mut e = EngineProcess::with_handshake(handshake).0;
    e.send("position startpos");
    let mut stops = e.stop_latencies(go_endless, 5);
    println!("{name} stop during {go_endless} -> bestmove: median {:.2?} of {stops:.2?}", median(&mut stops));
    assert!(median(&mut stops) < Duration::from_millis(50));

    let clock = e.search_times(go_clock, 1)[0];
    println!("{name} {go_clock} -> bestmove: {clock:.1?}");
    assert!(clock < Duration::from_millis(300));

    let mut movetime = e.search_times("go movetime 300", 3);
    let m = median(&mut movetime);
    println!("{name} go movetime 300 -> bestmove: median {m:.1?} of {movetime:.1?}");
    assert!(m > Duration::from_millis(200) && m < Duration::from_millis(400));
}

/// Start-up times: from starting the engine to `uciok`/`ucciok`, `n` times.
pub fn startup_times(handshake: &str, n: usize) -> Vec<Duration> {
    (0..n)
        .map(|_| {
            let (e, _) = EngineProcess::with_handshake(handshake);
            e.started.elapsed()
        })
        .collect()
}

/// A running engine with a thread collecting its output lines.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent (`> …`) and received (`< …`), for failure messages.
    transcript: Vec<String>,
    /// When the process was started.
    pub started: Instant,
}

impl EngineProcess {
    /// Starts `chariot` with no arguments (protocol mode).
    pub fn start() -> EngineProcess {
        let started = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cannot start chariot");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        EngineProcess { child, stdin, lines, transcript: Vec::new(), started }
    }

    /// Starts the engine and completes a handshake (`uci`, `ucci`, or
    /// `xboard`, which is followed by `protover 2`); returns the handshake
    /// lines (without the final `uciok`, `ucciok` or `feature done=1`).
    pub fn with_handshake(command: &str) -> (EngineProcess, Vec<String>) {
        let mut e = EngineProcess::start();
        e.send(command);
        let last = if command == "xboard" {
            e.send("protover 2");
            "feature done=1".to_string()
        } else {
            format!("{command}ok")
        };
        let mut lines = e.read_until(|l| l == last);
        lines.pop();
        (e, lines)
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes (no newline added). A closed pipe is ignored: the
    /// next read reports a dead engine with the transcript.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
        self.transcript.push(format!("> {}", text.escape_debug()));
        if let Some(stdin) = &mut self.stdin {
            let _ = stdin.write_all(bytes).and_then(|()| stdin.flush());
        }
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.transcript.push("> <end of input>".into());
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout` or when the output is closed.
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                let shown: String = line.chars().take(200).collect();
                self.transcript.push(format!("< {shown}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The output lines up to and including the first that satisfies `done`.
    /// Panics (with the transcript) if none comes within [`TIMEOUT`].
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.read_until_within(TIMEOUT, done)
    }

    /// As [`EngineProcess::read_until`], with a given timeout.
    pub fn read_until_within(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(line) => {
                    let stop = done(&line);
                    lines.push(line);
                    if stop {
                        return lines;
                    }
                }
                None => self.fail(&format!("no expected line within {timeout:?}")),
            }
        }
    }

    /// Lines up to the next one starting with `prefix` (which is included).
    pub fn read_until_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.read_until(|l| l.starts_with(prefix))
    }

    /// Reads until `bestmove` (UCI or UCCI) or `nobestmove`; returns all lines.
    pub fn read_search(&mut self) -> Vec<String> {
        self.read_until(|l| l.starts_with("bestmove") || l == "nobestmove")
    }

    /// The `bestmove`/`nobestmove` line if one comes within `within`.
    pub fn search_end_within(&mut self, within: Duration) -> Option<String> {
        let deadline = Instant::now() + within;
        while let Some(line) = self.recv(deadline.saturating_duration_since(Instant::now())) {
            if line.starts_with("bestmove") || line == "nobestmove" {
                return Some(line);
            }
        }
        None
    }

    /// How long `go` takes to answer, `n` times.
    pub fn search_times(&mut self, go: &str, n: usize) -> Vec<Duration> {
        (0..n)
            .map(|_| {
                let t = Instant::now();
                self.send(go);
                self.read_search();
                t.elapsed()
            })
            .collect()
    }

    /// `stop` latency, `n` times: starts the endless search `go`, lets it
    /// reach depth 6, then measures from `stop` to the move.
    pub fn stop_latencies(&mut self, go: &str, n: usize) -> Vec<Duration> {
        (0..n)
            .map(|_| {
                self.send(go);
                self.read_until(|l| {
                    field(l, "depth").and_then(|d| d.parse::<u32>().ok()).is_some_and(|d| d >= 6)
                });
                std::thread::sleep(Duration::from_millis(50));
                let t = Instant::now();
                self.send("stop");
                self.read_search();
                t.elapsed()
            })
            .collect()
    }

    /// Sends `isready` and waits for `readyok`; returns the lines before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `quit`, waits for the process to end and returns its status.
    /// Returns the lines printed after `quit` too.
    pub fn quit(mut self) -> (ExitStatus, Vec<String>) {
        self.send("quit");
        self.wait_exit()
    }

    /// Waits (with [`TIMEOUT`]) for the process to exit; returns its status
    /// and the lines it printed meanwhile.
    pub fn wait_exit(mut self) -> (ExitStatus, Vec<String>) {
        let deadline = Instant::now() + TIMEOUT;
        let mut lines = Vec::new();
        loop {
            while let Some(line) = self.recv(Duration::from_millis(5)) {
                lines.push(line);
            }
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                while let Some(line) = self.recv(Duration::from_millis(100)) {
                    lines.push(line);
                }
                return (status, lines);
            }
            if Instant::now() > deadline {
                self.fail("the engine did not exit");
            }
        }
    }

    /// True while the process runs.
    pub fn is_alive(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }

    /// Panics with `why` and the end of the transcript.
    pub fn fail(&mut self, why: &str) -> ! {
        let status = self.child.try_wait().ok().flatten();
        let from = self.transcript.len().saturating_sub(60);
        panic!(
            "{why} (engine status: {status:?})\n--- transcript (last {} lines) ---\n{}",
            self.transcript.len() - from,
            self.transcript[from..].join("\n")
        );
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value after `key` in a whitespace-separated line (`info depth 5 …`).
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut tokens = line.split_whitespace();
    tokens.by_ref().find(|t| *t == key)?;
    tokens.next()
}

/// The move of a `bestmove` line.
pub fn bestmove(lines: &[String]) -> String {
    let last = lines.last().expect("some lines");
    field(last, "bestmove").unwrap_or_else(|| panic!("not a bestmove line: {last}")).to_string()
}
