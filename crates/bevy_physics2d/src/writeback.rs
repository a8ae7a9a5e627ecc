//! Writeback stage: the poses and velocities of bodies that moved go back to their components,
//! and the `Sleeping` marker follows the core's islands.

use crate::body::{AngularVelocity, LinearVelocity, Sleeping};
use crate::handle::PhysicsBody;
use crate::physics_world::{PhysicsWorld, quat_from_rot};
use bevy_ecs::prelude::*;
use bevy_math::Vec3;
use bevy_transform::components::Transform;

/// Copies each body's pose and velocities back; components are only touched (and so only
/// marked changed) when the value differs.
pub(crate) fn write_back_bodies(
    mut commands: Commands,
    physics: Res<PhysicsWorld>,
    mut bodies: Query<(
        Entity,
        &mut PhysicsBody,
        &mut Transform,
        &mut LinearVelocity,
        &mut AngularVelocity,
        Has<Sleeping>,
    )>,
) {
    let world = &physics.world;
    for (entity, mut handle, mut transform, mut linear, mut angular, sleeping) in &mut bodies {
        let id = handle.id;
        let Ok(xf) = world.body_transform(id) else {
            continue;
        };
        let translation = Vec3::new(xf.p.x, xf.p.y, transform.translation.z);
        let rotation = quat_from_rot(xf.q);
        let h = handle.bypass_change_detection();
        h.previous = h.written;
        if (translation, rotation) != h.written {
            h.written = (translation, rotation);
            transform.translation = translation;
            transform.rotation = rotation;
        }
        let v = world.linear_velocity(id).unwrap_or_default();
        let w = world.angular_velocity(id).unwrap_or_default();
        if v != h.written_linear || v != linear.0 {
            h.written_linear = v;
            linear.0 = v;
        }
        if w != h.written_angular || w != angular.0 {
            h.written_angular = w;
            angular.0 = w;
        }
        let awake = world.is_awake(id).unwrap_or(true);
        if awake == sleeping {
            if awake {
                commands.entity(entity).remove::<Sleeping>();
            } else {
                commands.entity(entity).insert(Sleeping);
            }
        }
    }
}
