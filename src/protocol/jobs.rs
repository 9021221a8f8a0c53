//! Long commands that are not searches — `go perft` and `bench` — run on a
//! thread of their own, like a search, so the loop keeps answering `isready`
//! and `stop` ends them within a millisecond or so, whatever depth was asked.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::board::Position;
use crate::eval::nnue::Network;
use crate::rules::Rules;
use crate::tools::{bench, perft};

/// Below this depth a perft subtree is counted in one go (a few hundred
/// microseconds at most); above it the count checks for `stop` at every node.
const PERFT_CHUNK_DEPTH: u32 = 3;

/// A line a job prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobOutput {
    /// A result line, printed as it is.
    Line(String),
    /// A notice for the user (`info string` / `info message`).
    Note(String),
}

/// A running job. Dropping it stops it and waits for its thread.
pub struct Job {
    stop: Arc<AtomicBool>,
    output: Receiver<JobOutput>,
    thread: Option<JoinHandle<()>>,
}

impl Job {
    fn spawn<F>(name: &str, work: F) -> std::io::Result<Job>
    where
        F: FnOnce(&AtomicBool, &Sender<JobOutput>) + Send + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, output) = unbounded();
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new().name(name.into()).spawn(move || work(&flag, &tx))?;
        Ok(Job { stop, output, thread: Some(thread) })
    }

    /// `go perft depth` on `pos`: one `move: count` line per root move, then the total.
    pub fn perft(pos: Position, depth: u32) -> std::io::Result<Job> {
        Job::spawn("perft", move |stop, out| perft_divide(pos, depth, stop, out))
    }

    /// The bench: every bench position searched to `depth` with one thread
    /// and a fresh 16 MB table, as `chariot bench` does, by `rules` (the
    /// session's rule set), evaluating with `network` (classically if `None`).
    pub fn bench(depth: u32, rules: Rules, network: Option<Arc<Network>>) -> std::io::Result<Job> {
        Job::spawn("bench", move |stop, out| run_bench(depth, rules, network, stop, out))
    }

    /// Asks the job to finish early.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The job's output; disconnected once the job is over.
    pub fn output(&self) -> &Receiver<JobOutput> {
        &self.output
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.stop();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn send(out: &Sender<JobOutput>, line: JobOutput) {
    let _ = out.send(line);
}

/// Perft of `pos` to `depth`, or `None` if stopped.
fn count(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= PERFT_CHUNK_DEPTH {
        return Some(perft::perft(pos, depth));
    }
    let mut nodes = 0;
    for m in pos.legal_moves() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        pos.do_move(m);
        let n = count(pos, depth - 1, stop);
        pos.undo_move();
        nodes += n?;
    }
    Some(nodes)
}

fn perft_divide(mut pos: Position, depth: u32, stop: &AtomicBool, out: &Sender<JobOutput>) {
    let depth = depth.max(1);
    let mut total = 0;
    for m in pos.legal_moves() {
        pos.do_move(m);
        let n = count(&mut pos, depth - 1, stop);
        pos.undo_move();
        let Some(n) = n else {
            send(out, JobOutput::Note(format!("perft {depth} stopped")));
            return;
        };
        send(out, JobOutput::Line(format!("{m}: {n}")));
        total += n;
    }
    send(out, JobOutput::Line(String::new()));
    send(out, JobOutput::Line(format!("Nodes searched: {total}")));
}

/// [`bench::run`], its lines sent as they come.
fn run_bench(
    depth: u32,
    rules: Rules,
    network: Option<Arc<Network>>,
    stop: &AtomicBool,
    out: &Sender<JobOutput>,
) {
    let n = bench::POSITIONS.len();
    let mut done = 0;
    let result = bench::run(depth, rules, network, stop, |i, fen, nodes| {
        done = i + 1;
        send(out, JobOutput::Line(format!("position {}/{n}: {nodes} nodes  {fen}", i + 1)));
    });
    match result {
        Some(r) => send(out, JobOutput::Line(format!("{} nodes {} nps", r.nodes, r.nps))),
        None => send(out, JobOutput::Note(format!("bench stopped after {done} of {n} positions"))),
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    fn lines(job: &Job) -> Vec<JobOutput> {
        job.output().iter().collect()
    }

    #[test]
    fn perft_counts_and_stops() {
        let job = Job::perft(Position::startpos(), 3).unwrap();
        let out = lines(&job);
        assert_eq!(out.len(), 44 + 2);
        assert_eq!(out.last(), Some(&JobOutput::Line("Nodes searched: 79666".into())));
        let job = Job::perft(Position::startpos(), 30).unwrap();
        let t = Instant::now();
        job.stop();
        assert_eq!(lines(&job), vec![JobOutput::Note("perft 30 stopped".into())]);
        assert!(t.elapsed() < Duration::from_secs(1));
    }
}
