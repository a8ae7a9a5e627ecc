//! `--machine`: how much more work this machine does on N threads than on one, measured
//! with two kernels that share nothing between threads. An engine's two-thread speed-up is
//! read against this ceiling: on a virtual machine whose two processors are the two hardware
//! threads of one core, or whose cores are shared with other tenants, no synchronisation
//! scheme gets a compute-bound step to 2x.
//!
//! - `compute`: twelve independent chains of 4-wide multiply-adds in registers, the kind of
//!   arithmetic the contact solver's colour stages do (no memory traffic at all).
//! - `memory`: each thread streams over its own 16 MiB buffer, updating it in place
//!   (bandwidth, as in the solver's passes over large worlds).
//!
//! The 1-thread and N-thread runs alternate, each thread doing the same work in both, so a
//! drift of the machine falls on both; the speed-up of a pair is N x t1 / tN, and the table
//! gives the median of the pairs with their range.

use std::hint::black_box;
use std::time::Instant;

/// Pairs of runs measured per kernel.
const PAIRS: usize = 7;

/// Multiply-add rounds of the compute kernel per run and thread (about 0.1 s).
const COMPUTE_ROUNDS: u64 = 8_000_000;

/// Floats in each thread's buffer for the memory kernel (16 MiB, past a core's L2).
const MEMORY_FLOATS: usize = 4 << 20;

/// Passes over the buffer per run and thread.
const MEMORY_PASSES: usize = 12;

/// Twelve independent 4-lane accumulators stepped `rounds` times: each lane `x = x * m + c`.
/// The chains never meet, so a core can keep all its multiply and add units busy.
fn compute_kernel(rounds: u64) -> f32 {
    let m = black_box(0.999_9_f32);
    let c = black_box(1.0_f32);
    let mut x = [[0.0_f32; 4]; 12];
    for (k, chain) in x.iter_mut().enumerate() {
        for (l, lane) in chain.iter_mut().enumerate() {
            *lane = k as f32 + 0.1 * l as f32;
        }
    }
    for _ in 0..rounds {
        for chain in x.iter_mut() {
            for lane in chain.iter_mut() {
                *lane = *lane * m + c;
            }
        }
    }
    black_box(x).iter().flatten().sum()
}

/// `passes` in-place passes over `buffer`.
fn memory_kernel(buffer: &mut [f32], passes: usize) -> f32 {
    let m = black_box(0.999_f32);
    for _ in 0..passes {
        for v in buffer.iter_mut() {
            *v = *v * m + 1.0;
        }
        black_box(&mut *buffer);
    }
    buffer[buffer.len() / 2]
}

/// Seconds `work` takes on `threads` threads at once (each thread given its index).
fn timed_on(threads: usize, work: &(dyn Fn(usize) + Sync)) -> f64 {
    let start = Instant::now();
    std::thread::scope(|scope| {
        for t in 1..threads {
            scope.spawn(move || work(t));
        }
        work(0);
    });
    start.elapsed().as_secs_f64()
}

/// Median and range of the speed-ups of `PAIRS` pairs of 1-thread and `threads`-thread runs.
fn speedups(threads: usize, work: &(dyn Fn(usize) + Sync)) -> (f64, f64, f64) {
    let mut ratios: Vec<f64> = (0..PAIRS)
        .map(|_| {
            let one = timed_on(1, work);
            let many = timed_on(threads, work);
            threads as f64 * one / many
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    (ratios[PAIRS / 2], ratios[0], ratios[PAIRS - 1])
}

/// The `--machine` report: one line per kernel, with the speed-up of `threads` threads.
pub fn report(threads: usize) -> String {
    let compute = |_| {
        black_box(compute_kernel(COMPUTE_ROUNDS));
    };
    let buffers: Vec<std::sync::Mutex<Vec<f32>>> = (0..threads)
        .map(|t| std::sync::Mutex::new(vec![t as f32; MEMORY_FLOATS]))
        .collect();
    let memory = |t: usize| {
        let mut buffer = buffers[t].lock().unwrap_or_else(|e| e.into_inner());
        black_box(memory_kernel(&mut buffer, MEMORY_PASSES));
    };
    let mut out = format!(
        "| kernel | {threads} threads against 1 (median of {PAIRS} pairs) | range |\n|---|---|---|\n"
    );
    for (name, work) in [
        ("compute", &compute as &(dyn Fn(usize) + Sync)),
        ("memory", &memory),
    ] {
        let (median, low, high) = speedups(threads, work);
        out += &format!("| {name} | {median:.2}x | {low:.2}x to {high:.2}x |\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernels_compute_what_they_say() {
        // x -> 0.9999 x + 1 from 0, n times: (1 - 0.9999^n) / 0.0001 (about 1 for n = 1).
        let sum = compute_kernel(1);
        let start: f32 = (0..12)
            .flat_map(|k| (0..4).map(move |l| k as f32 + 0.1 * l as f32))
            .sum();
        assert!((sum - (start * 0.9999 + 48.0)).abs() < 1e-3, "{sum}");
        let mut buffer = vec![2.0_f32; 8];
        assert_eq!(
            memory_kernel(&mut buffer, 2),
            (2.0 * 0.999 + 1.0) * 0.999 + 1.0
        );
    }

    #[test]
    fn timing_runs_every_thread() {
        let seen = std::sync::Mutex::new(Vec::new());
        timed_on(3, &|t| seen.lock().unwrap().push(t));
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, [0, 1, 2]);
    }
}
