//! A persistent pool of search threads. Threads are created once (and again
//! only when the thread count changes) and wait for jobs on a channel; each
//! owns a [`Worker`] whose histories survive from one search to the next.

use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};

use crate::search::{SearchShared, Worker};

/// Stack size of a search thread (deep recursion with move lists on the stack).
const STACK_SIZE: usize = 32 << 20;

enum Job {
    /// Search; thread 0 signals on the sender when the whole search is over.
    Search(Arc<SearchShared>, Sender<()>),
    /// Clear the worker's histories, then acknowledge.
    Clear(Sender<()>),
}

struct PoolThread {
    jobs: Sender<Job>,
    handle: Option<JoinHandle<()>>,
}

/// The search threads. Thread 0 is the main search thread.
pub struct ThreadPool {
    threads: Vec<PoolThread>,
}

impl ThreadPool {
    /// A pool of `n` threads (at least one).
    pub fn new(n: usize) -> ThreadPool {
        let threads = (0..n.max(1))
            .map(|id| {
                let (tx, rx) = unbounded::<Job>();
                let handle = std::thread::Builder::new()
                    .name(format!("search-{id}"))
                    .stack_size(STACK_SIZE)
                    .spawn(move || thread_main(id, rx))
                    .expect("cannot start a search thread");
                PoolThread { jobs: tx, handle: Some(handle) }
            })
            .collect();
        ThreadPool { threads }
    }

    /// Number of threads.
    pub fn len(&self) -> usize {
        self.threads.len()
    }

    /// Always false: a pool has at least one thread.
    pub fn is_empty(&self) -> bool {
        self.threads.is_empty()
    }

    /// Starts a search on every thread; the returned channel receives `()`
    /// once the main thread has reported its move.
    pub fn start(&self, shared: Arc<SearchShared>) -> Receiver<()> {
        let (done_tx, done_rx) = bounded(1);
        for t in &self.threads {
            let _ = t.jobs.send(Job::Search(Arc::clone(&shared), done_tx.clone()));
        }
        done_rx
    }

    /// Clears every worker's histories (the pool must be idle).
    pub fn clear(&self) {
        let (ack_tx, ack_rx) = bounded(self.threads.len());
        for t in &self.threads {
            let _ = t.jobs.send(Job::Clear(ack_tx.clone()));
        }
        for _ in &self.threads {
            let _ = ack_rx.recv();
        }
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        for t in &mut self.threads {
            // Closing the channel ends the thread's loop.
            let (dead, _) = unbounded();
            drop(std::mem::replace(&mut t.jobs, dead));
            if let Some(h) = t.handle.take() {
                let _ = h.join();
            }
        }
    }
}

fn thread_main(id: usize, jobs: Receiver<Job>) {
    let mut worker = Worker::new(id);
    while let Ok(job) = jobs.recv() {
        match job {
            Job::Search(shared, done) => {
                worker.run(shared);
                if id == 0 {
                    let _ = done.send(());
                }
            }
            Job::Clear(ack) => {
                worker.clear();
                let _ = ack.send(());
            }
        }
    }
}
