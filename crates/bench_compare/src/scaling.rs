//! `--scaling`: how much faster Box2D v3 and physics_core step a scene on N worker threads
//! than on one, beside the ceiling this machine gives code that shares nothing between
//! threads (`machine.rs`).
//!
//! Each pair is a race of both engines on one thread followed by a race on N threads, so the
//! pair's two times are taken minutes apart at most; the table gives the median speed-up
//! over the pairs and its range (one thread's milliseconds over N threads').

use crate::engines::{self, ENGINES};
use crate::race;
use physics2d_demos::scene;

/// Scenes of the scaling table when none is named: the two of the two-thread target.
pub const SCALING_SCENES: &[&str] = &["large_pyramid", "smash"];

/// Engines raced: Box2D v3 and physics_core (the plugin's task pool is sized once per
/// process, so it cannot change between the races of a pair).
const RACED: &[&str] = &["Box2D v3", "physics_core"];

/// Median, lowest and highest of `values` (not empty).
fn spread(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    (
        values[values.len() / 2],
        values[0],
        values[values.len() - 1],
    )
}

/// The scaling report for `scenes` at `threads` workers against one, `pairs` pairs each:
/// one table of the engines' speed-ups, then the machine's.
pub fn report(
    scenes: &[String],
    threads: usize,
    pairs: usize,
    budget: f64,
) -> Result<String, String> {
    let builds: Vec<_> = ENGINES
        .iter()
        .filter(|(name, _)| RACED.contains(name))
        .map(|(_, build)| *build)
        .collect();
    let settings = engines::Settings::default();
    let mut table = format!(
        "| scene | steps | Box2D v3, {threads} threads against 1 | physics_core | physics_core's \
         time against Box2D's at {threads} threads |\n|---|---|---|---|---|\n"
    );
    for name in scenes {
        let scene = scene(name).ok_or(format!("no scene {name}"))?;
        let steps = scene.steps;
        let mut speedups = vec![Vec::new(); builds.len()];
        let mut ratios = Vec::new();
        for pair in 0..pairs {
            let mut ms = Vec::new();
            for workers in [1, threads] {
                engines::set_engine_threads(workers);
                eprintln!(
                    "{name}: pair {} of {pairs}, {workers} thread(s)...",
                    pair + 1
                );
                let runs = race::race_repeated(&builds, &scene, &settings, steps, budget, 1);
                let times = runs
                    .into_iter()
                    .map(|r| r.map(|s| s.ms_per_step))
                    .collect::<Result<Vec<f64>, String>>()?;
                ms.push(times);
            }
            for (e, list) in speedups.iter_mut().enumerate() {
                list.push(ms[0][e] / ms[1][e]);
            }
            ratios.push(ms[1][1] / ms[1][0]);
        }
        let cell = |(median, low, high): (f64, f64, f64)| {
            format!("{median:.2}x ({low:.2}x to {high:.2}x)")
        };
        let cells: Vec<String> = speedups.into_iter().map(|s| cell(spread(s))).collect();
        table += &format!(
            "| {name} | {steps} | {} | {} |\n",
            cells.join(" | "),
            cell(spread(ratios))
        );
    }
    engines::set_engine_threads(1);
    Ok(format!(
        "Speed-up of {threads} worker threads over one (median of {pairs} pairs, range in \
         brackets):\n\n{table}\nThe machine's own ceiling: the same work on {threads} threads \
         against one, nothing shared between the threads (`machine.rs`):\n\n{}",
        crate::machine::report(threads)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_gives_median_and_range() {
        assert_eq!(spread(vec![3.0, 1.0, 2.0]), (2.0, 1.0, 3.0));
        assert_eq!(spread(vec![5.0]), (5.0, 5.0, 5.0));
    }

    #[test]
    fn the_raced_engines_are_in_the_engine_list_in_that_order() {
        let names: Vec<&str> = ENGINES
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| RACED.contains(n))
            .collect();
        assert_eq!(names, RACED);
    }
}
