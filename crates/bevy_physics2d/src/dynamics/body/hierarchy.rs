//! Rigid bodies that are children of other entities.
//!
//! A body's `Transform` is local to its parent, as everywhere in Bevy; the physics world works
//! in world space. The world pose of a body is its parent's world frame (the parent chain's
//! `Transform`s composed, computed here before each step, since Bevy's `GlobalTransform` is
//! only propagated later in the frame) applied to its local `Transform`, and the writeback
//! turns the simulated world pose back into a local `Transform` under the current parent, so
//! sprite and physics agree.
//!
//! What a moving parent does to each body type:
//! - **static**: follows the parent, moved to its new pose before the step (a teleport);
//! - **kinematic**: follows the parent as a velocity, reaching its new pose at the end of the
//!   step, so what it pushes answers as to any kinematic motion (a jump farther than the
//!   world's speed limit covers in a step moves it there directly, as a static body); its own
//!   `LinearVelocity` and `AngularVelocity` add to that motion and keep the values the game
//!   gave them;
//! - **dynamic**: keeps its world motion; the parent only changes the frame its `Transform`
//!   is written in. Setting its own `Transform` teleports it, as for a body without a parent.
//!
//! Bodies without a parent never run through this module: their `Transform` is their world
//! pose, handled by `motion.rs` and `writeback.rs`.

use crate::dynamics::body::components::{AngularVelocity, LinearVelocity, RigidBody, Sleeping};
use crate::dynamics::body::frame::Frame;
use crate::dynamics::body::writeback::{LastWriteback, set_pose};
use crate::interpolation::InterpolationPoses;
use crate::world::handle::PhysicsBody;
use crate::world::physics_world::{PhysicsWorld, quat_from_rot};
use crate::world::warnings::{PhysicsWarning, warn_skipped};
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemChangeTick;
use bevy_math::Vec2;
use bevy_time::Time;
use bevy_transform::components::Transform;
use physics_core::math::{Rot, Transform as CoreTransform};
use physics_core::world::WorldError;

/// The world frame of `entity` from the `Transform`s of it and its ancestors (an ancestor
/// without a `Transform` counts as the identity).
pub(crate) fn world_frame(entity: Entity, frames: &Query<(&Transform, Option<&ChildOf>)>) -> Frame {
    let mut frame = Frame::IDENTITY;
    let mut current = Some(entity);
    while let Some(e) = current {
        let Ok((transform, parent)) = frames.get(e) else {
            break;
        };
        frame = Frame::of(transform).then(frame);
        current = parent.map(ChildOf::parent);
    }
    frame
}

/// Whether two poses differ by more than rounding: composing a parent frame with a local
/// pose written from the world pose rounds each coordinate by a few ulps. A pose holding a
/// NaN or infinity differs from every other (so the move is tried, and refused by name).
fn differs(a: CoreTransform, b: CoreTransform) -> bool {
    if !a.p.is_finite() || !a.q.is_valid() {
        return true;
    }
    let tolerance = 8.0 * f32::EPSILON * (1.0 + a.p.abs().max_element());
    let close = (a.p - b.p).abs().max_element() <= tolerance
        && (a.q.c - b.q.c).abs() <= 8.0 * f32::EPSILON
        && (a.q.s - b.q.s).abs() <= 8.0 * f32::EPSILON;
    !close
}

/// The run condition of this module's systems: some body has a parent.
pub(crate) fn any_child_body(bodies: Query<(), (With<PhysicsBody>, With<ChildOf>)>) -> bool {
    !bodies.is_empty()
}

/// Prepare stage, bodies with a parent: each one's world pose from its parent's frame and
/// its local `Transform`. Static bodies are moved there, kinematic bodies given the velocity
/// that takes them there in this step, dynamic bodies moved only when the game set their
/// own `Transform` (see the module docs).
pub(crate) fn apply_hierarchy_motion(
    mut physics: ResMut<PhysicsWorld>,
    time: Res<Time<crate::schedule::physics_time::Physics>>,
    last_writeback: Res<LastWriteback>,
    mut warnings: MessageWriter<PhysicsWarning>,
    bodies: Query<(
        Entity,
        &PhysicsBody,
        &RigidBody,
        &ChildOf,
        Ref<Transform>,
        Ref<LinearVelocity>,
        Ref<AngularVelocity>,
        Option<&InterpolationPoses>,
    )>,
    frames: Query<(&Transform, Option<&ChildOf>)>,
) {
    let dt = time.delta_secs();
    // Poses are compared and set in the game's coordinates, and handed to the core in the
    // world's (the floating origin, `origin/mod.rs`).
    let game = physics.game_frame();
    for (entity, _, body, child_of, transform, linear, angular, poses) in &bodies {
        // The body the map holds now: a body rebuilt earlier in this stage (a new type) has
        // its new handle only once the stage's commands are applied.
        let Some(id) = physics.body(entity) else {
            continue;
        };
        let Ok(core) = physics.world.body_motion(id) else {
            continue;
        };
        let core_pose = game.pose_to_game(core.transform);
        // Changed, and to another value than the plugin last saw (a restore puts back the
        // value it saw).
        let local = (transform.translation.truncate(), transform.rotation);
        let seen = physics.child_poses_seen.insert(entity, local);
        let moved = !last_writeback.wrote_only(&transform) && seen != Some(local);
        // The pose interpolation put there, or the one the last step ended with, is not the
        // game's move.
        let own_move = moved
            && poses.is_none_or(|p| {
                let pose = (transform.translation, transform.rotation);
                let same = |other: (bevy_math::Vec3, bevy_math::Quat)| {
                    pose.0.truncate() == other.0.truncate() && pose.1 == other.1
                };
                !same(p.physics_pose()) && !p.shown.is_some_and(same)
            });
        let parent = world_frame(child_of.parent(), &frames);
        let own = parent.then(Frame::of(&transform));
        physics.rebuild_if_rescaled(entity, own.scale);
        let target = own.pose();
        // A velocity the game has just written as NaN or infinite is refused (named once,
        // now); one it wrote earlier stays in its component, unread, until it is mended.
        let (pushed, spun) = physics.game_changed_velocities(
            entity,
            (
                !last_writeback.wrote_only(&linear),
                !last_writeback.wrote_only(&angular),
            ),
            (linear.0, angular.0),
        );
        let velocity_ok = linear.0.is_finite() && angular.0.is_finite();
        let refused_velocity =
            if (pushed && !linear.0.is_finite()) || (spun && !angular.0.is_finite()) {
                Err(WorldError::NonFinite("body velocity"))
            } else {
                Ok(())
            };
        let result = match body {
            RigidBody::Static => {
                let placed = if differs(target, core_pose) {
                    physics
                        .world
                        .set_transform(id, game.to_world(target.p), target.q)
                } else {
                    Ok(())
                };
                // Unused by a static body, but named as for one without a parent.
                placed.and(refused_velocity)
            }
            RigidBody::Kinematic if !velocity_ok => {
                let placed = if own_move && differs(target, core_pose) {
                    physics
                        .world
                        .set_transform(id, game.to_world(target.p), target.q)
                } else {
                    Ok(())
                };
                placed.and(refused_velocity)
            }
            RigidBody::Kinematic => {
                let world = &mut physics.world;
                let mut follow = (Vec2::ZERO, 0.0);
                let result = if own_move && differs(target, core_pose) {
                    world.set_transform(id, game.to_world(target.p), target.q)
                } else {
                    if differs(target, core_pose) && dt > 0.0 {
                        follow = (
                            (target.p - core_pose.p) / dt,
                            core_pose.q.relative_angle(target.q) / dt,
                        );
                    }
                    Ok(())
                };
                // A parent that jumped farther than the world's speed limit allows in a step
                // takes the child along as a teleport: followed as a velocity, the child would
                // be held to the limit and trail behind for several steps.
                let result = if follow.0.length() > world.max_linear_speed() {
                    follow = (Vec2::ZERO, 0.0);
                    result.and_then(|_| world.set_transform(id, game.to_world(target.p), target.q))
                } else {
                    result
                };
                let (v, w) = (linear.0 + follow.0, angular.0 + follow.1);
                result
                    .and_then(|_| {
                        if v != core.linear_velocity {
                            world.set_linear_velocity(id, v)
                        } else {
                            Ok(())
                        }
                    })
                    .and_then(|_| {
                        if w != core.angular_velocity {
                            world.set_angular_velocity(id, w)
                        } else {
                            Ok(())
                        }
                    })
            }
            RigidBody::Dynamic => {
                let world = &mut physics.world;
                let mut result = Ok(());
                if own_move && differs(target, core_pose) {
                    result = world.set_transform(id, game.to_world(target.p), target.q);
                }
                if pushed && linear.0 != core.linear_velocity {
                    result = result.and_then(|_| world.set_linear_velocity(id, linear.0));
                }
                if spun && angular.0 != core.angular_velocity {
                    result = result.and_then(|_| world.set_angular_velocity(id, angular.0));
                }
                result
            }
        };
        if let Err(error) = result {
            warn_skipped(
                &mut warnings,
                entity,
                format_args!(
                    "child body at local {} under parent {}: {error}",
                    transform.translation,
                    child_of.parent()
                ),
            );
        }
    }
}

/// Prepare stage, motion: a body without a parent whose colliders were built at another
/// scale than its `Transform`'s now gets them rebuilt, though its `Transform` did not change:
/// one taken off a scaled parent keeps its own scale, not the parent's. Only bodies built at
/// a scale other than one are looked at.
pub(crate) fn rebuild_rescaled_roots(
    mut physics: ResMut<PhysicsWorld>,
    roots: Query<&Transform, (With<PhysicsBody>, Without<ChildOf>)>,
) {
    if physics.built_scale.is_empty() {
        return;
    }
    let mut stale: Vec<(u32, Entity, Vec2)> = Vec::new();
    for (&entity, &built) in &physics.built_scale {
        if let (Ok(transform), Some(id)) = (roots.get(entity), physics.body(entity)) {
            let scale = transform.scale.truncate();
            if scale != built {
                stale.push((id.index, entity, scale));
            }
        }
    }
    // In core id order, so the rebuilds do not depend on the map's order.
    stale.sort_unstable_by_key(|(index, ..)| *index);
    for (_, entity, scale) in stale {
        physics.rebuild_if_rescaled(entity, scale);
    }
}

/// Prepare stage, after the motion systems: the velocities a restore put back have been
/// told from the game's by now.
pub(crate) fn forget_restored_velocities(mut physics: ResMut<PhysicsWorld>) {
    if !physics.restored_velocities.is_empty() {
        physics.restored_velocities.clear();
    }
}

/// A body with a parent as the writeback found it: the local pose to write and, for dynamic
/// bodies, the velocities.
pub(crate) struct ChildResult {
    entity: Entity,
    /// `None` when the parent's frame has no inverse (placed at NaN, scaled to nothing).
    local: Option<(Vec2, Rot)>,
    velocities: Option<(Vec2, f32)>,
    awake: bool,
}

/// Writeback stage, bodies with a parent: the simulated world pose becomes a local
/// `Transform` under the parent's frame after the step (a parent that is itself a body is
/// where its core body is now). Static bodies are driven by their parent and skipped;
/// kinematic bodies keep the velocities the game gave them.
pub(crate) fn write_back_child_bodies(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    mut queries: ParamSet<(
        Query<(&Transform, Option<&ChildOf>)>,
        Query<
            (
                Entity,
                &PhysicsBody,
                &RigidBody,
                &ChildOf,
                &mut Transform,
                &mut LinearVelocity,
                &mut AngularVelocity,
                Option<&mut InterpolationPoses>,
                Has<Sleeping>,
            ),
            With<ChildOf>,
        >,
    )>,
    mut found: Local<Vec<ChildResult>>,
    ticks: SystemChangeTick,
    mut last: ResMut<LastWriteback>,
) {
    last.child_tick = Some(ticks.this_run());
    found.clear();
    let world = &physics.world;
    let moving: Vec<(Entity, PhysicsBody, RigidBody, Entity)> = queries
        .p1()
        .iter()
        .filter_map(|(e, handle, body, child_of, ..)| {
            (*body != RigidBody::Static).then_some((e, *handle, *body, child_of.parent()))
        })
        .collect();
    {
        let frames = queries.p0();
        for (entity, handle, body, parent) in moving {
            let Ok(motion) = world.body_motion(handle.id) else {
                continue;
            };
            let frame = frame_after_step(parent, &frames, &physics);
            // Under a parent placed at NaN or scaled to nothing there is no local pose: the
            // game's `Transform` is left as it is rather than given a NaN.
            let local = frame.local_pose(physics.game_frame().pose_to_game(motion.transform));
            let local = (local.0.is_finite() && local.1.is_valid()).then_some(local);
            found.push(ChildResult {
                entity,
                local,
                velocities: (body == RigidBody::Dynamic)
                    .then_some((motion.linear_velocity, motion.angular_velocity)),
                awake: motion.awake,
            });
        }
    }
    let mut bodies = queries.p1();
    for result in found.drain(..) {
        let Ok((entity, _, _, _, mut transform, mut linear, mut angular, poses, sleeping)) =
            bodies.get_mut(result.entity)
        else {
            continue;
        };
        if let Some((p, q)) = result.local {
            last.written += usize::from(set_pose(&mut transform, p, quat_from_rot(q)));
            let written = (transform.translation.truncate(), transform.rotation);
            physics.child_poses_seen.insert(entity, written);
            if let Some(mut poses) = poses {
                let pose = (transform.translation, transform.rotation);
                poses.bypass_change_detection().advance(pose);
            }
        }
        if let Some((v, w)) = result.velocities {
            if v != linear.0 {
                linear.0 = v;
            }
            if w != angular.0 {
                angular.0 = w;
            }
        }
        if result.awake == sleeping {
            if result.awake {
                commands.entity(entity).remove::<Sleeping>();
            } else {
                commands.entity(entity).insert(Sleeping);
            }
        }
    }
}

/// The world frame of `entity` after the step: up to the nearest ancestor that is a rigid
/// body, whose frame is its core body's pose (with its `Transform`'s scale, and its own
/// ancestors' scale), then the `Transform`s in between.
fn frame_after_step(
    entity: Entity,
    frames: &Query<(&Transform, Option<&ChildOf>)>,
    physics: &PhysicsWorld,
) -> Frame {
    let mut local = Frame::IDENTITY;
    let mut current = Some(entity);
    while let Some(e) = current {
        let Ok((transform, parent)) = frames.get(e) else {
            break;
        };
        if let Some(body) = physics.body(e)
            && let Ok(pose) = physics.world.body_transform(body)
        {
            let pose = physics.game_frame().pose_to_game(pose);
            let scale = world_frame(e, frames).scale;
            let frame = Frame {
                p: pose.p,
                q: pose.q,
                scale,
            };
            return frame.then(local);
        }
        local = Frame::of(transform).then(local);
        current = parent.map(ChildOf::parent);
    }
    local
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_pose_taken_from_a_composed_frame_is_the_local_frame() {
        let parent = Frame {
            p: Vec2::new(10.0, 20.0),
            q: Rot::from_angle(0.7),
            scale: Vec2::new(2.0, 0.5),
        };
        let local = Frame {
            p: Vec2::new(1.5, -3.0),
            q: Rot::from_angle(-1.2),
            scale: Vec2::ONE,
        };
        let world = parent.then(local).pose();
        let (p, q) = parent.local_pose(world);
        assert!((p - local.p).length() < 1e-5, "{p} against {}", local.p);
        assert!(q.relative_angle(local.q).abs() < 1e-6);
        // The world point of the local origin: 10 + R(0.7) (3, -1.5).
        let expected = Vec2::new(10.0, 20.0) + Rot::from_angle(0.7).rotate(Vec2::new(3.0, -1.5));
        assert!((world.p - expected).length() < 1e-5);
    }
}
