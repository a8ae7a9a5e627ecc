//! Rigid-body components: the body type, its velocities, forces and motion settings.
//!
//! Every component here takes effect at the next step when it is added, changed or removed.

use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use bevy_transform::components::Transform;
use serde::{Deserialize, Serialize};

/// Makes an entity a rigid body. Its `Transform` is the body's pose in world space (bodies
/// should not be children of moving entities); its colliders are on the entity itself and on
/// its descendants, which together form one compound body.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn spawn(mut commands: Commands) {
///     commands.spawn((RigidBody::Dynamic, Collider::circle(0.5), Transform::from_xyz(0.0, 4.0, 0.0)));
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize,
)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
#[require(Transform, LinearVelocity, AngularVelocity)]
pub enum RigidBody {
    /// Moves under gravity, forces and contacts.
    #[default]
    Dynamic,
    /// Never moves; infinite mass.
    Static,
    /// Moves with the velocity you give it, pushes dynamic bodies and is never pushed.
    Kinematic,
}

impl RigidBody {
    /// The core body type.
    pub fn to_core(self) -> physics_core::body::BodyType {
        use physics_core::body::BodyType;
        match self {
            RigidBody::Dynamic => BodyType::Dynamic,
            RigidBody::Static => BodyType::Static,
            RigidBody::Kinematic => BodyType::Kinematic,
        }
    }
}

/// Velocity of the body's centre of mass, in units per second. Written back every step;
/// setting it moves the body.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct LinearVelocity(pub Vec2);

/// Angular velocity in radians per second, counter-clockwise positive.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct AngularVelocity(pub f32);

/// A force (and torque) applied at the centre of mass every step until it is changed or
/// removed. Set `persistent` to false to apply it for one step only.
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ExternalForce {
    /// Force in newtons (mass units times units per second squared).
    pub force: Vec2,
    /// Torque about the centre of mass.
    pub torque: f32,
    /// Keep applying every step (true) or clear after one step (false).
    pub persistent: bool,
}

impl Default for ExternalForce {
    fn default() -> Self {
        ExternalForce {
            force: Vec2::ZERO,
            torque: 0.0,
            persistent: true,
        }
    }
}

impl ExternalForce {
    /// A persistent force at the centre of mass.
    pub fn new(force: Vec2) -> Self {
        ExternalForce {
            force,
            ..Default::default()
        }
    }

    /// The same force with a torque.
    pub fn with_torque(mut self, torque: f32) -> Self {
        self.torque = torque;
        self
    }
}

/// An impulse (and angular impulse) applied once at the next step, then cleared to zero.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ExternalImpulse {
    /// Linear impulse (mass times velocity).
    pub impulse: Vec2,
    /// Angular impulse.
    pub angular_impulse: f32,
}

impl ExternalImpulse {
    /// A linear impulse at the centre of mass.
    pub fn new(impulse: Vec2) -> Self {
        ExternalImpulse {
            impulse,
            angular_impulse: 0.0,
        }
    }
}

/// Multiplies gravity for this body (0 floats, -1 falls up).
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct GravityScale(pub f32);

impl Default for GravityScale {
    fn default() -> Self {
        GravityScale(1.0)
    }
}

/// Linear velocity damping per second.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct LinearDamping(pub f32);

/// Angular velocity damping per second.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct AngularDamping(pub f32);

/// The body never rotates (infinite rotational inertia); for characters.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct LockedRotation;

/// Overrides the mass properties computed from the colliders.
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mass {
    /// Mass.
    pub mass: f32,
    /// Rotational inertia about the centre of mass.
    pub inertia: f32,
    /// Centre of mass in the body's frame.
    pub center: Vec2,
}

/// Marks a body that is asleep. Written by the engine when the body's island falls asleep or
/// wakes; insert it to put a body to sleep, remove it to wake the body.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Sleeping;

/// Continuous collision against dynamic bodies as well as static ones, for small fast
/// projectiles (every dynamic body is already swept against static geometry).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Bullet;
