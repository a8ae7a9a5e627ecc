//! A [`TaskRunner`] with its own long-lived threads that spin briefly between tasks.
//!
//! The world calls [`TaskRunner::run`] a few times per step, a few hundred microseconds
//! apart. A thread that went to sleep between two calls takes a futex wake and a trip through
//! the scheduler to start the next task, and on a busy machine that latency is a visible part
//! of a two-millisecond step. The threads here keep polling for the next task for a short
//! while ([`SPIN_BEFORE_SLEEP`]) before they sleep, the way game engines' job systems do (and
//! Box2D's samples with enkiTS), so back-to-back calls within a step start at once; between
//! frames they sleep and cost nothing.
//!
//! A task is handed to the threads as a borrowed closure: `run` does not return (nor unwind)
//! before every thread has finished with it, which is what makes lending it sound.
#![allow(unsafe_code)]

use super::TaskRunner;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long an idle thread polls for the next task before it sleeps.
pub const SPIN_BEFORE_SLEEP: Duration = Duration::from_micros(200);

/// The task being run, lent to the threads for the duration of one [`TaskRunner::run`].
type Task = *const (dyn Fn(usize) + Sync);

/// What the calling thread and the pool's threads share.
struct Shared {
    /// Bumped (under `sleep_lock`) each time a task is posted, and once more to shut down.
    epoch: AtomicU64,
    /// The posted task; written before `epoch` is bumped, read after it is seen.
    task: Mutex<Option<SendTask>>,
    /// Threads that have not yet finished the posted task.
    running: AtomicUsize,
    /// A thread's task panicked: its payload, re-raised by `run`.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
    shutdown: AtomicBool,
    sleep_lock: Mutex<()>,
    wake: Condvar,
}

/// The task pointer, sendable: it is only dereferenced while `run` keeps the task alive.
#[derive(Clone, Copy)]
struct SendTask(Task);
// SAFETY: the pointee is `Sync`, and `run` keeps it alive until every thread is done with it.
unsafe impl Send for SendTask {}

/// `workers - 1` long-lived threads plus the calling thread (worker 0). For programs without
/// a thread pool of their own; the Bevy plugin lends its `ComputeTaskPool` instead.
///
/// One runner may serve several worlds: it runs one task at a time, and a world stepped on
/// another thread meanwhile waits for the threads to be free.
pub struct WorkerThreads {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    /// Held for the whole of a `run`: the threads take one task at a time.
    running_one: Mutex<()>,
}

impl WorkerThreads {
    /// A runner with `workers` workers (0 counts as 1), starting `workers - 1` threads.
    pub fn new(workers: usize) -> WorkerThreads {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            task: Mutex::new(None),
            running: AtomicUsize::new(0),
            panic: Mutex::new(None),
            shutdown: AtomicBool::new(false),
            sleep_lock: Mutex::new(()),
            wake: Condvar::new(),
        });
        let threads = (1..workers.max(1))
            .map(|worker| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("physics worker {worker}"))
                    .spawn(move || work(&shared, worker))
                    .expect("spawning a physics worker thread")
            })
            .collect();
        WorkerThreads {
            shared,
            threads,
            running_one: Mutex::new(()),
        }
    }
}

impl std::fmt::Debug for WorkerThreads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkerThreads")
            .field("workers", &self.worker_count())
            .finish()
    }
}

/// A pool thread: waits for each new epoch, runs the posted task, reports it done.
fn work(shared: &Shared, worker: usize) {
    let mut seen = 0;
    loop {
        let epoch = wait_for_epoch_after(shared, seen);
        seen = epoch;
        if shared.shutdown.load(Ordering::Acquire) {
            return;
        }
        let task = shared
            .task
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .expect("a task is posted with each epoch");
        // SAFETY: `run` posted this task for this epoch and waits for `running` to reach zero
        // (which this thread's decrement below is part of) before the task's borrow ends.
        let outcome = catch_unwind(AssertUnwindSafe(|| unsafe { (*task.0)(worker) }));
        if let Err(payload) = outcome {
            *shared.panic.lock().unwrap_or_else(|e| e.into_inner()) = Some(payload);
        }
        shared.running.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Polls for an epoch after `seen` for [`SPIN_BEFORE_SLEEP`], then sleeps until one comes.
fn wait_for_epoch_after(shared: &Shared, seen: u64) -> u64 {
    let start = Instant::now();
    let mut polls = 0u32;
    loop {
        let epoch = shared.epoch.load(Ordering::Acquire);
        if epoch != seen {
            return epoch;
        }
        polls += 1;
        if polls.is_multiple_of(64) && start.elapsed() > SPIN_BEFORE_SLEEP {
            break;
        }
        std::hint::spin_loop();
    }
    let mut guard = shared.sleep_lock.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        // Bumped under the lock, so a post cannot fall between this check and the wait.
        let epoch = shared.epoch.load(Ordering::Acquire);
        if epoch != seen {
            return epoch;
        }
        guard = shared.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
    }
}

impl Shared {
    /// Starts a new epoch (a task or the shutdown) and wakes the sleeping threads.
    fn post(&self) {
        let _guard = self.sleep_lock.lock().unwrap_or_else(|e| e.into_inner());
        self.epoch.fetch_add(1, Ordering::AcqRel);
        self.wake.notify_all();
    }
}

impl TaskRunner for WorkerThreads {
    fn worker_count(&self) -> usize {
        self.threads.len() + 1
    }

    fn run(&self, task: &(dyn Fn(usize) + Sync)) {
        if self.threads.is_empty() {
            task(0);
            return;
        }
        let _one_at_a_time = self.running_one.lock().unwrap_or_else(|e| e.into_inner());
        let shared = &*self.shared;
        // SAFETY (the lifetime erased here): the threads only call the task between this post
        // and their decrement of `running`, and this function waits for `running` to reach
        // zero below before it returns or unwinds.
        let erased: Task = unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), Task>(task) };
        *shared.task.lock().unwrap_or_else(|e| e.into_inner()) = Some(SendTask(erased));
        shared.running.store(self.threads.len(), Ordering::Release);
        shared.post();
        let mine = catch_unwind(AssertUnwindSafe(|| task(0)));
        let mut spins = 0u32;
        while shared.running.load(Ordering::Acquire) != 0 {
            if spins < 4096 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
        *shared.task.lock().unwrap_or_else(|e| e.into_inner()) = None;
        if let Err(payload) = mine {
            resume_unwind(payload);
        }
        let theirs = shared
            .panic
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(payload) = theirs {
            resume_unwind(payload);
        }
    }
}

impl Drop for WorkerThreads {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::Release);
        self.shared.post();
        for thread in self.threads.drain(..) {
            // A thread only ends by seeing the shutdown; its task panics were caught.
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    #[test]
    fn every_worker_runs_each_task_once_and_run_waits_for_all() {
        let pool = WorkerThreads::new(3);
        assert_eq!(pool.worker_count(), 3);
        for round in 0..200u32 {
            let calls: Vec<AtomicU32> = (0..3).map(|_| AtomicU32::new(0)).collect();
            // Slow workers too: the sleep makes some rounds outlast the spin.
            pool.run(&|w| {
                if round % 50 == 0 {
                    std::thread::sleep(Duration::from_millis(1));
                }
                calls[w].fetch_add(1, Ordering::Relaxed);
            });
            assert!(calls.iter().all(|c| c.load(Ordering::Relaxed) == 1));
            if round % 40 == 0 {
                // Idle long enough for the threads to go to sleep; the next task wakes them.
                std::thread::sleep(SPIN_BEFORE_SLEEP * 3);
            }
        }
    }

    #[test]
    fn two_callers_sharing_the_threads_each_get_every_worker_once() {
        let pool = WorkerThreads::new(2);
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    for _ in 0..2000 {
                        let calls: Vec<AtomicU32> = (0..2).map(|_| AtomicU32::new(0)).collect();
                        pool.run(&|w| {
                            // Long enough for the two callers' tasks to overlap.
                            for i in 0..200 {
                                std::hint::black_box(i);
                            }
                            calls[w].fetch_add(1, Ordering::Relaxed);
                        });
                        assert!(calls.iter().all(|c| c.load(Ordering::Relaxed) == 1));
                    }
                });
            }
        });
    }

    #[test]
    fn a_panic_on_a_pool_thread_reaches_the_caller_and_the_pool_still_works() {
        let pool = WorkerThreads::new(2);
        let caught = catch_unwind(AssertUnwindSafe(|| {
            pool.run(&|w| {
                if w == 1 {
                    panic!("worker one fails");
                }
            })
        }));
        assert!(caught.is_err());
        let total = AtomicU32::new(0);
        pool.run(&|w| {
            total.fetch_add(w as u32 + 1, Ordering::Relaxed);
        });
        assert_eq!(total.load(Ordering::Relaxed), 3);
    }
}
