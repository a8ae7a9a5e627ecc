//! Runs a list of stages, each cut into blocks, on a [`TaskRunner`]'s workers.
//!
//! Stage `s` has `block_counts[s]` blocks, cut into one contiguous share per worker. A worker
//! claims the blocks of its own share of the open stage from the front, then those left in
//! the other shares from the back, and runs them (or, for a few unequal tasks,
//! [`Claim::InOrder`], every worker the next block); the worker whose block completes the stage
//! opens the next one. A worker with nothing to claim spins until the stage changes. It only
//! ever waits for blocks another worker has claimed and is running, never for a worker to
//! start, so a runner that runs its tasks one after another still finishes (the first task
//! does everything).
//!
//! The shares keep a worker on the same blocks from stage to stage: a substep's colour
//! stages, and the body ranges of its integration stages, hand each worker the groups and
//! bodies it wrote the stage before, still in its own cache. Claiming from one shared
//! counter interleaved the workers' blocks at random, so at two workers about half of every
//! stage's data came from the other core's cache.

use super::TaskRunner;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// Fewest bodies in a block of a stage over bodies (solver substeps and finalize).
pub(crate) const MIN_BODY_BLOCK: usize = 128;

/// How the workers claim a stage's blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    /// Each worker its own contiguous share first, then the others' from the back: for
    /// like stages over the same data, whose blocks then stay on one worker.
    OwnShareFirst,
    /// Every worker the next block in order: for a few unequal blocks given largest first,
    /// which then spread as evenly as they can.
    InOrder,
}

/// Completion counter of one stage.
#[derive(Default)]
struct StageCounters {
    done: AtomicU32,
}

/// One worker's share of a stage's blocks, a contiguous run, as (next from the front, end)
/// in one word: the owner claims from the front, a worker done with its own share from the
/// back. The same worker takes the same blocks in every stage of like size (a substep's
/// colours, the body ranges), so the constraints and bodies it wrote last stage are still in
/// its cache (Box2D v3 starts each worker at its own block for the same reason).
struct Share(AtomicU64);

impl Share {
    /// Worker `w`'s share of `count` blocks among `workers`: the first `count % workers`
    /// workers take one block more.
    fn of_worker(count: u32, w: usize, workers: usize) -> Self {
        let (count, w, workers) = (count as u64, w as u64, workers as u64);
        let (each, extra) = (count / workers, count % workers);
        let start = each * w + w.min(extra);
        let end = start + each + u64::from(w < extra);
        Share(AtomicU64::new(start | end << 32))
    }

    /// Takes the first unclaimed block of the share.
    fn take_front(&self) -> Option<u32> {
        self.take(|front, _| front)
    }

    /// Takes the last unclaimed block of the share.
    fn take_back(&self) -> Option<u32> {
        self.take(|_, back| back - 1)
    }

    /// Takes block `pick(front, end)` (the front or the last one) if the share has any.
    fn take(&self, pick: impl Fn(u32, u32) -> u32) -> Option<u32> {
        let mut word = self.0.load(Ordering::Relaxed);
        loop {
            let (front, end) = (word as u32, (word >> 32) as u32);
            if front >= end {
                return None;
            }
            let b = pick(front, end);
            let (front, end) = if b == front {
                (front + 1, end)
            } else {
                (front, end - 1)
            };
            let taken = u64::from(front) | u64::from(end) << 32;
            match self
                .0
                .compare_exchange_weak(word, taken, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return Some(b),
                Err(now) => word = now,
            }
        }
    }
}

/// When some stages of a run ended, for a profile: the stages marked in `timed` get the
/// nanoseconds from `start` to the moment their last block finished (a stage with no blocks:
/// to when the next stage opened). Reading the clock after every stage would cost more than
/// a small world's stages take, so only a run of like stages is timed, by its last one.
pub(crate) struct StageClock<'a> {
    start: Instant,
    timed: &'a [bool],
    ended_ns: Vec<AtomicU64>,
}

impl<'a> StageClock<'a> {
    /// A clock started now for stages `timed` (one flag per stage).
    pub fn start(timed: &'a [bool]) -> Self {
        StageClock {
            start: Instant::now(),
            timed,
            ended_ns: timed.iter().map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Notes that the stages `stages` have ended (the timed ones among them read the clock).
    fn ended(&self, stages: std::ops::Range<usize>) {
        let mut now = None;
        for s in stages {
            if self.timed.get(s) == Some(&true) {
                let at = *now.get_or_insert_with(|| self.start.elapsed().as_nanos() as u64);
                self.ended_ns[s].store(at, Ordering::Relaxed);
            }
        }
    }

    /// Nanoseconds from the start to the end of stage `stage` (zero if it is not timed).
    /// Read after the run: `run_stages` returns only when every stage has ended.
    pub fn ended_ns(&self, stage: usize) -> u64 {
        self.ended_ns[stage].load(Ordering::Relaxed)
    }
}

/// Runs `block(stage, block_index)` for every block of every stage, stage after stage: no
/// block of a stage starts before every block of the previous stage has finished. `clock`,
/// if given, notes when its timed stages end.
pub(crate) fn run_stages(
    runner: &dyn TaskRunner,
    block_counts: &[u32],
    claim: Claim,
    block: &(dyn Fn(usize, u32) + Sync),
    clock: Option<&StageClock>,
) {
    let ended = |stages: std::ops::Range<usize>| {
        if let Some(clock) = clock {
            clock.ended(stages);
        }
    };
    let stage_count = block_counts.len();
    let next_open = |from: usize| {
        (from..stage_count)
            .find(|&s| block_counts[s] > 0)
            .unwrap_or(stage_count)
    };
    let first = next_open(0);
    // Stages with no blocks before the first open one end at once; each later one ends
    // with the open stage before it.
    ended(0..first);
    if first == stage_count {
        return;
    }
    // One worker, or nothing to share (a small world): no threads to wake.
    if runner.worker_count() <= 1 || block_counts.iter().all(|&c| c <= 1) {
        let mut stage = first;
        while stage < stage_count {
            for b in 0..block_counts[stage] {
                block(stage, b);
            }
            let next = next_open(stage + 1);
            ended(stage..next);
            stage = next;
        }
        return;
    }
    // In order: one share, every worker at its front.
    let share_count = match claim {
        Claim::OwnShareFirst => runner.worker_count(),
        Claim::InOrder => 1,
    };
    let counters: Vec<StageCounters> = block_counts.iter().map(|_| Default::default()).collect();
    // Worker-major, so a worker's own shares share cache lines with nobody's claims but
    // its thieves'.
    let shares: Vec<Share> = (0..share_count)
        .flat_map(|w| {
            block_counts
                .iter()
                .map(move |&count| Share::of_worker(count, w, share_count))
        })
        .collect();
    let open = AtomicUsize::new(first);
    let work = |worker: usize| {
        let own = worker % share_count;
        let share = |w: usize, stage: usize| &shares[w * stage_count + stage];
        loop {
            let stage = open.load(Ordering::Acquire);
            if stage >= stage_count {
                return;
            }
            let count = block_counts[stage];
            let c = &counters[stage];
            // Its own share first, from the front; then the others' from the back, so a
            // late worker's next blocks stay its own.
            let claimed = share(own, stage).take_front().or_else(|| {
                (1..share_count).find_map(|d| share((own + d) % share_count, stage).take_back())
            });
            if let Some(b) = claimed {
                block(stage, b);
                // AcqRel: the last finisher sees every block's writes (the adds form one
                // release sequence) and publishes them with the store below.
                if c.done.fetch_add(1, Ordering::AcqRel) + 1 == count {
                    let next = next_open(stage + 1);
                    // This stage and the empty ones skipped up to the next open one.
                    ended(stage..next);
                    open.store(next, Ordering::Release);
                }
            } else {
                wait_while_open(&open, stage);
            }
        }
    };
    runner.run(&work);
}

/// Spins while `stage` is the open stage, yielding the thread after a while (the worker
/// finishing it may have been descheduled).
fn wait_while_open(open: &AtomicUsize, stage: usize) {
    let mut spins = 0u32;
    while open.load(Ordering::Acquire) == stage {
        if spins < 4096 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

/// How a stage over `items` items is cut: (block count, items per block). One block for one
/// worker; otherwise about four blocks per worker (so a descheduled worker's share is picked
/// up by the others), but no block smaller than `min_block`.
pub(crate) fn blocks(items: usize, min_block: usize, workers: usize) -> (u32, usize) {
    if items == 0 {
        return (0, 1);
    }
    if workers <= 1 {
        return (1, items);
    }
    let size = items.div_ceil(4 * workers).max(min_block.max(1));
    (items.div_ceil(size) as u32, size)
}

/// The items of block `b` when blocks have `size` items each.
pub(crate) fn block_range(b: u32, size: usize, items: usize) -> std::ops::Range<usize> {
    let start = b as usize * size;
    start..(start + size).min(items)
}

/// Calls `f(start, block)` on disjoint blocks of `items` (at least `min_block` items each,
/// `start` being the index of the block's first item) on `runner`'s workers. Safe: the blocks
/// never overlap.
pub(crate) fn for_each_block<T: Send>(
    runner: &dyn TaskRunner,
    items: &mut [T],
    min_block: usize,
    f: &(dyn Fn(usize, &mut [T]) + Sync),
) {
    let len = items.len();
    let (count, size) = blocks(len, min_block, runner.worker_count());
    let shared = super::shared::SharedMut::new(items);
    let run = |_, b| {
        let range = block_range(b, size, len);
        // Blocks of one stage are disjoint ranges of `items`.
        f(range.start, shared.disjoint_range(range));
    };
    run_stages(runner, &[count], Claim::OwnShareFirst, &run, None);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::{ScopedThreads, SingleThreaded};
    use std::sync::Mutex;

    /// Runs a task's workers one after another, last first: a worst-case host.
    struct Backwards(usize);

    impl TaskRunner for Backwards {
        fn worker_count(&self) -> usize {
            self.0
        }
        fn run(&self, task: &(dyn Fn(usize) + Sync)) {
            for w in (0..self.0).rev() {
                task(w);
            }
        }
    }

    fn record(runner: &dyn TaskRunner, counts: &[u32]) -> Vec<(usize, u32)> {
        record_claimed(runner, counts, Claim::OwnShareFirst)
    }

    fn record_claimed(runner: &dyn TaskRunner, counts: &[u32], claim: Claim) -> Vec<(usize, u32)> {
        let log = Mutex::new(Vec::new());
        run_stages(
            runner,
            counts,
            claim,
            &|s, b| log.lock().unwrap().push((s, b)),
            None,
        );
        log.into_inner().unwrap()
    }

    #[test]
    fn every_block_runs_once_and_stages_stay_in_order() {
        let counts = [3, 0, 17, 1, 0, 40, 2];
        let runners: [&dyn TaskRunner; 4] = [
            &SingleThreaded,
            &ScopedThreads::new(2),
            &ScopedThreads::new(5),
            &Backwards(3),
        ];
        for runner in runners {
            for _ in 0..50 {
                let log = record(runner, &counts);
                let total: u32 = counts.iter().sum();
                assert_eq!(log.len(), total as usize);
                // Stages never interleave: the log's stage numbers never decrease.
                assert!(log.windows(2).all(|w| w[0].0 <= w[1].0), "{log:?}");
                for (s, &count) in counts.iter().enumerate() {
                    let mut seen: Vec<u32> = log.iter().filter(|e| e.0 == s).map(|e| e.1).collect();
                    seen.sort_unstable();
                    assert_eq!(seen, (0..count).collect::<Vec<_>>());
                }
            }
        }
    }

    /// A worker takes its own share of a stage from the front and then the others' from
    /// the back: run one after another, last worker first, the last worker's run of blocks
    /// is its own half in order, then the first worker's half backwards.
    #[test]
    fn a_worker_takes_its_own_blocks_first_and_then_the_others_from_the_back() {
        let log = record(&Backwards(2), &[10, 3]);
        let blocks: Vec<u32> = log.iter().map(|e| e.1).collect();
        assert_eq!(blocks, [5, 6, 7, 8, 9, 4, 3, 2, 1, 0, 2, 1, 0]);
    }

    /// Claimed in order, the blocks go out in block order whichever worker asks: run last
    /// worker first, that worker takes every block from the first.
    #[test]
    fn blocks_claimed_in_order_go_out_in_block_order() {
        let log = record_claimed(&Backwards(2), &[10, 3], Claim::InOrder);
        let blocks: Vec<u32> = log.iter().map(|e| e.1).collect();
        assert_eq!(blocks, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2]);
        for runner in [
            &ScopedThreads::new(2) as &dyn TaskRunner,
            &ScopedThreads::new(3),
        ] {
            let mut log = record_claimed(runner, &[7, 0, 12], Claim::InOrder);
            log.sort_unstable();
            let expected: Vec<(usize, u32)> = (0..7)
                .map(|b| (0, b))
                .chain((0..12).map(|b| (2, b)))
                .collect();
            assert_eq!(log, expected);
        }
    }

    /// The workers' shares of a stage cut its blocks into runs that cover them once each,
    /// the first workers one block longer.
    #[test]
    fn the_shares_cover_the_blocks_once_each() {
        for count in [0u32, 1, 2, 3, 7, 40, 41] {
            for workers in 1..6 {
                let mut next = 0;
                for w in 0..workers {
                    let share = Share::of_worker(count, w, workers);
                    let mut taken = Vec::new();
                    while let Some(b) = share.take_front() {
                        taken.push(b);
                    }
                    assert_eq!(share.take_back(), None);
                    let expected =
                        count as usize / workers + usize::from(w < count as usize % workers);
                    assert_eq!(taken, (next..next + expected as u32).collect::<Vec<_>>());
                    next += expected as u32;
                }
                assert_eq!(next, count);
            }
        }
    }

    #[test]
    fn no_stages_or_empty_stages_return_at_once() {
        assert!(record(&ScopedThreads::new(3), &[]).is_empty());
        assert!(record(&ScopedThreads::new(3), &[0, 0]).is_empty());
    }

    #[test]
    fn the_clock_notes_each_timed_stage_after_its_blocks_and_skips_the_others() {
        // Every block sleeps 2 ms: a stage cannot end sooner than 2 ms after the one before,
        // however many workers share it. The empty stage ends with the one before it.
        let counts = [2, 0, 3, 1];
        let timed = [true, true, false, true];
        let ms = |ns: u64| ns as f64 / 1e6;
        let runners: [&dyn TaskRunner; 3] =
            [&SingleThreaded, &ScopedThreads::new(3), &Backwards(2)];
        for runner in runners {
            let clock = StageClock::start(&timed);
            let nap = |_, _| std::thread::sleep(std::time::Duration::from_millis(2));
            run_stages(runner, &counts, Claim::OwnShareFirst, &nap, Some(&clock));
            let ended: Vec<f64> = (0..4).map(|s| ms(clock.ended_ns(s))).collect();
            assert!(ended[0] >= 2.0, "{ended:?}");
            assert_eq!(
                ended[1], ended[0],
                "an empty stage ends with the one before it"
            );
            assert_eq!(ended[2], 0.0, "an untimed stage reads no clock");
            assert!(ended[3] >= ended[1] + 4.0, "{ended:?}");
        }
    }

    #[test]
    fn blocks_cover_the_items() {
        for items in [0, 1, 5, 64, 1000, 5051] {
            for workers in [1, 2, 3, 8] {
                let (count, size) = blocks(items, 16, workers);
                let covered: usize = (0..count).map(|b| block_range(b, size, items).len()).sum();
                assert_eq!(covered, items);
                assert!((0..count).all(|b| !block_range(b, size, items).is_empty()));
                if workers == 1 && items > 0 {
                    assert_eq!(count, 1);
                }
            }
        }
    }
}
