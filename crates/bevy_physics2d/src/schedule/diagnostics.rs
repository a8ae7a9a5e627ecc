//! [`PhysicsDiagnostics`]: what the last step took, stage by stage, and the world's counts.

use bevy_ecs::prelude::*;

/// Counts and stage timings of the last step, for stats panels and benchmarks.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PhysicsDiagnostics {
    /// Prepare stage (components to core), in milliseconds.
    pub prepare_ms: f32,
    /// Broadphase, in milliseconds.
    pub broadphase_ms: f32,
    /// Narrowphase, in milliseconds.
    pub narrowphase_ms: f32,
    /// Solver, in milliseconds.
    pub solve_ms: f32,
    /// Integrate/finalise, in milliseconds.
    pub integrate_ms: f32,
    /// Writeback (core to components, events), in milliseconds.
    pub writeback_ms: f32,
    /// Bodies in the world.
    pub bodies: usize,
    /// Bodies awake.
    pub awake_bodies: usize,
    /// Contacts (pairs with overlapping boxes).
    pub contacts: usize,
    /// Contacts whose shapes touch.
    pub touching: usize,
    /// Joints.
    pub joints: usize,
}

impl PhysicsDiagnostics {
    /// Time of the whole step, in milliseconds.
    pub fn total_ms(&self) -> f32 {
        self.prepare_ms
            + self.broadphase_ms
            + self.narrowphase_ms
            + self.solve_ms
            + self.integrate_ms
            + self.writeback_ms
    }
}
