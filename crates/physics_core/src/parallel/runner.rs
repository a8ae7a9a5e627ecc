//! The task interface and two runners that need no host: one thread, and scoped std threads
//! (`worker_pool.rs` has the third, with long-lived threads).

/// Lends the world worker threads.
///
/// The world calls [`TaskRunner::run`] a few times per step (once for the narrowphase, once
/// for the solver) with a task that takes a worker index. The workers cooperate through
/// atomics and never wait for a worker that has not started, so a runner may start the
/// tasks in any order, on any threads, or even one after another on the calling thread: the
/// result is the same, only the speed differs.
pub trait TaskRunner: Send + Sync {
    /// Number of tasks [`TaskRunner::run`] starts (at least 1).
    fn worker_count(&self) -> usize;

    /// Calls `task(w)` once for every `w` in `0..worker_count()`, concurrently where it can,
    /// and returns when every call has returned.
    fn run(&self, task: &(dyn Fn(usize) + Sync));
}

/// Everything on the calling thread: the default.
#[derive(Clone, Copy, Debug, Default)]
pub struct SingleThreaded;

impl TaskRunner for SingleThreaded {
    fn worker_count(&self) -> usize {
        1
    }

    fn run(&self, task: &(dyn Fn(usize) + Sync)) {
        task(0);
    }
}

/// `workers - 1` std threads spawned for each [`TaskRunner::run`] (the calling thread is
/// worker 0). Spawning costs tens of microseconds per call, so a host with a thread pool
/// should implement [`TaskRunner`] on its pool instead (the Bevy plugin uses its
/// `ComputeTaskPool`), and a program without one should use
/// [`WorkerThreads`](super::WorkerThreads); this runner suits tests.
#[derive(Clone, Copy, Debug)]
pub struct ScopedThreads {
    workers: usize,
}

impl ScopedThreads {
    /// A runner with `workers` workers (0 counts as 1).
    pub fn new(workers: usize) -> ScopedThreads {
        ScopedThreads {
            workers: workers.max(1),
        }
    }
}

impl TaskRunner for ScopedThreads {
    fn worker_count(&self) -> usize {
        self.workers
    }

    fn run(&self, task: &(dyn Fn(usize) + Sync)) {
        std::thread::scope(|scope| {
            for worker in 1..self.workers {
                scope.spawn(move || task(worker));
            }
            task(0);
        });
    }
}
