//! The core's solve and integrate stages, one system each, and the stage timings of
//! [`PhysicsDiagnostics`] (the pair stages are in `hooks.rs`).

use crate::physics_time::Physics;
use crate::physics_world::PhysicsWorld;
use bevy_ecs::prelude::*;
use bevy_time::Time;
use std::time::Instant;

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

fn ms_since(t: Instant) -> f32 {
    t.elapsed().as_secs_f32() * 1000.0
}

/// Solver stage, with the physics clock's time step.
pub(crate) fn solve(
    time: Res<Time<Physics>>,
    mut physics: ResMut<PhysicsWorld>,
    mut diag: ResMut<PhysicsDiagnostics>,
) {
    let t = Instant::now();
    if let Err(error) = physics.world.solve(time.delta_secs()) {
        bevy_log::warn!("physics: step skipped: {error}");
    }
    diag.solve_ms = ms_since(t);
}

/// Integrate stage: the core's finalize (poses, bounds, continuous collision, sleep).
pub(crate) fn integrate(mut physics: ResMut<PhysicsWorld>, mut diag: ResMut<PhysicsDiagnostics>) {
    let t = Instant::now();
    physics.world.finalize();
    physics.steps += 1;
    diag.integrate_ms = ms_since(t);
    let w = &physics.world;
    diag.bodies = w.body_count();
    diag.awake_bodies = w.awake_body_count();
    diag.contacts = w.contact_count();
    diag.touching = w.touching_contact_count();
    diag.joints = w.joint_count();
}

/// Marks the start of the Prepare stage for its timing.
pub(crate) fn begin_prepare(mut start: ResMut<StageClock>) {
    start.0 = Some(Instant::now());
}

/// Records the Prepare stage's time.
pub(crate) fn end_prepare(mut start: ResMut<StageClock>, mut diag: ResMut<PhysicsDiagnostics>) {
    diag.prepare_ms = start.0.take().map_or(0.0, ms_since);
}

/// Marks the start of the Writeback stage for its timing.
pub(crate) fn begin_writeback(mut start: ResMut<StageClock>) {
    start.0 = Some(Instant::now());
}

/// Records the Writeback stage's time.
pub(crate) fn end_writeback(mut start: ResMut<StageClock>, mut diag: ResMut<PhysicsDiagnostics>) {
    diag.writeback_ms = start.0.take().map_or(0.0, ms_since);
}

/// Start time of a multi-system stage.
#[derive(Resource, Default)]
pub(crate) struct StageClock(Option<Instant>);
