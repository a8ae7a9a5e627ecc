//! The engines of one scene take turns: each is built, then they step in rounds of
//! [`TURN_STEPS`] steps each until every one has taken its steps or spent its budget.
//!
//! Timing the engines one after another lets the machine's speed drift between them: on a
//! shared machine a whole engine's run can land in a slow minute and its ratio moves by a
//! third. Taking turns spreads any drift over every engine alike, so the ratios are taken
//! under the same conditions. A turn is long enough (tens of steps) that switching engines
//! costs nothing measurable: each step of a benchmark scene walks megabytes of its own data.

use crate::engines::{Build, Settings, Simulation};
use crate::stability;
use physics2d_demos::Scene;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

/// Steps an engine takes per turn.
pub const TURN_STEPS: usize = 20;

/// One engine's result on one scene.
pub struct Run {
    pub ms_per_step: f64,
    pub stability: f32,
    /// Timed steps taken: fewer than asked when the budget ran out.
    pub steps: usize,
}

/// An engine in the race.
struct Entrant {
    simulation: Box<dyn Simulation>,
    /// Seconds spent in timed steps.
    elapsed: f64,
    taken: usize,
}

/// Runs `f`, turning a panic into an error that says what panicked.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(format!("panicked: {message}"))
    })
}

/// Builds `scene` in every engine of `builds` and times `steps` steps of each, the engines
/// taking turns. An engine whose timed steps pass `budget` seconds stops there; one that
/// fails or panics gets an error and the others go on.
pub fn race(
    builds: &[Build],
    scene: &Scene,
    settings: &Settings,
    steps: usize,
    budget: f64,
) -> Vec<Result<Run, String>> {
    let mut entrants: Vec<Result<Entrant, String>> = builds
        .iter()
        .map(|build| {
            guarded(|| {
                let mut simulation = build(scene, settings)?;
                // One untimed step first: the plugin creates its bodies in its first step,
                // the others when the scene is built.
                simulation.step()?;
                Ok(Entrant {
                    simulation,
                    elapsed: 0.0,
                    taken: 0,
                })
            })
        })
        .collect();
    let running = |e: &Entrant| e.taken < steps && e.elapsed <= budget;
    while entrants.iter().flatten().any(running) {
        for slot in &mut entrants {
            let Ok(entrant) = slot else { continue };
            if !running(entrant) {
                continue;
            }
            let turn = TURN_STEPS.min(steps - entrant.taken);
            let start = Instant::now();
            let stepped = guarded(|| {
                for _ in 0..turn {
                    entrant.simulation.step()?;
                }
                Ok(())
            });
            entrant.elapsed += start.elapsed().as_secs_f64();
            entrant.taken += turn;
            if let Err(e) = stepped {
                *slot = Err(e);
            }
        }
    }
    entrants
        .into_iter()
        .map(|slot| {
            let mut entrant = slot?;
            let positions = guarded(|| Ok(entrant.simulation.positions()))?;
            if let Some(stages) = entrant.simulation.stages() {
                eprintln!("  stages: {stages}");
            }
            Ok(Run {
                ms_per_step: entrant.elapsed * 1000.0 / entrant.taken.max(1) as f64,
                // The untimed first step and the timed ones.
                stability: stability::measure(scene, &positions, entrant.taken + 1),
                steps: entrant.taken,
            })
        })
        .collect()
}

/// One engine's results over repeated races.
pub struct Summary {
    /// Median over the races.
    pub ms_per_step: f64,
    /// Median over the races of this engine's time divided by the first engine's in the same
    /// race (the reference): a ratio taken under one race's conditions each time.
    pub ratio_to_first: f64,
    /// Of the last race.
    pub stability: f32,
    /// The fewest timed steps any race took.
    pub steps: usize,
    /// This engine's time in each race, in race order (for ratios between any two engines
    /// taken race by race).
    pub per_race_ms: Vec<f64>,
}

/// The median over the races of `a`'s time divided by `b`'s in the same race.
pub fn median_ratio(a: &Summary, b: &Summary) -> f64 {
    median(
        a.per_race_ms
            .iter()
            .zip(&b.per_race_ms)
            .map(|(a, b)| a / b)
            .collect(),
    )
}

/// The median of `values` (not empty).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        0.5 * (values[n / 2 - 1] + values[n / 2])
    }
}

/// [`race`] `repeat` times (each race builds the scene afresh), summarised per engine. An
/// engine that fails in any race fails; when the first engine fails, the others have no
/// ratio (NaN).
pub fn race_repeated(
    builds: &[Build],
    scene: &Scene,
    settings: &Settings,
    steps: usize,
    budget: f64,
    repeat: usize,
) -> Vec<Result<Summary, String>> {
    let races: Vec<Vec<Result<Run, String>>> = (0..repeat.max(1))
        .map(|_| race(builds, scene, settings, steps, budget))
        .collect();
    (0..builds.len())
        .map(|e| {
            let mut ms = Vec::new();
            let mut ratios = Vec::new();
            let (mut stability, mut fewest) = (f32::NAN, steps);
            for runs in &races {
                let run = runs[e].as_ref().map_err(|err| err.clone())?;
                ms.push(run.ms_per_step);
                let first = runs[0].as_ref().map_or(f64::NAN, |r| r.ms_per_step);
                ratios.push(run.ms_per_step / first);
                stability = run.stability;
                fewest = fewest.min(run.steps);
            }
            Ok(Summary {
                per_race_ms: ms.clone(),
                ms_per_step: median(ms),
                ratio_to_first: median(ratios),
                stability,
                steps: fewest,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_takes_the_middle_or_the_mean_of_the_two_middles() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(vec![7.0]), 7.0);
    }
}
