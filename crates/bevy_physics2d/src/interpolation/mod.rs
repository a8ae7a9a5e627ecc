//! Transform interpolation: physics runs at a fixed rate, frames come at any rate; between two
//! steps `Transform` shows the pose blended between the last two physics poses, so motion is
//! smooth. Before the next steps the physics pose is put back, unless the game moved the body
//! itself (then that move is a teleport, as always).
//! [`PhysicsInterpolationPlugin`] registers it; disable it to see the raw physics poses.

use crate::dynamics::body::components::RigidBody;
use crate::world::handle::PhysicsBody;
use bevy_app::{App, Plugin, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec3};
use bevy_reflect::prelude::*;
use bevy_time::{Fixed, Time};
use bevy_transform::components::Transform;

/// Interpolates the `Transform` of moving bodies between fixed steps (part of
/// [`PhysicsPlugins`](crate::PhysicsPlugins); disable it to see raw physics poses). While it
/// is in the app, every new rigid body gets [`InterpolationPoses`].
#[derive(Default)]
pub struct PhysicsInterpolationPlugin;

/// Opts a body out of transform interpolation.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct NoInterpolation;

/// The two physics poses interpolation blends between, and the blend it last showed. Added
/// with the core body to every rigid body while [`PhysicsInterpolationPlugin`] is in the app
/// (so an app without interpolation carries and updates none of it). Read-only for users.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct InterpolationPoses {
    /// The pose before the last step.
    pub(crate) previous: (Vec3, Quat),
    /// The pose the last step ended with.
    pub(crate) current: (Vec3, Quat),
    /// The blended pose last written to `Transform`, until the physics pose is put back.
    pub(crate) shown: Option<(Vec3, Quat)>,
    /// The game moved the `Transform` away from the blend: no blend is shown over its pose
    /// until the next step has taken it (frames without a step would otherwise lose it).
    pub(crate) held: bool,
}

impl InterpolationPoses {
    /// A body that has not moved yet: both poses are `pose`.
    pub(crate) fn at(pose: (Vec3, Quat)) -> Self {
        InterpolationPoses {
            previous: pose,
            current: pose,
            shown: None,
            held: false,
        }
    }

    /// A step ended at `pose`.
    pub(crate) fn advance(&mut self, pose: (Vec3, Quat)) {
        self.previous = self.current;
        self.current = pose;
        self.held = false;
    }

    /// The game moved the body to `pose`: no blend from where it was.
    pub(crate) fn teleport(&mut self, pose: (Vec3, Quat)) {
        self.previous = pose;
        self.current = pose;
        self.held = false;
    }

    /// The floating origin moved: every pose moves by `by` in the game's coordinates.
    pub(crate) fn shift(&mut self, by: Vec3) {
        self.previous.0 += by;
        self.current.0 += by;
        if let Some(shown) = &mut self.shown {
            shown.0 += by;
        }
    }

    /// The pose the last step ended with: what `Transform` holds between frames once the
    /// blend is taken off.
    pub fn physics_pose(&self) -> (Vec3, Quat) {
        self.current
    }

    /// The pose before the last step, the other end of the blend.
    pub fn previous_pose(&self) -> (Vec3, Quat) {
        self.previous
    }
}

/// Present while [`PhysicsInterpolationPlugin`] is in the app: bodies are created with
/// [`InterpolationPoses`].
#[derive(Resource, Default)]
pub(crate) struct InterpolationEnabled;

impl Plugin for PhysicsInterpolationPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<InterpolationEnabled>()
            .register_type::<NoInterpolation>()
            .add_systems(
                RunFixedMainLoop,
                (
                    restore_physics_poses.in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop),
                    interpolate_poses.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
                ),
            );
    }
}

/// Puts the physics pose back where interpolation left a blended one. Only x, y and the
/// rotation are interpolation's: z stays whatever the game set.
///
/// This and [`interpolate_poses`] run every frame as exclusive systems, on the thread that
/// runs the schedule: on Bevy's multi-threaded executor a plain system would be handed to a
/// pool thread and back for a loop that takes microseconds.
fn restore_physics_poses(
    world: &mut World,
    bodies: &mut QueryState<(&mut InterpolationPoses, &mut Transform), With<PhysicsBody>>,
) {
    for (mut poses, mut transform) in bodies.iter_mut(world) {
        let Some(shown) = poses.shown else {
            continue;
        };
        let p = poses.bypass_change_detection();
        p.shown = None;
        let t = &*transform;
        if t.translation.truncate() == shown.0.truncate() && t.rotation == shown.1 {
            let z = t.translation.z;
            transform.translation = p.current.0.truncate().extend(z);
            transform.rotation = p.current.1;
        } else {
            p.held = true;
        }
    }
}

/// Shows the blend of the last two physics poses by how far time has run into the next step.
/// Only bodies in the physics world are blended: the poses a disabled or refused body kept
/// from its last core body must not overwrite what the game writes into its `Transform`.
/// While paused nothing is blended: the last step's poses (put back before the fixed steps)
/// stay on screen, and a step taken while paused is shown as it ended.
fn interpolate_poses(
    world: &mut World,
    bodies: &mut QueryState<
        (&RigidBody, &mut InterpolationPoses, &mut Transform),
        (Without<NoInterpolation>, With<PhysicsBody>),
    >,
) {
    use crate::schedule::physics_time::{Physics, PhysicsTime};
    if world
        .get_resource::<Time<Physics>>()
        .is_some_and(|t| t.is_paused())
    {
        return;
    }
    let alpha = world.resource::<Time<Fixed>>().overstep_fraction();
    for (body, mut poses, mut transform) in bodies.iter_mut(world) {
        if *body == RigidBody::Static || poses.previous == poses.current || poses.held {
            continue;
        }
        let p = poses.bypass_change_detection();
        let xy = p.previous.0.truncate().lerp(p.current.0.truncate(), alpha);
        let translation = xy.extend(transform.translation.z);
        let rotation = p.previous.1.slerp(p.current.1, alpha);
        transform.translation = translation;
        transform.rotation = rotation;
        p.shown = Some((translation, rotation));
    }
}
