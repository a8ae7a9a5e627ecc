//! Triage help: with `PLUGIN_OPERATIONS_TRACE=<entity index>` set, a run prints that
//! entity's state around every frame and every frame of a rollback check (its pose, type,
//! core body and its motion, joints, parent, child colliders and the bad values the run
//! says it holds), to follow a failing input to its cause.

use super::operations::Tracked;
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_physics2d::prelude::*;

/// The entity index to trace, if any (read once).
fn traced() -> Option<u32> {
    static TRACED: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    *TRACED.get_or_init(|| {
        std::env::var("PLUGIN_OPERATIONS_TRACE")
            .ok()
            .and_then(|v| v.parse().ok())
    })
}

/// Prints the traced entity's state, `when` in `frame`.
pub(crate) fn trace(app: &App, frame: usize, when: &str, t: &Tracked) {
    let Some(index) = traced() else {
        return;
    };
    let world = app.world();
    let physics = world.resource::<PhysicsWorld>();
    for e in world
        .iter_entities()
        .map(|r| r.id())
        .filter(|e| e.index_u32() == index)
    {
        let r = world.entity(e);
        let parent = r.get::<ChildOf>().map(ChildOf::parent);
        eprintln!(
            "frame {frame} {when}: {e} at {:?} {:?} core {:?} shapes {} disabled {} parent {:?} \
             v {:?} w {:?} holding {:?} fresh {:?} queued {} steps {} \
             core motion {:?} joints {:?} child colliders' shapes {:?}",
            r.get::<Transform>().map(|t| (t.translation, t.scale)),
            r.get::<RigidBody>(),
            physics.body(e),
            physics.shapes(e).len(),
            r.contains::<RigidBodyDisabled>(),
            parent.map(|p| (p, world.get::<Transform>(p).map(|t| t.translation))),
            r.get::<LinearVelocity>(),
            r.get::<AngularVelocity>(),
            t.holding.iter().filter(|s| s.0 == e).collect::<Vec<_>>(),
            t.fresh.iter().filter(|s| s.0 == e).collect::<Vec<_>>(),
            physics.pending_bodies().any(|q| q == e),
            physics.step_count(),
            physics
                .body(e)
                .and_then(|id| physics.core().body_motion(id).ok()),
            physics
                .body(e)
                .and_then(|id| physics.core().body_joints(id).ok()),
            r.get::<Children>().map(|c| c
                .iter()
                .map(|c| (c, physics.shapes(c).len()))
                .collect::<Vec<_>>()),
        );
    }
}
