//! The engines of one scene take turns: each is built, then they step in rounds of
//! [`TURN_STEPS`] steps each until every one has taken its steps or spent its budget.
//!
//! Timing the engines one after another lets the machine's speed drift between them: on a
//! shared machine a whole engine's run can land in a slow minute and its ratio moves by a
//! third. Taking turns spreads any drift over every engine alike, so the ratios are taken
//! under the same conditions. A turn is long enough (tens of steps) that switching engines
//! costs nothing measurable: each step of a benchmark scene walks megabytes of its own data.

use crate::engines::{Build, Simulation};
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
    steps: usize,
    budget: f64,
) -> Vec<Result<Run, String>> {
    let mut entrants: Vec<Result<Entrant, String>> = builds
        .iter()
        .map(|build| {
            guarded(|| {
                let mut simulation = build(scene)?;
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
                stability: stability::measure(scene, &positions),
                steps: entrant.taken,
            })
        })
        .collect()
}
