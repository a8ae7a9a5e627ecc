//! Prepare stage, motion the game sets: transforms set by the game teleport bodies, velocities set by
//! the game replace the engine's, forces and impulses are handed to the core.

use crate::dynamics::body::components::{
    AngularVelocity, ExternalForce, ExternalImpulse, LinearVelocity,
};
use crate::dynamics::body::forces::PendingForces;
use crate::dynamics::body::writeback::LastWriteback;
use crate::interpolation::InterpolationPoses;
use crate::world::handle::PhysicsBody;
use crate::world::physics_world::{
    PhysicsWorld, pose_from_transform, quat_from_rot, rot_from_quat,
};
use crate::world::warnings::{PhysicsWarning, warn_skipped};
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemState;
use bevy_math::{Quat, Vec2, Vec3};
use bevy_transform::components::Transform;
use physics_core::math::Transform as CoreTransform;

/// A transform or velocity that the game changed since the last step is handed to the core
/// when it differs from the core's own value; each component is judged on its own, so a
/// velocity the game did not touch never overwrites what the core holds (a `Sleeping` put
/// in, a `Mass` change, the core's API). A transform that only moved in z, or that holds the
/// pose interpolation put there, changes nothing. A transform the core refuses (NaN,
/// infinite) is put back to the core's pose, so the entity is not drawn or queried at a place
/// the physics never accepted.
///
/// Looks for changes made after the last writeback rather than after this system's last
/// run: the writeback marks every body it moved, so a busy world's scan would fetch every
/// body to find it unchanged by the game, where the change filter alone, against the
/// writeback's tick, skips them (large_pyramid: the plugin's prepare went from 0.15 to
/// 0.12 ms a step). The engine's own writes are still told apart by their tick
/// (`LastWriteback::wrote_only`), should the writeback not have run since this system.
pub(crate) fn apply_user_motion(
    world: &mut World,
    state: &mut SystemState<UserMotion<'static, 'static>>,
) {
    let since = world.resource::<LastWriteback>().tick();
    if let Some(writeback) = since {
        let this_run = world.change_tick();
        if writeback.is_newer_than(state.meta().get_last_run(), this_run) {
            state.meta_mut().set_last_run(writeback);
        }
    }
    // The resources are the plugin's own, so they are there.
    let Ok((physics, last_writeback, warnings, bodies)) = state.get_mut(world) else {
        return;
    };
    apply_changed_motion(physics, last_writeback, warnings, bodies);
    state.apply(world);
}

/// The bodies without a parent (those with one: `hierarchy.rs`) whose transform or
/// velocities changed.
#[allow(clippy::type_complexity)]
type ChangedBodies<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static PhysicsBody,
        &'static mut Transform,
        Ref<'static, LinearVelocity>,
        Ref<'static, AngularVelocity>,
        Option<&'static mut InterpolationPoses>,
    ),
    (
        Or<(
            Changed<Transform>,
            Changed<LinearVelocity>,
            Changed<AngularVelocity>,
        )>,
        Without<ChildOf>,
    ),
>;

/// What [`apply_user_motion`] works with.
pub(crate) type UserMotion<'w, 's> = (
    ResMut<'w, PhysicsWorld>,
    Res<'w, LastWriteback>,
    MessageWriter<'w, PhysicsWarning>,
    ChangedBodies<'w, 's>,
);

/// [`apply_user_motion`]'s work on the changed bodies.
fn apply_changed_motion(
    mut physics: ResMut<PhysicsWorld>,
    last_writeback: Res<LastWriteback>,
    mut warnings: MessageWriter<PhysicsWarning>,
    mut bodies: ChangedBodies,
) {
    for (entity, _, mut transform, linear, angular, mut poses) in &mut bodies {
        // Changed only by the last writeback: the engine's own values. Told from the change
        // ticks alone, so the moving bodies of a busy world cost no reads of their values.
        let engine = &*last_writeback;
        let moved = !engine.wrote_only(&transform);
        let (pushed, spun) = (!engine.wrote_only(&linear), !engine.wrote_only(&angular));
        if !(moved || pushed || spun) {
            continue;
        }
        // Looked up only for a body the game (or a restore) changed.
        let (pushed, spun) =
            physics.game_changed_velocities(entity, (pushed, spun), (linear.0, angular.0));
        // The body the map holds now: a body rebuilt earlier in this stage (a new type) has
        // its new handle only once the stage's commands are applied.
        let Some(id) = physics.body(entity) else {
            continue;
        };
        let Ok(core) = physics.world.body_motion(id) else {
            continue;
        };
        // The core's pose in the game's coordinates (from the floating origin).
        let game = physics.game_frame();
        let core_pose = game.pose_to_game(core.transform);
        let pose = (transform.translation, transform.rotation);
        if moved {
            physics.rebuild_if_rescaled(entity, transform.scale.truncate());
        }
        if moved && is_game_move(pose, core_pose, poses.as_deref()) {
            let (p, q) = pose_from_transform(pose.0, pose.1);
            match physics.world.set_transform(id, game.to_world(p), q) {
                Ok(()) => {
                    if let Some(poses) = poses.as_mut() {
                        poses.bypass_change_detection().teleport(pose);
                    }
                }
                Err(error) => {
                    let (p, q) = pose;
                    warn_skipped(
                        &mut warnings,
                        entity,
                        format_args!("transform {p} {q}: {error}; the last step's pose stays"),
                    );
                    let z = transform.translation.z;
                    let z = if z.is_finite() { z } else { 0.0 };
                    transform.translation = core_pose.p.extend(z);
                    transform.rotation = quat_from_rot(core_pose.q);
                }
            }
        }
        if pushed
            && linear.0 != core.linear_velocity
            && let Err(error) = physics.world.set_linear_velocity(id, linear.0)
        {
            warn_skipped(
                &mut warnings,
                entity,
                format_args!("linear velocity {}: {error}", linear.0),
            );
        }
        if spun
            && angular.0 != core.angular_velocity
            && let Err(error) = physics.world.set_angular_velocity(id, angular.0)
        {
            warn_skipped(
                &mut warnings,
                entity,
                format_args!("angular velocity {}: {error}", angular.0),
            );
        }
    }
}

/// Whether a changed `Transform` holding `pose` moves the body away from the core's `core`
/// pose. Not a move: a pose equal to the core's in either form (a Bevy rotation and the
/// core's do not always convert back to the same bits), nor the last physics pose or the blend
/// interpolation showed. Only x, y and the rotation count; z is the game's.
fn is_game_move(
    pose: (Vec3, Quat),
    core: CoreTransform,
    poses: Option<&InterpolationPoses>,
) -> bool {
    let (p, q) = (pose.0.truncate(), pose.1);
    let same = |other: (Vec3, Quat)| p == other.0.truncate() && q == other.1;
    if p == core.p && (q == quat_from_rot(core.q) || rot_from_quat(q) == core.q) {
        return false;
    }
    poses.is_none_or(|poses| !same(poses.physics_pose()) && !poses.shown.is_some_and(same))
}

/// Forces every step (one-shot forces are cleared after), impulses once, then what the
/// [`Forces`](crate::Forces) helper queued.
pub(crate) fn apply_forces(
    mut physics: ResMut<PhysicsWorld>,
    mut warnings: MessageWriter<PhysicsWarning>,
    mut forces: Query<(Entity, &PhysicsBody, &mut ExternalForce)>,
    mut impulses: Query<(Entity, &PhysicsBody, &mut ExternalImpulse), Changed<ExternalImpulse>>,
    mut pending: Query<(Entity, &PhysicsBody, &mut PendingForces), Changed<PendingForces>>,
    mut unbuilt: Query<&mut PendingForces, (Without<PhysicsBody>, Changed<PendingForces>)>,
) {
    // A body out of the world (disabled, or refused) takes no pushes: they are dropped, not
    // kept to land all at once when it is back.
    for mut queued in &mut unbuilt {
        if !queued.is_empty() {
            *queued.bypass_change_detection() = PendingForces::default();
        }
    }
    for (entity, handle, mut force) in &mut forces {
        if force.force == Vec2::ZERO && force.torque == 0.0 {
            continue;
        }
        let result = apply_external_force(&mut physics.world, handle.id, &force);
        if let Err(error) = result {
            warn_skipped(
                &mut warnings,
                entity,
                format_args!(
                    "external force {} with torque {}: {error}",
                    force.force, force.torque
                ),
            );
        }
        if !force.persistent || result.is_err() {
            *force = ExternalForce {
                persistent: force.persistent,
                local: force.local,
                point: force.point,
                ..Default::default()
            };
        }
    }
    for (entity, handle, mut queued) in &mut pending {
        if queued.is_empty() {
            continue;
        }
        let queued = queued.bypass_change_detection();
        let game = physics.game_frame();
        if let Err(error) = crate::dynamics::body::forces::apply_pending(
            &mut physics.world,
            handle.id,
            queued,
            game,
        ) {
            warn_skipped(
                &mut warnings,
                entity,
                format_args!("force or impulse: {error}"),
            );
        }
    }
    for (entity, handle, mut impulse) in &mut impulses {
        if impulse.impulse == Vec2::ZERO && impulse.angular_impulse == 0.0 {
            continue;
        }
        let world = &mut physics.world;
        let result = world
            .apply_linear_impulse(handle.id, impulse.impulse)
            .and_then(|_| world.apply_angular_impulse(handle.id, impulse.angular_impulse));
        if let Err(error) = result {
            warn_skipped(
                &mut warnings,
                entity,
                format_args!(
                    "external impulse {} with angular impulse {}: {error}",
                    impulse.impulse, impulse.angular_impulse
                ),
            );
        }
        *impulse = ExternalImpulse::default();
    }
}

/// One body's [`ExternalForce`]: turned into world space when it is local, at its world
/// point when it has one (the core adds the torque `r x F` about the centre of mass).
fn apply_external_force(
    world: &mut physics_core::world::World,
    id: physics_core::id::BodyId,
    force: &ExternalForce,
) -> Result<(), physics_core::world::WorldError> {
    // A world point, so the world's pose: no game coordinates are read or given here.
    let pose = world.body_transform(id)?;
    let vector = if force.local {
        pose.q.rotate(force.force)
    } else {
        force.force
    };
    match force.point {
        Some(local_point) => world.apply_force_at_point(id, vector, pose.apply(local_point))?,
        None => world.apply_force(id, vector)?,
    }
    world.apply_torque(id, force.torque)
}
