//! One-shot forces, torques and impulses at points and in the body's own frame, through the
//! [`Forces`] query helper.

use bevy_ecs::prelude::*;
use bevy_ecs::query::QueryData;
use bevy_math::Vec2;
use bevy_transform::components::Transform;

/// What [`Forces`] calls asked for since the last step: applied by the next step (forces
/// and torques for that step only, impulses at once) and then cleared. Every rigid body
/// has one.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct PendingForces {
    /// Forces and impulses in world space, each with the world point it acts at (`None`:
    /// the centre of mass), in call order.
    pub(crate) pushes: Vec<Push>,
    /// Torque for the next step.
    pub(crate) torque: f32,
    /// Angular impulse.
    pub(crate) angular_impulse: f32,
}

/// One force or impulse of [`PendingForces`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Push {
    pub vector: Vec2,
    pub point: Option<Vec2>,
    pub impulse: bool,
}

impl PendingForces {
    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.pushes.is_empty() && self.torque == 0.0 && self.angular_impulse == 0.0
    }
}

/// A query helper that applies forces, torques and impulses to a body, at its centre of
/// mass or at a point, given in world space or in the body's own frame (`local`, turning
/// with it). Forces and torques act for the next step only (call again each frame for a
/// lasting push, or use [`ExternalForce`](crate::ExternalForce)); impulses change the
/// velocity at once at the next step. A force at a point off the centre of mass also turns
/// the body with the torque `r x F`, `r` from the centre of mass to the point.
///
/// Points and directions in the body's frame are turned by its `Transform` (the world pose
/// of a body without a parent).
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// /// A rocket's thruster 1 m behind its centre, pushing along the rocket's nose (+y).
/// fn thrust(mut rockets: Query<Forces, With<Rocket>>) {
///     for mut forces in &mut rockets {
///         forces.apply_local_force_at_point(Vec2::new(0.0, 40.0), Vec2::new(0.0, -1.0));
///     }
/// }
///
/// /// A kick at the top of a crate: it slides and tips.
/// fn kick(mut crates: Query<(&Transform, Forces), With<Crate>>) {
///     for (transform, mut forces) in &mut crates {
///         let top = transform.translation.truncate() + Vec2::new(0.0, 0.5);
///         forces.apply_linear_impulse_at_point(Vec2::new(3.0, 0.0), top);
///     }
/// }
/// # #[derive(Component)] struct Rocket;
/// # #[derive(Component)] struct Crate;
/// # bevy_ecs::system::assert_is_system(thrust);
/// # bevy_ecs::system::assert_is_system(kick);
/// ```
#[derive(QueryData)]
#[query_data(mutable)]
pub struct Forces {
    transform: &'static Transform,
    pending: &'static mut PendingForces,
}

impl ForcesItem<'_, '_> {
    fn push(&mut self, vector: Vec2, point: Option<Vec2>, impulse: bool) {
        self.pending.pushes.push(Push {
            vector,
            point,
            impulse,
        });
    }

    /// World direction of a vector given in the body's frame.
    fn to_world_vector(&self, local: Vec2) -> Vec2 {
        (self.transform.rotation * local.extend(0.0)).truncate()
    }

    /// World position of a point given in the body's frame.
    fn to_world_point(&self, local: Vec2) -> Vec2 {
        self.transform.translation.truncate() + self.to_world_vector(local)
    }

    /// A force at the centre of mass, world space.
    pub fn apply_force(&mut self, force: Vec2) {
        self.push(force, None, false);
    }

    /// A force at a world point.
    pub fn apply_force_at_point(&mut self, force: Vec2, world_point: Vec2) {
        self.push(force, Some(world_point), false);
    }

    /// A force at the centre of mass, in the body's frame.
    pub fn apply_local_force(&mut self, force: Vec2) {
        let force = self.to_world_vector(force);
        self.push(force, None, false);
    }

    /// A force in the body's frame at a point in the body's frame.
    pub fn apply_local_force_at_point(&mut self, force: Vec2, local_point: Vec2) {
        let (force, point) = (
            self.to_world_vector(force),
            self.to_world_point(local_point),
        );
        self.push(force, Some(point), false);
    }

    /// A torque (counter-clockwise positive).
    pub fn apply_torque(&mut self, torque: f32) {
        self.pending.torque += torque;
    }

    /// A linear impulse at the centre of mass, world space.
    pub fn apply_linear_impulse(&mut self, impulse: Vec2) {
        self.push(impulse, None, true);
    }

    /// A linear impulse at a world point.
    pub fn apply_linear_impulse_at_point(&mut self, impulse: Vec2, world_point: Vec2) {
        self.push(impulse, Some(world_point), true);
    }

    /// A linear impulse at the centre of mass, in the body's frame.
    pub fn apply_local_linear_impulse(&mut self, impulse: Vec2) {
        let impulse = self.to_world_vector(impulse);
        self.push(impulse, None, true);
    }

    /// A linear impulse in the body's frame at a point in the body's frame.
    pub fn apply_local_linear_impulse_at_point(&mut self, impulse: Vec2, local_point: Vec2) {
        let (impulse, point) = (
            self.to_world_vector(impulse),
            self.to_world_point(local_point),
        );
        self.push(impulse, Some(point), true);
    }

    /// An angular impulse (counter-clockwise positive).
    pub fn apply_angular_impulse(&mut self, impulse: f32) {
        self.pending.angular_impulse += impulse;
    }
}

/// Applies one body's pending forces and impulses to the core and clears them; their points
/// are the game's, measured from `game`'s origin. Returns the first error (the rest still
/// apply).
pub(crate) fn apply_pending(
    world: &mut physics_core::world::World,
    id: physics_core::id::BodyId,
    pending: &mut PendingForces,
    game: crate::world::game_frame::GameFrame,
) -> Result<(), physics_core::world::WorldError> {
    let mut result = Ok(());
    let mut keep = |r: Result<(), physics_core::world::WorldError>| {
        if result.is_ok() {
            result = r;
        }
    };
    for push in pending.pushes.drain(..) {
        keep(match (push.impulse, push.point) {
            (false, None) => world.apply_force(id, push.vector),
            (false, Some(p)) => world.apply_force_at_point(id, push.vector, game.to_world(p)),
            (true, None) => world.apply_linear_impulse(id, push.vector),
            (true, Some(p)) => {
                world.apply_linear_impulse_at_point(id, push.vector, game.to_world(p))
            }
        });
    }
    if pending.torque != 0.0 {
        keep(world.apply_torque(id, pending.torque));
    }
    if pending.angular_impulse != 0.0 {
        keep(world.apply_angular_impulse(id, pending.angular_impulse));
    }
    pending.torque = 0.0;
    pending.angular_impulse = 0.0;
    result
}
