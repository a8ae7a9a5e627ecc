//! Transform interpolation: physics runs at a fixed rate, frames come at any rate; between two
//! steps `Transform` shows the pose blended between the last two physics poses, so motion is
//! smooth. Before the next steps the physics pose is put back, unless the game moved the body
//! itself (then that move is a teleport, as always).

use crate::body::RigidBody;
use crate::handle::PhysicsBody;
use bevy_app::{App, Plugin, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use bevy_time::{Fixed, Time};
use bevy_transform::components::Transform;

/// Interpolates the `Transform` of moving bodies between fixed steps (part of
/// [`PhysicsPlugins`](crate::PhysicsPlugins); disable it to see raw physics poses).
#[derive(Default)]
pub struct PhysicsInterpolationPlugin;

/// Opts a body out of transform interpolation.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct NoInterpolation;

impl Plugin for PhysicsInterpolationPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            RunFixedMainLoop,
            (
                restore_physics_poses.in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop),
                interpolate_poses.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
            ),
        );
    }
}

/// Puts the physics pose back where interpolation left a blended one.
fn restore_physics_poses(mut bodies: Query<(&mut PhysicsBody, &mut Transform)>) {
    for (mut handle, mut transform) in &mut bodies {
        let Some(shown) = handle.shown else {
            continue;
        };
        let h = handle.bypass_change_detection();
        h.shown = None;
        if (transform.translation, transform.rotation) == shown {
            transform.translation = h.written.0;
            transform.rotation = h.written.1;
        }
    }
}

/// Shows the blend of the last two physics poses by how far time has run into the next step.
fn interpolate_poses(
    time: Res<Time<Fixed>>,
    mut bodies: Query<(&RigidBody, &mut PhysicsBody, &mut Transform), Without<NoInterpolation>>,
) {
    let alpha = time.overstep_fraction();
    for (body, mut handle, mut transform) in &mut bodies {
        if *body == RigidBody::Static || handle.previous == handle.written {
            continue;
        }
        let h = handle.bypass_change_detection();
        let translation = h.previous.0.lerp(h.written.0, alpha);
        let rotation = h.previous.1.slerp(h.written.1, alpha);
        transform.translation = translation;
        transform.rotation = rotation;
        h.shown = Some((translation, rotation));
    }
}
