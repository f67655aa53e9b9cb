//! The bounded pool every password hash runs on: a fixed number of threads, each keeping its
//! own argon2 memory from one hash to the next, behind a bounded queue.
//!
//! One argon2id hash at the OWASP parameters needs 19 MiB. Run on Tokio's blocking pool, a
//! sign-up rush hashed on up to 512 threads at once, each allocating and freeing its 19 MiB:
//! 500 sign-ups took the process from 278 MiB to 2 GiB, and the allocator kept it (issue 35).
//! Here at most [`HashPool::threads`] hashes run at once, their memory is allocated once per
//! thread and reused, so hashing holds `threads × 19 MiB` whatever the load; more requests
//! wait in the queue, and past [`HashPool::queue`] waiting ones the next is refused `busy`
//! at once rather than piling up. What each hash computes is [`crate::secrets`]'s business.

use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

use argon2::Block;

use crate::error::Error;

/// The argon2 memory one pool thread owns and lends to each hash it runs.
#[derive(Debug, Default)]
pub struct Memory(Vec<Block>);

impl Memory {
    /// Returns `count` blocks of this thread's memory, growing it (once) when a hash needs
    /// more than any before it: a stored hash made at higher parameters than today's.
    pub fn blocks(&mut self, count: usize) -> &mut [Block] {
        if self.0.len() < count {
            self.0.resize(count, Block::new());
        }
        &mut self.0[..count]
    }
}

type Job = Box<dyn FnOnce(&mut Memory) + Send>;

/// A fixed set of hashing threads and the bounded queue in front of them. Cheap to clone;
/// clones share the threads, which end when the last clone is dropped.
#[derive(Debug, Clone)]
pub struct HashPool {
    jobs: SyncSender<Job>,
    threads: usize,
    queue: usize,
}

impl HashPool {
    /// Starts `threads` hashing threads (at least 1) with room for `queue` waiting hashes.
    pub fn new(threads: usize, queue: usize) -> Self {
        let threads = threads.max(1);
        let (jobs, waiting) = sync_channel::<Job>(queue);
        let waiting = Arc::new(Mutex::new(waiting));
        for index in 0..threads {
            let waiting = Arc::clone(&waiting);
            let spawned = std::thread::Builder::new()
                .name(format!("argon2-{index}"))
                .spawn(move || work(&waiting));
            if let Err(err) = spawned {
                // The threads that did start serve the queue; with none, every hash is
                // refused `busy` (its job is dropped unanswered), never lost silently.
                tracing::error!(error = %err, "cannot start a password hashing thread");
            }
        }
        Self {
            jobs,
            threads,
            queue,
        }
    }

    /// Returns a pool with a thread per core and a queue of [`DEFAULT_QUEUE`] hashes.
    pub fn per_core() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self::new(cores, DEFAULT_QUEUE)
    }

    /// Returns how many hashes run at once.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Returns how many hashes may wait for a thread.
    pub fn queue(&self) -> usize {
        self.queue
    }

    /// Runs `hash` on a pool thread with that thread's memory and returns what it returns;
    /// [`Error::HashingBusy`] at once when the queue is full.
    pub async fn run<T: Send + 'static>(
        &self,
        hash: impl FnOnce(&mut Memory) -> T + Send + 'static,
    ) -> Result<T, Error> {
        self.submit(hash)?.await
    }

    /// Queues `hash` (or refuses it at once when the queue is full) and returns its answer
    /// to come.
    fn submit<T, H>(
        &self,
        hash: H,
    ) -> Result<impl Future<Output = Result<T, Error>> + use<T, H>, Error>
    where
        T: Send + 'static,
        H: FnOnce(&mut Memory) -> T + Send + 'static,
    {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |memory| {
            // The caller may have gone (its request was cancelled): nobody to tell.
            let _ = answer.send(hash(memory));
        });
        match self.jobs.try_send(job) {
            Ok(()) => Ok(async move { answered.await.map_err(|_| Error::HashingStopped) }),
            Err(TrySendError::Full(_)) => Err(Error::HashingBusy),
            Err(TrySendError::Disconnected(_)) => Err(Error::HashingStopped),
        }
    }
}

/// How many hashes may wait for a thread by default: at ~30 ms a hash on each of two cores,
/// about 15 s of sign-ins, under the gateway's 30 s request timeout.
pub const DEFAULT_QUEUE: usize = 1_000;

/// One pool thread: takes the next job until every sender is gone.
fn work(waiting: &Mutex<Receiver<Job>>) {
    let mut memory = Memory::default();
    loop {
        // Held only while taking a job, not while hashing.
        let next = waiting.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(job) = next else { return };
        job(&mut memory);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn at_most_the_threads_run_at_once_and_a_full_queue_refuses_at_once() {
        let pool = HashPool::new(1, 1);
        let (release, held) = std::sync::mpsc::channel::<()>();
        let (started, running) = tokio::sync::oneshot::channel::<()>();
        let first = pool
            .submit(move |_| {
                let _ = started.send(());
                let _ = held.recv();
                1
            })
            .expect("queued");
        running.await.expect("the first hash runs");
        // The one thread is busy: one hash may wait, the next is refused at once.
        let second = pool.submit(|_| 2).expect("queued");
        assert!(matches!(pool.submit(|_| 3), Err(Error::HashingBusy)));
        release.send(()).expect("the first hash waits");
        assert_eq!(first.await.expect("ran"), 1);
        assert_eq!(second.await.expect("ran"), 2);
        // Room again.
        assert_eq!(pool.run(|_| 4).await.expect("ran"), 4);
    }

    #[test]
    fn a_threads_memory_grows_once_and_is_reused() {
        let mut memory = Memory::default();
        let first = memory.blocks(8).as_ptr();
        assert_eq!(memory.blocks(4).len(), 4);
        assert_eq!(memory.blocks(8).as_ptr(), first, "no new allocation");
        assert_eq!(memory.blocks(16).len(), 16);
    }
}
