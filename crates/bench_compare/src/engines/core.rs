//! physics_core, driven directly.

use super::{SUBSTEPS, Simulation};
use bevy_math::Vec2;
use physics_core::parallel::WorkerThreads;
use physics_core::world::{StepProfile, WorldDef};
use physics2d_demos::{BuiltScene, Scene};
use std::sync::Arc;

struct Core {
    built: BuiltScene,
    dt: f32,
    /// Stage times summed over the steps taken.
    stages: StepProfile,
    steps: u32,
}

/// The scene in a bare `physics_core` world.
pub fn build(scene: &Scene) -> Result<Box<dyn Simulation>, String> {
    let def = WorldDef {
        substep_count: SUBSTEPS,
        enable_sleep: false,
        ..WorldDef::default()
    };
    let mut built = scene.build(def).map_err(|e| e.to_string())?;
    // physics_core's own long-lived threads, as a program without a host pool would use
    // (the bevy_physics2d row lends the world Bevy's `ComputeTaskPool` instead).
    let runner = WorkerThreads::new(super::threads());
    built.world.set_task_runner(Arc::new(runner));
    Ok(Box::new(Core {
        built,
        dt: scene.dt,
        stages: StepProfile::default(),
        steps: 0,
    }))
}

impl Simulation for Core {
    fn step(&mut self) -> Result<(), String> {
        self.built.world.step(self.dt).map_err(|e| e.to_string())?;
        let p = self.built.world.profile();
        self.stages.update_pairs_ms += p.update_pairs_ms;
        self.stages.collide_ms += p.collide_ms;
        self.stages.solve_ms += p.solve_ms;
        self.stages.finalize_ms += p.finalize_ms;
        self.steps += 1;
        Ok(())
    }

    fn stages(&self) -> Option<String> {
        let n = self.steps.max(1) as f32;
        let s = &self.stages;
        Some(format!(
            "pairs {:.3}, collide {:.3}, solve {:.3}, finalize {:.3} ms/step",
            s.update_pairs_ms / n,
            s.collide_ms / n,
            s.solve_ms / n,
            s.finalize_ms / n
        ))
    }

    fn positions(&mut self) -> Vec<Vec2> {
        let world = &self.built.world;
        self.built
            .bodies
            .iter()
            .map(|id| world.body_position(*id).unwrap_or(Vec2::NAN))
            .collect()
    }
}
