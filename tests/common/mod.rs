//! Shared helpers for the behaviour tests.
#![allow(dead_code)]

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::{BuiltScene, Scene};

/// A contact solver configuration the behaviour tests run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// Box2D v3's soft contacts, one point at a time in listed order
    /// (`WorldDef::solve_points_together` off).
    Sequential,
    /// Two-point manifolds as a 2x2 block (cedarcantab).
    Block,
    /// A two-point manifold's points together where they couple loosely
    /// (`WorldDef::solve_points_together`, the default).
    Together,
    /// Contact islands of up to `EXACT_ISLAND_BODIES` bodies solved exactly together
    /// (`WorldDef::exact_contact_island_bodies`); larger islands stay sequential.
    ExactIslands,
}

/// The island size limit of [`Solver::ExactIslands`].
pub const EXACT_ISLAND_BODIES: u32 = 64;

/// Every contact solver configuration, named.
pub const SOLVERS: [(&str, Solver); 4] = [
    ("sequential", Solver::Sequential),
    ("block", Solver::Block),
    ("points together", Solver::Together),
    ("exact islands", Solver::ExactIslands),
];

/// World settings for a solver configuration. Sleep is off: these tests measure what the
/// solver does with bodies at rest, which sleeping would hide.
pub fn def(solver: Solver) -> WorldDef {
    WorldDef {
        enable_block_solver: solver == Solver::Block,
        solve_points_together: solver == Solver::Together,
        exact_contact_island_bodies: if solver == Solver::ExactIslands {
            EXACT_ISLAND_BODIES
        } else {
            0
        },
        enable_sleep: false,
        ..WorldDef::default()
    }
}

/// Builds a scene with the given solver configuration.
pub fn build(scene: &Scene, solver: Solver) -> BuiltScene {
    scene.build(def(solver)).expect("scene builds")
}

/// Steps `n` times.
pub fn step_n(built: &mut BuiltScene, dt: f32, n: usize) {
    for _ in 0..n {
        built.world.step(dt).expect("valid step");
    }
}

/// The farthest the last body of `scene` (a tower's top box) strays sideways from where it
/// started, built with `def` and stepped for the scene's steps.
pub fn top_drift(scene: &Scene, def: WorldDef) -> f32 {
    let mut built = scene.build(def).expect("scene builds");
    let top = *built.bodies.last().unwrap();
    let start = built.world.body_position(top).unwrap().x;
    let mut worst = 0.0f32;
    for _ in 0..scene.steps {
        built.world.step(scene.dt).expect("valid step");
        worst = worst.max((built.world.body_position(top).unwrap().x - start).abs());
    }
    worst
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
