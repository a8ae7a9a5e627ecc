//! The core's solve and integrate stages, one system each, timed into
//! [`PhysicsDiagnostics`] with the world's counts (the pair stages are in
//! `collision/pair_stages.rs`; the Prepare and Writeback stages are timed by their runners).

use crate::schedule::PhysicsDiagnostics;
use crate::schedule::physics_time::Physics;
use crate::world::physics_world::PhysicsWorld;
use bevy_ecs::prelude::*;
use bevy_time::Time;
use std::time::Instant;

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
