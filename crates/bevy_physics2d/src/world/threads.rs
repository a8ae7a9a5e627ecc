//! The physics step on the threads of Bevy's `ComputeTaskPool`.

use bevy_tasks::ComputeTaskPool;
use physics_core::parallel::TaskRunner;

/// Lends the physics step the threads of Bevy's `ComputeTaskPool`: the calling thread is
/// worker 0 and the other workers are tasks on the pool. The plugin installs one whenever
/// [`PhysicsSettings::worker_threads`](crate::PhysicsSettings::worker_threads) changes; a
/// program driving a `physics_core::world::World` itself can install one too.
///
/// Results do not depend on the worker count, so a game may pick it for speed alone.
#[derive(Clone, Copy, Debug)]
pub struct ComputeTaskPoolRunner {
    workers: usize,
}

impl ComputeTaskPoolRunner {
    /// Up to `max_workers` workers, at most one per thread of the pool (0: one per thread).
    /// Without a `ComputeTaskPool` (no `TaskPoolPlugin`) the step runs on the calling thread.
    pub fn new(max_workers: usize) -> ComputeTaskPoolRunner {
        let threads = ComputeTaskPool::try_get().map_or(1, |pool| pool.thread_num().max(1));
        let workers = if max_workers == 0 {
            threads
        } else {
            max_workers.min(threads)
        };
        ComputeTaskPoolRunner { workers }
    }
}

impl TaskRunner for ComputeTaskPoolRunner {
    fn worker_count(&self) -> usize {
        self.workers
    }

    fn run(&self, task: &(dyn Fn(usize) + Sync)) {
        let Some(pool) = ComputeTaskPool::try_get().filter(|_| self.workers > 1) else {
            task(0);
            return;
        };
        pool.scope(|scope| {
            for worker in 1..self.workers {
                scope.spawn(async move { task(worker) });
            }
            // The workers never wait for one another to start, so doing worker 0's share
            // here while the pool picks the others up cannot deadlock.
            task(0);
        });
    }
}
