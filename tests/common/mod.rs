//! Shared helpers for the behaviour tests.
#![allow(dead_code)]

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::{BuiltScene, Scene};

/// Both contact solver settings: one point at a time, and the 2-point block solver.
pub const SOLVERS: [(&str, bool); 2] = [("sequential", false), ("block", true)];

/// World settings with the block solver switched on or off. Sleep is off: these tests
/// measure what the solver does with bodies at rest, which sleeping would hide.
pub fn def(block: bool) -> WorldDef {
    WorldDef {
        enable_block_solver: block,
        enable_sleep: false,
        ..WorldDef::default()
    }
}

/// Builds a scene with the given solver setting.
pub fn build(scene: &Scene, block: bool) -> BuiltScene {
    scene.build(def(block)).expect("scene builds")
}

/// Steps `n` times.
pub fn step_n(built: &mut BuiltScene, dt: f32, n: usize) {
    for _ in 0..n {
        built.world.step(dt).expect("valid step");
    }
}

/// Positions of the scene's dynamic bodies, in description order.
pub fn dynamic_positions(scene: &Scene, built: &BuiltScene) -> Vec<Vec2> {
    scene
        .bodies
        .iter()
        .zip(&built.bodies)
        .filter(|(d, _)| d.body_type == BodyType::Dynamic)
        .map(|(_, id)| built.world.body_position(*id).unwrap())
        .collect()
}
