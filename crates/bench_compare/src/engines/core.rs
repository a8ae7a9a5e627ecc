//! physics_core, driven directly.

use super::{SUBSTEPS, Simulation};
use bevy_math::Vec2;
use physics_core::world::WorldDef;
use physics2d_demos::{BuiltScene, Scene};

struct Core {
    built: BuiltScene,
    dt: f32,
}

/// The scene in a bare `physics_core` world.
pub fn build(scene: &Scene) -> Result<Box<dyn Simulation>, String> {
    let def = WorldDef {
        substep_count: SUBSTEPS,
        enable_sleep: false,
        ..WorldDef::default()
    };
    let built = scene.build(def).map_err(|e| e.to_string())?;
    Ok(Box::new(Core {
        built,
        dt: scene.dt,
    }))
}

impl Simulation for Core {
    fn step(&mut self) -> Result<(), String> {
        self.built.world.step(self.dt).map_err(|e| e.to_string())
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
