//! A persistent pool of search threads. Threads are created once (more, or
//! fewer, only when the thread count changes) and wait for jobs on a
//! channel; each owns a [`Worker`] whose histories survive from one search
//! to the next.

use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};

use crate::search::{SearchShared, Worker};

/// Stack size of a search thread (deep recursion with move lists on the stack).
const STACK_SIZE: usize = 32 << 20;

enum Job {
    /// Take part in a search.
    Search(Arc<SearchShared>),
    /// Clear the worker's histories, then acknowledge.
    Clear(Sender<()>),
}

/// The search threads. Thread 0 is the main search thread. Dropping the
/// pool, or shrinking it, closes the threads' queues: each thread ends once
/// its queued jobs are done (a search it was stopped in ends within a few
/// nodes). Nobody waits for that, so `quit` and a change of `Threads` are
/// quick even with many threads waiting for a core.
pub struct ThreadPool {
    threads: Vec<Sender<Job>>,
}

impl ThreadPool {
    /// A pool of one thread, the main search thread. Without it there is
    /// no search: failing to start it aborts, as running out of memory does.
    pub fn with_main_thread() -> ThreadPool {
        let mut pool = ThreadPool { threads: Vec::new() };
        if let Err(e) = pool.resize(1) {
            panic!("cannot start the main search thread: {e}");
        }
        pool
    }

    /// Grows or shrinks the pool to `n` threads (at least one); the threads
    /// that stay keep what they learned. If the system will not start that
    /// many, the pool keeps as many as it could start and says why.
    pub fn resize(&mut self, n: usize) -> std::io::Result<()> {
        // Closing their queues ends the extra threads.
        self.threads.truncate(n.max(1));
        while self.threads.len() < n.max(1) {
            let id = self.threads.len();
            let (tx, rx) = unbounded::<Job>();
            std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(STACK_SIZE)
                .spawn(move || thread_main(id, rx))?;
            self.threads.push(tx);
        }
        Ok(())
    }

    /// Number of threads.
    pub fn len(&self) -> usize {
        self.threads.len()
    }

    /// Always false: a pool has at least one thread.
    pub fn is_empty(&self) -> bool {
        self.threads.is_empty()
    }

    /// Starts a search on every thread. A thread still busy with the
    /// previous search (it has been stopped) joins when it is done.
    pub fn start(&self, shared: &Arc<SearchShared>) {
        for t in &self.threads {
            let _ = t.send(Job::Search(Arc::clone(shared)));
        }
    }

    /// Clears every worker's histories (the pool must be idle).
    pub fn clear(&self) {
        let (ack_tx, ack_rx) = bounded(self.threads.len());
        for t in &self.threads {
            let _ = t.send(Job::Clear(ack_tx.clone()));
        }
        for _ in &self.threads {
            let _ = ack_rx.recv();
        }
    }
}

fn thread_main(id: usize, jobs: Receiver<Job>) {
    let mut worker = Worker::new(id);
    while let Ok(job) = jobs.recv() {
        match job {
            Job::Search(shared) => worker.run(shared),
            Job::Clear(ack) => {
                worker.clear();
                let _ = ack.send(());
            }
        }
    }
}
